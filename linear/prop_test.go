package linear

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The properties below compare the algebra with brute-force evaluation over
// every input of random layouts with at most 12 input bits. The reference
// evaluator works from InDims (plain integer bases) and the definition
// L(x) = XOR of the bases of the set bits of x, not from the packed columns.

const maxPropBits = 12

// ref is a layout in plain form for brute-force evaluation.
type ref struct {
	ins  []InDim
	outs []OutDim
}

func toRef(l Layout) ref { return ref{l.InDims(), l.OutDims()} }

// eval applies the layout to one input point, given per in-dim.
func (r ref) eval(x []int) []int {
	out := make([]int, len(r.outs))
	for i, d := range r.ins {
		for b, basis := range d.Bases {
			if x[i]>>uint(b)&1 != 0 {
				for j := range out {
					out[j] ^= basis[j]
				}
			}
		}
	}
	return out
}

// split turns a flat input index into per-in-dim values (first dim lowest).
func (r ref) split(flat int) []int {
	x := make([]int, len(r.ins))
	for i, d := range r.ins {
		x[i] = flat & (1<<uint(len(d.Bases)) - 1)
		flat >>= uint(len(d.Bases))
	}
	return x
}

// join turns per-out-dim values into a flat output index (first dim lowest).
func (r ref) join(y []int) int {
	flat, shift := 0, 0
	for j, o := range r.outs {
		flat |= y[j] << uint(shift)
		shift += log2(o.Size)
	}
	return flat
}

// genLayout draws a layout over the given dim name pools with at most
// maxIn input bits and maxOut output bits.
func genLayout(t *rapid.T, label string, inPool, outPool []string, maxIn, maxOut int) Layout {
	inNames := rapid.SliceOfNDistinct(rapid.SampledFrom(inPool), 0, len(inPool), rapid.ID[string]).Draw(t, label+".ins")
	outNames := rapid.SliceOfNDistinct(rapid.SampledFrom(outPool), 1, len(outPool), rapid.ID[string]).Draw(t, label+".outs")
	outs := make([]OutDim, len(outNames))
	budget := maxOut
	for j, n := range outNames {
		k := rapid.IntRange(0, min(budget, 6)).Draw(t, label+".outlog2")
		budget -= k
		outs[j] = OutDim{n, 1 << uint(k)}
	}
	return genBases(t, label, inNames, outs, maxIn)
}

func genBases(t *rapid.T, label string, inNames []string, outs []OutDim, maxIn int) Layout {
	ins := make([]InDim, len(inNames))
	budget := maxIn
	for i, n := range inNames {
		k := rapid.IntRange(0, min(budget, 6)).Draw(t, label+".inlog2")
		budget -= k
		bases := make([][]int, k)
		for b := range bases {
			bases[b] = make([]int, len(outs))
			for j, o := range outs {
				bases[b][j] = rapid.IntRange(0, o.Size-1).Draw(t, label+".coord")
			}
		}
		ins[i] = InDim{n, bases}
	}
	l, err := New(ins, outs, false)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

var (
	inPool  = []string{"register", "lane", "warp", "block"}
	outPool = []string{"dim0", "dim1", "dim2"}
)

func TestPropApplyMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l", inPool, outPool, maxPropBits, maxPropBits)
		r := toRef(l)
		out := make([]int, l.NumOutDims())
		for flat := 0; flat < l.TotalInDimSize(); flat++ {
			x := r.split(flat)
			want := r.eval(x)
			if got := l.Apply(x...); !slices.Equal(got, want) {
				t.Fatalf("Apply(%v) = %v, want %v", x, got, want)
			}
			l.ApplyInto(out, x...)
			if !slices.Equal(out, want) {
				t.Fatalf("ApplyInto(%v) = %v, want %v", x, out, want)
			}
			if got := l.ApplyBits(uint64(flat)); int(got) != r.join(want) {
				t.Fatalf("ApplyBits(%d) = %d, want %d", flat, got, r.join(want))
			}
		}
		// Linearity: L(x ⊕ y) = L(x) ⊕ L(y), L(0) = 0.
		n := l.TotalInDimSize()
		for k := 0; k < 32; k++ {
			a := rapid.IntRange(0, n-1).Draw(t, "a")
			b := rapid.IntRange(0, n-1).Draw(t, "b")
			if l.ApplyBits(uint64(a^b)) != l.ApplyBits(uint64(a))^l.ApplyBits(uint64(b)) {
				t.Fatalf("not linear at %d, %d", a, b)
			}
		}
		if l.ApplyBits(0) != 0 {
			t.Fatal("L(0) != 0")
		}
	})
}

