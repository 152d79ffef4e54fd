package passes

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// RemoveConversionsPass is remove-redundant-conversions (alias
// tritongpu-remove-layout-conversions): it removes ttg.convert_layout ops
// that are not needed. See its Doc for the rules and the cost model.
var RemoveConversionsPass = &Pass{
	Name:    "remove-redundant-conversions",
	Summary: "Remove ttg.convert_layout ops that are not needed (identity, chains, cheap producers, forward propagation, backward rematerialization)",
	Anchor:  "tt.func",
	Aliases: []string{"tritongpu-remove-layout-conversions"},
	Options: []Option{
		{Name: "remarks", Default: "false", Kind: BoolOption,
			Doc: "emit a remark on each conversion left, saying why it stays (anchor, conflict, cost, dot operand)"},
	},
	Doc: `Removes ttg.convert_layout ops that are not needed, after Triton 3.6's
tritongpu-remove-layout-conversions (RemoveLayoutConversions.cpp: LayoutPropagation,
then LayoutRematerialization). Layouts are compared as LinearLayouts, so two
attributes that place every element identically for the tensor's shape count as one
layout. The rules, applied to a fixed point:

 1. Identity and chains. A conversion whose source and destination are the same
    LinearLayout for the tensor's shape is removed (where every user still verifies
    with the source's spelling; a #ttg.linear source produced by a view or an
    element-wise op only used there is re-spelled as the destination instead);
    cvt(cvt(x)) becomes cvt(x). A tt.reduce keeps the exact spelling of its
    operand's layout: Triton infers its result types from it and requires
    them as inferred (no layout equivalence, unlike tt.trans), so the
    conversion stays there (LayoutRule.ExactSpelling).
 2. Cheap producers. A conversion of tt.splat, tt.make_range or arith.constant is
    folded into its producer, which is re-created in the target layout (moved when
    the conversion is its only user, cloned otherwise).
 3. Forward propagation (Triton's LayoutPropagation). The layouts of anchors —
    function arguments and the results of ops whose layout matters (expensive
    loads, dots, atomics, gathers with efficient_layout, reshapes that may
    reorder, unknown ops...) — are pushed to their users through element-wise
    ops, tt.broadcast, tt.expand_dims, tt.reduce, tt.trans, tt.reshape, tt.join,
    tt.split, tt.scan (#ttg.blocked layouts only), tt.gather (from the indices),
    ttng.warp_group_dot_wait (output k from input k), conversions and
    scf.for/scf.if/scf.while/scf.yield/scf.condition, loop-carried values
    included; the work list is popped last-in first-out, as Triton's. A value
    reached by several layouts keeps one (loads and stores prefer #blocked, other
    values an MMA layout, otherwise the first found); ttg.local_load is no
    anchor. A #ttg.linear inferred through a reshape or view is spelled as a
    layout already written in the function that places the elements identically
    (Triton's inference names such layouts).
    Conversions are inserted only where an operand's layout still differs from
    what its user needs; tt.assert and reductions to scalars take any layout.
 4. Backward rematerialization (Triton's backwardRematerialization). For each
    remaining conversion, the chain of producers of its source is recomputed in
    the target layout when that is cheaper than converting (see the cost model).
    Values on the chain used only by the chain are re-typed in place (free);
    other values are cloned, each clone before its original. scf.for slots and
    scf.if results on the chain get new slots and results in the new layout
    (replaceForOpWithNewSignature / replaceIfOpWithNewSignature); the old ones go
    in the clean-up when unused. A value rematerialized or converted before (a
    conversion that stays) is reused where it dominates the use (Triton's
    rematMapping). That record is kept per value and layout, from the value
    to its copy only, as Triton's is: a slot added in layout B for slot k,
    needed later in layout A again, gets one more slot rather than slot k
    back. Triton carries such duplicates, and so do we: in combine.mlir's
    multi_rematerialize_loop_arg the running maximum goes from its #blocked
    slot to a new MMA-slice slot (for the tt.expand_dims of a mask) and from
    there to a third slot, #blocked again (for the select before the second
    reduction); the MMA slot dies, and the two #blocked slots stay, each
    computing the same maximum in the loop: their yielded values differ, so
    neither -cse nor scf.for's folder merges them. A chain that would compute
    a floating-point tt.reduce a second time (it is cloned, not re-typed)
    whose combiner adds or multiplies floats over more than two elements is
    refused, as Triton's isRematBeneficial refuses it
    (ReduceOpHelper::isAssociative): the copy could round differently.
    Conversions on the chain are looked through. At most one value
    outside the chain that cannot be recomputed (an anchor: a "leaf") may be
    converted instead; when the operand of a widening op (extf/extsi/extui,
    widening tt.fp_to_fp, tt.broadcast, tt.expand_dims: LayoutRule.HoistAbove)
    cannot be recomputed, it may be that leaf, converted right above the op
    (hoistConvertOnTopOfExtOrBroadcast). A conversion whose chain cannot be
    recomputed, or costs too much, is tried once more as Triton hoists it:
    with a chain that ends at scf.for results (Triton's slices stop there,
    ours otherwise go through them into the loop), so that a widening op
    whose operand comes from a loop converts that operand. As Triton hoists
    only after its last backward rematerialization, a hoisted conversion is
    not rematerialized by a later round, nor dropped by rule 1 when it only
    re-spells one layout (Triton's canonicalizer drops only conversions to
    the identical type); rule 2 and the clean-up still fold it into a splat,
    make_range or constant it converts. When one branch of an scf.if inside a
    loop cannot produce the layout and the other can, the conversion goes into
    that branch, before its scf.yield (hoistConvertIntoConditionals); an scf.if
    whose branches both cannot becomes a leaf. A conversion to a #ttg.dot_op
    whose chain from tt.loads, tt.descriptor_loads and constants moves no data
    between threads goes right after each load (hoistConvertDotOperand; see
    the deviations).

Finally, identical copies of side-effect-free ops are merged, and dead ops are
erased. Then, as Triton's pass ends, the greedy pattern driver runs on the function
with the folders of every op but the arith ones (whose arithmetic folds are left to
-canonicalize), the canonicalization patterns of ttg.convert_layout
(CanonicalizeConvertFrom*: a conversion folded into ttg.local_load, a local_alloc or
local_store, splat, make_range, constants, reshape, ...), scf.for's
iteration-argument folder (a slot yielded unchanged or yielding its init carries
the init; a slot with the init and yielded value of an earlier slot is merged into
it; a slot yielding a value defined outside a loop with constant bounds that runs
at least once gives that value; unused slots go), Triton's dead-argument
elimination of scf.for (loop-carried values that only feed themselves go; scf.if
and nested scf.for results are followed per slot) and scf.if's removal of unused
results; constants are uniqued and hoisted to the function's entry as MLIR's driver
does. A run that would leave both more conversions and a higher total cost than
the function had is undone (when the function body is a single block).

With remarks=true, every conversion left gets a remark saying why it stays, from
rule 4's analysis of it: "anchor" (its source is produced by an op whose layout is
fixed, or by a function argument), "anchors" (recomputing would need more than one
leaf), "conflict" (a value of the chain is needed in two layouts), "cost" (the two
costs), "non-associative" (a floating-point sum or product would be computed
twice), "dot operand" (see below), "hoisted" (placed above a widening op by rule
4), or that the run was undone.

Cost model of rule 4 (units: bytes moved or computed; n = elements of the tensor,
b = bytes per element, pointers 8, i1 1):
  - a conversion costs 0 when the layouts are equal, n*b when only registers move
    (lane, warp and block bases agree), 4*n*b when it stays within a warp (warp
    and block bases agree: shuffles), and 8*n*b + 256 otherwise (a round trip
    through shared memory and a barrier); one placed in an scf.if branch costs
    half (the branch runs on some iterations only);
  - recomputing costs nothing for tt.splat, tt.make_range, arith.constant and for
    views (tt.broadcast, tt.expand_dims, tt.trans, tt.join, tt.split, tt.reshape,
    conversions looked through), n*b for element-wise arithmetic and tt.scan,
    8*n*b for transcendental math, divisions, remainders, tt.gather and loads
    (tt.load of few pointers, ttg.local_load; assumed to hit L1); tt.reduce
    costs what Triton charges: the lanes plus 8 times the warps that hold
    distinct elements along its axis in its operand's layout (ReduceOpHelper's
    intra- and inter-warp sizes with unique data), not the work each thread
    does on its own elements; ops re-typed in place cost nothing;
  - every op and conversion is weighted by 8^d, where d is how many more scf.for
    loops it sits in than the removed conversion (negative when it sits outside
    the conversion's loop, so hoisting a conversion out of a loop pays).
The chain is rematerialized when its cost (cloned ops plus the leaf conversion) is
strictly less than the cost of the conversion it removes, or, for a free
conversion (the same layout spelled otherwise), when the conversions of the chain
that only the chain uses go with it and the leaf costs no more than they did,
or, for a conversion between two spellings of one layout that rule 1 could not
remove (a user needs the target's spelling), when the chain's cost plus Triton's
price of the conversions the rewrite adds is at most Triton's price of this one
(32 per byte, counting at least 32 elements of at least 32 bits, pointers as 32:
Triton's getConvertCost, which does not see that the layouts are equal). Such a
conversion lowers to nothing, so this follows Triton at the price of the copies
of the chain that stay where the old spelling is still used.

Deviations from Triton 3.6:
  - Cost model. Triton prices a conversion at 32 per byte (at least 32 elements of
    at least 32 bits; 0 when only registers move) and a rematerialization by the
    ops whose results are also used outside the slice (arith/math 1 or 8 per byte,
    loads 8, reductions their intra- plus 8x inter-warp traffic, everything else
    0), without loop weights, and rematerializes when the conversion costs at
    least as much. Ours is above: it weighs work by loop depth, charges views and
    tt ops as listed (reductions as Triton does), and needs a strict gain; the two meet on conversions
    between spellings of one layout (above), where Triton's price decides,
    as in combine.mlir's reduce_cvt2. (Triton's model throughout, tried
    here, left nine of Triton's own combine.mlir cases failing that ours
    passes.)
  - Leaves. Triton's backward slice must be rematerializable to its roots
    (constants, cheap loads, ...) and fails at function arguments, scf.for
    results and anchors; ours allows one leaf conversion and goes through scf.for
    results. Like
    Triton's, a chain fails at a function argument (other than the
    conversion's own source), unless the conversion sits in a loop: then the
    argument is converted once, outside it.
  - Conversions to #ttg.dot_op are folded into cheap producers, hoisted into a
    branch, or moved up through element-wise ops without memory effects, views,
    constants and ttg.fp4_to_fp to the tt.loads and tt.descriptor_loads that
    feed them (or rematerialized wholly when constants are the only roots) when
    an MMA dot follows in their block (hoistConvertDotOperand; Triton asks for
    a dot that post-dominates the conversion);
    Triton's backward rematerialization of dot operands outside pipelined loops
    is not done.
  - Layout spelling: inferred layouts are compared as LinearLayouts; a
    #ttg.linear result is re-spelled as an equal named layout of the function
    (Triton's inference produces the named layout directly; a tt.join of
    #ttg.blocked operands gets the #ttg.blocked Triton's inferJoinOpEncoding
    gives).
  - The undo guard above has no Triton counterpart.
  - Not done: rematerialization does not go through scf.while (its values are
    leaves there), ttg.fp4_to_fp's layout inference.`,
	Run: runRemoveConversions,
}

