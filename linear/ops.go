package linear

import (
	"fmt"
	"math/bits"
	"slices"
)

// withOffsets returns a fresh copy of ds with each offset recomputed as the
// sum of the sizes (in bits) of the dimensions before it.
func withOffsets(ds []dim) []dim {
	r := make([]dim, len(ds))
	off := 0
	for i, d := range ds {
		r[i] = dim{d.name, d.log2, off}
		off += d.log2
	}
	return r
}

// assemble builds a layout from dims (offsets are recomputed) and columns.
func assemble(ins, outs []dim, cols []uint64) (Layout, error) {
	ins, outs = withOffsets(ins), withOffsets(outs)
	if n := outBits(outs); n > MaxBits {
		return Layout{}, fmt.Errorf("linear: result would have %d out bits, more than %d", n, MaxBits)
	}
	if n := outBits(ins); n > MaxBits {
		return Layout{}, fmt.Errorf("linear: result would have %d in bits, more than %d", n, MaxBits)
	}
	return Layout{ins, outs, cols, colRank(cols)}, nil
}

// mustAssemble is assemble for results that cannot exceed MaxBits because
// they are no larger than an operand.
func mustAssemble(ins, outs []dim, cols []uint64) Layout {
	l, err := assemble(ins, outs, cols)
	if err != nil {
		panic("linear: internal error: " + err.Error())
	}
	return l
}

// field extracts out-dim o's coordinate from a packed value.
func field(v uint64, o dim) uint64 { return v >> uint(o.off) & mask(o.log2) }

// sameNames reports whether two dim lists have the same names, ignoring order.
func sameNames(a, b []dim) bool {
	if len(a) != len(b) {
		return false
	}
	for _, d := range b {
		if find(a, d.name) < 0 {
			return false
		}
	}
	return true
}

// checkPermutation checks that order names each of ds exactly once.
func checkPermutation(ds []dim, order []string, what string) error {
	if len(order) != len(ds) {
		return fmt.Errorf("linear: %s %v is not a permutation of %v", what, order, names(ds))
	}
	for i, n := range order {
		if find(ds, n) < 0 || slices.Index(order[:i], n) >= 0 {
			return fmt.Errorf("linear: %s %v is not a permutation of %v", what, order, names(ds))
		}
	}
	return nil
}

// Compose returns outer ∘ l, the layout x ↦ outer(l(x)). The out-dims of l
// must be the in-dims of outer (in any order), each no larger than outer's.
// The result has l's in-dims and outer's out-dims (with outer's sizes).
func (l Layout) Compose(outer Layout) (Layout, error) {
	if !sameNames(outer.ins, l.outs) {
		return Layout{}, fmt.Errorf("linear: compose: out-dims %v of the inner layout must be the in-dims %v of the outer one", l.OutDimNames(), outer.InDimNames())
	}
	// colOf[bit] is the column of outer fed by output bit `bit` of l.
	var colOf [64]int
	for _, o := range l.outs {
		k := outer.ins[find(outer.ins, o.name)]
		if o.log2 > k.log2 {
			return Layout{}, fmt.Errorf("linear: compose: out-dim %q has size %d, larger than the outer in-dim's %d", o.name, 1<<uint(o.log2), 1<<uint(k.log2))
		}
		for b := 0; b < o.log2; b++ {
			colOf[o.off+b] = k.off + b
		}
	}
	cols := make([]uint64, len(l.cols))
	for c, v := range l.cols {
		var acc uint64
		for v != 0 {
			acc ^= outer.cols[colOf[bits.TrailingZeros64(v)]]
			v &= v - 1
		}
		cols[c] = acc
	}
	return Layout{l.ins, outer.outs, cols, colRank(cols)}, nil
}

