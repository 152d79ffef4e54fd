package llvmemit

import (
	"fmt"
	"math/bits"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/smem"
)

// Data movement between threads: warp shuffles and shared-memory round
// trips, for ttg.convert_layout and the reductions.

// barrier emits bar.sync 0 (Triton's gpu.barrier).
func (l *Lowerer) barrier() {
	l.cur.NewCall(l.e.nv.get("llvm.nvvm.barrier0", types.Void, attrsConv))
}

// warpSync emits bar.warp.sync -1 (Triton's TargetInfo::warpSync,
// NVVM::SyncWarpOp with a full mask): the threads of each warp wait for
// one another, and their shared-memory accesses before it are ordered
// before those after it, within the warp only.
func (l *Lowerer) warpSync() {
	l.cur.NewCall(l.e.nv.get("llvm.nvvm.bar.warp.sync", types.Void, attrsConv, types.I32), i32(-1))
}

// syncShared emits the barrier that orders a shared-memory access after
// the accesses of earlier ops, unless Membar placed those barriers
// (ttg.local_barrier, lowered by itself) as Triton relies on it to.
func (l *Lowerer) syncShared() {
	if !l.e.membar {
		l.barrier()
	}
}

// scratch returns the byte offset of op's scratch buffer in global_smem:
// its allocation.offset (Triton's -allocate-shared-memory convention), or
// 0, in which case the module's dynamic shared memory grows to size.
func (l *Lowerer) scratch(op *ir.Operation, size int) int64 {
	if v, ok := op.IntAttr("allocation.offset"); ok {
		// The allocator sized the buffer with Triton's rules; the
		// lowering must fit in it.
		have, err := passes.NvidiaScratchSize(l.e.cc)(op)
		if err != nil {
			panic("llvmemit: " + err.Error())
		}
		if have < size {
			panic(fmt.Sprintf("llvmemit: the lowering needs %d bytes of scratch, the allocation gave %d", size, have))
		}
		return v
	}
	if l.e.shared >= 0 {
		// The module was allocated: offset 0 may hold a live buffer.
		panic(fmt.Sprintf("llvmemit: the lowering needs %d bytes of scratch, but the allocation gave the op none (no allocation.offset)", size))
	}
	l.e.scratch = max(l.e.scratch, size)
	return 0
}

// storeSharedVec stores the elements vals (of storable type st) as one
// vector at byte offset off of shared memory, aligned to its size.
//
// NVPTX accesses at most four elements at once, and LLVM 14 splits a
// vector of eight 16-bit elements into two st.v4.u16 and one of sixteen
// bytes into four st.v4.u8 (InstCombine turns <8 x half> into <8 x i16>
// when the halves were loaded as bits, and the DAG combiner sees through
// words built by bitcasts). As in Triton, such a vector is stored as
// 32-bit words: one st.v4.b32. Elements that lie in words (a load's, an
// ldmatrix's, a packed op's result) are picked out of them (packHalves,
// packBytes: that word itself where they are all of it, in order, else
// prmt.b32, which LLVM folds); others are packed by inline PTX that
// neither can take apart: a mov.b32 of two halves, prmt.b32 of four bytes
// (Triton packs bytes with prmt too).
func (l *Lowerer) storeSharedVec(vals []value.Value, st types.Type, off value.Value) {
	if w := l.packSmallBytes(vals, st); w != nil {
		s := l.cur.NewStore(w, l.smemPtr(off, w.Type()))
		s.Align = lir.Align(len(vals))
		return
	}
	if per := packedPerWord(len(vals), st); per > 1 {
		words := make([]value.Value, len(vals)/per)
		pack := pureAsm(types.I32, "mov.b32 $0, {$1, $2};", "=r,h,h", types.I16, types.I16)
		if per == 4 {
			pack = pureAsm(types.I32, "{\n.reg .b32 b01, b23;\nprmt.b32 b01, $1, $2, 0x3340;\nprmt.b32 b23, $3, $4, 0x3340;\nprmt.b32 $0, b01, b23, 0x5410;\n}",
				"=r,r,r,r,r", types.I32, types.I32, types.I32, types.I32)
		}
		for i := range words {
			part := vals[per*i : per*(i+1)]
			if per == 4 {
				if w := l.packBytes([4]value.Value(part)); w != nil {
					words[i] = w
					continue
				}
			} else if w := l.packHalves(part[0], part[1]); w != nil {
				words[i] = w
				continue
			}
			args := make([]value.Value, per)
			for k, x := range part {
				if per == 2 {
					args[k] = l.bits16(x)
				} else { // bytes: i8 (fp8 values are i8 in LLVM)
					args[k] = l.cur.NewZExt(x, types.I32)
				}
			}
			words[i] = l.cur.NewCall(pack, args...)
		}
		vals, st = words, types.I32
	}
	vt := types.NewVector(uint64(len(vals)), st)
	var v value.Value = constant.NewUndef(vt)
	for i, x := range vals {
		v = l.cur.NewInsertElement(v, x, i32(int64(i)))
	}
	s := l.cur.NewStore(v, l.smemPtr(off, vt))
	s.Align = lir.Align(len(vals) * typeBits(st) / 8)
}

