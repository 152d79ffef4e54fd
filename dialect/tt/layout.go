package tt

import (
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// The layout behaviour of the tt ops (ir.LayoutRule), as Triton's
// DialectInferLayoutInterface and the layout passes' cost model state it.

var (
	// freeLayout: no tensor operand, any result layout, nothing to redo.
	freeLayout = &ir.LayoutRule{Kind: ir.LayoutFree, Cost: ir.CostFree}
	// broadcastLayout: a view, and a conversion is cheaper before it.
	broadcastLayout = &ir.LayoutRule{Kind: ir.LayoutSame, Cost: ir.CostFree, HoistAbove: ir.Always}
	// fpToFpLayout: an elementwise cast; a conversion is cheaper before a
	// widening one.
	fpToFpLayout = &ir.LayoutRule{Kind: ir.LayoutSame, HoistAbove: func(op *ir.Operation) bool {
		return op.NumOperands() == 1 && elemBits(op.Operand(0)) < elemBits(op.Result(0))
	}}
	// expensiveLayout: elementwise, but dear to compute again.
	expensiveLayout = &ir.LayoutRule{Kind: ir.LayoutSame, Cost: ir.CostExpensive}

	// expandDimsLayout: the operand is the result's layout sliced along
	// the new axis (inferExpandDimsOpEncoding).
	expandDimsLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostFree, HoistAbove: ir.Always,
		Forward: func(op *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
			return attr.Unslice(axisOf(op), e)
		},
		Backward: func(op *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
			return attr.SliceOf(axisOf(op), e)
		}}

	// reduceLayout: the results are the operands' layout sliced along the
	// reduced axis (inferReduceOpEncoding); a reduction to scalars takes
	// its operands in any layout.
	reduceLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostReduce, AnyOperandLayoutIfScalar: true, ExactSpelling: true,
		Forward: func(op *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
			return attr.SliceOf(axisOf(op), e)
		},
		Backward: func(op *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
			return attr.Unslice(axisOf(op), e)
		}}

	// transLayout: the result is the operand's layout with its dims
	// permuted (inferTransOpEncoding).
	transLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostFree,
		Forward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
			order, ok := orderOf(op)
			if !ok {
				return nil
			}
			return attr.Transpose(e, order, shapeOf(op.Operand(i)))
		},
		Backward: func(op *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
			order, ok := orderOf(op)
			if !ok {
				return nil
			}
			return attr.Transpose(e, attr.InvertPerm(order), shapeOf(op.Result(0)))
		}}

	// loadLayout: a load gives its result the layout of its pointers; a
	// load of at least as many pointers as the CTA has threads (or of a
	// block pointer) is an anchor, as Triton's isExpensiveLoadOrStore says.
	loadLayout = &ir.LayoutRule{Kind: ir.LayoutSame, Cost: ir.CostExpensive, AnchorIf: expensiveLoadOrStore}
)

func axisOf(op *ir.Operation) int {
	v, _ := op.IntAttr("axis")
	return int(v)
}

func orderOf(op *ir.Operation) ([]int, bool) {
	a, ok := op.Attr("order").(*ir.DenseArrayAttr)
	if !ok {
		return nil, false
	}
	out := make([]int, len(a.Ints))
	for i, x := range a.Ints {
		out[i] = int(x)
	}
	return out, true
}

func shapeOf(v *ir.Value) []int { return ir.IntShape(v.Type()) }

func expensiveLoadOrStore(op *ir.Operation, lc ir.LayoutContext) bool {
	if op.NumOperands() == 0 {
		return true
	}
	rt, ok := op.Operand(0).Type().(*ir.RankedTensorType)
	if !ok || ir.Encoding(rt) == nil {
		return true // a scalar or block pointer
	}
	n := 1
	for _, s := range rt.Shape {
		n *= int(s)
	}
	return n >= lc.NumWarps*lc.ThreadsPerWarp
}