func init() {
	MustRegister(RemoveConversionsPass)
}

func runRemoveConversions(ctx *Context, fn *ir.Operation) error {
	body := entryBlock(fn)
	if body == nil {
		return nil
	}
	r := newRewriter(ctx.Module, fn)
	// The rules are heuristics; keep a copy of a single-block body so that
	// a run that leaves more conversions, or costlier ones, than it found
	// can be undone.
	var backup *ir.Operation
	var count int
	var cost float64
	if len(fn.Regions()) == 1 && len(fn.Region(0).Blocks) == 1 {
		backup = fn.Clone()
		count, cost = r.conversionStats()
	}
	changed := r.run()
	if runCleanup(fn) {
		changed = true
	}
	undone := false
	if changed && backup != nil {
		if n, c := r.conversionStats(); n > count && c > cost {
			restoreBody(body, entryBlock(backup))
			changed, undone = false, true
		}
	}
	if ctx.BoolOption("remarks") {
		remarkConversions(ctx, fn, undone, r.hoisted)
	}
	if !changed {
		return nil
	}
	regenerateAttrAliases(ctx.Module)
	ctx.MarkChanged()
	return nil
}

// remarkConversions emits, for each conversion left in fn, a remark that
// says why it stays: that the run was undone, that rule 4 hoisted it above
// a widening op (hoisted), or what rule 4's analysis of it finds (an
// anchor, a conflict, the cost, a dot operand).
func remarkConversions(ctx *Context, fn *ir.Operation, undone bool, hoisted map[*ir.Operation]bool) {
	r := newRewriter(ctx.Module, fn)
	for _, op := range r.ops() {
		if !isConversion(op) {
			continue
		}
		if undone {
			ctx.Remarkf(op, "conversion kept: the run that removed conversions here left more, or costlier, ones, and was undone")
			continue
		}
		if hoisted[op] {
			ctx.Remarkf(op, "conversion kept: hoisted above a widening op, where Triton leaves it (it hoists after its last rematerialization)")
			continue
		}
		if _, why := r.plan(op); why != "" {
			ctx.Remarkf(op, "conversion kept: %s", why)
			continue
		}
		ctx.Remarkf(op, "conversion kept: the rules stopped after %d rounds", maxRounds)
	}
}