// packSmallBytes returns two or four bytes that lie in words (inWord) as
// one i16 or i32 picked out of those words by prmt, to be stored whole;
// nil for other elements, or bytes from elsewhere (which a vector store
// of bytes takes as they are).
func (l *Lowerer) packSmallBytes(vals []value.Value, st types.Type) value.Value {
	if typeBits(st) != 8 {
		return nil
	}
	switch len(vals) {
	case 4:
		return l.packBytes([4]value.Value(vals))
	case 2:
		a, i, ok1 := inWord(vals[0], 8)
		b, j, ok2 := inWord(vals[1], 8)
		if ok1 && ok2 {
			return l.cur.NewTrunc(l.pickBytes([]wordRef{a, b}, []int{i, j}), types.I16)
		}
	}
	return nil
}

// loadSharedVec loads n elements of storable type st as one vector from
// byte offset off of shared memory, aligned to its size. Eight 16-bit
// elements are loaded as they are: unpacking words by mov.b32 would keep
// LLVM from storing them on as the words they were (a global
// st.v4.b32 of a tile that went through shared memory).
func (l *Lowerer) loadSharedVec(n int, st types.Type, off value.Value) []value.Value {
	vt := types.NewVector(uint64(n), st)
	ld := l.cur.NewLoad(vt, l.smemPtr(off, vt))
	ld.Align = lir.Align(n * typeBits(st) / 8)
	out := make([]value.Value, n)
	for i := range out {
		out[i] = l.cur.NewExtractElement(ld, i32(int64(i)))
	}
	return out
}

// packedPerWord returns how many of n elements of storable type st go to
// one 32-bit word when they are stored to shared memory as words: two of
// more than four 16-bit elements, four of more than four bytes; else 1.
func packedPerWord(n int, st types.Type) int {
	switch b := typeBits(st); {
	case n > 4 && b == 16 && n%2 == 0:
		return 2
	case n > 4 && b == 8 && n%4 == 0:
		return 4
	}
	return 1
}

// bits16 is the 16-bit value x (an i16, half or bfloat) as an i16.
func (l *Lowerer) bits16(x value.Value) value.Value {
	if x.Type().Equal(types.I16) {
		return x
	}
	return l.cur.NewBitCast(x, types.I16)
}

// smemPtr returns the function's shared-memory frame + off (bytes) as a
// pointer to t: global_smem in a kernel, the frame parameter in a device
// function.
func (l *Lowerer) smemPtr(off value.Value, t types.Type) value.Value {
	if l.frame != nil {
		off = l.cur.NewAdd(l.frame, off)
	}
	var base value.Value = l.cur.NewGetElementPtr(l.e.smem.ContentType, l.e.smem, i32(0), off)
	if t.Equal(types.I8) {
		return base
	}
	return l.cur.NewBitCast(base, ptrTo(t, asShared))
}

// storable converts a register to the type it has in shared memory and
// through shuffles: i1 as i8, pointers as i64.
func (l *Lowerer) storable(v value.Value) value.Value {
	switch t := v.Type().(type) {
	case *types.IntType:
		if t.BitSize < 8 {
			return l.cur.NewZExt(v, types.I8)
		}
	case *types.PointerType:
		return l.cur.NewPtrToInt(v, types.I64)
	}
	return v
}

