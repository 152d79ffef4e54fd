package linear

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Supremum merges two ordered name lists into one that keeps the relative
// order of each (Triton's LayoutUtils supremum, which Mul uses to order the
// dims of a product). Where several merges are possible the first list wins:
// Supremum([a b], [a c]) = [a b c] and Supremum([a b], [b c]) = [a b c].
// Like Triton's code, it does not detect lists whose common names are in
// different orders: Supremum([a b], [b a]) = [a b]. It fails on a list that
// repeats a name.
func Supremum(x, y []string) ([]string, error) {
	// The lists are a handful of dim names: linear scans beat maps here,
	// and Mul calls this twice per product.
	for _, l := range [][]string{x, y} {
		for i, n := range l {
			if slices.Contains(l[:i], n) {
				return nil, fmt.Errorf("linear: supremum: %q repeats in %v", n, l)
			}
		}
	}
	result := make([]string, 0, len(x)+len(y))
	add := func(n string) { result = append(result, n) }
	const inf = int(^uint(0) >> 1)
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		for i < len(x) && slices.Contains(result, x[i]) {
			i++
		}
		for j < len(y) && slices.Contains(result, y[j]) {
			j++
		}
		if i >= len(x) && j >= len(y) {
			break
		}
		if i < len(x) && j < len(y) && x[i] == y[j] {
			add(x[i])
			i, j = i+1, j+1
			continue
		}
		candX, candY := inf, inf
		if i < len(x) {
			if p := slices.Index(y, x[i]); p >= j {
				candX = p
			}
		}
		if j < len(y) {
			if p := slices.Index(x, y[j]); p >= i {
				candY = p
			}
		}
		if i < len(x) && candX == inf {
			add(x[i])
			i++
			continue
		}
		if j < len(y) && candY == inf {
			add(y[j])
			j++
			continue
		}
		// Both heads occur later in the other list (Triton's consistency
		// checks here cannot fail for lists of distinct names).
		if candX <= candY {
			add(x[i])
			i++
		} else {
			add(y[j])
			j++
		}
	}
	return result, nil
}

// StandardOutDimNames returns ["dim0", …, "dim<rank-1>"], the out-dims of
// every tensor layout.
func StandardOutDimNames(rank int) []string {
	r := make([]string, rank)
	for i := range r {
		r[i] = intern("dim" + strconv.Itoa(i))
	}
	return r
}

// IdentityStandardND returns the product over i of
// Identity1D(shape[order[i]], in, dim<order[i]>): a 1-D to N-D identity whose
// most minor tensor dim is order[0] (the order of TritonGPU attributes).
// The out-dims appear in order's order.
func IdentityStandardND(in string, shape, order []int) (Layout, error) {
	if len(shape) != len(order) {
		return Layout{}, fmt.Errorf("linear: identityStandardND: shape %v and order %v differ in rank", shape, order)
	}
	outNames := StandardOutDimNames(len(shape))
	ret := Empty()
	for i, d := range order {
		if d < 0 || d >= len(shape) || slices.Contains(order[:i], d) {
			return Layout{}, fmt.Errorf("linear: identityStandardND: order %v is not a permutation", order)
		}
		id, err := Identity1D(shape[d], in, outNames[d])
		if err != nil {
			return Layout{}, err
		}
		if ret, err = Mul(ret, id); err != nil {
			return Layout{}, err
		}
	}
	return ret, nil
}

// ZerosLike returns a layout with l's dims and sizes that maps everything to 0.
func ZerosLike(l Layout) Layout {
	return Layout{l.ins, l.outs, make([]uint64, len(l.cols)), 0}
}

func checkShape(l Layout, shape map[string]int) error {
	if len(shape) != len(l.outs) {
		return fmt.Errorf("linear: shape has %d dims, layout has %d out-dims", len(shape), len(l.outs))
	}
	for _, o := range l.outs {
		s, ok := shape[o.name]
		if !ok {
			return fmt.Errorf("linear: shape has no size for out-dim %q", o.name)
		}
		if !isPow2(s) {
			return fmt.Errorf("linear: shape size %d for %q is not a power of 2", s, o.name)
		}
	}
	return nil
}

