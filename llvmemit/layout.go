package llvmemit

import (
	"fmt"
	"github.com/layoutopt/layoutopt/axisinfo"
	"math/bits"
	"slices"
	"sort"

	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// Hardware in-dims of a distributed layout.
const (
	dimReg   = "register"
	dimLane  = "lane"
	dimWarp  = "warp"
	dimBlock = "block"
)

// maxRegisters bounds the registers of one tensor in one thread: far
// more than a GPU thread has (255), so that no real kernel meets it, but
// a tensor of 2^30 elements is a located error rather than a module of
// millions of instructions.
const maxRegisters = 1 << 14

// tensorLayout returns the linear layout of a distributed tensor type, or
// nil for a scalar. Layouts spread over several CTAs are refused.
func tensorLayout(t ir.Type) (*linear.Layout, error) {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok {
		return nil, nil
	}
	enc := ir.Encoding(rt)
	if enc == nil {
		return nil, fmt.Errorf("tensor %s has no layout encoding", ir.TypeString(t))
	}
	shape := make([]int, len(rt.Shape))
	for i, s := range rt.Shape {
		shape[i] = int(s)
	}
	ll, err := attr.Linear(enc, shape)
	if err != nil {
		return nil, err
	}
	if _, ok := enc.(attr.Distributed); !ok {
		return nil, fmt.Errorf("tensor %s: %s is not a distributed layout", ir.TypeString(t), enc.Name())
	}
	if ll.HasInDim(dimBlock) && ll.InDimSize(dimBlock) > 1 {
		return nil, fmt.Errorf("layouts over several CTAs are not supported")
	}
	if n := ll.InDimSize(dimReg); n > maxRegisters {
		return nil, fmt.Errorf("tensor %s takes %d registers per thread (at most %d are supported)", ir.TypeString(t), n, maxRegisters)
	}
	return &ll, nil
}

// mustLayout is tensorLayout for a hook: an error panics with a message
// the hook's caller turns into a located error.
func mustLayout(t ir.Type) *linear.Layout {
	ll, err := tensorLayout(t)
	if err != nil {
		panic("llvmemit: " + err.Error())
	}
	return ll
}

// numRegs is the number of registers a value of type t takes.
func numRegs(t ir.Type) int {
	ll := mustLayout(t)
	if ll == nil {
		return 1
	}
	return ll.InDimSize(dimReg)
}

// hwBits is the number of runtime thread-id bits: lane bits then warp bits.
func hwBits(ll *linear.Layout) int {
	n := 0
	for _, d := range []string{dimLane, dimWarp} {
		if ll.HasInDim(d) {
			n += ll.InDimSizeLog2(d)
		}
	}
	return n
}

// hwBasis is the basis of thread-id bit k (lane bits, then warp bits).
func hwBasis(ll *linear.Layout, k int) []int {
	nl := 0
	if ll.HasInDim(dimLane) {
		nl = ll.InDimSizeLog2(dimLane)
	}
	if k < nl {
		return ll.Basis(dimLane, k)
	}
	return ll.Basis(dimWarp, k-nl)
}

// applyHW evaluates out-dim d of ll at the thread's (lane, warp), with the
// register input 0: Triton's applyLinearLayout over the runtime bits of
// tid (lane = tid & 31, warp = tid >> 5), as one mask-and-shift per
// diagonal of the GF(2) matrix, joined with or where the terms' bits are
// disjoint and xor where they overlap. It also returns the mask of bits
// the result may have.
func (l *Lowerer) applyHW(ll *linear.Layout, d int) (value.Value, uint64) {
	return l.applyHWAt(ll, d, l.tid)
}

// applyHWAt is applyHW for the thread id tid.
func (l *Lowerer) applyHWAt(ll *linear.Layout, d int, tid value.Value) (value.Value, uint64) {
	return l.applyMatrix(tid, hwBits(ll), func(k int) int { return hwBasis(ll, k)[d] })
}

// applyMatrix is the GF(2) product of the matrix whose column k is col(k)
// with the low n bits of x: one mask-and-shift per diagonal.
func (l *Lowerer) applyMatrix(x value.Value, n int, col func(k int) int) (value.Value, uint64) {
	// masks[s] collects the input bits k whose basis has bit k+s.
	masks := map[int]uint64{}
	for k := 0; k < n; k++ {
		c := uint64(col(k))
		for c != 0 {
			j := bits.TrailingZeros64(c)
			c &= c - 1
			masks[j-k] |= 1 << uint(k)
		}
	}
	shifts := make([]int, 0, len(masks))
	for s := range masks {
		shifts = append(shifts, s)
	}
	sort.Ints(shifts)
	b := l.b()
	var acc value.Value = i32(0)
	var seen uint64
	for _, s := range shifts {
		m := masks[s]
		term := b.shift(b.and(x, i32(int64(m))), s)
		var out uint64
		if s >= 0 {
			out = m << uint(s)
		} else {
			out = m >> uint(-s)
		}
		if out&seen == 0 {
			acc = b.or(acc, term)
		} else {
			acc = b.xor(acc, term)
		}
		seen |= out
	}
	return acc, seen
}

// emitIndices returns, for each register of a tensor of type t, its
// coordinate along every dim as an i32: the thread's part once, XORed
// with each register's constant part (Triton's emitIndices).
func (l *Lowerer) emitIndices(t ir.Type) [][]value.Value {
	ll := mustLayout(t)
	rank := ll.NumOutDims()
	base := make([]value.Value, rank)
	mask := make([]uint64, rank)
	for d := 0; d < rank; d++ {
		base[d], mask[d] = l.applyHW(ll, d)
	}
	n := ll.InDimSize(dimReg)
	out := make([][]value.Value, n)
	b := l.b()
	for r := 0; r < n; r++ {
		c := ll.Apply(r)
		idx := make([]value.Value, rank)
		for d := 0; d < rank; d++ {
			if uint64(c[d])&mask[d] == 0 {
				idx[d] = b.disjointOr(base[d], int64(c[d]))
			} else {
				idx[d] = b.xor(base[d], i32(int64(c[d])))
			}
		}
		out[r] = idx
	}
	return out
}

// regRemap computes, for each register of a layout dst (over its own
// shape), the register of src holding the same element when dst's
// coordinates are mapped into src's by to (a GF(2)-linear map on
// coordinates: a permutation, a reshape, dropping or zeroing dims). It
// fails unless the lanes and warps of the two agree, i.e. the op moves
// no data between threads.
func regRemap(src, dst *linear.Layout, to func([]int) []int) ([]int, error) {
	return regRemapOffset(src, dst, to, nil)
}

// regRemapOffset is regRemap for the affine map to(c) ⊕ off.
func regRemapOffset(src, dst *linear.Layout, to func([]int) []int, off []int) ([]int, error) {
	for _, d := range []string{dimLane, dimWarp} {
		if !dst.HasInDim(d) {
			continue
		}
		for k := 0; k < dst.InDimSizeLog2(d); k++ {
			want := to(dst.Basis(d, k))
			got := src.Basis(d, k)
			if !slices.Equal(want, got) {
				return nil, fmt.Errorf("the %s bases of the two layouts differ (%v vs %v): the op would move data between threads", d, want, got)
			}
		}
	}
	index := map[string]int{}
	for r := src.InDimSize(dimReg) - 1; r >= 0; r-- {
		index[fmt.Sprint(src.Apply(r))] = r
	}
	n := dst.InDimSize(dimReg)
	out := make([]int, n)
	for r := 0; r < n; r++ {
		c := to(dst.Apply(r))
		for i := range off {
			c[i] ^= off[i]
		}
		s, ok := index[fmt.Sprint(c)]
		if !ok {
			return nil, fmt.Errorf("register %d of the result (element %v) is not held by the thread", r, c)
		}
		out[r] = s
	}
	return out, nil
}

// fastestDim is the dim along which a thread's consecutive registers run
// (Triton's order[0]).
func fastestDim(t ir.Type) int { return axisinfo.FastestDim(t, mustLayout(t)) }