func storableType(t types.Type) types.Type {
	switch x := t.(type) {
	case *types.IntType:
		if x.BitSize < 8 {
			return types.I8
		}
	case *types.PointerType:
		return types.I64
	}
	return t
}

func (l *Lowerer) unstorable(v value.Value, t types.Type) value.Value {
	switch x := t.(type) {
	case *types.IntType:
		if x.BitSize < 8 {
			return l.cur.NewTrunc(v, t)
		}
	case *types.PointerType:
		return l.cur.NewIntToPtr(v, t)
	}
	return v
}

func typeBits(t types.Type) int {
	switch x := t.(type) {
	case *types.IntType:
		return int(x.BitSize)
	case *types.FloatType:
		switch x.Kind {
		case types.FloatKindHalf:
			return 16
		case types.FloatKindFloat:
			return 32
		case types.FloatKindDouble:
			return 64
		}
	case *types.PointerType:
		return 64
	}
	panic(fmt.Sprintf("llvmemit: no bit width for %s", t))
}

// offsetMap is a map from (register, lane, warp) to a shared-memory
// offset (in elements): a layout with out-dim 0 the offset.
type offsetMap struct {
	ll   linear.Layout
	base value.Value // the thread's part
	mask uint64      // bits the thread's part may have
}

func (l *Lowerer) newOffsetMap(ll linear.Layout) *offsetMap {
	m := &offsetMap{ll: ll}
	m.base, m.mask = l.applyHW(&ll, 0)
	return m
}

// constPart is the register's part of the offset.
func (m *offsetMap) constPart(r int) int { return m.ll.Apply(r)[0] }

// vec is the number of consecutive registers at consecutive offsets.
func (m *offsetMap) vec(maxElems int) int {
	v := 1
	for k := 0; k < m.ll.InDimSizeLog2(dimReg) && v < maxElems; k++ {
		if m.ll.Basis(dimReg, k)[0] != v || m.mask&uint64(2*v-1) != 0 {
			break
		}
		v *= 2
	}
	return v
}

// vecBits returns the register bits whose offsets are 1, 2, 4, ...
// elements, at most maxElems in all: the largest vectorisation up to a
// permutation of the registers (Triton's largestVectorisation), where vec
// only takes the lowest register bits. Element j of the vector led by a
// register r without these bits is register r with bit i of j placed at
// bit vecBits[i] (spread). The thread's part and every other register bit
// keep the vector's offset bits clear, so the elements are consecutive and
// the vector is aligned to its size.
func (m *offsetMap) vecBits(maxElems int) []int {
	n := m.ll.InDimSizeLog2(dimReg)
	var vb []int
	used := 0
	for v := 1; v < maxElems && m.mask&uint64(2*v-1) == 0; v *= 2 {
		k := -1
		for i := 0; i < n; i++ {
			if used&(1<<i) == 0 && m.ll.Basis(dimReg, i)[0] == v {
				k = i
				break
			}
		}
		if k < 0 {
			break
		}
		clear := true
		for i := 0; i < n; i++ {
			if i != k && used&(1<<i) == 0 && m.ll.Basis(dimReg, i)[0]&(2*v-1) != 0 {
				clear = false
			}
		}
		if !clear {
			break
		}
		vb = append(vb, k)
		used |= 1 << k
	}
	return vb
}

// spread places bit i of j at bit vb[i].
func spread(j int, vb []int) int {
	r := 0
	for i, k := range vb {
		r |= (j >> i & 1) << k
	}
	return r
}

// addr returns the byte address of register r's element, with the
// offset's bits at and above tileBits dropped (the round), the buffer at
// byte offset byteOff.
func (l *Lowerer) addr(m *offsetMap, r int, tile int, byteOff int64, eltBytes int) value.Value {
	x, k := l.xorScaled(m.base, m.mask, uint64(m.constPart(r))&uint64(tile-1), eltBytes)
	return l.b().add(x, i32(k+byteOff))
}

