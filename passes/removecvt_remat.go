package passes

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// Rules 2 and 4: folding conversions into cheap producers and backward
// rematerialization. Rule 2 is the special case of rule 4 where the chain
// is one tt.splat, tt.make_range or arith.constant: recomputing it is free.

// maxSlice bounds the values one rematerialization may touch.
const maxSlice = 512

// unit is what a value of a slice belongs to: an op (slot -1) whose
// results change together, or slot k of an scf.for (iteration argument and
// result) or of an scf.if (result).
type unit struct {
	op   *ir.Operation
	slot int
}

// slice is the backward slice of one conversion: every value that must be
// produced in a new layout for the conversion to go away.
type slice struct {
	r      *rewriter
	root   *ir.Operation
	req    map[*ir.Value]attr.Encoding // member values and their new layout
	leaves map[*ir.Value]attr.Encoding // values that get a conversion instead
	units  []unit                      // in discovery order
	inUnit map[unit]bool
	moved  map[unit]bool // re-typed in place (otherwise cloned)
	clones map[*ir.Value]*ir.Value
	leafOf map[*ir.Value]*ir.Value
	reused map[*ir.Value]*ir.Value // values taken from earlier rematerializations
	// hoist holds operands of widening ops converted where they are,
	// above the op, instead of recomputed.
	hoist map[operandRef]attr.Encoding
	// condHoist holds scf.yield operands of an scf.if branch converted
	// in that branch.
	condHoist map[operandRef]attr.Encoding
	origOf    map[*ir.Operation]*ir.Operation // rewritten op -> the op of the slice
	// stopAtLoads makes tt.load and tt.descriptor_load results leaves
	// (hoistConvertDotOperand's slice), never recomputed.
	stopAtLoads bool
	// noLoopResults makes the slice fail at scf.for results, as
	// Triton's getConvertBackwardSlice does (ours otherwise goes
	// through them into the loop body).
	noLoopResults bool
	why           string // why the slice failed (a format), for remarks
	whyArgs       []any
}

// rematerializeAll tries rule 4 on every conversion and reports whether it
// removed any.
func (r *rewriter) rematerializeAll() bool {
	progress := false
	for _, op := range r.ops() {
		if !isConversion(op) {
			continue
		}
		if !r.hoisted[op] && r.rematerialize(op) {
			progress = true
			r.changed = true
			continue
		}
		// A conversion that stays is there for later slices to reuse.
		if e := encodingOf(op.Result(0)); e != nil {
			r.addRemat(op.Operand(0), e, op.Result(0))
		}
	}
	return progress
}

func (r *rewriter) rematerialize(root *ir.Operation) bool {
	s, _ := r.plan(root)
	if s == nil {
		return false
	}
	s.apply()
	return true
}

// plan analyses rule 4 for conversion root: it returns the slice to
// rewrite, or nil and why the conversion stays.
func (r *rewriter) plan(root *ir.Operation) (*slice, string) {
	_, target, _ := tensorInfo(root.Result(0).Type())
	if target == nil || encodingOf(root.Operand(0)) == nil {
		return nil, "not a conversion between distributed layouts"
	}
	if _, ok := target.(*attr.DotOperand); ok {
		// Triton's hoistConvertDotOperand: a slice that stops at loads.
		h := newSlice(r, root)
		h.stopAtLoads = true
		if h.visit(root.Operand(0), target, root) && h.hoistsDotOperand() {
			return h, ""
		}
	}
	s, why := r.planSlice(root, target, false)
	if s == nil {
		// Triton's hoistConvertOnTopOfExtOrBroadcast, tried on every
		// conversion its backward rematerialization leaves: a slice that
		// fails at scf.for results, as Triton's does, so that a widening
		// op above one converts its operand instead.
		if h, _ := r.planSlice(root, target, true); h != nil && len(h.hoist) > 0 {
			return h, ""
		}
	}
	return s, why
}

