package llvmemit

import (
	"fmt"
	"math/bits"
	"slices"

	lir "github.com/llir/llvm/ir"
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

func dropDim(c []int, axis int) []int {
	return append(append([]int{}, c[:axis]...), c[axis+1:]...)
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
	// The scratch holds nwa partials of each of the numel result elements.
	// As Triton linearizes it (the axis coordinate replaced by the warp's,
	// in the layout's order): warp-minor (element·nwa + warp) when the
	// axis is the layout's fastest dimension, so that a thread loads its
	// element's partials as vectors; warp-major (warp·numel + element)
	// otherwise, where neighbouring lanes hold neighbouring elements and
	// warp-minor slots would put a warp's stores nwa words apart (an
	// nwa-way bank conflict, 32-way for 8 warps of f32 partials by 4).
	warpMajor := fastestDim(srcs[0].Type()) != axis
	// The thread's part of the key coordinates (the axis dropped), flattened.
	thread := make([]value.Value, S.NumOutDims())
	masks := make([]uint64, S.NumOutDims())
	for d := range thread {
		if d != axis {
			thread[d], masks[d] = l.applyHW(S, d)
		}
	}
	l.syncShared()
	for _, a := range accs {
		coords := make([]value.Value, 0, len(resShape))
		for d := range thread {
			if d == axis {
				continue
			}
			coords = append(coords, l.xorConst(thread[d], masks[d], a.key[d]))
		}
		flat := l.flatten(coords, resShape)
		var slot value.Value
		if warpMajor {
			slot = b.or(b.shl(wa, i32(int64(bits.TrailingZeros(uint(numel))))), flat)
		} else {
			slot = b.or(b.shl(flat, i32(int64(bits.TrailingZeros(uint(nwa))))), wa)
		}
		for i, v := range a.vals {
			l.storeSlot(slot, base+offs[i], v)
		}
	}
	l.barrier()
	var idx [][]value.Value
	n := 1
	if R != nil {
		idx = l.emitIndices(resT)
		n = len(idx)
	}
	outs := make([][]value.Value, len(srcs))
	for r := 0; r < n; r++ {
		var flat value.Value = i32(0)
		if R != nil {
			flat = l.flatten(idx[r], resShape)
		}
		parts := make([][]value.Value, len(srcs))
		for i, res := range op.Results() {
			t := mustType(ir.ElementType(res.Type()))
			if warpMajor {
				for w := 0; w < nwa; w++ {
					parts[i] = append(parts[i], l.loadSlot(b.or(flat, i32(int64(w*numel))), base+offs[i], t))
				}
				continue
			}
			first := b.shl(flat, i32(int64(bits.TrailingZeros(uint(nwa)))))
			parts[i] = l.loadSlots(first, nwa, base+offs[i], t)
		}
		var accv []value.Value
		for w := 0; w < nwa; w++ {
			cur := make([]value.Value, len(srcs))
			for i := range cur {
				cur[i] = parts[i][w]
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

var _ = types.I32
