package linear

import (
	"fmt"
	"slices"
)

// NewFromColumns builds a layout from its dims and packed columns, the form
// Columns and ColumnsOf return: one column per input bit (in-dims in order,
// low bit first), out-dim j occupying its bits at the sum of the sizes (in
// bits) of the out-dims before it. It checks the sizes and that no column
// has bits beyond the out-dims; with requireSurjective it also checks
// surjectivity. cols is copied.
func NewFromColumns(ins, outs []Dim, cols []uint64, requireSurjective bool) (Layout, error) {
	inDims, err := sizedDims(ins, totalLog2(ins), "newFromColumns in-dims")
	if err != nil {
		return Layout{}, err
	}
	outDims, err := sizedDims(outs, totalLog2(outs), "newFromColumns out-dims")
	if err != nil {
		return Layout{}, err
	}
	if n := outBits(inDims); n != len(cols) {
		return Layout{}, fmt.Errorf("linear: newFromColumns: %d columns for %d input bits", len(cols), n)
	}
	ob := outBits(outDims)
	if ob > MaxBits || len(cols) > MaxBits {
		return Layout{}, fmt.Errorf("linear: newFromColumns: more than %d bits", MaxBits)
	}
	for c, v := range cols {
		if v>>uint(ob) != 0 {
			return Layout{}, fmt.Errorf("linear: newFromColumns: column %d (%#x) has bits beyond the %d output bits", c, v, ob)
		}
	}
	l := Layout{inDims, outDims, slices.Clone(cols), colRank(cols)}
	if requireSurjective && !l.IsSurjective() {
		return Layout{}, fmt.Errorf("linear: layout is not surjective (rank %d, %d out bits):%s", l.rank, ob, l)
	}
	return l, nil
}

// QuotientChain applies Quotient to dims one at a time, in order, and stops
// at the first dim over which the layout is not trivial. It returns the
// result and how many dims were removed; it is the loop of Triton's
// minimalCvtLayout, without building the intermediate layouts.
func (l Layout) QuotientChain(dims []string) (Layout, int) {
	ins, outs, cols := l.ins, l.outs, l.cols
	n := 0
	for _, name := range dims {
		k, j := find(ins, name), find(outs, name)
		if k < 0 || j < 0 || ins[k].log2 != outs[j].log2 {
			break
		}
		d, o := ins[k], outs[j]
		trivial := true
		for c, v := range cols {
			if c >= d.off && c < d.off+d.log2 {
				trivial = v == 1<<uint(o.off+c-d.off)
			} else {
				trivial = field(v, o) == 0
			}
			if !trivial {
				break
			}
		}
		if !trivial {
			break
		}
		lowMask := mask(o.off)
		newCols := make([]uint64, 0, len(cols)-d.log2)
		for c, v := range cols {
			if c >= d.off && c < d.off+d.log2 {
				continue
			}
			newCols = append(newCols, v&lowMask|v>>uint(o.off+o.log2)<<uint(o.off))
		}
		ins = withOffsets(slices.Delete(slices.Clone(ins), k, k+1))
		outs = withOffsets(slices.Delete(slices.Clone(outs), j, j+1))
		cols = newCols
		n++
	}
	if n == 0 {
		return l, 0
	}
	return Layout{ins, outs, cols, colRank(cols)}, n
}

// totalLog2 is the sum of log2 of the sizes that are powers of two (the
// others are reported by sizedDims).
func totalLog2(ds []Dim) int {
	t := 0
	for _, d := range ds {
		if isPow2(d.Size) {
			t += log2(d.Size)
		}
	}
	return t
}
