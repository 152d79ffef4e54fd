package llvmemit

import (
	"math/bits"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// tt.gather and tt.histogram, through shared memory. gather stores the
// source tensor in the op's scratch with the gather axis fastest (the
// other dimensions row-major above it), and each thread loads its result
// elements at the coordinates its indices name (Triton's non-warp-local
// path; Triton linearizes dimension 0 fastest, the same order for a 2-D
// gather along axis 0). With the axis fastest, a warp's loads of
// data-dependent indices spread over the 32 banks instead of the few
// banks its columns fall in, each store is the thread's base plus an
// immediate, and each load the thread's row pointer plus the index plus
// an immediate. histogram zeroes one i32 counter per bin, every element
// held by the thread (once: broadcast registers, lanes and warps do not
// count twice) adds 1 to its bin with a shared-memory atomic, and each
// thread reads the bins of its result registers; values outside [0,
// bins) and masked-off elements are not counted.

func init() {
	Register("tt.gather", lowerGather)
	Register("tt.histogram", lowerHistogram)
}

func lowerGather(l *Lowerer, op *ir.Operation) error {
	axis := int(ir.AttrIntValue(op.Attr("axis")))
	if _, allocated := op.IntAttr("allocation.offset"); !allocated {
		// Without scratch from the allocator (or without an allocation at
		// all), go through shuffles when the gather stays in a warp.
		if ok, err := l.gatherInWarp(op, axis); ok || err != nil {
			return err
		}
	}
	src, idx := op.Operand(0), op.Operand(1)
	S := mustLayout(src.Type())
	shape := intShape(ir.ShapeOrScalar(src.Type()))
	numel := 1
	for _, s := range shape {
		numel *= s
	}
	elt := mustType(ir.ElementType(src.Type()))
	st := storableType(elt)
	eb := typeBits(st) / 8
	base := l.scratch(op, numel*eb)
	// order lists the dimensions slowest first, the axis last (fastest).
	order := make([]int, 0, len(shape))
	for d := range shape {
		if d != axis {
			order = append(order, d)
		}
	}
	order = append(order, axis)
	pshape := permute(shape, order)
	// Store the source: each register's slot is the thread's part of the
	// flattened coordinates ⊕ the register's constant part.
	hw := make([]value.Value, len(shape))
	masks := make([]uint64, len(shape))
	for d := range shape {
		hw[d], masks[d] = l.applyHW(S, d)
	}
	flat, mask := l.flattenHW(permute(hw, order), permute(masks, order), pshape)
	set := &slotSet{hw: flat, mask: mask}
	in := l.Values(src)
	dup := dupRegisters(S)
	var vals []value.Value
	for r := range in {
		if r&dup != 0 {
			continue
		}
		set.consts = append(set.consts, flattenConst(permute(S.Apply(r), order), pshape))
		vals = append(vals, in[r])
	}
	l.syncShared()
	l.storeSlotSet(set, vals, int64(base))
	l.barrier()
	// Load: the result layout's coordinates but along the axis, flattened
	// (the thread's part, shifted above the axis, is a row pointer made
	// once; the register's constant part an immediate offset), plus the
	// index.
	R := mustLayout(op.Result(0).Type())
	rhw := make([]value.Value, 0, len(order)-1)
	rmasks := make([]uint64, 0, len(order)-1)
	for _, d := range order[:len(order)-1] {
		v, m := l.applyHW(R, d)
		rhw, rmasks = append(rhw, v), append(rmasks, m)
	}
	b := l.b()
	logEB := int64(bits.TrailingZeros(uint(eb)))
	rowShift := logEB + int64(bits.TrailingZeros(uint(shape[axis])))
	rflat, rmask := l.flattenHW(rhw, rmasks, pshape[:len(pshape)-1])
	rowPtrs := map[uint64]value.Value{}
	ids := l.Values(idx)
	out := make([]value.Value, len(ids))
	for r := range ids {
		c := permute(R.Apply(r), order)
		k := uint64(flattenConst(c[:len(c)-1], pshape[:len(pshape)-1]))
		// Constant bits within the thread's mask flip its bits (xor);
		// the others add.
		hk := k & rmask
		row, ok := rowPtrs[hk]
		if !ok {
			x, _ := l.xorScaled(rflat, rmask, hk, eb*shape[axis])
			row = l.smemPtr(b.add(x, i32(int64(base))), types.I8)
			rowPtrs[hk] = row
		}
		off := b.add(b.shl(l.index32(ids[r]), i32(logEB)), i32(int64(k&^rmask)<<rowShift))
		p := l.cur.NewBitCast(l.cur.NewGetElementPtr(types.I8, row, off), ptrTo(st, asShared))
		ld := l.cur.NewLoad(st, p)
		ld.Align = lir.Align(eb)
		out[r] = l.unstorable(ld, elt)
	}
	l.Define(op.Result(0), out)
	return nil
}

// permute is xs in the order of the indices order.
func permute[T any](xs []T, order []int) []T {
	out := make([]T, len(order))
	for i, d := range order {
		out[i] = xs[d]
	}
	return out
}

// index32 is a gather index as i32: truncated when wider, sign-extended
// when narrower.
func (l *Lowerer) index32(c value.Value) value.Value {
	if it := c.Type().(*types.IntType); it.BitSize > 32 {
		return l.cur.NewTrunc(c, types.I32)
	} else if it.BitSize < 32 {
		return l.cur.NewSExt(c, types.I32)
	}
	return c
}

// writer says which copy of each element of a value of type t writes it
// (a store, an atomic), as Triton's redundant-thread predicate: dup is
// the mask of register bits that hold copies (registers r with r&dup != 0
// are skipped), uniq the condition that the thread is the first of those
// holding the same elements (nil: every thread). A scalar is written by
// thread 0.
func (l *Lowerer) writer(t ir.Type) (dup int, uniq value.Value) {
	ll := mustLayout(t)
	if ll == nil {
		return 0, l.cur.NewICmp(enum.IPredEQ, l.tid, i32(0))
	}
	return dupRegisters(ll), l.uniqueThread(ll)
}

// uniqueThread is the condition that the thread is the first of the
// threads holding the same data (its broadcast lane and warp bits are 0),
// or nil when no bits broadcast.
func (l *Lowerer) uniqueThread(ll *linear.Layout) value.Value {
	var m int64
	for k := 0; k < hwBits(ll); k++ {
		if allZero(hwBasis(ll, k)) {
			m |= 1 << k
		}
	}
	if m == 0 {
		return nil
	}
	return l.cur.NewICmp(enum.IPredEQ, l.b().and(l.tid, i32(m)), i32(0))
}

func lowerHistogram(l *Lowerer, op *ir.Operation) error {
	src := op.Operand(0)
	bins := int(ir.ShapeOrScalar(op.Result(0).Type())[0])
	base := l.scratch(op, bins*4)
	b := l.b()
	// Zero the bins: thread t clears bins t, t+threads, ...
	threads := 32 * l.e.numWarps
	l.syncShared()
	for i := 0; i < bins; i += threads {
		idx := b.add(l.tid, i32(int64(i)))
		addr := b.add(b.shl(idx, i32(2)), i32(base))
		p := l.smemPtr(addr, types.I32)
		if i+threads > bins {
			// Threads past the last bin write to bin 0 (zero too).
			ok := l.cur.NewICmp(enum.IPredULT, idx, i32(int64(bins)))
			p = l.smemPtr(l.cur.NewSelect(ok, addr, i32(base)), types.I32)
		}
		s := l.cur.NewStore(i32(0), p)
		s.Align = 4
	}
	l.barrier()
	vals := l.Values(src)
	var masks []value.Value
	if op.NumOperands() > 1 {
		masks = l.Values(op.Operand(1))
	}
	dup, uniq := l.writer(src.Type())
	for r, v := range vals {
		if r&dup != 0 {
			continue
		}
		if it := v.Type().(*types.IntType); it.BitSize != 32 {
			if it.BitSize > 32 {
				v = l.cur.NewTrunc(v, types.I32)
			} else {
				v = l.cur.NewSExt(v, types.I32)
			}
		}
		ok := l.cur.NewICmp(enum.IPredULT, v, i32(int64(bins))) // also rejects negatives
		var cond value.Value = ok
		if masks != nil {
			cond = l.cur.NewAnd(cond, masks[r])
		}
		if uniq != nil {
			cond = l.cur.NewAnd(cond, uniq)
		}
		bin := l.cur.NewSelect(cond, v, i32(0))
		inc := l.cur.NewZExt(cond, types.I32)
		addr := b.add(b.shl(bin, i32(2)), i32(base))
		a := l.cur.NewAtomicRMW(enum.AtomicOpAdd, l.smemPtr(addr, types.I32), inc, enum.AtomicOrderingMonotonic)
		_ = a
	}
	l.barrier()
	rc := l.emitIndices(op.Result(0).Type())
	out := make([]value.Value, len(rc))
	for r, c := range rc {
		addr := b.add(b.shl(c[0], i32(2)), i32(base))
		ld := l.cur.NewLoad(types.I32, l.smemPtr(addr, types.I32))
		ld.Align = 4
		out[r] = ld
	}
	l.Define(op.Result(0), out)
	return nil
}

// gatherInWarp lowers a gather whose source elements always sit in the
// reading thread's warp (Triton's warp-local gather, which gets no
// scratch): with S⁻¹ the source layout inverted, a result register's
// element (its own coordinates, the axis one replaced by the index) lives
// at register and lane S⁻¹(coordinates), linear in the thread's bits and
// in the index's; every source register is shuffled from that lane and
// the one wanted is selected. It returns false when the layouts do not
// keep the gather inside a warp.
func (l *Lowerer) gatherInWarp(op *ir.Operation, axis int) (bool, error) {
	src := op.Operand(0)
	S, R := mustLayout(src.Type()), mustLayout(op.Result(0).Type())
	inv, err := S.PseudoInvert()
	if err != nil {
		return false, nil
	}
	ri, li, wi := inv.OutDimIndex(dimReg), inv.OutDimIndex(dimLane), inv.OutDimIndex(dimWarp)
	if ri < 0 || li < 0 {
		return false, nil
	}
	part := func(hw []int, i int) int {
		if i < 0 {
			return 0
		}
		return hw[i]
	}
	zeroAxis := func(c []int) []int {
		c = append([]int{}, c...)
		c[axis] = 0
		return c
	}
	// The thread's bits: a warp basis must map to itself, a lane basis to
	// no warp.
	for k := 0; k < hwBits(R); k++ {
		if allZero(zeroAxis(hwBasis(R, k))) {
			continue // a copy: every copy holds the same data in its own warp
		}
		hw := inv.Apply(zeroAxis(hwBasis(R, k))...)
		want := 0
		if k >= 5 {
			want = 1 << (k - 5)
		}
		if part(hw, wi) != want {
			return false, nil
		}
	}
	axisBits := S.OutDimSizeLog2(S.OutDimNames()[axis])
	unit := func(j int) []int {
		c := make([]int, S.NumOutDims())
		c[axis] = 1 << j
		return inv.Apply(c...)
	}
	for j := 0; j < axisBits; j++ {
		if part(unit(j), wi) != 0 {
			return false, nil
		}
	}
	for r := 0; r < R.InDimSize(dimReg); r++ {
		if part(inv.Apply(zeroAxis(R.Apply(r))...), wi) != 0 {
			return false, nil
		}
	}
	thrReg, _ := l.applyMatrix(l.tid, hwBits(R), func(k int) int { return part(inv.Apply(zeroAxis(hwBasis(R, k))...), ri) })
	thrLane, _ := l.applyMatrix(l.tid, hwBits(R), func(k int) int { return part(inv.Apply(zeroAxis(hwBasis(R, k))...), li) })
	in := l.Values(src)
	regs := make([]int, len(in)) // every source register is a candidate
	for i := range regs {
		regs[i] = i
	}
	ids := l.Values(op.Operand(1))
	out := make([]value.Value, R.InDimSize(dimReg))
	b := l.b()
	for r := range out {
		c := inv.Apply(zeroAxis(R.Apply(r))...)
		idx := ids[r]
		if it := idx.Type().(*types.IntType); it.BitSize != 32 {
			if it.BitSize > 32 {
				idx = l.cur.NewTrunc(idx, types.I32)
			} else {
				idx = l.cur.NewSExt(idx, types.I32)
			}
		}
		idxReg, _ := l.applyMatrix(idx, axisBits, func(j int) int { return part(unit(j), ri) })
		idxLane, _ := l.applyMatrix(idx, axisBits, func(j int) int { return part(unit(j), li) })
		reg := b.xor(b.xor(thrReg, idxReg), i32(int64(part(c, ri))))
		lane := b.xor(b.xor(thrLane, idxLane), i32(int64(part(c, li))))
		out[r] = l.shuffleSelect(regs, reg, lane, func(s int) value.Value { return in[s] })
	}
	l.Define(op.Result(0), out)
	return true, nil
}