// conversionStats counts the function's conversions and sums their costs,
// weighted by 8 per enclosing loop.
func (r *rewriter) conversionStats() (int, float64) {
	n, cost := 0, 0.0
	for _, op := range r.ops() {
		if isConversion(op) {
			n++
			c := float64(r.convertCost(op)) * weight(r.loopDepth(op))
			if p := op.ParentOp(); p != nil && p.Name() == opIf {
				c /= 2 // in a branch: as the cost model prices it
			}
			cost += c
		}
	}
	return n, cost
}

// isConversion reports whether op is a well-formed ttg.convert_layout (one
// operand, one result) still in the IR: the conversions the rules act on.
// (A rule may erase ops of a list taken before it ran.)
func isConversion(op *ir.Operation) bool {
	return op.Name() == opConvert && op.Block() != nil && op.NumOperands() == 1 && op.NumResults() == 1
}

// restoreBody replaces the ops of body by those of saved, a copy of it
// whose arguments stand for body's.
func restoreBody(body, saved *ir.Block) {
	ops := body.Ops()
	for i := len(ops) - 1; i >= 0; i-- {
		// Later ops are gone first, so every result is unused by now.
		if ops[i].Erase() != nil {
			ops[i].Remove()
		}
	}
	for _, op := range saved.Ops() {
		op.Remove()
		body.Append(op)
	}
	for i, a := range saved.Args() {
		a.ReplaceAllUsesWith(body.Arg(i))
	}
}