func TestPropInjectiveSurjectiveCountImage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l", inPool, outPool, maxPropBits, maxPropBits)
		r := toRef(l)
		image := map[int]bool{}
		for flat := 0; flat < l.TotalInDimSize(); flat++ {
			image[r.join(r.eval(r.split(flat)))] = true
		}
		if got, want := l.IsInjective(), len(image) == l.TotalInDimSize(); got != want {
			t.Fatalf("IsInjective = %v, image has %d of %d inputs", got, len(image), l.TotalInDimSize())
		}
		if got, want := l.IsSurjective(), len(image) == l.TotalOutDimSize(); got != want {
			t.Fatalf("IsSurjective = %v, image has %d of %d outputs", got, len(image), l.TotalOutDimSize())
		}
		if 1<<uint(l.Rank()) != len(image) {
			t.Fatalf("Rank = %d, image has %d points", l.Rank(), len(image))
		}
		// A free input bit is one whose basis is a combination of earlier ones.
		free := 0
		for _, m := range l.FreeVariableMasks() {
			free += popcount(m)
		}
		if free != l.TotalInDimSizeLog2()-l.Rank() {
			t.Fatalf("%d free variables, want %d", free, l.TotalInDimSizeLog2()-l.Rank())
		}
		// Matrix rows reduce to the same rank.
		if got := RREF(l.Matrix(), l.TotalInDimSizeLog2()); got != l.Rank() {
			t.Fatalf("RREF rank %d, Rank %d", got, l.Rank())
		}
	})
}

func popcount(m int) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

func TestPropCompose(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		inner := genLayout(t, "inner", inPool, outPool, maxPropBits, 8)
		// outer takes inner's out-dims (in a random order, sizes no smaller).
		order := rapid.Permutation(inner.OutDimNames()).Draw(t, "order")
		var ins []InDim
		budget := maxPropBits
		for _, n := range order {
			k := inner.OutDimSizeLog2(n) + rapid.IntRange(0, 1).Draw(t, "extra")
			budget -= k
			ins = append(ins, InDim{Name: n, Bases: make([][]int, k)})
		}
		if budget < 0 {
			t.Skip("too many bits")
		}
		outs := []OutDim{{"x", 1 << uint(rapid.IntRange(0, 5).Draw(t, "x"))}, {"y", 1 << uint(rapid.IntRange(0, 5).Draw(t, "y"))}}
		for i := range ins {
			for b := range ins[i].Bases {
				ins[i].Bases[b] = []int{rapid.IntRange(0, outs[0].Size-1).Draw(t, "c"), rapid.IntRange(0, outs[1].Size-1).Draw(t, "c")}
			}
		}
		outer, err := New(ins, outs, false)
		if err != nil {
			t.Fatal(err)
		}
		c := must(t, func() (Layout, error) { return inner.Compose(outer) })
		ri, ro, rc := toRef(inner), toRef(outer), toRef(c)
		for flat := 0; flat < inner.TotalInDimSize(); flat++ {
			x := ri.split(flat)
			y := ri.eval(x)
			// Feed inner's outputs to outer by name.
			oin := make([]int, len(ro.ins))
			for i, d := range ro.ins {
				oin[i] = y[inner.OutDimIndex(d.Name)]
			}
			if got, want := rc.eval(x), ro.eval(oin); !slices.Equal(got, want) {
				t.Fatalf("compose(%v) = %v, want %v", x, got, want)
			}
		}
	})
}