// Mul returns Triton's product inner * outer: a layout over the union of the
// dimensions (ordered by Supremum, inner's first) in which inner is the minor
// part and outer the major part. For each in-dim, inner's bases come first;
// outer's follow, with their coordinates shifted left by log2 of inner's size
// for that out-dim. Sizes multiply. For example Identity1D(4,i,o)·Zeros1D(2,i,o,1)
// is x ↦ x mod 4, and Identity1D(4,i,o1)·Identity1D(8,i,o2) is x ↦ (x mod 4, x/4).
// Mul is associative, not commutative, and Empty() is its identity.
func Mul(inner, outer Layout) (Layout, error) {
	// A product with Empty() is the other factor: skip the rebuild, so that
	// a product folded from Empty() costs nothing for its first factor.
	if inner.isEmpty() {
		return outer, nil
	}
	if outer.isEmpty() {
		return inner, nil
	}
	inNames, err := Supremum(inner.InDimNames(), outer.InDimNames())
	if err != nil {
		return Layout{}, fmt.Errorf("linear: mul: in-dims: %w", err)
	}
	outNames, err := Supremum(inner.OutDimNames(), outer.OutDimNames())
	if err != nil {
		return Layout{}, fmt.Errorf("linear: mul: out-dims: %w", err)
	}
	outs := make([]dim, len(outNames))
	for j, n := range outNames {
		outs[j] = dim{name: n, log2: inner.OutDimSizeLog2(n) + outer.OutDimSizeLog2(n)}
	}
	ins := make([]dim, len(inNames))
	for i, n := range inNames {
		ins[i] = dim{name: n, log2: inner.InDimSizeLog2(n) + outer.InDimSizeLog2(n)}
	}
	outs, ins = withOffsets(outs), withOffsets(ins)
	if outBits(outs) > MaxBits || outBits(ins) > MaxBits {
		return Layout{}, fmt.Errorf("linear: mul: the product has more than %d bits", MaxBits)
	}
	// Where each out-dim field of inner and outer lands in the product.
	innerTo := make([]int, len(inner.outs))
	for j, o := range inner.outs {
		innerTo[j] = outs[find(outs, o.name)].off
	}
	outerTo := make([]int, len(outer.outs))
	for j, o := range outer.outs {
		outerTo[j] = outs[find(outs, o.name)].off + inner.OutDimSizeLog2(o.name)
	}
	move := func(v uint64, from []dim, to []int) uint64 {
		var r uint64
		for j, o := range from {
			r |= field(v, o) << uint(to[j])
		}
		return r
	}
	cols := make([]uint64, 0, outBits(ins))
	for _, d := range ins {
		if k := find(inner.ins, d.name); k >= 0 {
			for _, v := range inner.cols[inner.ins[k].off : inner.ins[k].off+inner.ins[k].log2] {
				cols = append(cols, move(v, inner.outs, innerTo))
			}
		}
		if k := find(outer.ins, d.name); k >= 0 {
			for _, v := range outer.cols[outer.ins[k].off : outer.ins[k].off+outer.ins[k].log2] {
				cols = append(cols, move(v, outer.outs, outerTo))
			}
		}
	}
	return Layout{ins, outs, cols, colRank(cols)}, nil
}

// TransposeIns returns the layout with its in-dims in the given order, which
// must be a permutation of InDimNames. The function is unchanged.
func (l Layout) TransposeIns(order []string) (Layout, error) {
	if err := checkPermutation(l.ins, order, "transposeIns order"); err != nil {
		return Layout{}, err
	}
	ins := make([]dim, len(order))
	cols := make([]uint64, 0, len(l.cols))
	for i, n := range order {
		d := l.ins[find(l.ins, n)]
		ins[i] = d
		cols = append(cols, l.cols[d.off:d.off+d.log2]...)
	}
	return Layout{withOffsets(ins), l.outs, cols, l.rank}, nil
}

// TransposeOuts returns the layout with its out-dims in the given order,
// which must be a permutation of OutDimNames. The function is unchanged.
func (l Layout) TransposeOuts(order []string) (Layout, error) {
	if err := checkPermutation(l.outs, order, "transposeOuts order"); err != nil {
		return Layout{}, err
	}
	from := make([]dim, len(order))
	for j, n := range order {
		from[j] = l.outs[find(l.outs, n)]
	}
	outs := withOffsets(from)
	cols := make([]uint64, len(l.cols))
	for c, v := range l.cols {
		var r uint64
		for j, o := range from {
			r |= field(v, o) << uint(outs[j].off)
		}
		cols[c] = r
	}
	return Layout{l.ins, outs, cols, l.rank}, nil
}