// xorScaled splits the byte offset of element hw ⊕ c in an array of
// eb-byte elements (hw the thread's part, which may have the bits of
// mask; c a constant) as Triton's lowerLdSt does: only the constant's
// bits within mask are xor-ed into hw, and x is that, scaled to bytes;
// the others are disjoint from hw, so they are added instead, as the
// constant k, which PTX folds into the address ([%r+imm]). Elements
// whose constants differ only outside mask share one x.
func (l *Lowerer) xorScaled(hw value.Value, mask, c uint64, eb int) (x value.Value, k int64) {
	b := l.b()
	if cx := c & mask; cx != 0 {
		hw = b.xor(hw, i32(int64(cx)))
	}
	shift := int64(bits.TrailingZeros(uint(eb)))
	return b.shl(hw, i32(shift)), int64(c&^mask) << shift
}

// xorAddress is the byte address base + (hw ⊕ c)·eb of element hw ⊕ c (hw
// the thread's part, with the bits of mask; c a constant) in an array of
// eb-byte elements at byte address base, split by xorScaled: elements
// whose constants differ only outside mask share one address register
// (xor-ing the whole constant gives every element its own, which a
// swizzled store of many scalars keeps live across a loop), the rest of
// the constant an immediate offset.
func (l *Lowerer) xorAddress(base, hw value.Value, mask, c uint64, eb int) value.Value {
	x, k := l.xorScaled(hw, mask, c, eb)
	b := l.b()
	return b.add(b.add(base, x), i32(k))
}

// convertShared moves a tensor from layout S to D through shared memory,
// in the swizzled layout smem's plan chooses (Triton's
// transferWithinBlockSwizzling), one round per repetition.
func (l *Lowerer) convertShared(op *ir.Operation, S, D *linear.Layout) error {
	in := l.Values(op.Operand(0))
	elt := mustType(ir.ElementType(op.Result(0).Type()))
	st := storableType(elt)
	bw := typeBits(st)
	plan, err := smem.PlanConversion(*S, *D, bw, smem.Target{ComputeCapability: l.e.cc})
	if err != nil {
		return errorf(op, "%v", err)
	}
	out, err := l.roundTrip(op, in, S, D, plan, elt)
	if err != nil {
		return err
	}
	l.Define(op.Result(0), out)
	return nil
}

