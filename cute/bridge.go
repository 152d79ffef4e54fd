package cute

import (
	"fmt"
	"math/bits"

	"github.com/layoutopt/layoutopt/linear"
)

// OffsetDim is the name of the single output dimension of the linear layouts
// ToLinear builds: the offset the CuTe layout computes.
const OffsetDim = "offset"

// ModeDim returns the name of the linear layout input dimension that holds
// the coordinate bits of top-level mode i: "mode0", "mode1", ….
func ModeDim(i int) string { return fmt.Sprintf("mode%d", i) }

// ToLinear converts l, whose function must be linear over GF(2) (see
// IsLinear), to a linear.Layout; see SwizzledLayout.ToLinear.
func (l Layout) ToLinear() (linear.Layout, error) { return SwizzledLayout{Layout: l}.ToLinear() }

// ToLinear converts s, whose function must be linear over GF(2) (see
// IsLinear; otherwise the error is a *NotLinearError that says why), to a
// linear.Layout with
//
//   - one input dimension per top-level mode, named ModeDim(i), of the mode's
//     size; its bits are the bits of the mode's 1-D (colexicographic)
//     coordinate, lowest first, so a mode's basis i is the offset of that
//     mode's coordinate 2^i;
//   - one output dimension OffsetDim, of the smallest power-of-two size that
//     holds every offset.
//
// For every coordinate, Apply of the mode coordinates gives the offset s
// computes. Example: (8,8):(8,1) gives mode0 bases 8, 16, 32, mode1 bases 1,
// 2, 4 and an offset of size 64.
func (s SwizzledLayout) ToLinear() (linear.Layout, error) {
	basis, err := s.linearBasis()
	if err != nil {
		return linear.Layout{}, err
	}
	or := 0
	for _, b := range basis {
		or |= b
	}
	ins := make([]linear.InDim, s.Layout.Rank())
	for i, nb := range s.Layout.modeBits() {
		bases := make([][]int, nb)
		for j := range bases {
			bases[j] = []int{basis[j]}
		}
		basis = basis[nb:]
		ins[i] = linear.InDim{Name: ModeDim(i), Bases: bases}
	}
	outs := []linear.OutDim{{Name: OffsetDim, Size: 1 << bits.Len64(uint64(or))}}
	return linear.New(ins, outs, false)
}

// FromLinear converts a linear layout back to a CuTe layout with the same
// function, where one exists. Each input dimension becomes a top-level mode
// (a single input dimension becomes the whole layout), and the output
// dimensions are flattened into one offset, the first the most minor. When
// the offsets of the input bits have pairwise disjoint bits, the result is
// the plain layout (2,2,…):(b0,b1,…) of each dimension, coalesced mode by
// mode; otherwise FromLinear looks for a swizzle W (B <= 6, M <= 24, |S| <=
// 24) under which the offsets W(b) are disjoint, and returns W ∘ layout. A
// linear layout that is neither, such as a general XOR mixing, has no CuTe
// form and gives an error.
func FromLinear(ll linear.Layout) (SwizzledLayout, error) {
	names := ll.InDimNames()
	if len(names) == 0 {
		return SwizzledLayout{}, errorf("from linear: the layout has no input dimensions")
	}
	if total := ll.TotalOutDimSizeLog2(); total > maxExtentLog2 {
		return SwizzledLayout{}, errorf("from linear: %d output bits exceed the supported extent 2^%d", total, maxExtentLog2)
	}
	// The packed columns are the input bits' images with the output
	// dimensions flattened, the first the most minor.
	cols := ll.Columns()
	flat := make([]int, len(cols))
	for j, c := range cols {
		flat[j] = int(c)
	}
	sw, ok := findSwizzle(flat)
	if !ok {
		return SwizzledLayout{}, errorf("from linear: %s has no shape:stride form (its bases %v overlap, and no swizzle separates them)", ll, flat)
	}
	strides := make([]int, len(flat))
	for j, b := range flat {
		strides[j] = sw.Apply(b)
	}
	modes := make([]Layout, len(names))
	for i, name := range names {
		nb := ll.InDimSizeLog2(name)
		if nb == 0 {
			modes[i] = build(Int(1), Int(0))
			continue
		}
		twos := make([]int, nb)
		for j := range twos {
			twos[j] = 2
		}
		modes[i] = Coalesce(flatLayout(twos, strides[:nb]))
		strides = strides[nb:]
	}
	l := modes[0]
	if len(modes) > 1 {
		l = concat(modes...)
	}
	l, err := finish(l)
	if err != nil {
		return SwizzledLayout{}, err
	}
	return SwizzledLayout{Swizzle: sw, Layout: l}, nil
}

// disjoint reports whether the values have pairwise disjoint bits.
func disjoint(vals []int, sw Swizzle) bool {
	seen := 0
	for _, v := range vals {
		w := sw.Apply(v)
		if w&seen != 0 {
			return false
		}
		seen |= w
	}
	return true
}

// findSwizzle returns the identity if the bases are already disjoint, and
// otherwise the smallest swizzle (by B, then |S|, then M, positive S first)
// that makes them so.
func findSwizzle(bases []int) (Swizzle, bool) {
	if disjoint(bases, Swizzle{}) {
		return Swizzle{}, true
	}
	for b := 1; b <= 6; b++ {
		for as := b; as <= 24; as++ {
			for m := 0; m <= 24; m++ {
				for _, s := range []int{as, -as} {
					sw := Swizzle{B: b, M: m, S: s}
					if sw.Validate() == nil && disjoint(bases, sw) {
						return sw, true
					}
				}
			}
		}
	}
	return Swizzle{}, false
}