// sizedDims checks a list of named power-of-two sizes whose product must be
// 2^total, and returns them as dims.
func sizedDims(ds []Dim, total int, what string) ([]dim, error) {
	r := make([]dim, len(ds))
	sum := 0
	for i, d := range ds {
		if d.Name == "" {
			return nil, fmt.Errorf("linear: %s: dim %d has an empty name", what, i)
		}
		if !isPow2(d.Size) {
			return nil, fmt.Errorf("linear: %s: size %d of %q is not a power of 2", what, d.Size, d.Name)
		}
		for _, p := range ds[:i] {
			if p.Name == d.Name {
				return nil, fmt.Errorf("linear: %s: duplicate dim %q", what, d.Name)
			}
		}
		r[i] = dim{name: intern(d.Name), log2: log2(d.Size)}
		sum += r[i].log2
	}
	if sum != total {
		return nil, fmt.Errorf("linear: %s: the new sizes multiply to 2^%d, want 2^%d", what, sum, total)
	}
	return withOffsets(r), nil
}

// ReshapeIns returns the layout with its input bits regrouped into the given
// in-dims: all bases are concatenated in in-dim order and cut into
// log2(size) bases per new dim, in order. The total size must not change.
func (l Layout) ReshapeIns(ins []Dim) (Layout, error) {
	ds, err := sizedDims(ins, len(l.cols), "reshapeIns")
	if err != nil {
		return Layout{}, err
	}
	return Layout{ds, l.outs, l.cols, l.rank}, nil
}

// ReshapeOuts returns the layout with its output bits regrouped into the
// given out-dims: each output is read as one mixed-radix integer (the first
// out-dim least significant) and split again over the new sizes. The total
// size must not change.
func (l Layout) ReshapeOuts(outs []Dim) (Layout, error) {
	ds, err := sizedDims(outs, l.TotalOutDimSizeLog2(), "reshapeOuts")
	if err != nil {
		return Layout{}, err
	}
	return Layout{l.ins, ds, l.cols, l.rank}, nil
}

// FlattenIns reshapes the in-dims into one, named after the first in-dim.
// A layout without in-dims is returned unchanged.
func (l Layout) FlattenIns() Layout {
	if len(l.ins) == 0 {
		return l
	}
	return Layout{[]dim{{l.ins[0].name, len(l.cols), 0}}, l.outs, l.cols, l.rank}
}

// FlattenOuts reshapes the out-dims into one, named after the first out-dim.
// A layout without out-dims is returned unchanged.
func (l Layout) FlattenOuts() Layout {
	if len(l.outs) == 0 {
		return l
	}
	return Layout{l.ins, []dim{{l.outs[0].name, l.TotalOutDimSizeLog2(), 0}}, l.cols, l.rank}
}

// SqueezeIns removes the named in-dim, which must have size 1.
func (l Layout) SqueezeIns(name string) (Layout, error) {
	k := find(l.ins, name)
	if k < 0 || l.ins[k].log2 != 0 {
		return Layout{}, fmt.Errorf("linear: squeezeIns: %q is not a size-1 in-dim", name)
	}
	return Layout{withOffsets(slices.Delete(slices.Clone(l.ins), k, k+1)), l.outs, l.cols, l.rank}, nil
}

// SqueezeOuts removes the named out-dim, which must have size 1.
func (l Layout) SqueezeOuts(name string) (Layout, error) {
	j := find(l.outs, name)
	if j < 0 || l.outs[j].log2 != 0 {
		return Layout{}, fmt.Errorf("linear: squeezeOuts: %q is not a size-1 out-dim", name)
	}
	return Layout{l.ins, withOffsets(slices.Delete(slices.Clone(l.outs), j, j+1)), l.cols, l.rank}, nil
}

func subset(ds []dim, sel []string, what string) error {
	for _, n := range sel {
		if find(ds, n) < 0 {
			return fmt.Errorf("linear: %s: %q is not one of %v", what, n, names(ds))
		}
	}
	return nil
}