// maxRounds bounds the fixed-point iteration of remove-redundant-conversions.
const maxRounds = 16

// rewriter holds the state of one run of remove-redundant-conversions on
// one function.
type rewriter struct {
	fn             *ir.Operation
	numWarps       int
	threadsPerWarp int
	changed        bool
	// remat maps a value and a layout to the value computed again in that
	// layout, or converted to it, by an earlier rematerialization.
	remat map[rematKey]*ir.Value
	keys  map[attr.Encoding]string // encKey per attribute value
	// hoisted holds the conversions rule 4 placed above widening ops
	// (hoistConvertOnTopOfExtOrBroadcast), which Triton does after its
	// backward rematerialization: they are not rematerialized again.
	hoisted map[*ir.Operation]bool
}

func newRewriter(m *ir.Module, fn *ir.Operation) *rewriter {
	r := &rewriter{fn: fn, numWarps: 4, threadsPerWarp: 32, hoisted: map[*ir.Operation]bool{}}
	if m != nil {
		r.numWarps = int(m.IntAttr("ttg.num-warps", 4))
		r.threadsPerWarp = int(m.IntAttr("ttg.threads-per-warp", 32))
	}
	if n, ok := fn.IntAttr("ttg.num-warps"); ok {
		r.numWarps = int(n)
	}
	return r
}

