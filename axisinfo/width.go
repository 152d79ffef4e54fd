package axisinfo

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// VectorWidth is the number of elements one global access through the
// tensor of pointers ptr (of linear layout ll) moves at once, as package
// llvmemit lowers it: the largest power of two at most 128 bits, the
// thread's consecutive registers along the layout's fastest dim, the
// pointers' alignment and contiguity along it, and, with a mask, the
// mask's constancy.
func (a *Analysis) VectorWidth(ptr, mask *ir.Value, ll *linear.Layout) int {
	t := ptr.Type()
	dim := FastestDim(t, ll)
	info := a.Get(ptr)
	eb := ElemBytes(t)
	bitsPer := eb * 8
	if it, ok := ir.ElementType(t).(*ir.PointerType).Pointee.(*ir.IntegerType); ok && it.Width == 1 {
		bitsPer = 8
	}
	align := min(max(info.Divisibility[dim]/eb, 1), info.Contiguity[dim])
	vec := min(int64(ContigPerThread(ll, dim)), align, 128/bitsPer)
	if mask != nil {
		vec = min(vec, a.Get(mask).Constancy[dim])
	}
	v := 1
	for int64(v*2) <= vec {
		v *= 2
	}
	return v
}

// FastestDim is the dim along which a thread's consecutive registers run
// in a tensor of type t with linear layout ll (Triton's order[0]).
func FastestDim(t ir.Type, ll *linear.Layout) int {
	if b, ok := ir.Encoding(t).(*attr.Blocked); ok && len(b.Order) > 0 {
		return b.Order[0]
	}
	for _, d := range []string{"register", "lane", "warp"} {
		for k := 0; k < ll.InDimSizeLog2(d); k++ {
			for i, c := range ll.Basis(d, k) {
				if c != 0 {
					return i
				}
			}
		}
	}
	return ll.NumOutDims() - 1
}

// ContigPerThread is the number of consecutive registers that hold
// consecutive elements along dim (Triton's contiguity from the layout).
func ContigPerThread(ll *linear.Layout, dim int) int {
	n := 1
	for k := 0; k < ll.InDimSizeLog2("register"); k++ {
		for i, c := range ll.Basis("register", k) {
			want := 0
			if i == dim {
				want = n
			}
			if c != want {
				return n
			}
		}
		n *= 2
	}
	return n
}