// Sublayout restricts the layout to the given in-dims (the others are taken
// as 0) and out-dims (the others are dropped). Dimensions keep the layout's
// order, not the argument's; out sizes are unchanged.
func (l Layout) Sublayout(ins, outs []string) (Layout, error) {
	if err := subset(l.ins, ins, "sublayout in-dims"); err != nil {
		return Layout{}, err
	}
	if err := subset(l.outs, outs, "sublayout out-dims"); err != nil {
		return Layout{}, err
	}
	var newIns, from []dim
	for _, d := range l.ins {
		if slices.Contains(ins, d.name) {
			newIns = append(newIns, d)
		}
	}
	for _, o := range l.outs {
		if slices.Contains(outs, o.name) {
			from = append(from, o)
		}
	}
	if len(from) == len(l.outs) {
		// Every out-dim stays: the kept in-dims' columns are unchanged, and
		// so is the rank when only empty in-dims go.
		var cols []uint64
		dropped := false
		for _, d := range l.ins {
			if slices.Contains(ins, d.name) {
				cols = append(cols, l.cols[d.off:d.off+d.log2]...)
			} else if d.log2 > 0 {
				dropped = true
			}
		}
		if !dropped {
			return Layout{withOffsets(newIns), l.outs, cols, l.rank}, nil
		}
		return mustAssemble(newIns, l.outs, cols), nil
	}
	newOuts := withOffsets(from)
	var cols []uint64
	for _, d := range newIns {
		for _, v := range l.cols[d.off : d.off+d.log2] {
			var r uint64
			for j, o := range from {
				r |= field(v, o) << uint(newOuts[j].off)
			}
			cols = append(cols, r)
		}
	}
	return mustAssemble(newIns, newOuts, cols), nil
}

// SublayoutIsZero reports whether the given in-dims map every point to 0 in
// the given out-dims. An empty selection counts as zero.
func (l Layout) SublayoutIsZero(ins, outs []string) (bool, error) {
	s, err := l.Sublayout(ins, outs)
	if err != nil {
		return false, err
	}
	for _, v := range s.cols {
		if v != 0 {
			return false, nil
		}
	}
	return true, nil
}

// ConcatIns returns a layout with l's in-dims followed by other's, over the
// common out-dims, which must be the same (names, order and sizes). As with
// Triton's MapVector, an in-dim of other whose name l already has is dropped.
func (l Layout) ConcatIns(other Layout) (Layout, error) {
	if !dimsEqual(l.outs, other.outs) {
		return Layout{}, fmt.Errorf("linear: concatIns: out-dims %v and %v differ", l.OutDims(), other.OutDims())
	}
	ins := slices.Clone(l.ins)
	cols := slices.Clone(l.cols)
	for _, d := range other.ins {
		if find(l.ins, d.name) >= 0 {
			continue
		}
		ins = append(ins, d)
		cols = append(cols, other.cols[d.off:d.off+d.log2]...)
	}
	return assemble(ins, l.outs, cols)
}

// ConcatOuts returns a layout with l's out-dims followed by other's, over
// the common in-dims, which must be the same (names, order and sizes). Each
// basis is l's basis followed by other's. Out-dim names must not repeat.
func (l Layout) ConcatOuts(other Layout) (Layout, error) {
	if !dimsEqual(l.ins, other.ins) {
		return Layout{}, fmt.Errorf("linear: concatOuts: in-dims of the two layouts differ")
	}
	for _, o := range other.outs {
		if find(l.outs, o.name) >= 0 {
			return Layout{}, fmt.Errorf("linear: concatOuts: both layouts have out-dim %q", o.name)
		}
	}
	shift := uint(l.TotalOutDimSizeLog2())
	if int(shift)+other.TotalOutDimSizeLog2() > MaxBits {
		return Layout{}, fmt.Errorf("linear: concatOuts: the result has more than %d out bits", MaxBits)
	}
	cols := make([]uint64, len(l.cols))
	for c := range cols {
		cols[c] = l.cols[c] | other.cols[c]<<shift
	}
	return assemble(l.ins, append(slices.Clone(l.outs), other.outs...), cols)
}

