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
// that run along the axis (one redux.sync on sm_80+ when the whole warp
// reduces an integer of at most 32 bits with one of its operations),
// then, when warps split the axis, through shared memory: every warp
// writes its partial results, and each thread combines the partials of
// the elements it holds in the result layout (or, where threads hold many
// elements each, of one element, and writes its total back for all).

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

// reduxOps maps the combine operations redux.sync performs to the
// suffix of their LLVM intrinsic (llvm.nvvm.redux.sync.KIND).
var reduxOps = map[string]string{
	"arith.addi": "add", "arith.andi": "and", "arith.ori": "or", "arith.xori": "xor",
	"arith.minsi": "min", "arith.minui": "umin", "arith.maxsi": "max", "arith.maxui": "umax",
}

// reduxKind is the redux.sync operation that reduces op's one operand
// within a warp, or "" when there is none: Triton's matchReduxKind — sm_80
// or later, one operand, a combine region that is one of reduxOps on its
// two arguments, and integers of at most 32 bits.
func (l *Lowerer) reduxKind(op *ir.Operation) string {
	if l.e.cc < 80 || op.NumOperands() != 1 {
		return ""
	}
	et, ok := ir.ElementType(op.Operand(0).Type()).(*ir.IntegerType)
	if !ok || et.Width > 32 {
		return ""
	}
	blk := op.Region(0).Entry()
	ops := blk.Ops()
	if len(ops) != 2 || ops[1].NumOperands() != 1 || ops[1].Operand(0) != ops[0].Result(0) {
		return ""
	}
	c := ops[0]
	kind := reduxOps[c.Name()]
	if kind == "" || c.NumOperands() != 2 || !c.Operand(0).IsBlockArg() || !c.Operand(1).IsBlockArg() ||
		c.Operand(0).OwnerBlock() != blk || c.Operand(1).OwnerBlock() != blk || c.Operand(0) == c.Operand(1) {
		return ""
	}
	return kind
}

