package linear

import (
	"fmt"
	"slices"
)

// This file holds generic helpers of Triton's LayoutUtils that the encoding
// conversions (LinearLayoutConversions.cpp) are written in, and the out-dim
// size inference of Triton's LinearLayout(bases, outDimNames) constructor
// for layouts that need not be surjective.

// InferredOutDims returns the out-dims that NewInferred gives a layout with
// these in-dims: out-dim j is named outNames[j], and its size is the
// smallest power of two strictly greater than coordinate j of every basis
// (1 when there is none). Unlike NewInferred it does not ask for
// surjectivity: New(ins, InferredOutDims(ins, outNames), false) builds a
// layout whose image may be smaller than its out-dims, which is how a
// verifier can inspect bases before rejecting them. It fails on a basis
// with the wrong number of coordinates, a negative coordinate or one of
// MaxBits bits or more.
func InferredOutDims(ins []InDim, outNames []string) ([]OutDim, error) {
	outs := make([]OutDim, len(outNames))
	for j, name := range outNames {
		outs[j] = OutDim{name, 1}
	}
	for _, in := range ins {
		for b, basis := range in.Bases {
			if len(basis) != len(outNames) {
				return nil, fmt.Errorf("linear: basis %d of in-dim %q has %d coordinates, want one per out-dim (%d)", b, in.Name, len(basis), len(outNames))
			}
			for j, v := range basis {
				if v < 0 {
					return nil, fmt.Errorf("linear: basis %d of in-dim %q has negative coordinate %d for out-dim %q", b, in.Name, v, outNames[j])
				}
				if v >= 1<<MaxBits {
					return nil, fmt.Errorf("linear: coordinate %d for out-dim %q is too large", v, outNames[j])
				}
				outs[j].Size = max(outs[j].Size, nextPow2(v))
			}
		}
	}
	return outs, nil
}

// isStandard reports whether names are dim0, dim1, … in order.
func isStandard(names []string) bool {
	return slices.Equal(names, StandardOutDimNames(len(names)))
}

// RemoveStandardDim drops out-dim dim of a layout whose out-dims are the
// standard dim0…dim<n-1> and renames the remaining ones dim0…dim<n-2>
// (Triton's removeStandardDim). The bases lose that coordinate; the other
// out-dims keep their sizes, and the result need not be surjective.
func RemoveStandardDim(l Layout, dim int) (Layout, error) {
	outs := l.OutDimNames()
	if !isStandard(outs) {
		return Layout{}, fmt.Errorf("linear: removeStandardDim: out-dims %v are not dim0, dim1, …", outs)
	}
	if dim < 0 || dim >= len(outs) {
		return Layout{}, fmt.Errorf("linear: removeStandardDim: no dim %d among %d out-dims", dim, len(outs))
	}
	sub, err := l.Sublayout(l.InDimNames(), slices.Delete(outs, dim, dim+1))
	if err != nil {
		return Layout{}, err
	}
	// Renaming the out-dims keeps their sizes and order: a reshape to the
	// same sizes under the new names.
	dims := sub.OutDims()
	for j, name := range StandardOutDimNames(len(dims)) {
		dims[j].Name = name
	}
	return sub.ReshapeOuts(dims)
}

// ReshapeLayout reshapes the out-dims of l into the standard dims of shape
// (Triton's reshapeLayout): the output is read as one row-major integer,
// the last out-dim in l's order least significant, and split again over
// shape, whose last dim is likewise the least significant. The total size
// must not change.
func ReshapeLayout(l Layout, shape []int) (Layout, error) {
	rev := l.OutDimNames()
	slices.Reverse(rev)
	t, err := l.TransposeOuts(rev)
	if err != nil {
		return Layout{}, err
	}
	names := StandardOutDimNames(len(shape))
	dims := make([]Dim, len(shape))
	for i := range shape {
		k := len(shape) - 1 - i
		dims[i] = Dim{names[k], shape[k]}
	}
	if t, err = t.ReshapeOuts(dims); err != nil {
		return Layout{}, err
	}
	return t.TransposeOuts(names)
}

// TransposeLinearLayout permutes the coordinates of every basis (Triton's
// transposeLinearLayout): coordinate j of a new basis is coordinate
// order[j] of the old one. The out-dims keep their names and places, and
// their sizes are inferred again from the new bases, so the result must be
// surjective, as in Triton. order must be a permutation of the out-dim
// indices.
func TransposeLinearLayout(l Layout, order []int) (Layout, error) {
	n := l.NumOutDims()
	if len(order) != n {
		return Layout{}, fmt.Errorf("linear: transposeLinearLayout: order %v is not a permutation of %d out-dims", order, n)
	}
	for i, o := range order {
		if o < 0 || o >= n || slices.Contains(order[:i], o) {
			return Layout{}, fmt.Errorf("linear: transposeLinearLayout: order %v is not a permutation of %d out-dims", order, n)
		}
	}
	ins := l.InDims()
	for _, in := range ins {
		for k, b := range in.Bases {
			nb := make([]int, n)
			for j, o := range order {
				nb[j] = b[o]
			}
			in.Bases[k] = nb
		}
	}
	return NewInferred(ins, l.OutDimNames())
}