// genSurjective draws a surjective layout onto outs: a shuffled mix of unit
// vectors and random vectors, mixed by column operations that keep the span.
func genSurjective(t *rapid.T, label string, inNames []string, outs []OutDim, extra int) Layout {
	nOut := 0
	for _, o := range outs {
		nOut += log2(o.Size)
	}
	var cols []uint64
	for b := 0; b < nOut; b++ {
		cols = append(cols, 1<<uint(b))
	}
	for k := 0; k < extra; k++ {
		cols = append(cols, uint64(rapid.IntRange(0, 1<<uint(nOut)-1).Draw(t, label+".extra")))
	}
	cols = rapid.Permutation(cols).Draw(t, label+".perm")
	for k := rapid.IntRange(0, 2*len(cols)).Draw(t, label+".nops"); k > 0 && len(cols) > 1; k-- {
		i := rapid.IntRange(0, len(cols)-1).Draw(t, label+".i")
		j := rapid.IntRange(0, len(cols)-1).Draw(t, label+".j")
		if i != j {
			cols[i] ^= cols[j]
		}
	}
	// Cut the columns into the in-dims.
	ins := make([]InDim, len(inNames))
	for c, v := range cols {
		i := c % len(inNames)
		if c >= len(inNames)*((len(cols)+len(inNames)-1)/len(inNames)) {
			i = len(inNames) - 1
		}
		basis := make([]int, len(outs))
		shift := 0
		for j, o := range outs {
			basis[j] = int(v>>uint(shift)) & (o.Size - 1)
			shift += log2(o.Size)
		}
		ins[i].Name = inNames[i]
		ins[i].Bases = append(ins[i].Bases, basis)
	}
	for i := range ins {
		ins[i].Name = inNames[i]
	}
	l, err := New(ins, outs, true)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestPropInvertAndCompose(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		outNames := rapid.SliceOfNDistinct(rapid.SampledFrom(outPool), 1, 3, rapid.ID[string]).Draw(t, "outs")
		var aOuts []OutDim
		budget := 8
		for _, n := range outNames {
			k := rapid.IntRange(0, min(budget, 4)).Draw(t, "alog2")
			budget -= k
			aOuts = append(aOuts, OutDim{n, 1 << uint(k)})
		}
		aIns := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"offset", "lane", "block"}), 1, 3, rapid.ID[string]).Draw(t, "ains")
		a := genSurjective(t, "a", aIns, aOuts, rapid.IntRange(0, 3).Draw(t, "extra"))
		// b: any layout onto the same out-dims (another order), sizes no larger.
		bOuts := rapid.Permutation(aOuts).Draw(t, "bouts")
		for j := range bOuts {
			bOuts[j].Size >>= uint(rapid.IntRange(0, log2(bOuts[j].Size)).Draw(t, "shrink"))
		}
		bIns := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"register", "lane", "warp", "block"}), 1, 4, rapid.ID[string]).Draw(t, "bins")
		b := genBases(t, "b", bIns, bOuts, maxPropBits)
		if rapid.Bool().Draw(t, "shareLane") && a.HasInDim("lane") && b.HasInDim("lane") {
			// Give b a's lane bases to exercise the rule that an in-dim both
			// layouts map alike maps to itself.
			ins := b.InDims()
			lane := must(t, func() (Layout, error) { return a.TransposeOuts(b.OutDimNames()) }).Bases("lane")
			ins[b.InDimIndex("lane")].Bases = lane
			if shared, err := New(ins, bOuts, false); err == nil {
				b = shared
			}
		}
		c := must(t, func() (Layout, error) { return b.InvertAndCompose(a) })
		if !slices.Equal(c.InDimNames(), b.InDimNames()) || !slices.Equal(c.OutDimNames(), a.InDimNames()) {
			t.Fatalf("dims %v -> %v", c.InDimNames(), c.OutDimNames())
		}
		rb, ra, rc := toRef(b), toRef(a), toRef(c)
		for flat := 0; flat < b.TotalInDimSize(); flat++ {
			x := rb.split(flat)
			got := ra.eval(rc.eval(x)) // in a's out order
			want := rb.eval(x)         // in b's out order
			for j, o := range rb.outs {
				if got[a.OutDimIndex(o.Name)] != want[j] {
					t.Fatalf("a(c(%v)) = %v, b(%v) = %v", x, got, x, want)
				}
			}
		}
	})
}