// EnsureLayoutNotSmallerThan grows each out-dim d to at least shape[d] by
// multiplying, for each out-dim in l's order, by
// Identity1D(shape[d]/size(d), first in-dim, d): the repetitions become new
// bases of the first in-dim, which must be "register" or "offset". shape must
// give a power-of-two size for every out-dim.
func EnsureLayoutNotSmallerThan(l Layout, shape map[string]int) (Layout, error) {
	if err := checkShape(l, shape); err != nil {
		return Layout{}, err
	}
	if len(shape) == 0 {
		return l, nil
	}
	if len(l.ins) == 0 || (l.ins[0].name != "register" && l.ins[0].name != "offset") {
		return Layout{}, errors.New(`linear: ensureLayoutNotSmallerThan: the first in-dim must be "register" or "offset"`)
	}
	k := l.ins[0].name
	ret := l
	for _, o := range l.outs {
		actual, want := 1<<uint(o.log2), shape[o.name]
		if actual >= want {
			continue
		}
		id, err := Identity1D(want/actual, k, o.name)
		if err != nil {
			return Layout{}, err
		}
		if ret, err = Mul(ret, id); err != nil {
			return Layout{}, err
		}
	}
	return ret, nil
}

// EnsureLayoutNotLargerThan shrinks each out-dim d to min(size(d), shape[d]):
// every coordinate not less than the new size becomes 0, which makes that
// basis a broadcast. With broadcastRegisters false, "register" bases that
// become all-zero this way are dropped instead (bases that were already zero
// are kept). shape must give a power-of-two size for every out-dim.
func EnsureLayoutNotLargerThan(l Layout, shape map[string]int, broadcastRegisters bool) (Layout, error) {
	if err := checkShape(l, shape); err != nil {
		return Layout{}, err
	}
	outs := slices.Clone(l.outs)
	for j, o := range outs {
		outs[j].log2 = min(o.log2, log2(shape[o.name]))
	}
	outs = withOffsets(outs)
	ins := slices.Clone(l.ins)
	var cols []uint64
	for i, d := range l.ins {
		drop := !broadcastRegisters && d.name == "register"
		for _, v := range l.cols[d.off : d.off+d.log2] {
			var r uint64
			for j, o := range l.outs {
				if f := field(v, o); f < 1<<uint(outs[j].log2) {
					r |= f << uint(outs[j].off)
				}
			}
			if drop && v != 0 && r == 0 {
				ins[i].log2--
				continue
			}
			cols = append(cols, r)
		}
	}
	return mustAssemble(ins, outs, cols), nil
}

// ColumnAction selects or permutes the bases of one in-dim: applied to a
// layout, the new basis i is the old basis Action()[i]. It is Triton's
// ColumnAction, used to reorder or drop register bases.
type ColumnAction struct {
	action     []int
	inDim      string
	inSizeLog2 int
}

// NewColumnAction returns the action taking basis action[i] of inDim (which
// has inSizeLog2 bases) to position i. Each entry must be a distinct index
// below inSizeLog2.
func NewColumnAction(action []int, inDim string, inSizeLog2 int) (ColumnAction, error) {
	if inSizeLog2 < 0 || inSizeLog2 > MaxBits || len(action) > inSizeLog2 {
		return ColumnAction{}, fmt.Errorf("linear: column action %v does not fit %d bases", action, inSizeLog2)
	}
	for i, a := range action {
		if a < 0 || a >= inSizeLog2 || slices.Contains(action[:i], a) {
			return ColumnAction{}, fmt.Errorf("linear: column action %v: entry %d is out of range or repeated", action, a)
		}
	}
	return ColumnAction{slices.Clone(action), intern(inDim), inSizeLog2}, nil
}

// Action returns a copy of the action's index list.
func (a ColumnAction) Action() []int { return slices.Clone(a.action) }