var (
	// joinLayout: the result holds the joined pair in a new register bit
	// (inferJoinOpEncoding); the operands are the result without it.
	joinLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostFree,
		Forward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
			out := attr.MapLinear(e, shapeOf(op.Operand(i)), attr.JoinLayout)
			if b, ok := e.(*attr.Blocked); ok && out != nil {
				if j := joinedBlocked(b); attr.SameLayout(j, out, shapeOf(op.Result(0))) {
					return j
				}
			}
			return out
		},
		Backward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
			return spelledAs(op.Operand(i), attr.MapLinear(e, shapeOf(op.Result(0)), attr.SplitLayout))
		}}
	// splitLayout is joinLayout the other way round (inferSplitOpEncoding).
	splitLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostFree,
		Forward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
			return attr.MapLinear(e, shapeOf(op.Operand(i)), attr.SplitLayout)
		},
		Backward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
			return spelledAs(op.Operand(i), attr.MapLinear(e, shapeOf(op.Result(0)), attr.JoinLayout))
		}}
)

// joinedBlocked is the #ttg.blocked layout Triton's inferJoinOpEncoding
// gives a join of two b operands: two elements per thread along a new
// most-minor dimension, one thread and one warp along it.
func joinedBlocked(b *attr.Blocked) *attr.Blocked {
	cga := make([][]int, len(b.CGA.Bases))
	for i, v := range b.CGA.Bases {
		cga[i] = append(slices.Clone(v), 0)
	}
	return &attr.Blocked{
		SizePerThread:  append(slices.Clone(b.SizePerThread), 2),
		ThreadsPerWarp: append(slices.Clone(b.ThreadsPerWarp), 1),
		WarpsPerCTA:    append(slices.Clone(b.WarpsPerCTA), 1),
		Order:          append([]int{len(b.Order)}, b.Order...),
		CGA:            attr.CGALayout{Bases: cga},
	}
}

// spelledAs returns v's own encoding when it places every element as e
// does, else e: Triton infers a join's or split's operand layout as a
// #ttg.blocked or #ttg.slice where one fits, so a backward inference that
// lands on the operand's layout needs no conversion there.
func spelledAs(v *ir.Value, e attr.Encoding) attr.Encoding {
	cur := ir.ValueEncoding(v)
	if e == nil || cur == nil {
		return e
	}
	if attr.SameLayout(cur, e, shapeOf(v)) {
		return cur
	}
	return e
}

// reshapeLayout: the result is the operand's linear layout reshaped
// (inferReshapeOpEncoding); a reshape that may reorder elements is an
// anchor, as Triton's isLayoutAnchor says.
var reshapeLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostFree,
	AnchorIf: func(op *ir.Operation, _ ir.LayoutContext) bool { return op.Attr("allow_reorder") != nil },
	Forward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
		return attr.Reshape(e, shapeOf(op.Operand(i)), shapeOf(op.Result(0)))
	},
	Backward: func(op *ir.Operation, i int, e attr.Encoding) attr.Encoding {
		return attr.Reshape(e, shapeOf(op.Result(0)), shapeOf(op.Operand(i)))
	}}

var (
	// scanLayout: a scan keeps its operands' layout, which all share, and
	// only a #ttg.blocked one: Triton's inferDstEncoding and
	// inferSrcEncoding refuse any other for tt.scan.
	scanLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostArith,
		Forward:  blockedOnly,
		Backward: blockedOnly}

	// gatherLayout: the result has the layout of the indices, which alone
	// carry a layout forward (Triton's propagateToUsers); the source is
	// converted to that layout too (rewriteOp's cloneElementwise converts
	// every operand). A gather with efficient_layout is an anchor.
	gatherLayout = &ir.LayoutRule{Kind: ir.LayoutMapped, Cost: ir.CostExpensive,
		AnchorIf: func(op *ir.Operation, _ ir.LayoutContext) bool { return op.Attr("efficient_layout") != nil },
		Forward: func(_ *ir.Operation, i int, e attr.Encoding) attr.Encoding {
			if i != 1 {
				return nil
			}
			return e
		},
		Backward: func(_ *ir.Operation, _ int, e attr.Encoding) attr.Encoding { return e }}

	// assertLayout: tt.assert takes its condition in whatever layout it
	// has (Triton's rewriteAssertOp), a sink that needs no conversion.
	assertLayout = &ir.LayoutRule{Kind: ir.LayoutAnchor, AnyOperandLayoutIfScalar: true}
)

func blockedOnly(_ *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
	if _, ok := e.(*attr.Blocked); ok {
		return e
	}
	return nil
}

func elemBits(v *ir.Value) int {
	if f, ok := ir.ElementType(v.Type()).(*ir.FloatType); ok {
		return f.FloatBits()
	}
	return 0
}