// run applies the four rules and reports whether the IR changed.
func (r *rewriter) run() bool {
	r.foldConversions()
	r.forwardPropagate()
	r.foldConversions()
	for range maxRounds {
		if !r.rematerializeAll() {
			break
		}
		r.foldConversions()
	}
	r.cse()
	r.removeDeadCode()
	return r.changed
}

// opClass says how an op relates to the layouts of its tensors: the
// op's layout rule (ir.LayoutRule, declared with the op), applied to this
// op (its results, its operands, the module's warps).
type opClass int

const (
	// classFixed ops keep the layouts of their operands and results
	// (anchors: expensive loads, stores, dots, unknown ops, ...).
	classFixed opClass = iota
	// classConvert is ttg.convert_layout.
	classConvert
	// classCheap ops (splat, make_range, constant) have no tensor operand
	// and can produce any layout for free.
	classCheap
	// classElementwise ops (element-wise arithmetic, tt.broadcast, cheap
	// loads) need their tensor operands in the result's layout.
	classElementwise
	// classMapped ops relate operand and result layouts through their
	// rule's Forward and Backward (tt.expand_dims, tt.reduce, tt.trans).
	classMapped
	// classPassThrough ops give result k the layout of operand k
	// (ttng.warp_group_dot_wait).
	classPassThrough
)

func (r *rewriter) classify(op *ir.Operation) opClass {
	tensorResults := op.NumResults() > 0
	for _, v := range op.Results() {
		if rt, _, _ := tensorInfo(v.Type()); rt == nil {
			tensorResults = false
		}
	}
	if !tensorResults {
		return classFixed
	}
	rule := op.Layout()
	switch rule.Kind {
	case ir.LayoutConvert:
		return classConvert
	case ir.LayoutPassThrough:
		return classPassThrough
	case ir.LayoutFree:
		if !hasTensorOperand(op) {
			return classCheap
		}
	case ir.LayoutSame, ir.LayoutMapped:
		if rule.AnchorIf != nil && rule.AnchorIf(op, r.layoutContext()) {
			return classFixed
		}
		if rule.Kind == ir.LayoutMapped {
			return classMapped
		}
		if len(op.Regions()) == 0 {
			return classElementwise
		}
	}
	return classFixed
}

func (r *rewriter) layoutContext() ir.LayoutContext {
	return ir.LayoutContext{NumWarps: r.numWarps, ThreadsPerWarp: r.threadsPerWarp}
}

func hasTensorOperand(op *ir.Operation) bool {
	for _, v := range op.Operands() {
		if _, ok := v.Type().(*ir.RankedTensorType); ok {
			return true
		}
	}
	return false
}

