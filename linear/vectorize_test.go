package linear

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// genCvt draws a register→offset map like the lowering's storeCvt: in-dims
// register, lane, warp; out-dims offset (and sometimes block), with bases
// that are often single offset bits.
func genCvt(t *rapid.T) Layout {
	offLog2 := rapid.IntRange(0, 10).Draw(t, "offlog2")
	outs := []OutDim{{"offset", 1 << uint(offLog2)}}
	withBlock := rapid.Bool().Draw(t, "block")
	if withBlock {
		outs = append(outs, OutDim{"block", 2})
	}
	var ins []InDim
	for _, n := range []string{"register", "lane", "warp"} {
		k := rapid.IntRange(0, 4).Draw(t, n+".log2")
		bases := make([][]int, k)
		for b := range bases {
			v := 0
			if offLog2 > 0 {
				if rapid.Bool().Draw(t, "unit") {
					v = 1 << uint(rapid.IntRange(0, offLog2-1).Draw(t, "bit"))
				} else {
					v = rapid.IntRange(0, 1<<uint(offLog2)-1).Draw(t, "v")
				}
			}
			bases[b] = []int{v}
			if withBlock {
				bases[b] = append(bases[b], rapid.IntRange(0, 1).Draw(t, "blk"))
			}
		}
		ins = append(ins, InDim{n, bases})
	}
	l, err := New(ins, outs, false)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// qualifies is the definition of a vectorisation v, checked directly on
// the bases: each offset 2^i (i < log2 v, other out-dims 0) is a register
// basis, and every other basis has its low log2 v offset bits zero.
func qualifies(l Layout, v int) bool {
	if v > l.OutDimSize("offset") {
		return false
	}
	k := log2(v)
	oi := l.OutDimIndex("offset")
	used := map[[2]int]bool{}
	regs := l.Bases("register")
	for i := 0; i < k; i++ {
		found := false
		for x, b := range regs {
			if used[[2]int{0, x}] {
				continue
			}
			ok := b[oi] == 1<<uint(i)
			for j := range b {
				if j != oi && b[j] != 0 {
					ok = false
				}
			}
			if ok {
				used[[2]int{0, x}], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	for di, d := range l.InDims() {
		for x, b := range d.Bases {
			if di == 0 && used[[2]int{0, x}] {
				continue
			}
			if b[oi]&(v-1) != 0 {
				return false
			}
		}
	}
	return true
}

func TestPropLargestVectorisation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genCvt(t)
		bw := rapid.SampledFrom([]int{8, 16, 32, 64}).Draw(t, "bw")
		v, perm, err := LargestVectorisation(l, bw, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		for c := 128 / bw; c >= 1; c /= 2 {
			if qualifies(l, c) {
				want = c
				break
			}
		}
		if v != want {
			t.Fatalf("LargestVectorisation = %d, want %d for%s", v, want, l)
		}
		// Triton's own steps: RegPermForDivide, then DivideLeft, for each v.
		refV, refPerm := 0, ColumnAction{}
		for c := 128 / bw; c >= 1 && refV == 0; c /= 2 {
			tile, _ := Identity1D(c, "register", "offset")
			pm, ok, err := RegPermForDivide(l, tile, true)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			if q, _ := pm.Apply(l); ok {
				if _, ok := DivideLeft(q, tile); ok {
					refV, refPerm = c, pm
				}
			}
		}
		if v != refV || !slices.Equal(perm.Action(), refPerm.Action()) {
			t.Fatalf("LargestVectorisation = %d %v, Triton's steps give %d %v", v, perm, refV, refPerm)
		}
		p, err := perm.Apply(l)
		if err != nil {
			t.Fatal(err)
		}
		tile, _ := Identity1D(v, "register", "offset")
		if _, ok := DivideLeft(p, tile); !ok {
			t.Fatalf("the permuted layout is not divisible by %d", v)
		}
		// Without permutations the answer can only be smaller.
		if v2, perm2, err := LargestVectorisation(l, bw, 128/bw); err != nil || v2 > v || !perm2.IsIdentity() {
			t.Fatalf("fixed-order vectorisation %d (%v, %v), free one %d", v2, perm2, err, v)
		}
	})
}

func TestPropGetRepsGeneralisesDivideLeft(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cvt := genCvt(t)
		k := rapid.IntRange(0, cvt.InDimSizeLog2("register")).Draw(t, "k")
		tile, err := cvt.Sublayout([]string{"register"}, []string{"offset"})
		if err != nil {
			t.Fatal(err)
		}
		tile, _ = tile.ResizeInDim("register", 1<<uint(k))
		reps, ok := GetReps(cvt, tile)
		if c, divOK := DivideLeft(cvt, tile); divOK {
			want, err := Mul(ZerosLike(tile), c)
			if err != nil {
				t.Fatal(err)
			}
			if !ok || !reps.EqualIgnoringOutDimSizes(want) {
				t.Fatalf("GetReps = %v, %v; want zerosLike(tile)·divideLeft = %v", reps, ok, want)
			}
		}
		if !ok {
			return
		}
		// The tile's bases become zeros; the others are kept and avoid the
		// tile's bits.
		var mask uint64
		for _, c := range tile.Columns() {
			mask |= c
		}
		rc, cc := reps.ColumnsOf("register"), cvt.ColumnsOf("register")
		for i := range rc {
			if i < k && rc[i] != 0 || i >= k && (rc[i] != cc[i] || field(rc[i], reps.outs[0])&mask != 0) {
				t.Fatalf("register basis %d: %d (cvt %d, tile mask %b)", i, rc[i], cc[i], mask)
			}
		}
	})
}

