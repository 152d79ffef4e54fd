package passes

import (
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// The final clean-up of remove-redundant-conversions, as Triton's pass ends:
// the greedy driver with every op's folder, the canonicalization patterns
// of ttg.convert_layout (CanonicalizeConvertFrom*: into local_load,
// splat, make_range, constants, reshape, ...), scf.for's iteration-argument
// folder and Triton's dead-argument elimination of scf.for.

// runCleanup applies the clean-up to fn and reports whether it changed
// anything.
func runCleanup(fn *ir.Operation) bool {
	cfg := greedyConfig{maxIterations: 10, fold: true, cseConstants: true, patterns: cleanupPatterns, folds: cleanupFolds}
	return applyGreedily(fn, cfg)
}

var forCleanupPatterns = []Pattern{
	{Name: "ForOpDeadArgumentElimination", Rewrite: forDeadArguments},
	{Name: "ForOpIterArgsFolder", Rewrite: forIterArgsFolder},
}

// cleanupFolds leaves the arith ops alone: folding their arithmetic is
// -canonicalize's business, and the pass's semantic checks compare
// computations structurally.
func cleanupFolds(op *ir.Operation) bool {
	return !strings.HasPrefix(op.Name(), "arith.")
}

var ifCleanupPatterns = []Pattern{{Name: "RemoveUnusedResults", Rewrite: ifUnusedResults}}

func cleanupPatterns(op *ir.Operation) []Pattern {
	switch op.Name() {
	case opFor:
		return forCleanupPatterns
	case opIf:
		return ifCleanupPatterns
	}
	c := lookupCanon(op.Name())
	if c == nil {
		return nil
	}
	var out []Pattern
	for _, p := range c.patterns {
		if strings.HasPrefix(p.Name, "CanonicalizeConvertFrom") {
			out = append(out, p)
		}
	}
	return out
}

// forParts returns the body and yield of a well-formed scf.for (bounds,
// step, then one init per result; the body's arguments are the induction
// variable and one per result; the yield yields one per result).
func forParts(op *ir.Operation) (*ir.Block, *ir.Operation, bool) {
	if op.NumRegions() != 1 || len(op.Region(0).Blocks) != 1 {
		return nil, nil, false
	}
	body := op.Region(0).Blocks[0]
	y := body.Last()
	n := op.NumResults()
	if y == nil || y.Name() != opYield || y.NumOperands() != n || body.NumArgs() != n+1 || op.NumOperands() != n+3 {
		return nil, nil, false
	}
	return body, y, true
}

// definedOutside reports whether v is defined outside op (it then dominates
// op's body).
func definedOutside(v *ir.Value, op *ir.Operation) bool {
	var b *ir.Block
	if d := v.DefiningOp(); d != nil {
		b = d.Block()
	} else {
		b = v.OwnerBlock()
	}
	for p := b.ParentOp(); p != nil; p = p.ParentOp() {
		if p == op {
			return false
		}
	}
	return true
}

// tripCountAtLeastOne reports whether an scf.for with constant bounds runs
// at least once.
func tripCountAtLeastOne(op *ir.Operation) bool {
	lb, ub, step := constantValue(op.Operand(0)), constantValue(op.Operand(1)), constantValue(op.Operand(2))
	l, lok := lb.(*ir.IntegerAttr)
	u, uok := ub.(*ir.IntegerAttr)
	s, sok := step.(*ir.IntegerAttr)
	return lok && uok && sok && s.Value > 0 && l.Value < u.Value
}

// forIterArgsFolder is MLIR's ForOpIterArgsFolder: a slot whose yielded
// value is its iteration argument or its init value carries the init
// value; a slot with the same init and yielded value as an earlier one is
// merged into it; a slot whose yielded value is defined outside a loop that runs at
// least once gives that value as the result; slots whose argument and
// result are unused go.
func forIterArgsFolder(rw *Rewriter, op *ir.Operation) bool {
	body, y, ok := forParts(op)
	if !ok {
		return false
	}
	changed := false
	var keep []int
	// A slot with the init and yielded value of an earlier one is that
	// slot.
	type pair struct{ init, yielded *ir.Value }
	seen := map[pair]int{}
	for k := range op.NumResults() {
		init, arg, res, yv := op.Operand(3+k), body.Arg(k+1), op.Result(k), y.Operand(k)
		if yv == arg || yv == init {
			rw.ReplaceAllUsesWith(res, init)
			rw.ReplaceAllUsesWith(arg, init)
			changed = true
			continue
		}
		if j, ok := seen[pair{init, yv}]; ok && ir.TypesEqual(arg.Type(), body.Arg(j+1).Type()) {
			rw.ReplaceAllUsesWith(res, op.Result(j))
			rw.ReplaceAllUsesWith(arg, body.Arg(j+1))
			changed = true
			continue
		}
		seen[pair{init, yv}] = k
		if definedOutside(yv, op) && tripCountAtLeastOne(op) && !res.UseEmpty() {
			rw.ReplaceAllUsesWith(res, yv)
			changed = true
		}
		if arg.UseEmpty() && res.UseEmpty() {
			continue
		}
		keep = append(keep, k)
	}
	if len(keep) == op.NumResults() {
		return changed
	}
	// Rebuild the loop with the kept slots.
	operands := op.Operands()[:3]
	types := make([]ir.Type, len(keep))
	yielded := make([]*ir.Value, len(keep))
	for j, k := range keep {
		operands = append(operands, op.Operand(3+k))
		types[j] = op.Result(k).Type()
		yielded[j] = y.Operand(k)
	}
	n := withSignature(op, operands, types)
	y.SetOperands(yielded)
	kept := map[int]bool{}
	for _, k := range keep {
		kept[k] = true
	}
	for k := op.NumResults() - 1; k >= 0; k-- {
		if !kept[k] {
			if err := body.EraseArg(k + 1); err != nil {
				panic("passes: scf.for clean-up: " + err.Error())
			}
		}
	}
	rw.Modified(y)
	rw.add(n)
	rw.replaceKeptResults(op, n, keep)
	return true
}

// forDeadArguments is Triton's ForOpDeadArgumentElimination: an iteration
// argument whose result is unused and whose value only feeds ops that
// compute loop-carried values of such dead slots is yielded unchanged,
// so that forIterArgsFolder removes the slot and its computation goes
// dead.
func forDeadArguments(rw *Rewriter, op *ir.Operation) bool {
	body, y, ok := forParts(op)
	if !ok {
		return false
	}
	live := map[*ir.Value]bool{}
	liveOps := map[*ir.Operation]bool{}
	var queue []*ir.Value
	mark := func(v *ir.Value) {
		if !live[v] {
			live[v] = true
			queue = append(queue, v)
		}
	}
	markOp := func(o *ir.Operation) {
		if liveOps[o] {
			return
		}
		liveOps[o] = true
		for _, v := range o.Operands() {
			mark(v)
		}
		// Whatever a live op's regions use is live too.
		o.Walk(func(n *ir.Operation) ir.WalkResult {
			if n != o {
				for _, v := range n.Operands() {
					mark(v)
				}
			}
			return ir.Advance
		})
	}
	for k := range op.NumResults() {
		if !op.Result(k).UseEmpty() {
			mark(body.Arg(k + 1))
			mark(y.Operand(k))
		}
	}
	mark(body.Arg(0))
	for o := body.First(); o != nil; o = o.Next() {
		if o != y && !wouldBeTriviallyDead(o) {
			markOp(o)
		}
	}
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		d := v.DefiningOp()
		switch {
		case d != nil && d.Name() == opIf && d.NumOperands() == 1:
			// A live result of an scf.if needs its condition and what
			// each branch yields for it.
			mark(d.Operand(0))
			for _, rg := range d.Regions() {
				if y := rg.Entry().Last(); y != nil && v.ResultIndex() < y.NumOperands() {
					mark(y.Operand(v.ResultIndex()))
				}
			}
		case d != nil && d.Name() == opFor && d != op:
			// A live result of a nested loop needs its init and yielded
			// value.
			if _, ny, ok := forParts(d); ok {
				mark(d.Operand(3 + v.ResultIndex()))
				mark(ny.Operand(v.ResultIndex()))
			} else {
				markOp(d)
			}
		case d != nil && d.Name() == opWhile:
			return false // as in Triton: while loops are not handled
		case d != nil:
			// The op of v, wherever it sits in the body: its operands
			// (and what its own regions use) are live.
			markOp(d)
		default:
			owner := v.OwnerBlock().ParentOp()
			if owner == nil || owner.Name() != opFor || v.ArgIndex() < 1 {
				continue
			}
			if _, ny, ok := forParts(owner); ok {
				mark(ny.Operand(v.ArgIndex() - 1))
				if owner != op {
					mark(owner.Operand(3 + v.ArgIndex() - 1))
				}
			}
		}
	}
	changed := false
	for k := range op.NumResults() {
		arg := body.Arg(k + 1)
		if !live[arg] && op.Result(k).UseEmpty() && y.Operand(k) != arg {
			y.SetOperand(k, arg)
			changed = true
		}
	}
	if changed {
		rw.Modified(y)
		rw.add(op)
	}
	return changed
}