// InDim returns the in-dim the action applies to.
func (a ColumnAction) InDim() string { return a.inDim }

// InSizeLog2 returns the number of bases the action expects.
func (a ColumnAction) InSizeLog2() int { return a.inSizeLog2 }

// IsIdentity reports whether the action is [0, 1, …, InSizeLog2-1].
func (a ColumnAction) IsIdentity() bool {
	if len(a.action) != a.inSizeLog2 {
		return false
	}
	for i, v := range a.action {
		if v != i {
			return false
		}
	}
	return true
}

// Apply permutes or selects the bases of the action's in-dim in l, which must
// have InSizeLog2 bases.
func (a ColumnAction) Apply(l Layout) (Layout, error) {
	k := find(l.ins, a.inDim)
	if k < 0 || l.ins[k].log2 != a.inSizeLog2 {
		return Layout{}, fmt.Errorf("linear: %s does not fit the layout's in-dims %v", a, l.InDims())
	}
	if a.IsIdentity() {
		return l, nil
	}
	d := l.ins[k]
	ins := slices.Clone(l.ins)
	ins[k].log2 = len(a.action)
	cols := slices.Clone(l.cols[:d.off])
	for _, x := range a.action {
		cols = append(cols, l.cols[d.off+x])
	}
	cols = append(cols, l.cols[d.off+d.log2:]...)
	return mustAssemble(ins, l.outs, cols), nil
}

// ApplyValues reorders per-register values as the action reorders register
// bases: value i of the result is values[P(i)], where P is the action applied
// to the identity on the in-dim. For example [2, 0, 1] on x0…x7 gives
// x0 x4 x1 x5 x2 x6 x3 x7, and [2, 1] gives x0 x4 x2 x6. There must be
// 2^InSizeLog2 values.
func ApplyValues[T any](a ColumnAction, values []T) ([]T, error) {
	if len(values) != 1<<uint(a.inSizeLog2) {
		return nil, fmt.Errorf("linear: %s needs %d values, got %d", a, 1<<uint(a.inSizeLog2), len(values))
	}
	out := make([]T, 1<<uint(len(a.action)))
	for i := range out {
		src := 0
		for b, x := range a.action {
			if i>>uint(b)&1 != 0 {
				src ^= 1 << uint(x)
			}
		}
		out[i] = values[src]
	}
	return out, nil
}

// Inverse returns the inverse permutation. The action must be a permutation
// (it must keep every basis).
func (a ColumnAction) Inverse() (ColumnAction, error) {
	if len(a.action) != a.inSizeLog2 {
		return ColumnAction{}, fmt.Errorf("linear: %s drops bases and has no inverse", a)
	}
	inv := make([]int, len(a.action))
	for i, x := range a.action {
		inv[x] = i
	}
	return ColumnAction{inv, a.inDim, a.inSizeLog2}, nil
}

// LeftCompose returns the action c with c[i] = a[o[i]]: applying c is
// applying a, then o. Both must act on the same in-dim and size with the
// same number of entries.
func (a ColumnAction) LeftCompose(o ColumnAction) (ColumnAction, error) {
	if a.inDim != o.inDim || a.inSizeLog2 != o.inSizeLog2 || len(a.action) != len(o.action) {
		return ColumnAction{}, fmt.Errorf("linear: cannot compose %s with %s", a, o)
	}
	r := make([]int, len(a.action))
	for i, x := range o.action {
		r[i] = a.action[x]
	}
	return ColumnAction{r, a.inDim, a.inSizeLog2}, nil
}

// String returns Triton's form, e.g. "ColumnAction([2, 0, 1], register, 3)".
func (a ColumnAction) String() string {
	var sb strings.Builder
	sb.WriteString("ColumnAction([")
	writeInts(&sb, a.action)
	fmt.Fprintf(&sb, "], %s, %d)", a.inDim, a.inSizeLog2)
	return sb.String()
}