func TestPropReshapeTransposeFlatten(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l", inPool, outPool, maxPropBits, maxPropBits)
		r := toRef(l)
		flatFn := func(m Layout) []int {
			rm := toRef(m)
			f := make([]int, m.TotalInDimSize())
			for flat := range f {
				f[flat] = rm.join(rm.eval(rm.split(flat)))
			}
			return f
		}
		want := flatFn(l)

		// Reshape and flatten regroup bits without changing the flat function.
		for name, m := range map[string]Layout{
			"flattenIns":  l.FlattenIns(),
			"flattenOuts": l.FlattenOuts(),
			"reshapeIns":  must(t, func() (Layout, error) { return l.ReshapeIns(randomSplit(t, "ri", l.TotalInDimSizeLog2())) }),
			"reshapeOuts": must(t, func() (Layout, error) { return l.ReshapeOuts(randomSplit(t, "ro", l.TotalOutDimSizeLog2())) }),
		} {
			if got := flatFn(m); !slices.Equal(got, want) {
				t.Fatalf("%s changed the function", name)
			}
		}

		// Transposes keep the function, with inputs/outputs permuted by name.
		ti := must(t, func() (Layout, error) {
			return l.TransposeIns(rapid.Permutation(l.InDimNames()).Draw(t, "pi"))
		})
		to := must(t, func() (Layout, error) {
			return l.TransposeOuts(rapid.Permutation(l.OutDimNames()).Draw(t, "po"))
		})
		for flat := 0; flat < l.TotalInDimSize(); flat++ {
			x := r.split(flat)
			y := r.eval(x)
			xi := make([]int, len(x))
			for i, n := range ti.InDimNames() {
				xi[i] = x[l.InDimIndex(n)]
			}
			if got := ti.Apply(xi...); !slices.Equal(got, y) {
				t.Fatalf("transposeIns: %v -> %v, want %v", xi, got, y)
			}
			got := to.Apply(x...)
			for j, n := range to.OutDimNames() {
				if got[j] != y[l.OutDimIndex(n)] {
					t.Fatalf("transposeOuts: %v -> %v, want a permutation of %v", x, got, y)
				}
			}
		}
		if !ti.EqualIgnoringOrder(l) || !to.EqualIgnoringOrder(l) {
			t.Fatal("a transpose is not EqualIgnoringOrder to the original")
		}
	})
}

// randomSplit draws dims "r0", "r1", … whose log2 sizes sum to n.
func randomSplit(t *rapid.T, label string, n int) []Dim {
	var ds []Dim
	for i := 0; n > 0 || i == 0; i++ {
		k := rapid.IntRange(0, n).Draw(t, label)
		ds = append(ds, Dim{fmt.Sprintf("r%d", i), 1 << uint(k)})
		n -= k
	}
	return ds
}

func must(t *rapid.T, f func() (Layout, error)) Layout {
	l, err := f()
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, l)
	return l
}

func TestPropDivideUndoesMul(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genLayout(t, "b", inPool, outPool, 6, 6)
		c := genLayout(t, "c", inPool, outPool, 6, 6)
		// Triton's operator* (before it used supremum) required the dims the
		// factors share to be in the same relative order; only then is the
		// product's order the factors' and the division exact.
		if !sameRelativeOrder(b.InDimNames(), c.InDimNames()) || !sameRelativeOrder(b.OutDimNames(), c.OutDimNames()) {
			t.Skip("the factors order their common dims differently")
		}
		a, err := Mul(b, c)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, a)
		left, ok := DivideLeft(a, b)
		if ok {
			checkInvariants(t, left)
		}
		if !ok {
			t.Fatalf("DivideLeft(b*c, b) failed:\nb=%v\nc=%v", b, c)
		}
		if p, err := Mul(b, left); err != nil || !p.Equal(a) {
			t.Fatalf("b * DivideLeft(b*c, b) != b*c: %v", err)
		}
		right, ok := DivideRight(a, c)
		if ok {
			checkInvariants(t, right)
		}
		if !ok {
			t.Fatalf("DivideRight(b*c, c) failed:\nb=%v\nc=%v", b, c)
		}
		if p, err := Mul(right, c); err != nil || !p.Equal(a) {
			t.Fatalf("DivideRight(b*c, c) * c != b*c: %v", err)
		}
		// The quotients are b and c up to dims of size 1.
		if !sameFunction(left, c) || !sameFunction(right, b) {
			t.Fatalf("quotients differ from the factors:\nleft=%v\nc=%v\nright=%v\nb=%v", left, c, right, b)
		}
	})
}

// sameFunction compares two layouts on the dims of size > 1 only.
func sameFunction(x, y Layout) bool {
	squeeze := func(l Layout) Layout {
		for _, d := range l.InDims() {
			if len(d.Bases) == 0 {
				l, _ = l.SqueezeIns(d.Name)
			}
		}
		for _, o := range l.OutDims() {
			if o.Size == 1 {
				l, _ = l.SqueezeOuts(o.Name)
			}
		}
		return l
	}
	return squeeze(x).EqualIgnoringOrder(squeeze(y))
}

