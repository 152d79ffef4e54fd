package llvmemit

import (
	"fmt"
	"math/bits"
	"slices"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// tt.reduce, as Triton's ReduceOpToLLVM: first over each thread's
// registers, then within the warp with shfl.sync.bfly over the lane bits
// that run along the axis, then, when warps split the axis, through
// shared memory: every warp writes its partial results, and each thread
// combines the partials of the elements it holds in the result layout.

func init() { Register("tt.reduce", lowerReduce) }

// combiner applies op's combine region to (acc..., cur...).
func (l *Lowerer) combiner(op *ir.Operation) func(acc, cur []value.Value) []value.Value {
	blk := op.Region(0).Entry()
	return func(acc, cur []value.Value) []value.Value {
		args := make([][]value.Value, 0, len(acc)+len(cur))
		for _, v := range acc {
			args = append(args, []value.Value{v})
		}
		for _, v := range cur {
			args = append(args, []value.Value{v})
		}
		_, ys, err := l.lowerRegionBody(blk, args)
		if err != nil {
			panic(err)
		}
		out := make([]value.Value, len(ys))
		for i, y := range ys {
			out[i] = y[0]
		}
		return out
	}
}

// dupRegisters is the mask of register bits whose basis is zero
// (registers holding a copy of another).
func dupRegisters(ll *linear.Layout) int {
	m := 0
	for k := 0; k < ll.InDimSizeLog2(dimReg); k++ {
		if allZero(ll.Basis(dimReg, k)) {
			m |= 1 << k
		}
	}
	return m
}

// dropDim is c without its element at axis.
func dropDim[T any](c []T, axis int) []T {
	return append(append([]T{}, c[:axis]...), c[axis+1:]...)
}

// axisBits returns the bits of in-dim d whose basis is along axis, and
// fails when a basis mixes the axis with other dims.
func axisBits(ll *linear.Layout, d string, axis int) ([]int, error) {
	var ks []int
	if !ll.HasInDim(d) {
		return nil, nil
	}
	for k := 0; k < ll.InDimSizeLog2(d); k++ {
		b := ll.Basis(d, k)
		if b[axis] == 0 {
			continue
		}
		for i, v := range b {
			if i != axis && v != 0 {
				return nil, fmt.Errorf("%s basis %d %v mixes the reduced axis with other dims", d, k, b)
			}
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// storeSlot stores v, in its shared-memory type, as element slot of the
// scratch array of that type at byte offset off (reductions and scans
// exchange partial results across warps this way).
func (l *Lowerer) storeSlot(slot value.Value, off int64, v value.Value) {
	b := l.b()
	sv := l.storable(v)
	eb := typeBits(sv.Type()) / 8
	addr := b.add(b.shl(slot, i32(int64(bits.TrailingZeros(uint(eb))))), i32(off))
	st := l.cur.NewStore(sv, l.smemPtr(addr, sv.Type()))
	st.Align = lir.Align(eb)
}

// loadSlot loads what storeSlot stored at (slot, off) as a register of
// type t.
func (l *Lowerer) loadSlot(slot value.Value, off int64, t types.Type) value.Value {
	b := l.b()
	st := storableType(t)
	eb := typeBits(st) / 8
	addr := b.add(b.shl(slot, i32(int64(bits.TrailingZeros(uint(eb))))), i32(off))
	ld := l.cur.NewLoad(st, l.smemPtr(addr, st))
	ld.Align = lir.Align(eb)
	return l.unstorable(ld, t)
}

// loadSlots loads the n consecutive slots from first (a multiple of n, n
// a power of two) that storeSlot stored at off, as registers of type t:
// in vectors of up to 16 bytes where off keeps them aligned (one
// ld.shared.v4 for four f32 partials instead of four ld.shared).
func (l *Lowerer) loadSlots(first value.Value, n int, off int64, t types.Type) []value.Value {
	st := storableType(t)
	eb := typeBits(st) / 8
	vec := 1
	for vec < n && 2*vec*eb <= 16 && off%int64(2*vec*eb) == 0 {
		vec *= 2
	}
	out := make([]value.Value, 0, n)
	if vec == 1 {
		b := l.b()
		for w := 0; w < n; w++ {
			out = append(out, l.loadSlot(b.or(first, i32(int64(w))), off, t))
		}
		return out
	}
	b := l.b()
	vt := types.NewVector(uint64(vec), st)
	for w := 0; w < n; w += vec {
		addr := b.add(b.shl(b.or(first, i32(int64(w))), i32(int64(bits.TrailingZeros(uint(eb))))), i32(off))
		ld := l.cur.NewLoad(vt, l.smemPtr(addr, vt))
		ld.Align = lir.Align(vec * eb)
		for j := 0; j < vec; j++ {
			out = append(out, l.unstorable(l.cur.NewExtractElement(ld, i32(int64(j))), t))
		}
	}
	return out
}

// recoverError turns a panic with an error value, which the reduce and
// scan lowerings raise from deep inside their layout walks, into *err.
func recoverError(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(error); ok {
			*err = e
			return
		}
		panic(r)
	}
}

func lowerReduce(l *Lowerer, op *ir.Operation) (err error) {
	defer recoverError(&err)
	axis := int(ir.AttrIntValue(op.Attr("axis")))
	srcs := op.Operands()
	S := mustLayout(srcs[0].Type())
	combine := l.combiner(op)
	ins := make([][]value.Value, len(srcs))
	for i, s := range srcs {
		ins[i] = l.Values(s)
	}
	// 1. Within the thread.
	dup := dupRegisters(S)
	type acc struct {
		key  []int
		vals []value.Value
	}
	var accs []*acc
	byKey := map[string]*acc{}
	for r := 0; r < S.InDimSize(dimReg); r++ {
		if r&dup != 0 {
			continue
		}
		c := S.Apply(r)
		c[axis] = 0
		k := fmt.Sprint(c)
		cur := make([]value.Value, len(ins))
		for i := range ins {
			cur[i] = ins[i][r]
		}
		if a, ok := byKey[k]; ok {
			a.vals = combine(a.vals, cur)
		} else {
			a := &acc{key: c, vals: cur}
			byKey[k] = a
			accs = append(accs, a)
		}
	}
	// 2. Within the warp.
	lanes, err := axisBits(S, dimLane, axis)
	if err != nil {
		return errorf(op, "%v", err)
	}
	for i := len(lanes) - 1; i >= 0; i-- {
		for _, a := range accs {
			other := make([]value.Value, len(a.vals))
			for j, v := range a.vals {
				other[j] = l.shuffle("bfly", v, i32(1<<lanes[i]), 0x1f)
			}
			a.vals = combine(a.vals, other)
		}
	}
	warps, err := axisBits(S, dimWarp, axis)
	if err != nil {
		return errorf(op, "%v", err)
	}
	resT := op.Result(0).Type()
	R := mustLayout(resT)
	if len(warps) == 0 {
		// The result layout must be S with the axis dropped.
		if R != nil {
			for _, d := range []string{dimLane, dimWarp} {
				for k := 0; k < R.InDimSizeLog2(d); k++ {
					if !slices.Equal(R.Basis(d, k), dropDim(S.Basis(d, k), axis)) {
						return errorf(op, "the result layout is not the slice of the operand's")
					}
				}
			}
		}
		n := 1
		if R != nil {
			n = R.InDimSize(dimReg)
		}
		outs := make([][]value.Value, len(srcs))
		for r := 0; r < n; r++ {
			var key []int
			if R != nil {
				c := R.Apply(r)
				key = append(append(append([]int{}, c[:axis]...), 0), c[axis:]...)
			} else {
				key = make([]int, S.NumOutDims())
			}
			a, ok := byKey[fmt.Sprint(key)]
			if !ok {
				return errorf(op, "result register %d (element %v) is not reduced by its thread", r, key)
			}
			for i := range outs {
				outs[i] = append(outs[i], a.vals[i])
			}
		}
		for i, res := range op.Results() {
			l.Define(res, outs[i])
		}
		return nil
	}
	// 3. Across warps, through shared memory.
	nwa := 1 << len(warps)
	resShape := dropDim(intShape(shapeOf(srcs[0].Type())), axis)
	numel := 1
	for _, s := range resShape {
		numel *= s
	}
	var offs []int64
	size := 0
	for _, res := range op.Results() {
		offs = append(offs, int64(size))
		et := storableType(mustType(ir.ElementType(res.Type())))
		size += numel * nwa * typeBits(et) / 8
	}
	base := l.scratch(op, size)
	b := l.b()
	warp := b.lshr(l.tid, i32(5))
	var wa value.Value = i32(0)
	for j, k := range warps {
		wa = b.or(wa, b.shift(b.and(warp, i32(1<<k)), j-k))
	}
	// The scratch holds nwa partials of each of the numel result elements:
	// warp-minor (element·nwa + warp, Triton's order with the axis first)
	// when the axis is the layout's fastest dimension, so that a thread
	// loads its element's partials as vectors; warp-major (warp·numel +
	// element) otherwise, where neighbouring lanes hold neighbouring
	// elements and warp-minor slots would put a warp's stores nwa words
	// apart (an nwa-way bank conflict, 32-way for 8 warps of f32 partials
	// by 4), and a thread's consecutive elements are consecutive slots,
	// stored and loaded as vectors.
	warpMajor := fastestDim(srcs[0].Type()) != axis
	// The thread's part of the key coordinates (the axis dropped), flattened.
	thread := make([]value.Value, S.NumOutDims())
	masks := make([]uint64, S.NumOutDims())
	for d := range thread {
		if d != axis {
			thread[d], masks[d] = l.applyHW(S, d)
		}
	}
	threadFlat, threadMask := l.flattenHW(dropDim(thread, axis), dropDim(masks, axis), resShape)
	logNumel, logNwa := bits.TrailingZeros(uint(numel)), bits.TrailingZeros(uint(nwa))
	// slots places a set of (element, warp) pairs, the element's flat
	// index the thread's part flat ⊕ a constant, in the scratch order.
	slots := func(flat value.Value, mask uint64, wpart value.Value, wmask uint64, elems, ws []int) *slotSet {
		s := &slotSet{consts: make([]int, len(elems))}
		if warpMajor {
			s.hw = b.or(b.shl(wpart, i32(int64(logNumel))), flat)
			s.mask = wmask<<logNumel | mask
		} else {
			s.hw = b.or(b.shl(flat, i32(int64(logNwa))), wpart)
			s.mask = mask<<logNwa | wmask
		}
		for i, e := range elems {
			if warpMajor {
				s.consts[i] = ws[i]<<logNumel | e
			} else {
				s.consts[i] = e<<logNwa | ws[i]
			}
		}
		return s
	}
	elems := make([]int, len(accs))
	for i, a := range accs {
		elems[i] = flattenConst(dropDim(a.key, axis), resShape)
	}
	stores := slots(threadFlat, threadMask, wa, uint64(nwa-1), elems, make([]int, len(accs)))
	l.syncShared()
	for i := range srcs {
		vals := make([]value.Value, len(accs))
		for j, a := range accs {
			vals[j] = a.vals[i]
		}
		l.storeSlotSet(stores, vals, base+offs[i])
	}
	l.barrier()
	// Each thread loads the nwa partials of every element it holds in the
	// result layout.
	var resFlat value.Value = i32(0)
	var resMask uint64
	var resConsts []int
	if R != nil {
		rc := make([]value.Value, R.NumOutDims())
		rm := make([]uint64, R.NumOutDims())
		for d := range rc {
			rc[d], rm[d] = l.applyHW(R, d)
		}
		resFlat, resMask = l.flattenHW(rc, rm, resShape)
		for r := 0; r < R.InDimSize(dimReg); r++ {
			resConsts = append(resConsts, flattenConst(R.Apply(r), resShape))
		}
	} else {
		resConsts = []int{0}
	}
	var lElems, lWarps []int
	for _, e := range resConsts {
		for w := 0; w < nwa; w++ {
			lElems = append(lElems, e)
			lWarps = append(lWarps, w)
		}
	}
	loads := slots(resFlat, resMask, i32(0), 0, lElems, lWarps)
	parts := make([][]value.Value, len(srcs))
	for i, res := range op.Results() {
		parts[i] = l.loadSlotSet(loads, base+offs[i], mustType(ir.ElementType(res.Type())))
	}
	outs := make([][]value.Value, len(srcs))
	for r := range resConsts {
		var accv []value.Value
		for w := 0; w < nwa; w++ {
			cur := make([]value.Value, len(srcs))
			for i := range cur {
				cur[i] = parts[i][r*nwa+w]
			}
			if accv == nil {
				accv = cur
			} else {
				accv = combine(accv, cur)
			}
		}
		for i := range outs {
			outs[i] = append(outs[i], accv[i])
		}
	}
	for i, res := range op.Results() {
		l.Define(res, outs[i])
	}
	return nil
}

func intShape(s []int64) []int {
	r := make([]int, len(s))
	for i, v := range s {
		r[i] = int(v)
	}
	return r
}

// xorConst is base ⊕ c, as or when the bits are disjoint.
func (l *Lowerer) xorConst(base value.Value, mask uint64, c int) value.Value {
	if uint64(c)&mask == 0 {
		return l.b().or(base, i32(int64(c)))
	}
	return l.b().xor(base, i32(int64(c)))
}

// flatten is the row-major index of coordinates in a power-of-two shape.
func (l *Lowerer) flatten(coords []value.Value, shape []int) value.Value {
	b := l.b()
	var flat value.Value = i32(0)
	shift := 0
	for d := len(shape) - 1; d >= 0; d-- {
		flat = b.or(flat, b.shl(coords[d], i32(int64(shift))))
		shift += bits.TrailingZeros(uint(shape[d]))
	}
	return flat
}

// flattenHW is flatten of the thread's parts of coordinates, with the
// mask of the bits the result may have.
func (l *Lowerer) flattenHW(coords []value.Value, masks []uint64, shape []int) (value.Value, uint64) {
	var m uint64
	shift := 0
	for d := len(shape) - 1; d >= 0; d-- {
		m |= masks[d] << uint(shift)
		shift += bits.TrailingZeros(uint(shape[d]))
	}
	return l.flatten(coords, shape), m
}

// flattenConst is flatten of constant coordinates.
func flattenConst(coords []int, shape []int) int {
	flat, shift := 0, 0
	for d := len(shape) - 1; d >= 0; d-- {
		flat |= coords[d] << uint(shift)
		shift += bits.TrailingZeros(uint(shape[d]))
	}
	return flat
}

// slotSet is a set of slots of a scratch array that one thread accesses:
// slot i is hw ⊕ consts[i], hw the thread's part (its bits within mask),
// consts[i] known here, as Triton splits shared-memory offsets in
// lowerLdSt. Slots that differ only in constant bits below every bit of
// mask are consecutive for every thread, so they are accessed as one
// vector.
type slotSet struct {
	hw     value.Value
	mask   uint64
	consts []int
}

// vec is the number of slots per access: the largest power of two v, at
// most maxElems, such that hw has no bit below v and the constants come
// in whole aligned runs of v (each constant's run c &^ (v-1) + 0..v-1 is
// in the set).
func (s *slotSet) vec(maxElems int) int {
	have := map[int]bool{}
	for _, c := range s.consts {
		have[c] = true
	}
	v := 1
	for 2*v <= maxElems && s.mask&uint64(2*v-1) == 0 {
		for _, c := range s.consts {
			if !have[c^v] {
				return v
			}
		}
		v *= 2
	}
	return v
}

// addr is the byte address of slot hw ⊕ c in the array of eb-byte
// elements at byte offset off: the constant bits the thread's part may
// have are xor-ed in, the others added with off as one immediate, which
// PTX folds into the address ([%r+imm]).
func (l *Lowerer) slotAddr(s *slotSet, c int, eb int, off int64) value.Value {
	b := l.b()
	x := s.hw
	if cx := uint64(c) & s.mask; cx != 0 {
		x = b.xor(x, i32(int64(cx)))
	}
	shift := bits.TrailingZeros(uint(eb))
	return b.add(b.shl(x, i32(int64(shift))), i32(int64(uint64(c)&^s.mask)<<shift+off))
}

// storeSlotSet stores vals[i] (one register per slot) at slot i of s in
// the array at byte offset off, in vectors of up to 16 bytes.
func (l *Lowerer) storeSlotSet(s *slotSet, vals []value.Value, off int64) {
	st := l.storable(vals[0]).Type()
	eb := typeBits(st) / 8
	v := s.vec(16 / eb)
	at := map[int]int{}
	for i, c := range s.consts {
		at[c] = i
	}
	for _, c := range s.consts {
		if c&(v-1) != 0 {
			continue
		}
		var x value.Value
		vt := st
		if v == 1 {
			x = l.storable(vals[at[c]])
		} else {
			vt = types.NewVector(uint64(v), st)
			x = constant.NewUndef(vt.(*types.VectorType))
			for j := 0; j < v; j++ {
				x = l.cur.NewInsertElement(x, l.storable(vals[at[c|j]]), i32(int64(j)))
			}
		}
		store := l.cur.NewStore(x, l.smemPtr(l.slotAddr(s, c, eb, off), vt))
		store.Align = lir.Align(v * eb)
	}
}

// loadSlotSet loads slot i of s in the array at byte offset off, as a
// register of type t, for every i: in vectors of up to 16 bytes, and
// once per distinct slot.
func (l *Lowerer) loadSlotSet(s *slotSet, off int64, t types.Type) []value.Value {
	st := storableType(t)
	eb := typeBits(st) / 8
	v := s.vec(16 / eb)
	got := map[int]value.Value{}
	out := make([]value.Value, len(s.consts))
	for i, c := range s.consts {
		if _, ok := got[c]; !ok {
			c0 := c &^ (v - 1)
			if v == 1 {
				ld := l.cur.NewLoad(st, l.smemPtr(l.slotAddr(s, c0, eb, off), st))
				ld.Align = lir.Align(eb)
				got[c0] = l.unstorable(ld, t)
			} else {
				vt := types.NewVector(uint64(v), st)
				ld := l.cur.NewLoad(vt, l.smemPtr(l.slotAddr(s, c0, eb, off), vt))
				ld.Align = lir.Align(v * eb)
				for j := 0; j < v; j++ {
					got[c0|j] = l.unstorable(l.cur.NewExtractElement(ld, i32(int64(j))), t)
				}
			}
		}
		out[i] = got[c]
	}
	return out
}