// ActionRemoveBroadcastedRegs returns the action that keeps the non-zero
// bases of the layout's first in-dim, which must be "register".
func ActionRemoveBroadcastedRegs(l Layout) (ColumnAction, error) {
	if len(l.ins) == 0 || l.ins[0].name != "register" {
		return ColumnAction{}, errors.New(`linear: actionRemoveBroadcastedRegs: the first in-dim must be "register"`)
	}
	d := l.ins[0]
	var keep []int
	for i, v := range l.cols[d.off : d.off+d.log2] {
		if v != 0 {
			keep = append(keep, i)
		}
	}
	return ColumnAction{keep, d.name, d.log2}, nil
}

// RegPermForDivide returns the register permutation of a that moves the
// register bases of b to the front (left) or to the back (right, comparing
// b's bases shifted up by the quotient sizes), so that DivideLeft or
// DivideRight can then split b off. Both layouts must have "register" as
// their first in-dim. It reports false if a basis of b is not one of a's.
func RegPermForDivide(a, b Layout, left bool) (ColumnAction, bool, error) {
	if len(a.ins) == 0 || a.ins[0].name != "register" || len(b.ins) == 0 || b.ins[0].name != "register" {
		return ColumnAction{}, false, errors.New(`linear: regPermForDivide: the first in-dim of both layouts must be "register"`)
	}
	var bcast Layout
	for _, o := range a.outs {
		id, _ := Identity1D(1, "register", o.name)
		bcast, _ = Mul(bcast, id)
	}
	bb, err := Mul(bcast, b)
	if err != nil {
		return ColumnAction{}, false, err
	}
	if !sameNames(bb.outs, a.outs) {
		return ColumnAction{}, false, nil
	}
	aRegs := a.Bases("register")
	used := make([]bool, len(aRegs))
	var bIdx []int
	for _, basis := range bb.Bases("register") {
		// Express b's basis in a's out-dim order.
		want := make([]int, len(a.outs))
		for j, o := range a.outs {
			v := basis[find(bb.outs, o.name)]
			if !left {
				q := o.log2 - bb.OutDimSizeLog2(o.name)
				if q < 0 {
					return ColumnAction{}, false, nil
				}
				v <<= uint(q)
			}
			want[j] = v
		}
		found := false
		for x, av := range aRegs {
			if !used[x] && slices.Equal(av, want) {
				used[x], found = true, true
				bIdx = append(bIdx, x)
				break
			}
		}
		if !found {
			return ColumnAction{}, false, nil
		}
	}
	var rest []int
	for x := range aRegs {
		if !used[x] {
			rest = append(rest, x)
		}
	}
	perm := slices.Concat(rest, bIdx)
	if left {
		perm = slices.Concat(bIdx, rest)
	}
	return ColumnAction{perm, "register", len(aRegs)}, true, nil
}

// InvertAndComposeBlockLocal returns b.InvertAndCompose(a) for a memory
// layout a and a register layout b, then keeps the result block-local: for
// each "block" bit on which a does not depend (a zero block basis), the
// output block bit is made equal to the input block bit, so no CTA reads
// another CTA's copy of broadcast data.
func InvertAndComposeBlockLocal(a, b Layout) (Layout, error) {
	c, err := b.InvertAndCompose(a)
	if err != nil {
		return Layout{}, err
	}
	ak, j := find(a.ins, "block"), find(c.outs, "block")
	if ak < 0 || j < 0 {
		return c, nil
	}
	o := c.outs[j]
	cols := slices.Clone(c.cols)
	bk := find(c.ins, "block")
	for i := 0; i < a.ins[ak].log2 && i < o.log2; i++ {
		if a.cols[a.ins[ak].off+i] != 0 {
			continue
		}
		bit := uint64(1) << uint(o.off+i)
		for x := range cols {
			cols[x] &^= bit
		}
		if bk >= 0 && i < c.ins[bk].log2 {
			cols[c.ins[bk].off+i] |= bit
		}
	}
	return mustAssemble(c.ins, c.outs, cols), nil
}