// planSlice builds and prices the slice of conversion root to target;
// with noLoopResults, scf.for results end it (see slice.noLoopResults).
func (r *rewriter) planSlice(root *ir.Operation, target attr.Encoding, noLoopResults bool) (*slice, string) {
	s := newSlice(r, root)
	s.noLoopResults = noLoopResults
	if !s.visit(root.Operand(0), target, root) {
		return nil, s.reason()
	}
	if n := len(s.leaves) + len(s.hoist); n > 1 {
		return nil, fmt.Sprintf("anchors: recomputing the source in the target layout needs %d conversions of values whose layout is fixed (%s)", n, s.leafProducers())
	}
	if _, ok := target.(*attr.DotOperand); ok {
		// Like Triton, leave conversions to dot operands alone unless
		// they fold into cheap producers.
		const why = "dot operand: a conversion to #ttg.dot_op is only folded into cheap producers (or hoisted into a branch), as Triton leaves it to the dot"
		if len(s.leaves)+len(s.hoist) > 0 {
			return nil, why
		}
		for _, u := range s.units {
			// Into conditionals, Triton hoists them too: through loop
			// slots and scf.if results.
			if u.slot >= 0 && len(s.condHoist) == 0 {
				return nil, why
			}
			if u.slot >= 0 {
				continue
			}
			if c := r.classify(u.op); c != classCheap && c != classConvert {
				return nil, why
			}
		}
	}
	if !s.analyzeMoves(false) {
		return nil, "conflict: a value of the chain has users that need its current layout"
	}
	// A conversion between equal layouts (spelled differently, so rule 1
	// could not drop it) costs nothing at run time, but still goes when the
	// chain can take the target's spelling for free.
	cost, rootCost := s.cost(), float64(r.convertCost(root))
	// A free conversion (the same layout spelled otherwise) still goes
	// when conversions on its chain that only the chain uses go with it
	// and the leaves taking their place cost no more than they did.
	removed, credit := s.removedConversions()
	moves := len(s.leaves) + len(s.hoist) + len(s.condHoist)
	cheaper := cost < rootCost || cost == 0 && rootCost == 0 && moves == 0
	if rootCost == 0 && !attr.Equal(encodingOf(root.Operand(0)), target) {
		// Two spellings of one layout that rule 1 could not merge (a
		// user needs the target's spelling): Triton prices such a
		// conversion like any other, and rematerializes when that costs
		// at least the chain and the conversions the rewrite adds.
		cheaper = cheaper || cost+s.addedTritonConvertCost() <= tritonConvertCost(root.Operand(0))
	}
	trade := rootCost == 0 && removed > 0 && moves <= removed && cost <= credit
	if !cheaper && !trade {
		return nil, fmt.Sprintf("cost: recomputing the source in the target layout costs %.0f, the conversion %.0f", cost, rootCost)
	}
	// The cost is that of re-typing what only the slice uses; the rewrite
	// gives loops new slots as Triton's does (the old slots, then unused,
	// go in the clean-up), which keeps Triton's order of loop results.
	if !s.analyzeMoves(true) && !s.analyzeMoves(false) {
		return nil, "conflict: a value of the chain has users that need its current layout"
	}
	for _, u := range s.units {
		// Triton's isRematBeneficial refuses to duplicate a reduction
		// whose result could differ in another order.
		if u.slot < 0 && !s.moved[u] && u.op.Layout().Cost == ir.CostReduce && nonAssociative(u.op) {
			return nil, "non-associative: the chain would compute a floating-point sum or product again in another layout, which may round differently"
		}
	}
	return s, ""
}

// newSlice returns an empty slice for conversion root.
func newSlice(r *rewriter, root *ir.Operation) *slice {
	return &slice{
		r: r, root: root,
		req:       map[*ir.Value]attr.Encoding{},
		leaves:    map[*ir.Value]attr.Encoding{},
		inUnit:    map[unit]bool{},
		moved:     map[unit]bool{},
		clones:    map[*ir.Value]*ir.Value{},
		leafOf:    map[*ir.Value]*ir.Value{},
		reused:    map[*ir.Value]*ir.Value{},
		hoist:     map[operandRef]attr.Encoding{},
		condHoist: map[operandRef]attr.Encoding{},
		origOf:    map[*ir.Operation]*ir.Operation{},
	}
}