// ifUnusedResults is MLIR's scf.if RemoveUnusedResults: an scf.if with
// unused results is rebuilt without them, its yields trimmed.
func ifUnusedResults(rw *Rewriter, op *ir.Operation) bool {
	if op.NumResults() == 0 || op.NumOperands() != 1 {
		return false
	}
	var yields []*ir.Operation
	for _, rg := range op.Regions() {
		if len(rg.Blocks) != 1 {
			return false
		}
		y := rg.Blocks[0].Last()
		if y == nil || y.Name() != opYield || y.NumOperands() != op.NumResults() {
			return false
		}
		yields = append(yields, y)
	}
	var keep []int
	for k := range op.NumResults() {
		if !op.Result(k).UseEmpty() {
			keep = append(keep, k)
		}
	}
	if len(keep) == op.NumResults() {
		return false
	}
	types := make([]ir.Type, len(keep))
	for j, k := range keep {
		types[j] = op.Result(k).Type()
	}
	n := withSignature(op, op.Operands(), types)
	for _, y := range yields {
		vals := make([]*ir.Value, len(keep))
		for j, k := range keep {
			vals[j] = y.Operand(k)
		}
		y.SetOperands(vals)
		rw.Modified(y)
	}
	rw.add(n)
	rw.replaceKeptResults(op, n, keep)
	return true
}

// withSignature builds, right before old, an op like old (name,
// attributes, location) with these operands and result types, and moves
// old's regions into it (MLIR's replaceForOpWithNewSignature and
// replaceIfOpWithNewSignature). old is left with empty regions and its
// results in place, for the caller to replace and erase.
func withSignature(old *ir.Operation, operands []*ir.Value, types []ir.Type) *ir.Operation {
	n := ir.NewOperation(old.Name(), operands, types, allAttrs(old), 0)
	n.Loc = old.Loc
	n.SetPos(old.Pos())
	for _, rg := range old.Regions() {
		nr := n.AddRegion()
		for _, b := range rg.Blocks {
			nr.AddBlock(b)
		}
		rg.Blocks = nil
	}
	old.Block().InsertBefore(old, n)
	return n
}
