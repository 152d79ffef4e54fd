package llvmemit

import (
	"fmt"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// Shared memory buffers: ttg.local_alloc (at its allocation.offset, from
// allocate-shared-memory), local_store, local_load, local_dealloc, the
// views memdesc_index and memdesc_subslice, and the cp.async path
// (async_copy_global_to_local, async_commit_group, async_wait). A memdesc
// is held as its i32 byte offset in global_smem; its layout is the shared
// encoding's linear layout, inverted to map tensor coordinates to element
// offsets. Every access goes through the same applyLinearLayout code as
// registers, vectorised where registers have consecutive offsets (at most
// 16 bytes; the registers in any order, as Triton's lowering permutes
// them).
//
// Barriers: Emit runs Membar on an allocated module, and the ttg.local_barrier
// ops it inserts (before a conflicting local_load, local_store, local_alloc
// with a source, async copy or scratch use, and after every async_wait) are
// the only barriers between ops, as in Triton. Without an allocation the
// lowering is conservative instead (syncShared): a barrier before each of
// those accesses and after every async_wait.

func init() {
	Register("ttg.local_alloc", lowerLocalAlloc)
	Register("ttg.local_store", func(l *Lowerer, op *ir.Operation) error {
		md, err := l.memDesc(op, op.Operand(1))
		if err != nil {
			return err
		}
		l.syncShared()
		return l.localStore(op, md, op.Operand(0))
	})
	Register("ttg.local_load", func(l *Lowerer, op *ir.Operation) error {
		md, err := l.memDesc(op, op.Operand(0))
		if err != nil {
			return err
		}
		l.syncShared()
		return l.localLoad(op, md)
	})
	Register("ttg.local_dealloc", func(*Lowerer, *ir.Operation) error { return nil })
	Register("ttg.local_barrier", lowerBarrier)
	Register("gpu.barrier", lowerBarrier)
	Register("ttg.memdesc_index", func(l *Lowerer, op *ir.Operation) error {
		src := l.Values(op.Operand(0))[0]
		idx := l.Values(op.Operand(1))[0]
		rt := op.Result(0).Type().(*ir.MemDescType)
		n := int64(1)
		for _, s := range rt.Shape {
			n *= s
		}
		eb := int64(typeBits(storableType(mustType(rt.Elem))) / 8)
		b := l.b()
		l.Define(op.Result(0), []value.Value{b.add(src, b.mul(idx, i32(n*eb)))})
		return nil
	})
	Register("ttg.memdesc_subslice", func(l *Lowerer, op *ir.Operation) error {
		md, err := l.memDesc(op, op.Operand(0))
		if err != nil {
			return err
		}
		offs := ir.AttrInts(op.Attr("offsets"))
		rt := op.Result(0).Type().(*ir.MemDescType)
		view := md.view
		c := make([]int, len(offs))
		for i, o := range offs {
			c[i] = int(o)
			if int64(c[i])%rt.Shape[i] != 0 {
				return errorf(op, "offset %d along dim %d is not a multiple of the slice's size", o, i)
			}
			if view, err = view.ResizeInDim(view.InDimNames()[i], int(rt.Shape[i])); err != nil {
				return errorf(op, "%v", err)
			}
		}
		return l.defineView(op, &memDesc{view: view, xor: md.xor ^ md.view.Apply(c...)[0]})
	})
	Register("ttg.async_copy_global_to_local", lowerAsyncCopy)
	Register("ttg.async_commit_group", func(l *Lowerer, op *ir.Operation) error {
		l.cur.NewCall(l.e.nv.get("llvm.nvvm.cp.async.commit.group", types.Void, attrsConv))
		l.Define(op.Result(0), []value.Value{i32(0)})
		return nil
	})
	Register("ttg.async_wait", func(l *Lowerer, op *ir.Operation) error {
		num := ir.AttrIntValue(op.Attr("num"))
		l.cur.NewCall(l.e.nv.get("llvm.nvvm.cp.async.wait.group", types.Void, attrsConv, types.I32), i32(num))
		l.syncShared() // Membar puts a ttg.local_barrier after every async_wait
		l.Define(op.Result(0), []value.Value{i32(0)})
		return nil
	})
}

// memDesc is how a memdesc value addresses shared memory: view maps its
// tensor coordinates to element offsets (out-dim 0), XORed with xor.
type memDesc struct {
	view linear.Layout
	xor  int
}

// memDesc returns the addressing of memdesc value v.
func (l *Lowerer) memDesc(op *ir.Operation, v *ir.Value) (*memDesc, error) {
	if md, ok := l.mem[v]; ok {
		return md, nil
	}
	mt, ok := v.Type().(*ir.MemDescType)
	if !ok {
		return nil, errorf(op, "expected a memdesc, got %s", ir.TypeString(v.Type()))
	}
	if mt.AllocShape != nil {
		// A subview whose addressing was not tracked (a loop-carried or
		// block-argument view): its own encoding would address it wrongly.
		return nil, errorf(op, "the addressing of subview %s is not known here (views carried through control flow are not supported)", ir.TypeString(mt))
	}
	enc, ok := ir.Encoding(mt).(attr.Shared)
	if !ok {
		return nil, errorf(op, "only shared-memory encodings are supported, got %s", ir.TypeString(mt))
	}
	shape := intShape(mt.Shape)
	S, err := attr.Linear(enc, shape)
	if err != nil {
		return nil, errorf(op, "%v", err)
	}
	inv, err := S.Invert()
	if err != nil {
		return nil, errorf(op, "the shared layout is not invertible: %v", err)
	}
	md := &memDesc{view: inv}
	l.mem[v] = md
	return md, nil
}

func lowerLocalAlloc(l *Lowerer, op *ir.Operation) error {
	off, ok := op.IntAttr("allocation.offset")
	if !ok {
		return errorf(op, "the buffer has no allocation.offset: run -allocate-shared-memory first")
	}
	l.Define(op.Result(0), []value.Value{i32(off)})
	if op.NumOperands() == 0 {
		return nil
	}
	md, err := l.memDesc(op, op.Result(0))
	if err != nil {
		return err
	}
	l.syncShared()
	return l.localStore(op, md, op.Operand(0))
}

// sharedMap is the map from a distributed layout's hardware index to the
// element offset of a memdesc.
func (l *Lowerer) sharedMap(op *ir.Operation, D *linear.Layout, md *memDesc) (*offsetMap, error) {
	m, err := D.Compose(md.view)
	if err != nil {
		return nil, errorf(op, "%v", err)
	}
	return l.newOffsetMap(m), nil
}

// sharedAddr is the byte address of register r: base + (offset ⊕ xor)·eb
// (xorAddress).
func (l *Lowerer) sharedAddr(m *offsetMap, md *memDesc, base value.Value, r, eb int) value.Value {
	return l.xorAddress(base, m.base, m.mask, uint64(m.constPart(r)^md.xor), eb)
}

func (l *Lowerer) localStore(op *ir.Operation, md *memDesc, src *ir.Value) error {
	D := mustLayout(src.Type())
	if D == nil {
		return errorf(op, "storing a scalar to shared memory is not supported")
	}
	m, err := l.sharedMap(op, D, md)
	if err != nil {
		return err
	}
	var base value.Value
	if op.Name() == "ttg.local_store" {
		base = l.Values(op.Operand(1))[0]
	} else {
		base = l.Values(op.Result(0))[0]
	}
	elt := mustType(ir.ElementType(src.Type()))
	st := storableType(elt)
	eb := typeBits(st) / 8
	vb, lead := sharedVector(m, md, eb)
	in := l.Values(src)
	skip := dupRegisters(D) | lead
	for r := 0; r < len(in); r++ {
		if r&skip != 0 {
			continue
		}
		vals := make([]value.Value, 1<<len(vb))
		for j := range vals {
			vals[j] = l.storable(in[r|spread(j, vb)])
		}
		l.storeSharedVec(vals, st, l.sharedAddr(m, md, base, r, eb))
	}
	return nil
}

// sharedVector returns the register bits of m's vectors of up to 16
// bytes (vecBits: the largest vectorisation up to a permutation of the
// registers, as Triton's lowering of local loads and stores finds it) and
// their mask, which a vector's leading register has clear; none where
// the memdesc's constant offset would misalign them.
func sharedVector(m *offsetMap, md *memDesc, eb int) (vb []int, mask int) {
	vb = m.vecBits(16 / eb)
	if md.xor&(1<<len(vb)-1) != 0 {
		return nil, 0
	}
	return vb, spread(1<<len(vb)-1, vb)
}

func (l *Lowerer) localLoad(op *ir.Operation, md *memDesc) error {
	D := mustLayout(op.Result(0).Type())
	out, err := l.loadShared(op, md, l.Values(op.Operand(0))[0], D, mustType(ir.ElementType(op.Result(0).Type())))
	if err != nil {
		return err
	}
	l.Define(op.Result(0), out)
	return nil
}

// loadShared loads the registers of layout D from the buffer at base
// addressed by md.
func (l *Lowerer) loadShared(op *ir.Operation, md *memDesc, base value.Value, D *linear.Layout, elt types.Type) ([]value.Value, error) {
	m, err := l.sharedMap(op, D, md)
	if err != nil {
		return nil, err
	}
	st := storableType(elt)
	eb := typeBits(st) / 8
	if out := l.loadMatrices(m, md, base, elt, D.InDimSize(dimReg)); out != nil {
		return out, nil
	}
	vb, lead := sharedVector(m, md, eb)
	out := make([]value.Value, D.InDimSize(dimReg))
	for r := 0; r < len(out); r++ {
		if r&lead != 0 {
			continue
		}
		for j, x := range l.loadSharedVec(1<<len(vb), st, l.sharedAddr(m, md, base, r, eb)) {
			out[r|spread(j, vb)] = l.unstorable(x, elt)
		}
	}
	return out, nil
}

// lowerAsyncCopy issues one cp.async per vector of the source pointers: as
// wide as the pointers' axis facts, the mask's constancy and the shared
// layout's contiguity allow (4, 8 or 16 bytes; .cg for 16, .ca
// otherwise), masked-off lanes zero-filled through the src-size operand.
func lowerAsyncCopy(l *Lowerer, op *ir.Operation) error {
	ptr, dst := op.Operand(0), op.Operand(1)
	var mask, other *ir.Value
	if seg := ir.SegmentSizes(op); len(seg) == 4 {
		if seg[2] == 1 {
			mask = op.Operand(2)
		}
		if seg[3] == 1 {
			other = op.Operand(2 + int(seg[2]))
		}
	} else if op.NumOperands() > 2 {
		mask = op.Operand(2)
		if op.NumOperands() > 3 {
			other = op.Operand(3)
		}
	}
	if other != nil {
		if d := other.DefiningOp(); d == nil || d.Name() != "arith.constant" || !isZeroConst(d.Attr("value")) {
			return errorf(op, "only a zero 'other' is supported (cp.async zero-fills)")
		}
	}
	md, err := l.memDesc(op, dst)
	if err != nil {
		return err
	}
	D := mustLayout(ptr.Type())
	m, err := l.sharedMap(op, D, md)
	if err != nil {
		return err
	}
	elemIR, err := pointee(ptr.Type())
	if err != nil {
		return errorf(op, "%v", err)
	}
	eb := typeBits(storableType(mustType(elemIR))) / 8
	vec := min(l.vecWidth(ptr, mask), m.vec(16/eb))
	if md.xor&(vec-1) != 0 {
		vec = 1
	}
	bytes := vec * eb
	if bytes < 4 {
		return errorf(op, "a %d-byte cp.async is not possible (4, 8 or 16 bytes)", bytes)
	}
	ptrs := l.Values(ptr)
	var masks []value.Value
	if mask != nil {
		masks = l.Values(mask)
	}
	base := l.Values(dst)[0]
	// The buffer may still be read by other warps (a stage consumed
	// earlier): wait for them before overwriting it.
	l.syncShared()
	kind := "ca"
	if bytes == 16 {
		kind = "cg"
	}
	text := fmt.Sprintf("cp.async.%s.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x%x, $2;", kind, bytes)
	dup := dupRegisters(D)
	for r := 0; r < len(ptrs); r += vec {
		if r&dup != 0 {
			continue
		}
		sp := l.smemPtr(l.sharedAddr(m, md, base, r, eb), types.I8)
		var size value.Value = i32(int64(bytes))
		if masks != nil {
			size = l.cur.NewSelect(masks[r], i32(int64(bytes)), i32(0))
		}
		l.cur.NewCall(inlineAsm(types.Void, text, "r,l,r", sp.Type(), ptrs[r].Type(), types.I32), sp, ptrs[r], size)
	}
	l.Define(op.Result(0), []value.Value{i32(0)})
	return nil
}

func isZeroConst(a ir.Attribute) bool {
	if d, ok := a.(*ir.DenseElementsAttr); ok && len(d.Elems) == 1 {
		a = d.Elems[0]
	}
	switch x := a.(type) {
	case *ir.IntegerAttr:
		return x.Value == 0
	case *ir.FloatAttr:
		return x.Value == 0
	}
	return false
}