// sameRelativeOrder reports whether the names common to x and y appear in the
// same relative order in both.
func sameRelativeOrder(x, y []string) bool {
	var cx, cy []string
	for _, n := range x {
		if slices.Contains(y, n) {
			cx = append(cx, n)
		}
	}
	for _, n := range y {
		if slices.Contains(x, n) {
			cy = append(cy, n)
		}
	}
	return slices.Equal(cx, cy)
}

// Mul is the direct product: on each in-dim, the low bits feed inner and the
// high bits feed outer; on each out-dim, inner's result is the low part and
// outer's the high part.
func TestPropMulIsDirectProduct(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		inner := genLayout(t, "inner", inPool, outPool, 6, 6)
		outer := genLayout(t, "outer", inPool, outPool, 6, 6)
		if !sameRelativeOrder(inner.InDimNames(), outer.InDimNames()) || !sameRelativeOrder(inner.OutDimNames(), outer.OutDimNames()) {
			t.Skip("the factors order their common dims differently")
		}
		p := must(t, func() (Layout, error) { return Mul(inner, outer) })
		rp, ri, ro := toRef(p), toRef(inner), toRef(outer)
		for flat := 0; flat < p.TotalInDimSize(); flat++ {
			x := rp.split(flat)
			xi := make([]int, len(ri.ins))
			xo := make([]int, len(ro.ins))
			for k, d := range rp.ins {
				v := x[k]
				if i := inner.InDimIndex(d.Name); i >= 0 {
					xi[i] = v & (inner.InDimSize(d.Name) - 1)
					v >>= uint(inner.InDimSizeLog2(d.Name))
				}
				if o := outer.InDimIndex(d.Name); o >= 0 {
					xo[o] = v
				}
			}
			yi, yo := ri.eval(xi), ro.eval(xo)
			got := rp.eval(x)
			for j, o := range rp.outs {
				want := 0
				if i := inner.OutDimIndex(o.Name); i >= 0 {
					want = yi[i]
				}
				if k := outer.OutDimIndex(o.Name); k >= 0 {
					want |= yo[k] << uint(inner.OutDimSizeLog2(o.Name))
				}
				if got[j] != want {
					t.Fatalf("(inner*outer)(%v)[%s] = %d, want %d", x, o.Name, got[j], want)
				}
			}
		}
		// Empty is the identity of Mul.
		if l, err := Mul(Empty(), inner); err != nil || !l.Equal(inner) {
			t.Fatalf("Empty()*inner != inner: %v", err)
		}
		if l, err := Mul(inner, Empty()); err != nil || !l.Equal(inner) {
			t.Fatalf("inner*Empty() != inner: %v", err)
		}
	})
}

// TestPropSublayoutKeepsBases checks Sublayout against New over the kept
// bases, for any choice of in-dims and out-dims (all out-dims kept takes a
// shortcut that reuses the columns and, when only empty in-dims go, the
// rank).
func TestPropSublayoutKeepsBases(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l", inPool, outPool, maxPropBits, maxPropBits)
		var ins []string
		for _, n := range l.InDimNames() {
			if rapid.Bool().Draw(t, "keep."+n) {
				ins = append(ins, n)
			}
		}
		outs := l.OutDimNames()
		if rapid.Bool().Draw(t, "dropOut") && len(outs) > 1 {
			outs = outs[1:]
		}
		got, err := l.Sublayout(ins, outs)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, got)
		var wantIns []InDim
		for _, n := range ins {
			var bs [][]int
			for _, b := range l.Bases(n) {
				var c []int
				for j, o := range l.OutDimNames() {
					if slices.Contains(outs, o) {
						c = append(c, b[j])
					}
				}
				bs = append(bs, c)
			}
			wantIns = append(wantIns, InDim{n, bs})
		}
		var wantOuts []OutDim
		for _, o := range l.OutDims() {
			if slices.Contains(outs, o.Name) {
				wantOuts = append(wantOuts, o)
			}
		}
		want, err := New(wantIns, wantOuts, false)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) || got.rank != want.rank {
			t.Fatalf("Sublayout(%v, %v) of %v = %v (rank %d), want %v (rank %d)", ins, outs, l, got, got.rank, want, want.rank)
		}
	})
}