// ResizeInDim keeps the first log2(size) bases of the named in-dim; size must
// be a power of two no larger than the current size.
func (l Layout) ResizeInDim(name string, size int) (Layout, error) {
	k := find(l.ins, name)
	if k < 0 {
		return Layout{}, fmt.Errorf("linear: resizeInDim: no in-dim %q", name)
	}
	if !isPow2(size) || log2(size) > l.ins[k].log2 {
		return Layout{}, fmt.Errorf("linear: resizeInDim: size %d must be a power of 2 no larger than %d", size, 1<<uint(l.ins[k].log2))
	}
	d := l.ins[k]
	ins := slices.Clone(l.ins)
	ins[k].log2 = log2(size)
	cols := slices.Concat(l.cols[:d.off+log2(size)], l.cols[d.off+d.log2:])
	return mustAssemble(ins, l.outs, cols), nil
}

// ResizeOutDim shrinks the named out-dim to size (a power of two no larger
// than the current size). As in Triton, every coordinate not less than the new
// size becomes 0.
func (l Layout) ResizeOutDim(name string, size int) (Layout, error) {
	j := find(l.outs, name)
	if j < 0 {
		return Layout{}, fmt.Errorf("linear: resizeOutDim: no out-dim %q", name)
	}
	if !isPow2(size) || log2(size) > l.outs[j].log2 {
		return Layout{}, fmt.Errorf("linear: resizeOutDim: size %d must be a power of 2 no larger than %d", size, 1<<uint(l.outs[j].log2))
	}
	outs := slices.Clone(l.outs)
	outs[j].log2 = log2(size)
	return l.repack(outs, func(_ dim, _ int, j2 int, v uint64) uint64 {
		if j2 == j && v >= uint64(size) {
			return 0
		}
		return v
	}), nil
}

// repack rebuilds the columns for new out-dims of the same names and order
// (offsets are recomputed), passing each coordinate through f.
func (l Layout) repack(outs []dim, f func(in dim, b, j int, v uint64) uint64) Layout {
	newOuts := withOffsets(outs)
	cols := make([]uint64, len(l.cols))
	for _, d := range l.ins {
		for b := 0; b < d.log2; b++ {
			v := l.cols[d.off+b]
			var r uint64
			for j, o := range l.outs {
				r |= f(d, b, j, field(v, o)) << uint(newOuts[j].off)
			}
			cols[d.off+b] = r
		}
	}
	return mustAssemble(l.ins, newOuts, cols)
}

// RenameInDim renames an in-dim. As in Triton (a MapVector erase and insert),
// the renamed dimension moves to the end of the in-dim order.
func (l Layout) RenameInDim(old, name string) (Layout, error) {
	k := find(l.ins, old)
	if k < 0 {
		return Layout{}, fmt.Errorf("linear: renameInDim: no in-dim %q", old)
	}
	if name == "" || (name != old && find(l.ins, name) >= 0) {
		return Layout{}, fmt.Errorf("linear: renameInDim: invalid or existing name %q", name)
	}
	d := l.ins[k]
	ins := slices.Delete(slices.Clone(l.ins), k, k+1)
	ins = append(ins, dim{name: intern(name), log2: d.log2})
	cols := slices.Concat(l.cols[:d.off], l.cols[d.off+d.log2:], l.cols[d.off:d.off+d.log2])
	return mustAssemble(ins, l.outs, cols), nil
}

// RemoveZeroBasesAlongDim drops the all-zero bases of the named in-dim. Out
// sizes are kept.
func (l Layout) RemoveZeroBasesAlongDim(name string) (Layout, error) {
	k := find(l.ins, name)
	if k < 0 {
		return Layout{}, fmt.Errorf("linear: removeZeroBasesAlongDim: no in-dim %q", name)
	}
	ins := slices.Clone(l.ins)
	var cols []uint64
	for i, d := range l.ins {
		for _, v := range l.cols[d.off : d.off+d.log2] {
			if i == k && v == 0 {
				ins[k].log2--
				continue
			}
			cols = append(cols, v)
		}
	}
	return mustAssemble(ins, l.outs, cols), nil
}

// FreeVariableMasks returns, for each in-dim in order, a mask of its input
// bits that are free variables of the bit matrix: bits whose basis is a
// combination of the bases before it (in column order). All masks are zero
// exactly when the layout is injective. For example
// Identity1D(2)·Zeros1D(4)·Identity1D(4)·Zeros1D(2) on one in-dim gives 0b100110.
func (l Layout) FreeVariableMasks() []int {
	free := freeColumns(l.cols)
	r := make([]int, len(l.ins))
	for i, d := range l.ins {
		r[i] = int(free >> uint(d.off) & mask(d.log2))
	}
	return r
}

