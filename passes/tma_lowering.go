package passes

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// TMALoweringPass is Triton's -triton-nvidia-tma-lowering for the
// descriptor accesses. See its Doc.
var TMALoweringPass = &Pass{
	Name:    "triton-nvidia-tma-lowering",
	Summary: "Lower tt.descriptor_load/store/gather/scatter to TMA copies through shared memory and tt.make_tensor_descriptor to ttng.tensormap_create (Triton 3.6's TMA lowering)",
	Doc: `Triton 3.6's TMALowering for the ops that move a block through a tensor
descriptor. A tt.descriptor_load (or tt.descriptor_gather) becomes

  %buf = ttg.local_alloc : () -> !ttg.memdesc<SHAPE, #desc_encoding, #smem, mutable>
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #smem, mutable>
  ttng.init_barrier %bar, 1
  ttng.barrier_expect %bar, BYTES, %true
  ttng.async_tma_copy_global_to_local %desc[...] %buf, %bar, %true   (ttng.async_tma_gather)
  ttng.wait_barrier %bar, %c0_i32
  ttng.inval_barrier %bar
  %v = ttg.local_load %buf

where users that are ttg.local_alloc ops of the same encoding take %buf itself
(no load and store back). A tt.descriptor_store (tt.descriptor_scatter) becomes
a ttg.local_alloc of the value in the descriptor's encoding, a
ttng.fence_async_shared, the TMA store (ttng.async_tma_copy_local_to_global or
ttng.async_tma_scatter) and ttng.async_tma_store_wait {pendings = 0}. The
coordinate of the packed dimension of fp4-padded layouts is doubled.

A tt.make_tensor_descriptor becomes a ttg.global_scratch_alloc of 128 bytes
(alignment 128), a ttng.tensormap_create that writes the TMA descriptor there
(createTMADesc: the box is the block shape innermost first, at most 256 per
dimension, the contiguous one the swizzle width; global dims and the strides
but the last innermost first, the strides multiplied by the element size;
Triton's element-type, swizzle-mode and fill-mode numbers), a
ttng.tensormap_fenceproxy_acquire and a ttng.reinterpret_tensor_descriptor of
the pointer. One with a multi-CTA encoding, or a shared encoding TMA cannot
use, is left as it is, with a warning.

As Triton's pass applies its patterns with MLIR's greedy driver, the run ends
with that driver's folding (no canonicalization patterns): constants are
uniqued and hoisted to the function's entry, foldable ops (x * 1) fold, dead
ops go.`,
	Run: runTMALowering,
}

func init() { MustRegister(TMALoweringPass) }

func runTMALowering(ctx *Context, module *ir.Operation) error {
	var todo, makes []*ir.Operation
	module.Walk(func(op *ir.Operation) ir.WalkResult {
		switch op.Name() {
		case "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_gather", "tt.descriptor_scatter":
			todo = append(todo, op)
		case "tt.make_tensor_descriptor":
			makes = append(makes, op)
		}
		return ir.Advance
	})
	changed := len(todo) > 0
	for _, op := range makes {
		if err := lowerMakeTensorDesc(op); err != nil {
			ctx.Warningf(op, "triton-nvidia-tma-lowering: tt.make_tensor_descriptor left in place: %v", err)
			continue
		}
		changed = true
	}
	// Stores first: the ttg.local_alloc a store makes of a loaded value is
	// then a user of the load, which takes the load's buffer itself (no
	// round trip through registers), as Triton's greedy driver ends up.
	slices.SortStableFunc(todo, func(a, b *ir.Operation) int {
		return cmp.Compare(isTMALoad(a), isTMALoad(b))
	})
	for _, op := range todo {
		desc, _ := op.NamedOperand("desc").Type().(*ir.TensorDescType)
		if desc == nil || desc.Block == nil {
			return ctx.Errorf(op, "triton-nvidia-tma-lowering: expected a !tt.tensordesc operand")
		}
		enc, _ := desc.Block.Encoding.(*ir.EncodingAttr)
		if enc == nil {
			return ctx.Errorf(op, "triton-nvidia-tma-lowering: the descriptor's block type has no shared encoding")
		}
		if _, ok := enc.Enc.(attr.Layout); !ok {
			return ctx.Errorf(op, "triton-nvidia-tma-lowering: the descriptor's block type has no shared encoding")
		}
		if isTMALoad(op) == 1 {
			lowerTMALoad(op, enc)
		} else {
			lowerTMAStore(op, enc)
		}
	}
	if changed {
		// Triton's pass applies its patterns with the greedy driver,
		// which also folds (x * 1 of the strides), uniques and hoists
		// constants, and erases dead ops.
		applyGreedily(module, greedyConfig{maxIterations: 10, fold: true, cseConstants: true,
			patterns: func(*ir.Operation) []Pattern { return nil }})
		regenerateAttrAliases(ctx.Module)
		ctx.MarkChanged()
	}
	return nil
}

