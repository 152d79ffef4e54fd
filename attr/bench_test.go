package attr

import "testing"

// benchToLinear measures ToLinear (which is cached) and, as a
// sub-benchmark "convert", the conversion itself.
func benchToLinear(b *testing.B, text string, shape []int) {
	enc, _, err := Parse(text, nil)
	if err != nil {
		b.Fatal(err)
	}
	l := enc.(Layout)
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := l.ToLinear(shape); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("convert", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := convert(l, shape); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkToLinearBlocked(b *testing.B) {
	benchToLinear(b, "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", []int{128, 128})
}

func BenchmarkToLinearMMAv2(b *testing.B) {
	benchToLinear(b, "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>", []int{128, 128})
}

func BenchmarkToLinearDotOp(b *testing.B) {
	benchToLinear(b, "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>", []int{128, 64})
}

func BenchmarkToLinearSlice(b *testing.B) {
	benchToLinear(b, "#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>", []int{128})
}

func BenchmarkToLinearNVMMAShared(b *testing.B) {
	benchToLinear(b, "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", []int{128, 64})
}

func BenchmarkParseDotOp(b *testing.B) {
	const s = "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>"
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(s, nil); err != nil {
			b.Fatal(err)
		}
	}
}
