package ttg

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

func args(names ...string) []ir.ArgDef {
	out := make([]ir.ArgDef, len(names))
	for i, n := range names {
		out[i] = ir.Arg(n)
	}
	return out
}

func to(t ir.Type) func(ir.Type) ir.Type { return func(ir.Type) ir.Type { return t } }

// view declares `$src attr-dict : qualified(type($src)) -> qualified(type($result))`.
func view(name, summary string, attrs ...ir.AttrDef) *ir.OpDef {
	return &ir.OpDef{Name: name, Summary: summary, Traits: ir.Pure,
		Operands: args("src"), Results: args("result"), Attrs: attrs,
		Format: "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))",
		Verify: func(op *ir.Operation) error { _, _, err := memdescViews(op); return err }}
}

// tokens fills in the async token types of async_commit_group and
// async_wait, which the text does not write.
func tokens(operands, result string) func(fs *ir.FormatState) error {
	return func(fs *ir.FormatState) error {
		fs.SetTypes(result, []ir.Type{ir.AsyncToken})
		ts := make([]ir.Type, len(fs.Operands(operands)))
		for i := range ts {
			ts[i] = ir.AsyncToken
		}
		fs.SetTypes(operands, ts)
		return nil
	}
}

func ops() []*ir.OpDef {
	return []*ir.OpDef{
		{Name: "ttg.convert_layout", Summary: "change the layout of a tensor",
			Traits:   ir.Pure | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultElementType,
			Operands: args("src"), Results: args("result"),
			Format: "$src attr-dict `:` type($src) `->` type($result)",
			Layout: &ir.LayoutRule{Kind: ir.LayoutConvert, Cost: ir.CostFree}},
		view("ttg.memdesc_trans", "transposed view of a memory descriptor", ir.AttrDef{Name: "order", Kind: ir.DenseI32Array}),
		view("ttg.memdesc_reshape", "reshaped view of a memory descriptor"),
		view("ttg.memdesc_reinterpret", "reinterpreted view of a memory descriptor"),
		{Name: "ttg.fp4_to_fp", Summary: "upcast fp4", Traits: ir.Pure,
			Operands: args("src"), Results: args("result"), Attrs: []ir.AttrDef{{Name: "axis", Kind: ir.I32Attr}},
			Format: "$src attr-dict `:` type($src) `->` type($result)", Layout: fp4ToFpLayout},
		{Name: "ttg.local_alloc", Summary: "allocate shared memory",
			Operands: []ir.ArgDef{ir.Opt("src")}, Results: args("result"),
			Attrs:  []ir.AttrDef{{Name: "alignment", Kind: ir.I32Attr, Optional: true}},
			Format: "($src^)? attr-dict `:` functional-type(operands, results)",
			Verify: verifyLocalAlloc},
		{Name: "ttg.local_load", Summary: "load a tensor from shared memory", Traits: ir.MemoryRead,
			Operands: []ir.ArgDef{ir.Arg("src"), ir.Opt("token")}, Results: args("result"),
			Format:    "$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)",
			TypeRules: []ir.TypeRule{{Target: "token", From: "src", Fn: to(ir.AsyncToken)}},
			Verify:    verifyLocalLoad,
			// Not an anchor (Triton's isLayoutAnchor leaves it out): it
			// reads shared memory in whatever layout its result asks,
			// at the cost of a load (isRematBeneficial's 8 per byte).
			Layout: &ir.LayoutRule{Kind: ir.LayoutSame, Cost: ir.CostExpensive}},
		{Name: "ttg.local_store", Summary: "store a tensor into shared memory", Traits: ir.MemoryWrite,
			Operands: args("src", "dst"),
			Format:   "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))",
			Verify:   verifyLocalStore},
		{Name: "ttg.local_dealloc", Summary: "free shared memory", Traits: ir.MemoryWrite,
			Operands: args("src"), Format: "$src attr-dict `:` qualified(type($src))"},
		{Name: "ttg.memdesc_index", Summary: "view of one buffer of a multi-buffered allocation", Traits: ir.Pure,
			Operands: args("src", "index"), Results: args("result"),
			Format:    "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))",
			TypeRules: []ir.TypeRule{{Target: "index", From: "src", Fn: to(ir.I32)}},
			Verify:    verifyMemdescIndex},
		{Name: "ttg.async_copy_global_to_local", Summary: "asynchronous copy global → shared",
			Traits: ir.MemoryRead | ir.MemoryWrite, Props: []string{"cache", "evict", "isVolatile", "contiguity"},
			Parse: parseAsyncCopy, Print: printAsyncCopy},
		{Name: "ttg.async_commit_group", Summary: "commit pending async copies",
			Operands: []ir.ArgDef{ir.Vars("inputTokens")}, Results: args("asyncToken"),
			Format: "(`tokens` $inputTokens^)? attr-dict", InferTypes: tokens("inputTokens", "asyncToken")},
		{Name: "ttg.async_wait", Summary: "wait for async copy groups",
			Operands: []ir.ArgDef{ir.Vars("asyncToken")}, Results: args("retToken"),
			Attrs:  []ir.AttrDef{{Name: "num", Kind: ir.I32Attr}},
			Format: "($asyncToken^)? attr-dict", InferTypes: tokens("asyncToken", "retToken")},
		{Name: "ttg.barrier", Summary: "block-wide barrier", Format: "attr-dict"},
		// Triton 3.6's TTG_LocalBarrierOp: the barrier Membar inserts between
		// conflicting shared-memory accesses (lowered to bar.sync 0).
		{Name: "ttg.local_barrier", Summary: "synchronize the threads of a CTA and order their shared-memory accesses",
			Traits: ir.MemoryRead | ir.MemoryWrite, Format: "attr-dict"},
	}
}

// fp4ToFpLayout: the result's layout follows the operand's through
// attr.Fp4ToFpLayout (Triton's Fp4ToFpOp inference); an inferred operand
// layout that places elements as the operand already does keeps its
// spelling.
var fp4ToFpLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, ThreadLocal: true,
	Forward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
		axis, _ := op.IntAttr("axis")
		return attr.MapLinear(e, shapeOf(op.Operand(i)), func(l linear.Layout) (linear.Layout, error) { return attr.Fp4ToFpLayout(l, int(axis)) })
	},
	Backward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
		axis, _ := op.IntAttr("axis")
		out := attr.MapLinear(e, shapeOf(op.Result(0)), func(l linear.Layout) (linear.Layout, error) { return attr.Fp4ToFpSrcLayout(l, int(axis)) })
		if cur := ir.ValueEncoding(op.Operand(i)); out != nil && cur != nil {
			if attr.SameLayout(cur, out, shapeOf(op.Operand(i))) {
				return cur
			}
		}
		return out
	}}

func shapeOf(v *ir.Value) []int { return ir.IntShape(v.Type()) }