// isTMALoad is 1 for a descriptor load or gather, 0 for a store or scatter.
func isTMALoad(op *ir.Operation) int {
	if op.Name() == "tt.descriptor_load" || op.Name() == "tt.descriptor_gather" {
		return 1
	}
	return 0
}

// opBuilder inserts ops before one op, with its location (the TMA
// lowering's and the scaled-dot decomposition's).
type opBuilder struct{ at *ir.Operation }

func (b opBuilder) create(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) *ir.Operation {
	op := ir.NewOperation(name, operands, results, attrs, 0)
	op.Loc = b.at.Loc
	op.SetPos(b.at.Pos())
	b.at.Block().InsertBefore(b.at, op)
	return op
}

// constInt creates an arith.constant named as MLIR names it (%true,
// %c0_i32).
func (b opBuilder) constInt(v int64, t ir.Type) *ir.Value {
	var a ir.Attribute = ir.Int(v, t)
	name := fmt.Sprintf("c%d_%s", v, ir.TypeString(t))
	if t == ir.I1 {
		a, name = ir.False, "false"
		if v != 0 {
			a, name = ir.True, "true"
		}
	}
	r := b.create("arith.constant", nil, []ir.Type{t}, ir.NamedAttr{Name: "value", Value: a}).Result(0)
	r.NameHint = name
	return r
}

var sharedMemorySpace = &ir.EncodingAttr{Enc: attr.SharedMemory{}}

// tmaIndices doubles the innermost coordinate for fp4-padded layouts
// (translateTMAIndices).
func tmaIndices(b opBuilder, enc *ir.EncodingAttr, idx []*ir.Value) []*ir.Value {
	n, ok := enc.Enc.(*attr.NVMMAShared)
	if !ok || !n.FP4Padded || len(idx) == 0 {
		return idx
	}
	out := append([]*ir.Value(nil), idx...)
	two := b.constInt(2, ir.I32)
	out[len(out)-1] = b.create("arith.muli", []*ir.Value{out[len(out)-1], two}, []ir.Type{ir.I32}).Result(0)
	return out
}

func lowerTMALoad(op *ir.Operation, enc *ir.EncodingAttr) {
	b := opBuilder{at: op}
	rt := op.Result(0).Type().(*ir.RankedTensorType)
	bufTy := &ir.MemDescType{Shape: rt.Shape, Elem: rt.Elem, Encoding: enc, MemorySpace: sharedMemorySpace, Mutable: true}
	buf := b.create("ttg.local_alloc", nil, []ir.Type{bufTy}).Result(0)
	barEnc := &ir.EncodingAttr{Enc: &attr.SwizzledShared{Vec: 1, PerPhase: 1, MaxPhase: 1, Order: []int{0}}}
	barTy := &ir.MemDescType{Shape: []int64{1}, Elem: ir.I64, Encoding: barEnc, MemorySpace: sharedMemorySpace, Mutable: true}
	bar := b.create("ttg.local_alloc", nil, []ir.Type{barTy}).Result(0)
	b.create("ttng.init_barrier", []*ir.Value{bar}, nil, ir.NamedAttr{Name: "count", Value: ir.Int(1, ir.I32)})
	bytes, _ := memDescAllocBytes(&ir.MemDescType{Shape: rt.Shape, Elem: rt.Elem, Encoding: enc, MemorySpace: sharedMemorySpace})
	pred := b.constInt(1, ir.I1)
	b.create("ttng.barrier_expect", []*ir.Value{bar, pred}, nil, ir.NamedAttr{Name: "size", Value: ir.Int(int64(bytes), ir.I32)})
	desc := op.NamedOperand("desc")
	if op.Name() == "tt.descriptor_load" {
		ops := append([]*ir.Value{desc}, tmaIndices(b, enc, op.OperandGroup("indices"))...)
		ops = append(ops, bar, buf, pred)
		var attrs []ir.NamedAttr
		for _, n := range []string{"cache", "evict"} {
			if a := op.Attr(n); a != nil {
				attrs = append(attrs, ir.NamedAttr{Name: n, Value: a})
			}
		}
		b.create("ttng.async_tma_copy_global_to_local", ops, nil, attrs...)
	} else {
		b.create("ttng.async_tma_gather", []*ir.Value{desc, op.NamedOperand("x_offsets"), op.NamedOperand("y_offset"), bar, buf, pred}, nil)
	}
	phase := b.constInt(0, ir.I32)
	b.create("ttng.wait_barrier", []*ir.Value{bar, phase}, nil)
	b.create("ttng.inval_barrier", []*ir.Value{bar}, nil)
	replaceWithLocalLoad(b, op.Result(0), buf)
	_ = op.Erase()
}