// roundTrip stores in (layout S) to shared memory laid out by the plan's
// Shared layout (in-dims offset, block; the top log2(Reps) offset bits
// are rounds) and loads it back in layout D, each side with the plan's
// instruction: st/ld.shared vectors, or stmatrix/ldmatrix (plain or
// .trans) when the plan chose them (the layout was swizzled for them) and
// the registers fit their fragments (else vectors, as in Triton).
func (l *Lowerer) roundTrip(op *ir.Operation, in []value.Value, S, D *linear.Layout, plan *smem.Plan, elt types.Type) ([]value.Value, error) {
	shared, reps := plan.Shared, plan.Reps
	st := storableType(elt)
	eb := typeBits(st) / 8
	srcMap, err := S.InvertAndCompose(shared)
	if err != nil {
		return nil, errorf(op, "%v", err)
	}
	dstMap, err := D.InvertAndCompose(shared)
	if err != nil {
		return nil, errorf(op, "%v", err)
	}
	numel := shared.InDimSize("offset")
	tile := numel / reps
	base := l.scratch(op, tile*eb)
	sm, dm := l.newOffsetMap(srcMap), l.newOffsetMap(dstMap)
	if sm.mask >= uint64(tile) || dm.mask >= uint64(tile) {
		return nil, errorf(op, "the rounds of the shared-memory plan depend on the thread")
	}
	sb, db := sm.vecBits(16/eb), dm.vecBits(16/eb)
	sv, dv := 1<<len(sb), 1<<len(db)
	sLead, dLead := spread(sv-1, sb), spread(dv-1, db) // a vector's non-leading registers
	dupMask := 0
	for k := 0; k < S.InDimSizeLog2(dimReg); k++ {
		if allZero(S.Basis(dimReg, k)) {
			dupMask |= 1 << k
		}
	}
	// The matrix instructions: a tile of the registers, or nil.
	matrix := func(m *offsetMap, a smem.Access, ok bool) *matrixTile {
		if a.Instr == smem.LdSt || !ok {
			return nil
		}
		t, fits := fitMatrix(m, eb, a.Instr == smem.MatrixTrans, tile, 0)
		if !fits {
			return nil
		}
		return &t
	}
	sMat := matrix(sm, plan.Store, l.e.cc >= 90 && base%16 == 0)
	dMat := matrix(dm, plan.Load, l.e.cc >= 75 && base%16 == 0)
	inTile := func(m *offsetMap) func(r int) int {
		return func(r int) int { return m.constPart(r) & (tile - 1) }
	}
	// The barriers between the stores and the loads, and between rounds:
	// warp barriers when every warp reads back only what it wrote itself
	// (passes.CvtWarpSync, Triton's isCvtWarpSync; Membar uses the same
	// predicate and then keeps earlier accesses pending), else bar.sync.
	// Between rounds the warp barrier also needs each address to belong to
	// one warp in every round (true of Triton's plans, whose rounds are
	// register bits of both sides; checked, else bar.sync).
	sync, between := l.barrier, l.barrier
	if ws, err := passes.CvtWarpSync(*S, *D); err != nil {
		return nil, errorf(op, "%v", err)
	} else if ws {
		sync = l.warpSync
		if roundsStayInWarps(shared, tile, S, D) {
			between = l.warpSync
		}
	}
	out := make([]value.Value, D.InDimSize(dimReg))
	for round := 0; round < reps; round++ {
		if round == 0 {
			l.syncShared()
		} else {
			between() // the previous round's loads
		}
		inRound := func(m *offsetMap) func(r int) bool {
			return func(r int) bool { return m.constPart(r)/tile == round }
		}
		if sMat != nil {
			// stmatrix stores copies once: the tile skips dupMask's bits.
			l.storeMatrixTile(sm, sMat, i32(base), in, inTile(sm), inRound(sm))
		} else {
			for r := range in {
				if r&sLead != 0 || r&dupMask != 0 || sm.constPart(r)/tile != round {
					continue
				}
				vals := make([]value.Value, sv)
				for i := range vals {
					vals[i] = l.storable(in[r|spread(i, sb)])
				}
				l.storeSharedVec(vals, st, l.addr(sm, r, tile, base, eb))
			}
		}
		sync()
		if dMat != nil {
			l.loadMatrixTile(dm, dMat, i32(base), elt, out, inTile(dm), inRound(dm))
			continue
		}
		for r := range out {
			if r&dLead != 0 || dm.constPart(r)/tile != round {
				continue
			}
			for i, x := range l.loadSharedVec(dv, st, l.addr(dm, r, tile, base, eb)) {
				out[r|spread(i, db)] = l.unstorable(x, elt)
			}
		}
	}
	return out, nil
}

// roundsStayInWarps reports whether moving an address of shared (in-dim
// offset, tiles of tile elements) to another round keeps the warp that
// stores it in layout S and the warp that loads it in layout D: the
// element of every round bit of the offset is held, in S and in D, by
// registers and lanes of warp 0 only.
func roundsStayInWarps(shared linear.Layout, tile int, S, D *linear.Layout) bool {
	for _, L := range []*linear.Layout{S, D} {
		if !L.HasInDim("warp") {
			continue
		}
		inv, err := shared.InvertAndCompose(*L)
		if err != nil {
			return false
		}
		for j := bits.TrailingZeros(uint(tile)); j < inv.InDimSizeLog2("offset"); j++ {
			if inv.BasisValue("offset", j, "warp") != 0 {
				return false
			}
		}
	}
	return true
}

func allZero(s []int) bool {
	for _, v := range s {
		if v != 0 {
			return false
		}
	}
	return true
}

// shuffleSelect reads, from lane, the register that sel names: the source
// thread's register is one of the candidates, so each candidate s is
// shuffled (val(s), idx mode) and the one where sel == s is selected (the
// first candidate where none matches).
func (l *Lowerer) shuffleSelect(candidates []int, sel, lane value.Value, val func(s int) value.Value) value.Value {
	var v value.Value
	for _, s := range candidates {
		got := l.shuffle("idx", val(s), lane, 0x1f)
		if v == nil {
			v = got
			continue
		}
		v = l.cur.NewSelect(l.cur.NewICmp(enum.IPredEQ, sel, i32(int64(s))), got, v)
	}
	return v
}