// NumConsecutiveInOut returns how many consecutive input values of the first
// in-dim map to consecutive values of the first out-dim (Triton's
// getNumConsecutiveInOut): 2^min(c, z), where c counts the leading bases of
// the first in-dim that are (2^i, 0, …, 0) and z is the number of trailing
// zero bits of the first-out-dim coordinates of all other bases OR-ed
// together (31 when that is 0). It is 1 for a layout without in- or out-dims.
func (l Layout) NumConsecutiveInOut() int {
	if len(l.ins) == 0 || len(l.outs) == 0 {
		return 1
	}
	first := l.ins[0]
	o := l.outs[0]
	consec := 0
	for ; consec < first.log2 && consec < o.log2; consec++ {
		// (2^consec, 0, …, 0): the first out-dim's field starts at bit 0.
		if l.cols[first.off+consec] != uint64(1)<<uint(consec) {
			break
		}
	}
	var other uint64
	for c := first.off + consec; c < len(l.cols); c++ {
		other |= field(l.cols[c], o)
	}
	tz := 31
	if other != 0 {
		tz = bits.TrailingZeros64(other)
	}
	return 1 << uint(min(consec, tz))
}

// InvertAndCompose returns a layout C with l(x) = outer(C(x)) for every x:
// when outer is invertible, C = outer⁻¹ ∘ l. The two layouts must have the
// same out-dims (in any order), outer must be surjective and each of its out
// sizes at least l's, and l's image must lie in outer's.
//
// As in Triton, an in-dim that both layouts have with equal bases (ignoring
// out sizes) maps to itself; the other bits are solved over GF(2) with free
// variables set to 0, the minimal solution: each basis of l is written over
// the columns of outer that are independent of the columns before them. The
// result has l's in-dims, and outer's in-dims as out-dims (with outer's
// sizes). Where that identity rule leaves the system unsolvable (Triton
// asserts), the whole system is solved without it.
func (l Layout) InvertAndCompose(outer Layout) (Layout, error) {
	if !sameNames(outer.outs, l.outs) {
		return Layout{}, fmt.Errorf("linear: invertAndCompose: out-dims %v and %v differ", l.OutDimNames(), outer.OutDimNames())
	}
	// to[j] is the offset of l's out-dim j in outer's packed values.
	var to [64]int
	for j, o := range l.outs {
		k := outer.outs[find(outer.outs, o.name)]
		if k.log2 < o.log2 {
			return Layout{}, fmt.Errorf("linear: invertAndCompose: out-dim %q of the outer layout (size %d) is smaller than %d", o.name, 1<<uint(k.log2), 1<<uint(o.log2))
		}
		to[j] = k.off
	}
	if !outer.IsSurjective() {
		return Layout{}, fmt.Errorf("linear: invertAndCompose: the outer layout is not surjective:%s", outer)
	}
	repack := func(v uint64) uint64 {
		var w uint64
		for j, o := range l.outs {
			w |= field(v, o) << uint(to[j])
		}
		return w
	}
	// identity[k] is set for outer's in-dims k that l has with the same bases.
	var identity [64]bool
	for k, d := range outer.ins {
		i := find(l.ins, d.name)
		if i < 0 || l.ins[i].log2 != d.log2 {
			continue
		}
		same := true
		for b := 0; b < d.log2 && same; b++ {
			same = repack(l.cols[l.ins[i].off+b]) == outer.cols[d.off+b]
		}
		identity[k] = same
	}
	cols := make([]uint64, len(l.cols))
	if !l.solve(outer, identity[:len(outer.ins)], repack, cols) {
		clear(identity[:])
		if !l.solve(outer, identity[:len(outer.ins)], repack, cols) {
			return Layout{}, fmt.Errorf("linear: invertAndCompose: the image of the layout is not contained in the image of the outer layout")
		}
	}
	// Column c of outer is bit c of the result: its out-dims are outer's
	// in-dims, packed in order.
	return Layout{l.ins, outer.ins, cols, colRank(cols)}, nil
}

