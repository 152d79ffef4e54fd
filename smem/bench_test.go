package smem

import (
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// BenchmarkPlan128x128 plans one shared-memory conversion of a 128×128 f16
// tile (mma v2 → blocked) at cc90: classification, the instruction-aware
// swizzle search and both sides' vectorisation.
func BenchmarkPlan128x128(b *testing.B) {
	shape := []int{128, 128}
	src := toLinear(b, "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>", shape)
	dst := toLinear(b, "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", shape)
	for _, cc := range []struct {
		name string
		t    Target
	}{{"cc90", Target{90}}, {"cc80", Target{80}}, {"generic", Target{}}} {
		b.Run(cc.name, func(b *testing.B) {
			b.ReportAllocs()
			defer testenv.CPUMetric(b)()
			for b.Loop() {
				p, err := PlanConversion(src, dst, 16, cc.t)
				if err != nil || p.Kind != SharedMemory {
					b.Fatal(p, err)
				}
			}
		})
	}
}

// BenchmarkBankConflicts counts the conflicts of a 128×128 f16 blocked
// layout against a 128-byte nvmma_shared layout.
func BenchmarkBankConflicts(b *testing.B) {
	shape := []int{128, 128}
	reg := toLinear(b, "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", shape)
	sh := toLinear(b, "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", shape)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		if _, err := BankConflicts(reg, sh, 16); err != nil {
			b.Fatal(err)
		}
	}
}
