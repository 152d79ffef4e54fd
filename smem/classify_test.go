package smem

import "testing"

func TestClassify(t *testing.T) {
	lin := func(reg, lane, warp string) string {
		return "#ttg.linear<{register = " + reg + ", lane = " + lane + ", warp = " + warp + ", block = []}>"
	}
	cases := []struct {
		name, src, dst string
		shape          []int
		want           Kind
		transpositions int
	}{
		{"identical", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
			"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>", []int{32, 32}, NoOp, -1},
		// Same elements per thread, registers in another order (the note's
		// register-only case: the blocked order only reorders registers).
		{"registers", "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>",
			"#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>", []int{2, 256}, Registers, -1},
		// Lanes permuted within the warp, registers kept: P_lane only.
		{"lane permutation", lin("[[0, 1]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[0, 2]]"),
			lin("[[0, 1]]", "[[2, 0], [1, 0], [4, 0], [8, 0], [16, 0]]", "[[0, 2]]"), []int{32, 4}, WarpShuffle, 0},
		// One register bit trades places with one lane bit.
		{"one transposition", lin("[[0, 1]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[0, 2]]"),
			lin("[[1, 0]]", "[[0, 1], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[0, 2]]"), []int{32, 4}, WarpShuffle, 1},
		// Two register bits trade places with two lane bits: shared memory.
		{"two transpositions", lin("[[0, 1], [0, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[]"),
			lin("[[1, 0], [2, 0]]", "[[0, 1], [0, 2], [4, 0], [8, 0], [16, 0]]", "[]"), []int{32, 4}, SharedMemory, 2},
		// The note's measured example (§1.2), which Triton sends through shared
		// memory: the destination also spreads the source's lanes over warps.
		{"note 1.2", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
			"#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", []int{64, 64}, SharedMemory, -1},
		// Data crosses warps (§2.6's transpose).
		{"across warps", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
			"#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>", []int{32, 32}, SharedMemory, -1},
		// mma v2 → dot_op(opIdx 0, kWidth 2) for 16-bit elements: the same
		// function, so nothing to do (Triton's mma→dot shortcut).
		{"mma to dot_op shortcut", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
			"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>", []int{64, 16}, NoOp, -1},
	}
	for _, c := range cases {
		src, dst := toLinear(t, c.src, c.shape), toLinear(t, c.dst, c.shape)
		got, err := Classify(src, dst)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.Kind != c.want || got.Transpositions != c.transpositions {
			t.Errorf("%s: %v with %d transpositions (cvt%s), want %v with %d", c.name, got.Kind, got.Transpositions, got.Cvt, c.want, c.transpositions)
		}
	}
}