// solve fills cols with the columns of l.InvertAndCompose(outer) for the
// given identity in-dims of outer (lstsq in Triton). It reports false if some
// basis of l is outside the span of outer's non-identity columns.
func (l Layout) solve(outer Layout, identity []bool, repack func(uint64) uint64, cols []uint64) bool {
	var e echelon
	for k, d := range outer.ins {
		if identity[k] {
			continue
		}
		for c := d.off; c < d.off+d.log2; c++ {
			e.add(c, outer.cols[c])
		}
	}
	for _, d := range l.ins {
		k := find(outer.ins, d.name)
		if k >= 0 && identity[k] {
			for b := 0; b < d.log2; b++ {
				cols[d.off+b] = 1 << uint(outer.ins[k].off+b)
			}
			continue
		}
		for c := d.off; c < d.off+d.log2; c++ {
			rest, combo := e.reduce(repack(l.cols[c]))
			if rest != 0 {
				return false
			}
			cols[c] = combo
		}
	}
	return true
}

// PseudoInvert returns a right inverse B of a surjective layout A: A(B(y)) = y
// for every y. It maps A's out-dims to its in-dims, choosing the minimal
// preimage (free variables 0).
func (l Layout) PseudoInvert() (Layout, error) {
	if !l.IsSurjective() {
		return Layout{}, fmt.Errorf("linear: pseudoinvert: layout is not surjective:%s", l)
	}
	id := Empty()
	for _, o := range l.outs {
		d, err := Identity1D(1<<uint(o.log2), o.name, o.name)
		if err != nil {
			return Layout{}, err
		}
		if id, err = Mul(id, d); err != nil {
			return Layout{}, err
		}
	}
	return id.InvertAndCompose(l)
}

// Invert returns the inverse of an invertible layout.
func (l Layout) Invert() (Layout, error) {
	if !l.IsInvertible() {
		return Layout{}, fmt.Errorf("linear: invert: layout is not invertible (it must be surjective and square):%s", l)
	}
	return l.PseudoInvert()
}

// DivideLeft returns C with A = B * C (B the minor factor), and reports
// whether such a C exists. C has A's dims, with sizes A's divided by B's.
func DivideLeft(a, b Layout) (Layout, bool) {
	outs, ok := quotientOuts(a, b)
	if !ok {
		return Layout{}, false
	}
	ins := slices.Clone(a.ins)
	var cols []uint64
	for i, d := range a.ins {
		bk := find(b.ins, d.name)
		inB := 0
		if bk >= 0 {
			inB = b.ins[bk].log2
		}
		if inB > d.log2 {
			return Layout{}, false
		}
		ins[i].log2 = d.log2 - inB
		for x := 0; x < d.log2; x++ {
			v := a.cols[d.off+x]
			if x < inB {
				bv := b.cols[b.ins[bk].off+x]
				for _, o := range a.outs {
					want := uint64(0)
					if j := find(b.outs, o.name); j >= 0 {
						want = field(bv, b.outs[j])
					}
					if field(v, o) != want {
						return Layout{}, false
					}
				}
				continue
			}
			var c uint64
			for j, o := range a.outs {
				s := uint(b.OutDimSizeLog2(o.name))
				f := field(v, o)
				if f&mask(int(s)) != 0 {
					return Layout{}, false
				}
				c |= f >> s << uint(outs[j].off)
			}
			cols = append(cols, c)
		}
	}
	c := mustAssemble(ins, outs, cols)
	if p, err := Mul(b, c); err != nil || !p.Equal(a) {
		return Layout{}, false
	}
	return c, true
}

// DivideRight returns C with A = C * B (B the major factor), and reports
// whether such a C exists. C has A's dims, with sizes A's divided by B's.
func DivideRight(a, b Layout) (Layout, bool) {
	outs, ok := quotientOuts(a, b)
	if !ok {
		return Layout{}, false
	}
	ins := slices.Clone(a.ins)
	var cols []uint64
	for i, d := range a.ins {
		inB := b.InDimSizeLog2(d.name)
		if inB > d.log2 {
			return Layout{}, false
		}
		inC := d.log2 - inB
		ins[i].log2 = inC
		for x := 0; x < inC; x++ {
			v := a.cols[d.off+x]
			var c uint64
			for j, o := range a.outs {
				f := field(v, o)
				if f > mask(outs[j].log2) {
					return Layout{}, false
				}
				c |= f << uint(outs[j].off)
			}
			cols = append(cols, c)
		}
	}
	c := mustAssemble(ins, outs, cols)
	if p, err := Mul(c, b); err != nil || !p.Equal(a) {
		return Layout{}, false
	}
	return c, true
}

