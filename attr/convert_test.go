package attr

import (
	"testing"

	"pgregory.net/rapid"
)

// TestVerifiedExamples checks the layouts Triton 3.6 printed for the
// examples of the TTGIR notes (64×64 unless noted, 4 warps).
func TestVerifiedExamples(t *testing.T) {
	for _, c := range []struct {
		enc   string
		shape []int
		want  string
	}{
		{"#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>", []int{64, 64},
			"#ttg.linear<{register = [[0, 1], [0, 2], [0, 16], [0, 32], [32, 0]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>"},
		{"#ttg.linear<{register = [[0, 1], [0, 2], [0, 16]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>", []int{32, 16},
			"#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>", []int{64, 64},
			"#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = [[32, 0]]}>"},
		{"#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>", []int{64, 64},
			"#ttg.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 32], [32, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], warp = [[0, 16], [16, 0]], block = []}>"},
		{"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>", []int{64, 64},
			"#ttg.linear<{register = [[0, 1], [0, 2], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], warp = [[0, 32], [32, 0]], block = []}>"},
		{"#ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 2]}>", []int{64, 64},
			"#ttg.linear<{register = [[1, 0], [2, 0], [0, 16], [0, 32], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], warp = [[32, 0], [0, 0]], block = []}>"},
	} {
		enc, _, err := Parse(c.enc, nil)
		if err != nil {
			t.Fatal(err)
		}
		ll, err := enc.(Layout).ToLinear(c.shape)
		if err != nil {
			t.Errorf("%s: %v", c.enc, err)
			continue
		}
		if got := ll.AttrString(); got != c.want {
			t.Errorf("%s at %v:\n got %s\nwant %s", c.enc, c.shape, got, c.want)
		}
	}
}

func pow2Gen(maxLog int) *rapid.Generator[int] {
	return rapid.Custom(func(t *rapid.T) int { return 1 << rapid.IntRange(0, maxLog).Draw(t, "log") })
}

func blockedGen(rank int) *rapid.Generator[*Blocked] {
	return rapid.Custom(func(t *rapid.T) *Blocked {
		b := &Blocked{Order: rapid.Permutation(seq(rank)).Draw(t, "order")}
		for d := 0; d < rank; d++ {
			b.SizePerThread = append(b.SizePerThread, pow2Gen(2).Draw(t, "spt"))
			b.ThreadsPerWarp = append(b.ThreadsPerWarp, pow2Gen(3).Draw(t, "tpw"))
			b.WarpsPerCTA = append(b.WarpsPerCTA, pow2Gen(2).Draw(t, "wpc"))
		}
		return b
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestBlockedMatchesLegacyModel compares Blocked.ToLinear with the
// pre-linear-layout definition of a blocked layout, evaluated at every
// hardware index: along dim d, element e of thread l of warp w in
// repetition r sits at r·tile_d + w_d·(spt_d·tpw_d) + l_d·spt_d + e_d,
// where each index is split over the dims in order, and registers hold
// the elements first and the repetitions after; a shape smaller than the
// tile wraps (the coordinate is taken modulo the shape: a broadcast).
func TestBlockedMatchesLegacyModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rank := rapid.IntRange(1, 3).Draw(t, "rank")
		b := blockedGen(rank).Draw(t, "blocked")
		shape := make([]int, rank)
		for d := range shape {
			shape[d] = pow2Gen(6).Draw(t, "shape")
		}
		ll, err := b.ToLinear(shape)
		if err != nil {
			t.Fatal(err)
		}
		split := func(x int, sizes []int) []int {
			c := make([]int, rank)
			for _, d := range b.Order {
				c[d] = x % sizes[d]
				x /= sizes[d]
			}
			return c
		}
		tile, reps := make([]int, rank), make([]int, rank)
		for d := range tile {
			tile[d] = b.SizePerThread[d] * b.ThreadsPerWarp[d] * b.WarpsPerCTA[d]
			reps[d] = max(1, shape[d]/tile[d])
		}
		nReg := ll.InDimSize("register")
		for w := 0; w < product(b.WarpsPerCTA); w++ {
			for l := 0; l < product(b.ThreadsPerWarp); l++ {
				for r := 0; r < nReg; r++ {
					wc, lc := split(w, b.WarpsPerCTA), split(l, b.ThreadsPerWarp)
					ec, rc := split(r%product(b.SizePerThread), b.SizePerThread), split(r/product(b.SizePerThread), reps)
					got := ll.Apply(r, l, w, 0)
					for d := 0; d < rank; d++ {
						want := (rc[d]*tile[d] + wc[d]*b.SizePerThread[d]*b.ThreadsPerWarp[d] + lc[d]*b.SizePerThread[d] + ec[d]) % shape[d]
						if got[d] != want {
							t.Fatalf("%s at %v: (reg %d, lane %d, warp %d) -> %v, want dim%d = %d", b.Format(nil), shape, r, l, w, got, d, want)
						}
					}
				}
			}
		}
	})
}