// redux combines v over the 32 lanes of the warp with redux.sync.KIND;
// integers narrower than 32 bits are extended (signed for min and max,
// as Triton) and truncated back.
func (l *Lowerer) redux(kind string, v value.Value) value.Value {
	f := l.e.nv.get("llvm.nvvm.redux.sync."+kind, types.I32, attrsConv, types.I32, types.I32)
	t := v.Type().(*types.IntType)
	x := v
	if t.BitSize < 32 {
		if kind == "min" || kind == "max" {
			x = l.cur.NewSExt(v, types.I32)
		} else {
			x = l.cur.NewZExt(v, types.I32)
		}
	}
	r := value.Value(l.cur.NewCall(f, x, i32(-1)))
	if t.BitSize < 32 {
		r = l.cur.NewTrunc(r, t)
	}
	return r
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
	if kind := l.reduxKind(op); kind != "" && len(lanes) == 5 {
		for _, a := range accs {
			a.vals[0] = l.redux(kind, a.vals[0])
		}
		lanes = nil
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
	resShape := dropDim(intShape(ir.ShapeOrScalar(srcs[0].Type())), axis)
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
	order := partials{warpMajor: warpMajor, logE: bits.TrailingZeros(uint(numel)), logW: bits.TrailingZeros(uint(nwa))}
	elems := make([]int, len(accs))
	for i, a := range accs {
		elems[i] = flattenConst(dropDim(a.key, axis), resShape)
	}
	stores := order.slots(l, threadFlat, threadMask, wa, uint64(nwa-1), elems, make([]int, len(accs)), make([]int, len(accs)))
	l.syncShared()
	partial := make([][]value.Value, len(accs))
	for j, a := range accs {
		partial[j] = a.vals
	}
	l.storeColumns(stores, partial, base, offs)
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
	threads := 32 * l.e.numWarps
	if spread := max(1, numel/threads); len(resConsts) >= 16 && len(resConsts)*nwa > 2*(spread*nwa+len(resConsts)) {
		// Every thread holds many result elements (a result broadcast
		// over the CTA, as a histogram's bins): rather than combine the
		// nwa partials of each in every thread, thread t combines those
		// of elements t, t+threads, ... once (Triton's
		// accumulatePartialReductions), writes each total over its
		// warp-0 partial once every thread has read the partials, and
		// every thread then loads the totals it holds. It costs two
		// barriers more, so it is taken where it saves at least half the
		// partials each thread loads and combines (R·nwa against
		// spread·nwa + R), from 16 elements a thread.
		var flat value.Value = b.and(l.tid, i32(int64(numel-1)))
		fmask := uint64(numel-1) & uint64(threads-1)
		own := make([]int, spread) // thread t's elements: t ⊕ k·threads
		for k := range own {
			own[k] = k * threads
		}
		totals := l.combineSlots(order, flat, fmask, own, nwa, base, offs, op, combine)
		l.barrier()
		l.storeColumns(order.slots(l, flat, fmask, i32(0), 0, own, make([]int, spread), make([]int, spread)), totals, base, offs)
		l.barrier()
		loads := order.slots(l, resFlat, resMask, i32(0), 0, resConsts, make([]int, len(resConsts)), make([]int, len(resConsts)))
		for i, res := range op.Results() {
			l.Define(res, l.loadSlotSet(loads, base+offs[i], mustType(ir.ElementType(res.Type()))))
		}
		return nil
	}
	totals := l.combineSlots(order, resFlat, resMask, resConsts, nwa, base, offs, op, combine)
	for i, res := range op.Results() {
		l.Define(res, column(totals, i))
	}
	return nil
}

// column is the i-th value of each row: one result's registers, of rows
// that hold every result's value of a register (or slot).
func column(rows [][]value.Value, i int) []value.Value {
	c := make([]value.Value, len(rows))
	for r, row := range rows {
		c[r] = row[i]
	}
	return c
}

// storeColumns stores rows (each a slot's value of every result) at the
// slots of s, result i's array at byte offset base+offs[i].
func (l *Lowerer) storeColumns(s *slotSet, rows [][]value.Value, base int64, offs []int64) {
	for i, off := range offs {
		l.storeSlotSet(s, column(rows, i), base+off)
	}
}

// combineSlots loads the nwa partials of each element flat ⊕ elems[r]
// (flat's bits within mask) of op's results from the scratch at base
// (result i's array at offs[i]) and combines them, as the warps' butterfly;
// it returns each element's totals, one per result.
func (l *Lowerer) combineSlots(order partials, flat value.Value, mask uint64, elems []int, nwa int, base int64, offs []int64,
	op *ir.Operation, combine func(acc, cur []value.Value) []value.Value) [][]value.Value {
	var lElems, lWarps []int
	for _, e := range elems {
		for w := 0; w < nwa; w++ {
			lElems = append(lElems, e)
			lWarps = append(lWarps, w)
		}
	}
	loads := order.slots(l, flat, mask, i32(0), 0, lElems, make([]int, len(lElems)), lWarps)
	parts := make([][]value.Value, op.NumResults())
	for i, res := range op.Results() {
		parts[i] = l.loadSlotSet(loads, base+offs[i], mustType(ir.ElementType(res.Type())))
	}
	totals := make([][]value.Value, len(elems))
	for r := range elems {
		ws := make([][]value.Value, nwa)
		for w := range ws {
			ws[w] = make([]value.Value, len(parts))
			for i := range parts {
				ws[w][i] = parts[i][r*nwa+w]
			}
		}
		totals[r] = butterfly(ws, combine)
	}
	return totals
}

// butterfly combines the partials xs (a power-of-two count, indexed by
// the warp's position along the axis) as lane 0 of a xor butterfly from
// the highest bit down: at offset h, xs[i] = combine(xs[i], xs[i+h]) for
// i < h. That is the order of Triton's shuffles across the warps'
// partials (and of the interpreter's LayoutOrder), with a dependency
// chain of log2(n) combines instead of n-1.
func butterfly(xs [][]value.Value, combine func(acc, cur []value.Value) []value.Value) []value.Value {
	for m := len(xs); m > 1; m /= 2 {
		h := m / 2
		for i := 0; i < h; i++ {
			xs[i] = combine(xs[i], xs[i+h])
		}
	}
	return xs[0]
}

func intShape(s []int64) []int {
	r := make([]int, len(s))
	for i, v := range s {
		r[i] = int(v)
	}
	return r
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

// partials is the order of a scratch array that holds each warp's partial
// result (reductions) or total (scans) of every (element, chunk) pair,
// element < 2^logE of the result shape flattened, chunk < 2^logC, warp <
// 2^logW the warp's position along the axis: warp-major, slot =
// (warp·2^logC + chunk)·2^logE + element, or warp-minor, slot =
// (element·2^logC + chunk)·2^logW + warp.
type partials struct {
	warpMajor        bool
	logE, logC, logW int
}

// slots is the slotSet of the (elems[i], chunks[i], ws[i]) slots, each
// element the thread's part flat ⊕ elems[i] (flat's bits within mask),
// each warp w ⊕ ws[i] (w's bits within wmask).
func (p partials) slots(l *Lowerer, flat value.Value, mask uint64, w value.Value, wmask uint64, elems, chunks, ws []int) *slotSet {
	b := l.b()
	s := &slotSet{consts: make([]int, len(elems))}
	if p.warpMajor {
		s.hw = b.or(b.shl(w, i32(int64(p.logC+p.logE))), flat)
		s.mask = wmask<<uint(p.logC+p.logE) | mask
	} else {
		s.hw = b.or(b.shl(flat, i32(int64(p.logC+p.logW))), w)
		s.mask = mask<<uint(p.logC+p.logW) | wmask
	}
	for i, e := range elems {
		if p.warpMajor {
			s.consts[i] = (ws[i]<<p.logC|chunks[i])<<p.logE | e
		} else {
			s.consts[i] = (e<<p.logC|chunks[i])<<p.logW | ws[i]
		}
	}
	return s
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

// slotAddr is the byte address of slot hw ⊕ c in the array of eb-byte
// elements at byte offset off (xorScaled).
func (l *Lowerer) slotAddr(s *slotSet, c int, eb int, off int64) value.Value {
	x, k := l.xorScaled(s.hw, s.mask, uint64(c), eb)
	return l.b().add(x, i32(k+off))
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