// shuffle is shfl.sync.MODE of any register type (split into 32-bit
// words).
func (l *Lowerer) shuffle(mode string, v value.Value, lane value.Value, clamp int64) value.Value {
	f := l.e.nv.get("llvm.nvvm.shfl.sync."+mode+".i32", types.I32, attrsConv, types.I32, types.I32, types.I32, types.I32)
	t := v.Type()
	st := storableType(t)
	x := l.storable(v)
	b := typeBits(st)
	one := func(w value.Value) value.Value { return l.cur.NewCall(f, i32(-1), w, lane, i32(clamp)) }
	var r value.Value
	switch {
	case b == 64:
		w := x
		if _, ok := st.(*types.FloatType); ok {
			w = l.cur.NewBitCast(x, types.I64)
		}
		lo := one(l.cur.NewTrunc(w, types.I32))
		hi := one(l.cur.NewTrunc(l.cur.NewLShr(w, i64(32)), types.I32))
		r = l.cur.NewOr(l.cur.NewZExt(lo, types.I64), l.cur.NewShl(l.cur.NewZExt(hi, types.I64), i64(32)))
		if _, ok := st.(*types.FloatType); ok {
			r = l.cur.NewBitCast(r, st)
		}
	case b == 32:
		w := x
		if !st.Equal(types.I32) {
			w = l.cur.NewBitCast(x, types.I32)
		}
		r = one(w)
		if !st.Equal(types.I32) {
			r = l.cur.NewBitCast(r, st)
		}
	default:
		it := types.NewInt(uint64(b))
		w := x
		if !st.Equal(it) {
			w = l.cur.NewBitCast(x, it)
		}
		r = l.cur.NewTrunc(one(l.cur.NewZExt(w, types.I32)), it)
		if !st.Equal(it) {
			r = l.cur.NewBitCast(r, st)
		}
	}
	return l.unstorable(r, t)
}

// convertShuffle lowers a conversion that moves data only between lanes
// of a warp. For a destination register r, C = S⁻¹∘D gives the source
// lane as C_lane(r) ⊕ B·lane and the source register as C_reg(r) ⊕ A·lane;
// every value v of A·lane is one shfl.sync.idx of register C_reg(r) ⊕ v,
// and the thread selects the one for its own A·lane. It returns false when
// the map is not of that form (the caller goes through shared memory).
func (l *Lowerer) convertShuffle(op *ir.Operation, S, D *linear.Layout) (bool, error) {
	C, err := D.InvertAndCompose(*S)
	if err != nil {
		return false, nil
	}
	ri, li, wi := C.OutDimIndex(dimReg), C.OutDimIndex(dimLane), C.OutDimIndex(dimWarp)
	if ri < 0 || li < 0 {
		return false, nil
	}
	if C.HasInDim(dimWarp) {
		for k := 0; k < C.InDimSizeLog2(dimWarp); k++ {
			b := C.Basis(dimWarp, k)
			if b[ri] != 0 || b[li] != 0 || wi < 0 || b[wi] != 1<<k {
				return false, nil
			}
		}
	}
	var span []int // the values of A·lane
	span = append(span, 0)
	for k := 0; k < C.InDimSizeLog2(dimLane); k++ {
		a := C.Basis(dimLane, k)[ri]
		if wi >= 0 && C.Basis(dimLane, k)[wi] != 0 {
			return false, nil
		}
		if a != 0 && !containsInt(span, a) {
			n := len(span)
			for i := 0; i < n; i++ {
				span = append(span, span[i]^a)
			}
		}
	}
	selReg, _ := l.applyHW(&C, ri)
	srcLane, laneMask := l.applyHW(&C, li)
	in := l.Values(op.Operand(0))
	out := make([]value.Value, D.InDimSize(dimReg))
	for r := range out {
		c := C.Apply(r)
		lane := srcLane
		if uint64(c[li])&laneMask == 0 {
			lane = l.b().or(lane, i32(int64(c[li])))
		} else {
			lane = l.b().xor(lane, i32(int64(c[li])))
		}
		out[r] = l.shuffleSelect(span, selReg, lane, func(s int) value.Value { return in[c[ri]^s] })
	}
	l.Define(op.Result(0), out)
	return true, nil
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