func TestPropActionAdditiveStrides(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genCvt(t).FlattenOuts()
		addr, err := l.Sublayout([]string{"lane", "warp"}, l.OutDimNames())
		if err != nil {
			t.Fatal(err)
		}
		span := uint64(rapid.IntRange(0, 255).Draw(t, "span"))
		n, perm, err := ActionAdditiveStrides(l, addr, span, 1)
		if err != nil {
			t.Fatal(err)
		}
		act := perm.Action()
		sorted := slices.Sorted(slices.Values(act))
		for i, x := range sorted {
			if x != i || len(sorted) != l.InDimSizeLog2("register") {
				t.Fatalf("%v is not a permutation", act)
			}
		}
		front := log2(n)
		used := span
		for _, c := range addr.Columns() {
			used |= c
		}
		regs := l.ColumnsOf("register")
		for i, x := range act {
			additive := regs[x]&used == 0
			if (i < front) != additive {
				t.Fatalf("basis %d (%b) at position %d of %v, front %d, used %b", x, regs[x], i, act, front, used)
			}
		}
		// XOR of additive register offsets with any address is a sum.
		var r uint64
		for _, x := range act[:front] {
			if rapid.Bool().Draw(t, "pick") {
				r ^= regs[x]
			}
		}
		a := used & uint64(rapid.Uint64().Draw(t, "a"))
		if r^a != r+a {
			t.Fatalf("%b ^ %b != %b + %b", r, a, r, a)
		}
		// regsPerInst forces the first bases to the front.
		if l.InDimSizeLog2("register") >= 1 {
			n2, p2, err := ActionAdditiveStrides(l, addr, span, 2)
			if err != nil || n2 < 2 || p2.Action()[0] != 0 {
				t.Fatalf("regsPerInst=2: %d, %v, %v", n2, p2, err)
			}
		}
	})
}

func TestPropBroadcastAsInvertsRemoval(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genCvt(t)
		rm, err := ActionRemoveBroadcastedRegs(l)
		if err != nil {
			t.Fatal(err)
		}
		n := l.InDimSize("register")
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		dedup, err := ApplyValues(rm, idx)
		if err != nil {
			t.Fatal(err)
		}
		kept, _ := rm.Apply(l)
		if !kept.IsInjective() {
			// Triton asserts here: a non-zero duplicate register basis.
			return
		}
		regOnly, _ := l.Sublayout([]string{"register"}, l.OutDimNames())
		if !regOnly.IsInjective() && !onlyZeroDuplicates(regOnly) {
			return
		}
		out, err := BroadcastAs(dedup, l)
		if err != nil {
			t.Fatal(err)
		}
		for i := range out {
			if regOnly.ApplyBits(uint64(i)) != regOnly.ApplyBits(uint64(out[i])) {
				t.Fatalf("register %d reads register %d, which holds another element", i, out[i])
			}
		}
	})
}

// onlyZeroDuplicates reports whether every dependent register basis is zero.
func onlyZeroDuplicates(l Layout) bool {
	free := uint64(l.FreeVariableMasks()[0])
	for i, c := range l.ColumnsOf("register") {
		if free>>uint(i)&1 != 0 && c != 0 {
			return false
		}
	}
	return true
}