// inferResult returns the layout of the results of op (class c) when its
// tensor operand i has layout e, or nil when it cannot say.
func (r *rewriter) inferResult(op *ir.Operation, c opClass, i int, e attr.Encoding) attr.Encoding {
	switch c {
	case classElementwise, classConvert:
		return e
	case classMapped:
		if f := op.Layout().Forward; f != nil {
			return f(op, i, e)
		}
	}
	return nil
}

// inferOperand returns the layout operand i of op (class c) needs for the
// op to produce its results in layout e, or nil when it cannot say.
func (r *rewriter) inferOperand(op *ir.Operation, c opClass, i int, e attr.Encoding) attr.Encoding {
	switch c {
	case classElementwise, classConvert:
		return e
	case classMapped:
		if b := op.Layout().Backward; b != nil {
			return b(op, i, e)
		}
	}
	return nil
}

// newConvert builds (detached) a conversion of v to layout e.
func newConvert(v *ir.Value, e attr.Encoding, loc ir.Location) *ir.Operation {
	c := ir.NewOperation(opConvert, []*ir.Value{v}, []ir.Type{withEncoding(v.Type(), e)}, nil, 0)
	c.Loc = loc
	return c
}

// insertAfterDef places op right after the definition of v (at the start of
// its block for a block argument), so that it dominates every use of v.
func insertAfterDef(v *ir.Value, op *ir.Operation) {
	if d := v.DefiningOp(); d != nil {
		d.Block().InsertAfter(d, op)
		return
	}
	v.OwnerBlock().InsertAfter(nil, op)
}

// locOf returns the location to give an op created for value v.
func locOf(v *ir.Value) ir.Location {
	if d := v.DefiningOp(); d != nil {
		return d.Loc
	}
	return v.Loc
}

// retype gives value v layout e, keeping arith.constant's value attribute
// in step with its result type.
func retype(v *ir.Value, e attr.Encoding) {
	t := withEncoding(v.Type(), e)
	v.SetType(t)
	if d := v.DefiningOp(); d != nil && d.HasTrait(ir.ConstantLike) {
		if da, ok := d.Attr("value").(*ir.DenseElementsAttr); ok {
			nd := *da
			nd.Type = t
			d.SetAttr("value", &nd)
		}
	}
}

// loopDepth counts the scf.for ops around op inside the function.
func (r *rewriter) loopDepth(op *ir.Operation) int {
	n := 0
	for p := op.ParentOp(); p != nil && p != r.fn; p = p.ParentOp() {
		if p.Name() == opFor {
			n++
		}
	}
	return n
}

// ops returns the ops of the function in pre-order.
func (r *rewriter) ops() []*ir.Operation {
	var out []*ir.Operation
	r.fn.Walk(func(op *ir.Operation) ir.WalkResult {
		if op != r.fn {
			out = append(out, op)
		}
		return ir.Advance
	})
	return out
}

// removeDeadCode erases unused side-effect-free ops, repeatedly.
func (r *rewriter) removeDeadCode() {
	for {
		progress := false
		var dead []*ir.Operation
		r.fn.WalkPost(func(op *ir.Operation) ir.WalkResult {
			if op != r.fn && r.removable(op) {
				dead = append(dead, op)
			}
			return ir.Advance
		})
		for _, op := range dead {
			if unused(op) && op.Erase() == nil {
				progress = true
				r.changed = true
			}
		}
		if !progress {
			return
		}
	}
}

func unused(op *ir.Operation) bool {
	for _, v := range op.Results() {
		if !v.UseEmpty() {
			return false
		}
	}
	return op.NumResults() > 0
}

// removable reports whether op may be erased when its results are unused.
func (r *rewriter) removable(op *ir.Operation) bool {
	if !unused(op) {
		return false
	}
	switch r.classify(op) {
	case classConvert, classCheap, classMapped:
		return true
	case classElementwise:
		return !op.HasTrait(ir.MemoryRead) || op.HasTrait(ir.Pure)
	}
	return op.HasTrait(ir.Pure) && len(op.Regions()) == 0
}
