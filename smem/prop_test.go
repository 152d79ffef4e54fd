package smem

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

func genBlocked(t *rapid.T, label string) string {
	p2 := func(name string, lo, hi int) int { return 1 << uint(rapid.IntRange(lo, hi).Draw(t, label+name)) }
	s0, s1 := p2(".s0", 0, 3), p2(".s1", 0, 3)
	t0 := p2(".t0", 0, 5)
	w0 := p2(".w0", 0, 2)
	order := "[1, 0]"
	if rapid.Bool().Draw(t, label+".order") {
		order = "[0, 1]"
	}
	return fmt.Sprintf("#ttg.blocked<{sizePerThread = [%d, %d], threadsPerWarp = [%d, %d], warpsPerCTA = [%d, %d], order = %s}>",
		s0, s1, t0, 32/t0, w0, 4/w0, order)
}

// TestPropSwizzleBeatsUnswizzled: for random blocked → blocked conversions
// through shared memory, the chosen layout never has more bank conflicts
// (store plus load, as BankConflicts counts them) than the unswizzled
// row-major layout.
func TestPropSwizzleBeatsUnswizzled(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		shape := []int{1 << uint(rapid.IntRange(4, 7).Draw(t, "m")), 1 << uint(rapid.IntRange(4, 7).Draw(t, "n"))}
		bw := rapid.SampledFrom([]int{8, 16, 32}).Draw(t, "bw")
		cc := rapid.SampledFrom([]int{0, 80, 90}).Draw(t, "cc")
		src := toLinear(t, genBlocked(t, "src"), shape)
		dst := toLinear(t, genBlocked(t, "dst"), shape)
		p, err := PlanConversion(src, dst, bw, Target{cc})
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != SharedMemory {
			return
		}
		rowMajor := toLinear(t, "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", shape)
		count := func(reg, sh string) int {
			l := rowMajor
			if sh == "chosen" {
				l = p.Shared
			}
			n, err := BankConflicts(reg2(reg, src, dst), l, bw)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		chosen := count("src", "chosen") + count("dst", "chosen")
		plain := count("src", "plain") + count("dst", "plain")
		if chosen > plain {
			t.Fatalf("chosen layout: %d conflicts, unswizzled: %d (plan %+v)", chosen, plain, p.Swizzle)
		}
	})
}

func reg2[T any](which string, src, dst T) T {
	if which == "src" {
		return src
	}
	return dst
}

// TestTransposesConflictFree: transposes of the kinds Triton's SwizzleTest
// expects 0/0 conflicts for (f8, f16 and f32; row-major vectors to
// column-major vectors) reach 0 on both sides.
func TestTransposesConflictFree(t *testing.T) {
	cases := []struct {
		shape      []int
		bw         int
		rows, cols string
	}{
		{[]int{128, 128}, 8, "[1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]", "[16, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]"},
		{[]int{128, 128}, 16, "[1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]", "[8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]"},
		{[]int{32, 16}, 32, "[1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]", "[4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]"},
		{[]int{32, 32}, 32, "[1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]", "[1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]"},
	}
	for _, c := range cases {
		src := toLinear(t, "#ttg.blocked<{sizePerThread = "+c.rows+"}>", c.shape)
		dst := toLinear(t, "#ttg.blocked<{sizePerThread = "+c.cols+"}>", c.shape)
		for _, cc := range []int{0, 80, 90} {
			p, err := PlanConversion(src, dst, c.bw, Target{cc})
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != SharedMemory || p.Store.Conflicts != 0 || p.Load.Conflicts != 0 {
				t.Errorf("%v i%d cc%d: %v, store %d, load %d conflicts", c.shape, c.bw, cc, p.Kind, p.Store.Conflicts, p.Load.Conflicts)
			}
		}
	}
}