// TestFormatParseProperty: printing any valid encoding and parsing the
// text gives the same encoding back.
func TestFormatParseProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rank := rapid.IntRange(1, 4).Draw(t, "rank")
		b := blockedGen(rank).Draw(t, "blocked")
		var enc Encoding = b
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 1:
			if rank >= 2 {
				enc = &Slice{Dim: rapid.IntRange(0, rank-1).Draw(t, "dim"), Parent: b}
			}
		case 2:
			enc = &SwizzledShared{Vec: pow2Gen(3).Draw(t, "vec"), PerPhase: pow2Gen(2).Draw(t, "pp"), MaxPhase: pow2Gen(3).Draw(t, "mp"), Order: b.Order}
		case 3:
			if rank >= 2 {
				enc = &DotOperand{OpIdx: rapid.IntRange(0, 1).Draw(t, "op"), Parent: b}
			}
		}
		text := enc.Format(nil)
		got, n, err := Parse(text, nil)
		if err != nil || n != len(text) {
			t.Fatalf("Parse(%s) = %v, %d", text, err, n)
		}
		if !Equal(got, enc) {
			t.Fatalf("Parse(%s) prints %s", text, got.Format(nil))
		}
	})
}

// TestSliceDropsDim: every element a slice layout maps to is the parent's
// element with the sliced dim removed, for the same lane and warp.
func TestSliceDropsDim(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := blockedGen(2).Draw(t, "blocked")
		dim := rapid.IntRange(0, 1).Draw(t, "dim")
		n := pow2Gen(7).Draw(t, "n")
		s := &Slice{Dim: dim, Parent: b}
		sl, err := s.ToLinear([]int{n})
		if err != nil {
			t.Fatal(err)
		}
		ps := []int{n, n}
		ps[dim] = 1
		pl, err := b.ToLinear(ps)
		if err != nil {
			t.Fatal(err)
		}
		for l := 0; l < sl.InDimSize("lane"); l++ {
			for w := 0; w < sl.InDimSize("warp"); w++ {
				got := sl.Apply(0, l, w, 0)[0]
				want := pl.Apply(0, l, w, 0)[1-dim]
				if got != want {
					t.Fatalf("%s: lane %d warp %d -> %d, parent gives %d", s.Format(nil), l, w, got, want)
				}
			}
		}
	})
}

// TestTensorMemoryOneColumn checks that a 64-row block over two CTAs with a
// single column, which has no column basis to give the rows, is an error.
func TestTensorMemoryOneColumn(t *testing.T) {
	enc, _, err := Parse("#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1, twoCTAs = true>", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.(Layout).ToLinear([]int{64, 1}); err == nil {
		t.Error("ToLinear([64, 1]) did not fail")
	}
	if _, err := enc.(Layout).ToLinear([]int{64, 2}); err != nil {
		t.Errorf("ToLinear([64, 2]): %v", err)
	}
}