// hoistsDotOperand reports whether the slice of a conversion to a
// #ttg.dot_op is Triton's hoistConvertDotOperand: the conversion feeds a
// dot with an MMA accumulator later in its block, the chain from the loads
// moves no data between threads (element-wise ops without memory effects,
// views, conversions, constants), and every leaf is a tt.load or a
// tt.descriptor_load, after which the conversion goes so that the load can
// be pipelined (with no leaf, constants are the roots and the whole chain is
// recomputed). Triton applies no cost model there.
func (s *slice) hoistsDotOperand() bool {
	if len(s.units) == 0 || len(s.hoist)+len(s.condHoist) > 0 || !feedsMMADot(s.root) {
		return false
	}
	for v := range s.leaves {
		d := v.DefiningOp()
		if d == nil || d.Name() != "tt.load" && d.Name() != "tt.descriptor_load" {
			return false
		}
	}
	for _, u := range s.units {
		if u.slot >= 0 {
			return false
		}
		switch s.r.classify(u.op) {
		case classCheap, classConvert:
		case classElementwise:
			if u.op.HasTrait(ir.MemoryRead) || u.op.HasTrait(ir.MemoryWrite) {
				return false
			}
		case classMapped:
			if rule := u.op.Layout(); rule.Cost != ir.CostFree && !rule.ThreadLocal {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// feedsMMADot reports whether a dot whose first operand is a #ttg.dot_op of
// an MMA layout follows op in its block (Triton's canBePipelined asks for
// one that post-dominates it).
func feedsMMADot(op *ir.Operation) bool {
	for o := op.Next(); o != nil; o = o.Next() {
		if o.NumOperands() < 3 || o.NumResults() != 1 || !isMMALike(encodingOf(o.Result(0))) {
			continue
		}
		if d, ok := encodingOf(o.Operand(0)).(*attr.DotOperand); ok && isMMALike(d.Parent) {
			return true
		}
	}
	return false
}

// leafProducers names the ops whose results the slice would convert.
func (s *slice) leafProducers() string {
	var names []string
	for v := range s.leaves {
		names = append(names, producerName(v))
	}
	for ref := range s.hoist {
		names = append(names, producerName(ref.op.Operand(ref.i)))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// producerName names what produces v: its op, or the op whose region v is
// an argument of.
func producerName(v *ir.Value) string {
	if d := v.DefiningOp(); d != nil {
		return d.Name()
	}
	if p := v.OwnerBlock().ParentOp(); p != nil {
		return "an argument of " + p.Name()
	}
	return "a block argument"
}

// fail records why the slice cannot be built (the first reason found) and
// returns false.
func (s *slice) fail(format string, args ...any) bool {
	if s.why == "" {
		// Formatted only when a remark asks (plan's caller).
		s.why, s.whyArgs = format, args
	}
	return false
}

// reason returns why the slice failed, formatted.
func (s *slice) reason() string {
	if s.why == "" {
		return "the source cannot be recomputed in the target layout"
	}
	return fmt.Sprintf(s.why, s.whyArgs...)
}

func (s *slice) addUnit(u unit) {
	if !s.inUnit[u] {
		s.inUnit[u] = true
		s.units = append(s.units, u)
	}
}

// visit requires value v in layout e and collects what that takes. It
// returns false when v cannot be produced in e.
func (s *slice) visit(v *ir.Value, e attr.Encoding, user *ir.Operation) bool {
	cur := encodingOf(v)
	if cur == nil {
		return s.fail("a value of the chain (from %s) has no distributed layout", producerName(v))
	}
	if attr.Equal(cur, e) {
		return true
	}
	if old, ok := s.req[v]; ok {
		return attr.Equal(old, e) || s.fail("conflict: a value (from %s) is needed in two layouts", producerName(v))
	}
	if old, ok := s.leaves[v]; ok {
		return attr.Equal(old, e) || s.fail("conflict: a value (from %s) is needed in two layouts", producerName(v))
	}
	if w := s.r.existingRemat(v, e, user); w != nil {
		// Rematerialized or converted before: reuse it (Triton's
		// getExistingConversion).
		if old, ok := s.reused[v]; ok && old != w {
			return s.fail("conflict: a value (from %s) was rematerialized twice", producerName(v))
		}
		s.reused[v] = w
		return true
	}
	if len(s.req) >= maxSlice {
		return s.fail("the chain has more than %d values", maxSlice)
	}
	d := v.DefiningOp()
	if d == nil {
		owner := v.OwnerBlock().ParentOp()
		if owner != nil && owner.Name() == opFor && v.OwnerBlock() == entryBlock(owner) && v.ArgIndex() >= 1 {
			return s.visitFor(owner, v.ArgIndex()-1, e)
		}
		if owner != nil && owner.Name() == "tt.func" && v != s.root.Operand(0) && s.r.loopDepth(s.root) == 0 && !s.toDotOperand() {
			// Triton's getConvertBackwardSlice fails at function
			// arguments: the conversion stays where it is. Ours
			// converts the argument instead only to take a
			// conversion out of a loop. (A conversion to a dot
			// operand with such a leaf stays anyway, for the
			// reason plan gives.)
			return s.fail("anchor: the chain reaches an argument of tt.func, whose layout is fixed, and the conversion is in no loop")
		}
		return s.leaf(v, e)
	}
	switch d.Name() {
	case "tt.load", "tt.descriptor_load":
		if s.stopAtLoads {
			return s.leaf(v, e)
		}
	case opFor:
		if s.noLoopResults {
			return s.fail("the chain reaches the result of an scf.for")
		}
		return s.visitFor(d, v.ResultIndex(), e)
	case opIf:
		return s.visitIf(d, v.ResultIndex(), e)
	}
	c := s.r.classify(d)
	switch c {
	case classFixed, classPassThrough:
		return s.leaf(v, e)
	case classConvert:
		s.req[v] = e
		s.addUnit(unit{d, -1})
		return s.visit(d.Operand(0), e, d)
	}
	needs := make([]attr.Encoding, d.NumOperands())
	for i, o := range d.Operands() {
		if encodingOf(o) == nil {
			continue
		}
		if needs[i] = s.r.inferOperand(d, c, i, e); needs[i] == nil {
			return s.leaf(v, e)
		}
	}
	for _, res := range d.Results() {
		s.req[res] = e
	}
	s.addUnit(unit{d, -1})
	hoistable := d.Layout().HoistAbove != nil && d.Layout().HoistAbove(d)
	for i, o := range d.Operands() {
		if needs[i] == nil {
			continue
		}
		if !hoistable {
			if !s.visit(o, needs[i], d) {
				return false
			}
			continue
		}
		// Above a widening op the conversion is cheaper: when the
		// operand cannot be recomputed in the layout it needs (another
		// user needs it in another layout, say), convert it there
		// instead (Triton's hoistConvertOnTopOfExtOrBroadcast).
		snap := s.save()
		if !s.visit(o, needs[i], d) {
			s.restore(snap)
			s.hoist[operandRef{d, i}] = needs[i]
		}
	}
	return true
}

// toDotOperand reports whether the slice's conversion is to a #ttg.dot_op.
func (s *slice) toDotOperand() bool {
	_, ok := encodingOf(s.root.Result(0)).(*attr.DotOperand)
	return ok
}

// operandRef is operand i of op.
type operandRef struct {
	op *ir.Operation
	i  int
}

// sliceState is a copy of what visit changes, to undo a failed attempt.
type sliceState struct {
	req, leaves map[*ir.Value]attr.Encoding
	reused      map[*ir.Value]*ir.Value
	hoist       map[operandRef]attr.Encoding
	condHoist   map[operandRef]attr.Encoding
	units       int
	why         string
	whyArgs     []any
}

// branchLeaves counts the conversions the slice needs other than those
// after an scf.if (Triton's terminals of hoistConvertIntoConditionals).
func (s *slice) branchLeaves() int {
	return countBranchLeaves(s.leaves) + len(s.hoist)
}

func (st sliceState) branchLeaves() int {
	return countBranchLeaves(st.leaves) + len(st.hoist)
}

func countBranchLeaves(leaves map[*ir.Value]attr.Encoding) int {
	n := 0
	for v := range leaves {
		if d := v.DefiningOp(); d == nil || d.Name() != opIf {
			n++
		}
	}
	return n
}

func (s *slice) save() sliceState {
	return sliceState{maps.Clone(s.req), maps.Clone(s.leaves), maps.Clone(s.reused), maps.Clone(s.hoist), maps.Clone(s.condHoist), len(s.units), s.why, s.whyArgs}
}

func (s *slice) restore(st sliceState) {
	s.req, s.leaves, s.reused, s.hoist, s.condHoist = st.req, st.leaves, st.reused, st.hoist, st.condHoist
	s.why, s.whyArgs = st.why, st.whyArgs
	for _, u := range s.units[st.units:] {
		delete(s.inUnit, u)
	}
	s.units = s.units[:st.units]
}

// leaf converts v to e instead of recomputing it; converting the root's own
// source would gain nothing.
func (s *slice) leaf(v *ir.Value, e attr.Encoding) bool {
	if v == s.root.Operand(0) {
		return s.fail("anchor: the source comes from %s, whose layout is fixed", producerName(v))
	}
	s.leaves[v] = e
	return true
}

func (s *slice) visitFor(forOp *ir.Operation, k int, e attr.Encoding) bool {
	body := entryBlock(forOp)
	if body == nil || k+1 >= body.NumArgs() || k >= forOp.NumResults() || 3+k >= forOp.NumOperands() {
		return s.fail("malformed scf.for on the chain")
	}
	yield := body.Last()
	if yield == nil || yield.Name() != opYield || k >= yield.NumOperands() {
		return s.fail("malformed scf.for on the chain")
	}
	arg, res := body.Arg(k+1), forOp.Result(k)
	if old, ok := s.req[arg]; ok {
		return attr.Equal(old, e) || s.fail("conflict: a loop-carried value is needed in two layouts")
	}
	s.req[arg], s.req[res] = e, e
	s.addUnit(unit{forOp, k})
	return s.visit(forOp.Operand(3+k), e, forOp) && s.visit(yield.Operand(k), e, yield)
}

func (s *slice) visitIf(ifOp *ir.Operation, k int, e attr.Encoding) bool {
	before := s.save()
	s.req[ifOp.Result(k)] = e
	s.addUnit(unit{ifOp, k})
	var failed []operandRef
	for _, rg := range ifOp.Regions() {
		b := rg.Entry()
		if b == nil {
			return false
		}
		y := b.Last()
		if y == nil || y.Name() != opYield || k >= y.NumOperands() {
			return false
		}
		snap := s.save()
		// A branch that needs a conversion of its own (other than after
		// a nested scf.if) counts as failed: the conversion then goes
		// right before its scf.yield.
		if !s.visit(y.Operand(k), e, y) || s.branchLeaves() > snap.branchLeaves() {
			s.restore(snap)
			failed = append(failed, operandRef{y, k})
		}
	}
	switch {
	case len(failed) == 0:
		return true
	case len(failed) == 1 && ifOp.ParentOp() != nil && ifOp.ParentOp().Name() == opFor:
		// One branch cannot produce the layout: convert in that branch
		// (Triton's hoistConvertIntoConditionals, for an scf.if in a
		// loop, which the loop may run less often than the loop body).
		s.condHoist[failed[0]] = e
		return true
	}
	s.restore(before)
	return s.leaf(ifOp.Result(k), e)
}

// values returns the values of a unit.
func (s *slice) values(u unit) []*ir.Value {
	switch {
	case u.slot < 0:
		return u.op.Results()
	case u.op.Name() == opFor:
		return []*ir.Value{entryBlock(u.op).Arg(u.slot + 1), u.op.Result(u.slot)}
	default:
		return []*ir.Value{u.op.Result(u.slot)}
	}
}

// analyzeMoves decides which units are re-typed in place: those whose
// values are used only by the root and by other moved units (with
// newSlots, no scf.for slot is: each gets a new slot, as in Triton). The others are
// cloned, which keeps the originals alive, so their producers must be
// cloned too; loop slots and if results cannot be cloned, so the slice fails
// when one of them has another user.
func (s *slice) analyzeMoves(newSlots bool) bool {
	for _, u := range s.units {
		s.moved[u] = !newSlots || u.slot < 0
	}
	for changed := true; changed; {
		changed = false
		for _, u := range s.units {
			if !s.moved[u] {
				continue
			}
			for _, v := range s.values(u) {
				for _, use := range v.Uses() {
					if !s.acceptedUse(use) {
						s.moved[u] = false
						changed = true
						break
					}
				}
				if !s.moved[u] {
					break
				}
			}
		}
	}
	for _, u := range s.units {
		// A loop slot or scf.if result with other users gets a new
		// slot beside it, as Triton's rewriteSlice does.
		_ = u
	}
	return true
}

// acceptedUse reports whether a use of a slice value goes away or follows
// the value when the value is re-typed in place.
func (s *slice) acceptedUse(use ir.Use) bool {
	op := use.Op
	if op == s.root {
		return true
	}
	if isConversion(op) {
		// Another conversion to the new layout becomes an identity.
		if e, ok := s.req[op.Operand(0)]; ok && attr.Equal(e, encodingOf(op.Result(0))) {
			return true
		}
	}
	switch op.Name() {
	case opYield:
		p := op.ParentOp()
		if p == nil {
			return false
		}
		u := unit{p, use.Index}
		return s.inUnit[u] && s.moved[u]
	case opFor:
		u := unit{op, use.Index - 3}
		return use.Index >= 3 && s.inUnit[u] && s.moved[u]
	}
	u := unit{op, -1}
	return s.inUnit[u] && s.moved[u]
}

// cost is the cost of rematerializing: cloned ops and leaf conversions,
// weighted by loop depth relative to the root (see the pass Doc).
func (s *slice) cost() float64 {
	r := s.r
	base := r.loopDepth(s.root)
	total := 0.0
	for _, u := range s.units {
		if u.slot >= 0 || s.moved[u] {
			continue
		}
		total += float64(r.opCost(u.op)) * weight(r.loopDepth(u.op)-base)
	}
	for v, e := range s.leaves {
		_, cur, shape := tensorInfo(v.Type())
		depth := 0
		if d := v.DefiningOp(); d != nil {
			depth = r.loopDepth(d)
		} else if p := v.OwnerBlock().ParentOp(); p != nil && p != r.fn {
			depth = r.loopDepth(p)
			if p.Name() == opFor {
				depth++
			}
		}
		total += float64(r.layoutConversionCost(cur, e, shape, elemBytes(v.Type()))) * weight(depth-base)
	}
	for ref, e := range s.hoist {
		o := ref.op.Operand(ref.i)
		_, cur, shape := tensorInfo(o.Type())
		total += float64(r.layoutConversionCost(cur, e, shape, elemBytes(o.Type()))) * weight(r.loopDepth(ref.op)-base)
	}
	for ref, e := range s.condHoist {
		// Half price: the branch runs on some iterations only.
		o := ref.op.Operand(ref.i)
		_, cur, shape := tensorInfo(o.Type())
		total += float64(r.layoutConversionCost(cur, e, shape, elemBytes(o.Type()))) * weight(r.loopDepth(ref.op)-base) / 2
	}
	return total
}

// removedConversions counts the conversions of the slice that only the
// slice uses (they go with the rewrite) and sums their costs, weighted
// as cost weighs ops.
func (s *slice) removedConversions() (int, float64) {
	base := s.r.loopDepth(s.root)
	n, c := 0, 0.0
	for _, u := range s.units {
		if u.slot < 0 && s.moved[u] && isConversion(u.op) {
			n++
			c += float64(s.r.convertCost(u.op)) * weight(s.r.loopDepth(u.op)-base)
		}
	}
	return n, c
}

// weight is 8^d: work d loops deeper than the removed conversion runs 8^d
// times as often (and 8^-d times as often d loops shallower).
func weight(d int) float64 {
	return math.Pow(8, float64(d))
}

// convertCost is the cost of conversion op c (see the pass Doc).
func (r *rewriter) convertCost(c *ir.Operation) int {
	_, se, shape := tensorInfo(c.Operand(0).Type())
	_, de, _ := tensorInfo(c.Result(0).Type())
	return r.layoutConversionCost(se, de, shape, elemBytes(c.Result(0).Type()))
}

// layoutConversionCost prices converting a tensor of this shape from
// layout src to dst: free when equal, n*b when only registers move, 4*n*b
// within a warp, 8*n*b+256 through shared memory.
func (r *rewriter) layoutConversionCost(src, dst attr.Encoding, shape []int, b int) int {
	n := numElements(shape) * b
	ls, err1 := attr.Linear(src, shape)
	ld, err2 := attr.Linear(dst, shape)
	switch {
	case err1 != nil || err2 != nil:
		return 8*n + 256
	case ls.Equal(ld):
		return 0
	case sameBases(ls, ld, "lane") && sameBases(ls, ld, "warp") && sameBases(ls, ld, "block"):
		return n
	case sameBases(ls, ld, "warp") && sameBases(ls, ld, "block"):
		return 4 * n
	}
	return 8*n + 256
}

// sameBases reports whether a and b map in-dim in identically (an absent
// in-dim has no bases).
func sameBases(a, b linear.Layout, in string) bool {
	return slices.EqualFunc(a.Bases(in), b.Bases(in), slices.Equal[[]int])
}

// opCost prices recomputing op once more (see the pass Doc).
func (r *rewriter) opCost(op *ir.Operation) int {
	if op.NumResults() == 0 {
		return 0
	}
	_, _, shape := tensorInfo(op.Result(0).Type())
	n := numElements(shape) * elemBytes(op.Result(0).Type())
	switch c := r.classify(op); c {
	case classCheap, classConvert:
		return 0
	case classElementwise, classMapped:
		switch op.Layout().Cost {
		case ir.CostFree:
			return 0
		case ir.CostExpensive:
			return 8 * n
		case ir.CostReduce:
			return reduceCost(op)
		}
		return n
	}
	return 8 * n
}

// reduceCost prices recomputing reduction op as Triton's isRematBeneficial
// does: the lanes plus 8 times the warps that hold distinct elements along
// the reduced axis in the operand's layout (ReduceOpHelper's intra- and
// inter-warp sizes with unique data, read off the linear layout as
// Triton's basesPerDim does). The work each thread does on its own
// elements is not counted. A layout without a linear form costs twice the
// operand's bytes.
func reduceCost(op *ir.Operation) int {
	_, enc, shape := tensorInfo(op.Operand(0).Type())
	axis, ok := op.IntAttr("axis")
	ll, err := attr.Linear(enc, shape)
	if !ok || err != nil || axis < 0 || int(axis) >= len(shape) {
		return 2 * numElements(shape) * elemBytes(op.Operand(0).Type())
	}
	along := ll.OutDimIndex("dim" + strconv.Itoa(int(axis)))
	spread := func(in string) int {
		n := 1
		for _, b := range ll.Bases(in) {
			// A basis moves along the first dim it touches; one that
			// touches none broadcasts and is skipped.
			if i := slices.IndexFunc(b, func(x int) bool { return x != 0 }); i >= 0 && i == along {
				n *= 2
			}
		}
		return n
	}
	return spread("lane") + 8*spread("warp")
}

// nonAssociative reports whether reduction op may round differently when
// computed in another layout (another order): Triton's
// ReduceOpHelper::isAssociative is false for a floating-point reduction
// of more than two elements along its axis whose combiner adds or
// multiplies floats.
func nonAssociative(op *ir.Operation) bool {
	if op.NumOperands() == 0 {
		return false
	}
	if _, ok := ir.ElementType(op.Operand(0).Type()).(*ir.FloatType); !ok {
		return false
	}
	_, _, shape := tensorInfo(op.Operand(0).Type())
	if axis, ok := op.IntAttr("axis"); !ok || axis < 0 || int(axis) >= len(shape) || shape[axis] <= 2 {
		return false
	}
	return op.Walk(func(n *ir.Operation) ir.WalkResult {
		if n.Name() == "arith.addf" || n.Name() == "arith.mulf" {
			return ir.Interrupt
		}
		return ir.Advance
	}) == ir.Interrupt
}

// lookup returns the value that stands for v in its new layout.
func (s *slice) lookup(v *ir.Value) *ir.Value {
	if w, ok := s.leafOf[v]; ok {
		return w
	}
	if w, ok := s.reused[v]; ok {
		return w
	}
	if _, ok := s.req[v]; !ok {
		return v
	}
	if d := v.DefiningOp(); d != nil && d.Name() == opConvert {
		return s.lookup(d.Operand(0))
	}
	if w, ok := s.clones[v]; ok {
		return w
	}
	return v
}

// apply rewrites the IR: leaf conversions, re-typed and cloned units, the
// operands that now refer to the new values, and the root replaced.
func (s *slice) apply() {
	for v, e := range s.leaves {
		c := newConvert(v, e, locOf(v))
		if d := v.DefiningOp(); d != nil && d.Pos().Line > 0 {
			c.SetPos(d.Pos())
		} else {
			c.SetPos(OpPos(s.root))
		}
		insertAfterDef(v, c)
		s.leafOf[v] = c.Result(0)
	}
	newSlots := s.cloneLoopSlots()
	var ops []*ir.Operation
	for _, u := range s.units {
		e := s.req[s.values(u)[0]]
		switch {
		case u.slot >= 0 && !s.moved[u]:
			// Cloned into newSlots: operands set below.
		case u.slot >= 0:
			for _, v := range s.values(u) {
				retype(v, e)
			}
		case u.op.Name() == opConvert:
			// Looked through: lookup follows the source.
		case s.moved[u]:
			for _, v := range u.op.Results() {
				retype(v, e)
			}
			ops = append(ops, u.op)
			s.origOf[u.op] = u.op
		default:
			// Before the original, as Triton's rewriteSlice places it.
			c := u.op.Clone()
			u.op.Block().InsertBefore(u.op, c)
			for i, v := range u.op.Results() {
				retype(c.Result(i), e)
				s.clones[v] = c.Result(i)
				s.r.addRemat(v, e, c.Result(i))
			}
			s.origOf[c] = u.op
			ops = append(ops, c)
		}
	}
	for _, op := range ops {
		orig := s.origOf[op]
		for i, v := range op.Operands() {
			if encodingOf(v) == nil {
				continue
			}
			if e, ok := s.hoist[operandRef{orig, i}]; ok {
				// Converted right above the widening op.
				c := newConvert(s.lookup(v), e, locOf(v))
				c.SetPos(OpPos(orig))
				op.Block().InsertBefore(op, c)
				op.SetOperand(i, c.Result(0))
				// Triton hoists after its last backward
				// rematerialization: the conversion stays.
				s.r.hoisted[c] = true
				continue
			}
			op.SetOperand(i, s.lookup(v))
		}
	}
	for _, u := range s.units {
		if u.slot < 0 {
			continue
		}
		if u.op.Name() == opFor {
			y := entryBlock(u.op).Last()
			if j, ok := newSlots[u]; ok {
				u.op.SetOperand(3+j, s.lookup(u.op.Operand(3+u.slot)))
				y.SetOperand(j, s.lookup(y.Operand(u.slot)))
				continue
			}
			u.op.SetOperand(3+u.slot, s.lookup(u.op.Operand(3+u.slot)))
			y.SetOperand(u.slot, s.lookup(y.Operand(u.slot)))
			continue
		}
		for _, rg := range u.op.Regions() {
			y := rg.Entry().Last()
			w := s.lookup(y.Operand(u.slot))
			if e, ok := s.condHoist[operandRef{y, u.slot}]; ok {
				c := newConvert(y.Operand(u.slot), e, locOf(y.Operand(u.slot)))
				c.SetPos(OpPos(y))
				y.Block().InsertBefore(y, c)
				w = c.Result(0)
			}
			if j, ok := newSlots[u]; ok {
				y.SetOperand(j, w)
				continue
			}
			y.SetOperand(u.slot, w)
		}
	}
	s.root.Result(0).ReplaceAllUsesWith(s.lookup(s.root.Operand(0)))
	_ = s.root.Erase()
}

// cloneLoopSlots gives every scf.for and scf.if with slots of the slice
// that keep other users (not moved) one new slot per such slot, in the new
// layout, as Triton's rewriteSlice does with replaceForOpWithNewSignature
// and replaceIfOpWithNewSignature: the op is rebuilt with the extra
// results (and, for a loop, inits and body arguments); inits and yielded
// values are set by apply once the slice is cloned. It returns the new
// slot of each cloned unit, whose op is now the rebuilt one; the slice's
// maps follow the op's new results.
func (s *slice) cloneLoopSlots() map[unit]int {
	slots := map[*ir.Operation][]int{}
	var owners []*ir.Operation
	for _, u := range s.units {
		if u.slot >= 0 && !s.moved[u] {
			if slots[u.op] == nil {
				owners = append(owners, u.op)
			}
			slots[u.op] = append(slots[u.op], u.slot)
		}
	}
	out := map[unit]int{}
	for _, old := range owners {
		ks := slots[old]
		isFor := old.Name() == opFor
		n0 := old.NumResults()
		operands := old.Operands()
		types := old.ResultTypes()
		var yields []*ir.Operation
		for _, rg := range old.Regions() {
			yields = append(yields, rg.Entry().Last())
		}
		yielded := make([][]*ir.Value, len(yields))
		for i, y := range yields {
			yielded[i] = y.Operands()
		}
		for _, k := range ks {
			t := withEncoding(old.Result(k).Type(), s.req[old.Result(k)])
			types = append(types, t)
			for i, y := range yields {
				yielded[i] = append(yielded[i], y.Operand(k))
			}
			if isFor {
				operands = append(operands, old.Operand(3+k))
				body := entryBlock(old)
				a := body.AddArg(t)
				a.Loc = body.Arg(k + 1).Loc
			}
		}
		n := withSignature(old, operands, types)
		for i, y := range yields {
			y.SetOperands(yielded[i])
		}
		// Move the slice's bookkeeping from the old op to the new one.
		for k := range n0 {
			ov, nv := old.Result(k), n.Result(k)
			nv.NameHint = ov.NameHint
			if e, ok := s.req[ov]; ok {
				s.req[nv] = e
				delete(s.req, ov)
			}
			if e, ok := s.leaves[ov]; ok {
				s.leaves[nv] = e
				delete(s.leaves, ov)
			}
			if w, ok := s.leafOf[ov]; ok {
				s.leafOf[nv] = w
			}
			ov.ReplaceAllUsesWith(nv)
			s.r.renameRemat(ov, nv)
		}
		for i, u := range s.units {
			if u.op == old {
				nu := unit{n, u.slot}
				s.units[i] = nu
				s.inUnit[nu], s.moved[nu] = s.inUnit[u], s.moved[u]
			}
		}
		for j, k := range ks {
			e := s.req[n.Result(k)]
			s.clones[n.Result(k)] = n.Result(n0 + j)
			s.r.addRemat(n.Result(k), e, n.Result(n0+j))
			out[unit{n, k}] = n0 + j
			if isFor {
				body := entryBlock(n)
				s.clones[body.Arg(k+1)] = body.Arg(n0 + 1 + j)
				s.r.addRemat(body.Arg(k+1), e, body.Arg(n0+1+j))
			}
		}
		_ = old.Erase()
	}
	return out
}

// rematKey identifies a value in a layout (the layout's text).
type rematKey struct {
	v   *ir.Value
	enc string
}

// addRemat records that w is v computed again in layout e (Triton's
// addRematValue), for later slices to reuse.
func (r *rewriter) addRemat(v *ir.Value, e attr.Encoding, w *ir.Value) {
	if r.remat == nil {
		r.remat = map[rematKey]*ir.Value{}
	}
	r.remat[rematKey{v, r.keyOf(e)}] = w
}

// keyOf is encKey(e), remembered per attribute value.
func (r *rewriter) keyOf(e attr.Encoding) string {
	if k, ok := r.keys[e]; ok {
		return k
	}
	if r.keys == nil {
		r.keys = map[attr.Encoding]string{}
	}
	k := encKey(e)
	r.keys[e] = k
	return k
}

// renameRemat moves the records of old, a loop result replaced by nv when
// its loop was rebuilt, to nv.
func (r *rewriter) renameRemat(old, nv *ir.Value) {
	for k, w := range maps.Clone(r.remat) {
		if w == old {
			w = nv
			r.remat[k] = nv
		}
		if k.v == old {
			delete(r.remat, k)
			r.remat[rematKey{nv, k.enc}] = w
		}
	}
}

// existingRemat returns a value recorded as v in layout e that is still
// in the IR, has layout e and dominates user, or nil.
func (r *rewriter) existingRemat(v *ir.Value, e attr.Encoding, user *ir.Operation) *ir.Value {
	if len(r.remat) == 0 {
		return nil
	}
	k := r.keyOf(e)
	w := r.remat[rematKey{v, k}]
	if w == nil || w == v || encodingOf(w) == nil || r.keyOf(encodingOf(w)) != k || !dominatesUse(w, user) {
		return nil
	}
	return w
}

// dominatesUse reports whether value w is available at op user: defined in
// a block around user, before it (single-block regions, as in structured
// control flow).
func dominatesUse(w *ir.Value, user *ir.Operation) bool {
	b := w.OwnerBlock()
	if b == nil {
		return false
	}
	if w.IsBlockArg() {
		if i := w.ArgIndex(); i >= b.NumArgs() || b.Arg(i) != w {
			return false
		}
	}
	for a := user; a != nil; a = a.ParentOp() {
		if a.Block() == b {
			return w.IsBlockArg() || w.DefiningOp() != a && w.DefiningOp().IsBefore(a)
		}
	}
	return false
}

// tritonConvertCost is Triton's getConvertCost of converting v: 32 per
// byte (a round trip through shared memory, doubled for the barrier),
// counting at least 32 elements of at least 32 bits (pointers count 32).
func tritonConvertCost(v *ir.Value) float64 {
	_, _, shape := tensorInfo(v.Type())
	bits := 0
	switch ir.ElementType(v.Type()).(type) {
	case *ir.IntegerType, *ir.FloatType:
		bits = elemBits(v.Type())
	}
	return 32 * float64(max(32, numElements(shape))*max(32, bits)/8)
}

// addedTritonConvertCost sums tritonConvertCost over the conversions the
// rewrite of the slice adds: leaves, hoisted operands, branch yields.
func (s *slice) addedTritonConvertCost() float64 {
	c := 0.0
	for v := range s.leaves {
		c += tritonConvertCost(v)
	}
	for ref := range s.hoist {
		c += tritonConvertCost(ref.op.Operand(ref.i))
	}
	for ref := range s.condHoist {
		c += tritonConvertCost(ref.op.Operand(ref.i))
	}
	return c
}