// replaceWithLocalLoad is Triton's replaceUsesWithLocalLoad: users that
// allocate the loaded value in the buffer's encoding take the buffer; the
// others read it back with a ttg.local_load.
func replaceWithLocalLoad(b opBuilder, old, buf *ir.Value) {
	bufTy := buf.Type().(*ir.MemDescType)
	var allocs []*ir.Operation
	others := 0
	for _, u := range old.Users() {
		if u.Name() == "ttg.local_alloc" && u.NumResults() == 1 {
			if t, ok := u.Result(0).Type().(*ir.MemDescType); ok && ir.AttrString(t.Encoding) == ir.AttrString(bufTy.Encoding) {
				allocs = append(allocs, u)
				continue
			}
		}
		others++
	}
	if others > 0 {
		ld := b.create("ttg.local_load", []*ir.Value{buf}, []ir.Type{old.Type()}).Result(0)
		old.ReplaceUsesIf(ld, func(u ir.Use) bool { return !containsOp(allocs, u.Op) })
	}
	for _, a := range allocs {
		replaceAndPropagateType(a.Result(0), buf)
		_ = a.Erase()
	}
}

func containsOp(ops []*ir.Operation, op *ir.Operation) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

// replaceAndPropagateType replaces old by v and, through memdesc views,
// gives the views' results the mutability of their new source
// (replaceUsesAndPropagateType).
func replaceAndPropagateType(old, v *ir.Value) {
	for _, u := range old.Uses() {
		user := u.Op
		user.SetOperand(u.Index, v)
		if !viewOps[user.Name()] || user.NumResults() != 1 {
			continue
		}
		src, ok1 := v.Type().(*ir.MemDescType)
		res, ok2 := user.Result(0).Type().(*ir.MemDescType)
		if ok1 && ok2 && res.Mutable != src.Mutable {
			nt := *res
			nt.Mutable = src.Mutable
			user.Result(0).SetType(&nt)
		}
	}
}

func lowerTMAStore(op *ir.Operation, enc *ir.EncodingAttr) {
	b := opBuilder{at: op}
	src := op.NamedOperand("src")
	rt := src.Type().(*ir.RankedTensorType)
	ty := &ir.MemDescType{Shape: rt.Shape, Elem: rt.Elem, Encoding: enc, MemorySpace: sharedMemorySpace}
	buf := b.create("ttg.local_alloc", []*ir.Value{src}, []ir.Type{ty}).Result(0)
	b.create("ttng.fence_async_shared", nil, nil, ir.NamedAttr{Name: "bCluster", Value: ir.False})
	desc := op.NamedOperand("desc")
	if op.Name() == "tt.descriptor_store" {
		ops := append([]*ir.Value{desc}, tmaIndices(b, enc, op.OperandGroup("indices"))...)
		b.create("ttng.async_tma_copy_local_to_global", append(ops, buf), nil)
	} else {
		b.create("ttng.async_tma_scatter", []*ir.Value{desc, op.NamedOperand("x_offsets"), op.NamedOperand("y_offset"), buf}, nil)
	}
	b.create("ttng.async_tma_store_wait", nil, nil, ir.NamedAttr{Name: "pendings", Value: ir.Int(0, ir.I32)})
	_ = op.Erase()
}