// quotientOuts checks that B's dims are among A's and returns the out-dims of
// a quotient of A by B: A's, each log2 size reduced by B's.
func quotientOuts(a, b Layout) ([]dim, bool) {
	for _, d := range b.ins {
		if find(a.ins, d.name) < 0 {
			return nil, false
		}
	}
	for _, o := range b.outs {
		if find(a.outs, o.name) < 0 {
			return nil, false
		}
	}
	outs := slices.Clone(a.outs)
	for j, o := range a.outs {
		s := b.OutDimSizeLog2(o.name)
		if s > o.log2 {
			return nil, false
		}
		outs[j].log2 = o.log2 - s
	}
	return withOffsets(outs), true
}

// IsTrivialOver reports whether the layout acts as the identity on dims and
// independently of them elsewhere: each of dims is both an in-dim and an
// out-dim, the square sublayout on dims is the identity (equal sizes; after
// flattening, bases 1, 2, 4, …), the other in-dims never reach dims and dims
// never reach the other out-dims. (Triton aborts where a dim is an in-dim or
// an out-dim but not both; this returns false.)
func (l Layout) IsTrivialOver(dims []string) bool {
	for _, n := range dims {
		if find(l.ins, n) < 0 || find(l.outs, n) < 0 {
			return false
		}
	}
	if !l.squareSublayoutIsIdentity(dims) {
		return false
	}
	restIns, restOuts := l.otherDims(dims)
	z1, _ := l.SublayoutIsZero(restIns, dims)
	z2, _ := l.SublayoutIsZero(dims, restOuts)
	return z1 && z2
}

// otherDims returns the names of l's in-dims and of its out-dims that are
// not in dims, in l's order.
func (l Layout) otherDims(dims []string) (ins, outs []string) {
	for _, d := range l.ins {
		if !slices.Contains(dims, d.name) {
			ins = append(ins, d.name)
		}
	}
	for _, o := range l.outs {
		if !slices.Contains(dims, o.name) {
			outs = append(outs, o.name)
		}
	}
	return ins, outs
}

// squareSublayoutIsIdentity is LayoutUtils' squareSublayoutIsIdentity; every
// name in dims must be both an in-dim and an out-dim.
func (l Layout) squareSublayoutIsIdentity(dims []string) bool {
	if len(dims) == 0 {
		return true
	}
	for _, n := range dims {
		if l.InDimSizeLog2(n) != l.OutDimSizeLog2(n) {
			return false
		}
	}
	s, err := l.Sublayout(dims, dims)
	if err != nil {
		return false
	}
	for c, v := range s.cols {
		if v != 1<<uint(c) {
			return false
		}
	}
	return true
}

// IsIdentityOnOutDim reports whether out-dim d is the identity image of
// in-dim d: the in-dim and out-dim d have equal sizes, in-dim d's bases are
// 1, 2, 4, … in out-dim d, and no other in-dim reaches out-dim d. In-dim d
// may still reach other out-dims.
func (l Layout) IsIdentityOnOutDim(d string) bool {
	k, j := find(l.ins, d), find(l.outs, d)
	if k < 0 || j < 0 || l.ins[k].log2 != l.outs[j].log2 {
		return false
	}
	for c, v := range l.cols {
		want := uint64(0)
		if b := c - l.ins[k].off; b >= 0 && b < l.ins[k].log2 {
			want = 1 << uint(b)
		}
		if field(v, l.outs[j]) != want {
			return false
		}
	}
	return true
}

// Quotient removes dims over which the layout is trivial (see IsTrivialOver)
// and returns the sublayout on the remaining in- and out-dims. It reports
// false when the layout is not trivial over dims.
func (l Layout) Quotient(dims []string) (Layout, bool) {
	if !l.IsTrivialOver(dims) {
		return Layout{}, false
	}
	s, err := l.Sublayout(l.otherDims(dims))
	return s, err == nil
}
