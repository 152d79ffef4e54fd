package smem

import (
	"github.com/layoutopt/layoutopt/attr"
	"testing"
)

func TestPlanNoteExamples(t *testing.T) {
	const (
		blockedA = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
		colMajor = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>"
	)
	shape := []int{32, 32}
	src, dst := toLinear(t, blockedA, shape), toLinear(t, colMajor, shape)
	// §2.6, cc80: no candidate pair; optimalSwizzlingLdSt.
	p, err := PlanConversion(src, dst, 32, Target{80})
	if err != nil {
		t.Fatal(err)
	}
	want := "#ttg.shared_linear<{offset = [[0, 16], [0, 4], [0, 8], [1, 0], [2, 0], [16, 0], [0, 1], [0, 2], [4, 4], [8, 8]]}, alignment = 16>"
	if got := sharedText(t, p); got != want {
		t.Errorf("cc80 swizzle %s,\nwant %s", got, want)
	}
	if p.ScratchBytes != 4096 || p.Reps != 1 || p.Store.Conflicts != 0 || p.Load.Conflicts != 0 || p.Store.Instr != LdSt || p.Load.Instr != LdSt {
		t.Errorf("cc80: %+v", *p)
	}
	// §2.6, cc90: stmatrix for the store, ld.shared for the load, 2048 B.
	p, err = PlanConversion(src, dst, 32, Target{90})
	if err != nil {
		t.Fatal(err)
	}
	flatOf := func(r, c int) uint64 { return uint64(r + c*32) } // dim0 least significant
	wantV := []uint64{flatOf(0, 4), flatOf(0, 8)}
	wantB := []uint64{flatOf(1, 0), flatOf(2, 0), flatOf(4, 0)}
	wantS := []uint64{flatOf(8, 0), flatOf(16, 0), flatOf(0, 1), flatOf(0, 2)}
	wantR := []uint64{flatOf(0, 16)}
	if !eq(p.Swizzle.Vector, wantV) || !eq(p.Swizzle.Bank, wantB) || !eq(p.Swizzle.Segment, wantS) || !eq(p.Swizzle.Reps, wantR) {
		t.Errorf("cc90 swizzle %+v", p.Swizzle)
	}
	if p.ScratchBytes != 2048 || p.Reps != 2 || p.Store.Instr != Matrix || p.Load.Instr != LdSt {
		t.Errorf("cc90: scratch %d, reps %d, %s / %s", p.ScratchBytes, p.Reps, p.Store.Instr.Name(true), p.Load.Instr.Name(false))
	}
}

func eq(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sharedText(t *testing.T, p *Plan) string {
	t.Helper()
	enc, err := attr.FromLinear(p.Shared)
	if err != nil {
		t.Fatal(err)
	}
	return enc.Format(nil)
}

// TestScratchSizes checks scratch sizes Triton 3.6 reported
// (add_allocate_shared_memory_nv, the note's §1.2 and §4.3).
func TestScratchSizes(t *testing.T) {
	const (
		mma     = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
		blocked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
		dotA    = "#ttg.dot_op<{opIdx = 0, parent = " + mma + ", kWidth = 2}>"
	)
	cases := []struct {
		src, dst string
		shape    []int
		bw, cc   int
		bytes    int
	}{
		{mma, blocked, []int{128, 64}, 16, 80, 16384},
		{mma, blocked, []int{128, 64}, 16, 90, 4096},
		{blocked, dotA, []int{128, 64}, 16, 80, 4096},
		{blocked, dotA, []int{128, 64}, 16, 90, 4096},
		{"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
			"#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", []int{64, 64}, 32, 80, 8192},
		// Register-only: no scratch.
		{"#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>",
			"#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>", []int{2, 256}, 16, 80, 0},
	}
	for _, c := range cases {
		p, err := PlanConversion(toLinear(t, c.src, c.shape), toLinear(t, c.dst, c.shape), c.bw, Target{c.cc})
		if err != nil {
			t.Errorf("%s → %s: %v", c.src, c.dst, err)
			continue
		}
		if p.ScratchBytes != c.bytes {
			t.Errorf("%s → %s %v cc%d: %d bytes (%v, reps %d, %s/%s), Triton %d", c.src, c.dst, c.shape, c.cc, p.ScratchBytes, p.Kind, p.Reps,
				p.Store.Instr.Name(true), p.Load.Instr.Name(false), c.bytes)
		}
	}
}
