package ir

import "github.com/layoutopt/layoutopt/attr"

// Layout behaviour is part of an op's definition, in the spirit of
// Triton's layout-inference interfaces (DialectInferLayoutInterface, the
// SameOperandsAndResultEncoding trait, isExpensiveToRemat): how the layout
// of its tensor results follows from its operands' and back, and what it
// costs to compute it again. The layout passes ask the op, so a new op
// declares its rule instead of being added to a switch in a pass.

// LayoutKind is how an op relates the layouts of its tensor operands and
// results.
type LayoutKind uint8

const (
	// LayoutAnchor ops fix the layouts of their operands and results
	// (stores, dots, loads of many pointers, ops with regions, ops with no
	// rule): propagation starts or stops there.
	LayoutAnchor LayoutKind = iota
	// LayoutSame ops give their tensor results the layout of their tensor
	// operands, which all share it (elementwise arithmetic, tt.broadcast,
	// a cheap tt.load).
	LayoutSame
	// LayoutFree ops have no tensor operand and can produce their result
	// in any layout (tt.splat of a scalar, tt.make_range, arith.constant).
	LayoutFree
	// LayoutConvert is ttg.convert_layout: the result is the operand in
	// another layout.
	LayoutConvert
	// LayoutMapped ops relate operand and result layouts through the
	// rule's Forward and Backward functions (tt.expand_dims, tt.reduce,
	// tt.trans).
	LayoutMapped
	// LayoutPassThrough ops give tensor result k the layout of operand k;
	// the operands are independent of one another
	// (ttng.warp_group_dot_wait).
	LayoutPassThrough
)

// RematCost prices computing an op again in another layout, as multiples
// of the bytes n·b of its result (the cost model of the layout passes).
type RematCost uint8

const (
	// CostArith (the default) is n·b: one arithmetic op per element.
	CostArith RematCost = iota
	// CostFree ops cost nothing to redo: views and cheap producers.
	CostFree
	// CostExpensive ops (transcendental math, divisions, loads) cost 8·n·b.
	CostExpensive
	// CostReduce is a reduction, priced as Triton prices it: the lanes
	// plus 8 times the warps along the reduced axis (not a multiple of n·b).
	CostReduce
)

// LayoutContext is what a layout rule may ask of the pass that applies
// it: the module's warps and threads.
type LayoutContext struct {
	NumWarps, ThreadsPerWarp int
}

// LayoutRule is an op's layout behaviour.
type LayoutRule struct {
	Kind LayoutKind
	Cost RematCost
	// AnchorIf, when set, makes a LayoutSame or LayoutMapped op an anchor
	// when it returns true (a tt.load of at least as many pointers as the
	// CTA has threads is an anchor, a smaller one is not).
	AnchorIf func(op *Operation, lc LayoutContext) bool
	// AnyOperandLayoutIfScalar: when the op has no tensor result, it takes
	// its tensor operands in any layout, the same for all (a reduction to
	// scalars).
	AnyOperandLayoutIfScalar bool
	// Forward returns the layout of the op's tensor results when tensor
	// operand i has layout e, or nil when it cannot say (LayoutMapped).
	Forward func(op *Operation, i int, e attr.Encoding) attr.Encoding
	// Backward returns the layout tensor operand i needs for the results
	// to have layout e, or nil when it cannot say (LayoutMapped).
	Backward func(op *Operation, i int, e attr.Encoding) attr.Encoding
	// HoistAbove, when set and true for op, says a conversion of op's
	// result costs more than one of its operand (a widening cast, a
	// broadcast, an expand_dims): a conversion that cannot go may move
	// above op (Triton's hoistConvertOnTopOfExtOrBroadcast).
	HoistAbove func(op *Operation) bool
	// ThreadLocal says a LayoutMapped op that is not a free view still
	// moves no data between threads (ttg.fp4_to_fp): a conversion to a dot
	// operand may move above it (Triton's hoistConvertDotOperand).
	ThreadLocal bool
	// ExactSpelling says Triton infers the op's result types from its
	// operands' exact encodings and requires them as inferred
	// (InferTypeOpInterface without layout equivalence, tt.reduce): a
	// layout pass must not hand the op another spelling of an operand's
	// layout, even one that places the elements identically.
	ExactSpelling bool
}

// Always is a HoistAbove (or other op predicate) that holds for every op.
func Always(*Operation) bool { return true }

var (
	anchorRule = &LayoutRule{Kind: LayoutAnchor}
	sameRule   = &LayoutRule{Kind: LayoutSame}
)

// Layout returns op's layout rule: the definition's, or for a definition
// that states none, LayoutSame for an elementwise op or one with the
// SameOperandsAndResultEncoding trait that has no regions and no memory
// effects, else LayoutAnchor. An op without a definition is an anchor.
func (op *Operation) Layout() *LayoutRule {
	d := op.def
	if d == nil {
		return anchorRule
	}
	if d.Layout != nil {
		return d.Layout
	}
	if len(op.regions) == 0 && d.Traits&(Elementwise|SameOperandsAndResultEncoding) != 0 &&
		d.Traits&(MemoryRead|MemoryWrite) == 0 {
		return sameRule
	}
	return anchorRule
}

// ValueEncoding returns the TritonGPU encoding of v's tensor type, or nil.
func ValueEncoding(v *Value) attr.Encoding { return Encoding(v.Type()) }
