package passes

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// ReorderInstructionsPass is Triton's -tritongpu-reorder-instructions. See
// its Doc.
var ReorderInstructionsPass = &Pass{
	Name:    "tritongpu-reorder-instructions",
	Summary: "Move conversions, shared-memory loads and allocations, and transpositions where they cost the fewest live registers (Triton 3.6's ReorderInstructions)",
	Doc: `Triton 3.6's ReorderInstructions, which make_ttgir runs after the layout
optimizations. In order, over the whole module:

  1. a ttg.convert_layout sinks below every ttg.local_dealloc between it and
     its first use in its block (its result is not live across them);
  2. a ttg.local_load, or a ttg.convert_layout to a #ttg.dot_op layout, with
     one use in another scf.for than its own moves to just before that use
     (into the loop: its registers are live only there);
  3. a ttg.local_alloc of a value moves to just after the op defining the
     value, unless that op is an arith.constant or a tt.splat (which would
     only hold shared memory longer);
  4. a tt.trans or ttg.memdesc_trans moves to just after the op defining
     its source;
  5. the ttg.local_load of a tt.dot's B operand (#ttg.dot_op opIdx = 1, one
     use) moves to just after the local_load of its A operand when it comes
     before it (dominates it) and no op between them may write memory, so
     that A is loaded first.

The moves keep every value defined before its uses. What it computes does not
change (the interpreter's corpus test runs it on every kernel).`,
	Run: runReorderInstructions,
}

func init() { MustRegister(ReorderInstructionsPass) }

func runReorderInstructions(_ *Context, module *ir.Operation) error {
	collect := func(match func(*ir.Operation) bool) []*ir.Operation {
		var ops []*ir.Operation
		module.WalkPost(func(op *ir.Operation) ir.WalkResult {
			if match(op) {
				ops = append(ops, op)
			}
			return ir.Advance
		})
		return ops
	}
	named := func(names ...string) func(*ir.Operation) bool {
		return func(op *ir.Operation) bool {
			for _, n := range names {
				if op.Name() == n {
					return true
				}
			}
			return false
		}
	}

	// 1. Conversions below the deallocations before their first use.
	for _, cvt := range collect(named("ttg.convert_layout")) {
		for cur := cvt.Next(); cur != nil && cur != firstUseInBlock(cvt); cur = cur.Next() {
			if cur.Name() == "ttg.local_dealloc" {
				cvt.MoveAfter(cur)
				cur = cvt
			}
		}
	}

	// 2. Register-hungry ops into the loop of their one use.
	type move struct{ op, before *ir.Operation }
	var moves []move
	for _, op := range collect(increasesRegisterPressure) {
		uses := op.Result(0).Uses()
		if len(uses) != 1 || enclosingFor(uses[0].Op) == enclosingFor(op) {
			continue
		}
		moves = append(moves, move{op, uses[0].Op})
	}
	for _, m := range moves {
		m.op.MoveBefore(m.before)
	}

	// 3. Allocations of a value just after the value's definition.
	for _, alloc := range collect(named("ttg.local_alloc")) {
		if alloc.NumOperands() == 0 {
			continue
		}
		def := alloc.Operand(0).DefiningOp()
		if def == nil || def.Name() == "arith.constant" || def.Name() == "tt.splat" {
			continue
		}
		alloc.MoveAfter(def)
	}

	// 4. Transpositions just after their source's definition.
	for _, tr := range collect(named("tt.trans", "ttg.memdesc_trans")) {
		if def := tr.Operand(0).DefiningOp(); def != nil {
			tr.MoveAfter(def)
		}
	}

	// 5. A dot's B operand loaded after its A operand.
	for _, b := range collect(named("ttg.local_load")) {
		if dotOperandIndex(b.Result(0).Type()) != 1 {
			continue
		}
		uses := b.Result(0).Uses()
		if len(uses) != 1 || uses[0].Op.Name() != "tt.dot" {
			continue
		}
		a := uses[0].Op.Operand(0).DefiningOp()
		if a == nil || a.Name() != "ttg.local_load" || !dominates(b, a) || writesBetween(b, a) {
			continue
		}
		b.MoveAfter(a)
	}
	return nil
}

// increasesRegisterPressure is Triton's willIncreaseRegisterPressure: a
// ttg.local_load, or a ttg.convert_layout to a #ttg.dot_op layout.
func increasesRegisterPressure(op *ir.Operation) bool {
	switch op.Name() {
	case "ttg.local_load":
		return true
	case "ttg.convert_layout":
		return dotOperandIndex(op.Result(0).Type()) >= 0
	}
	return false
}

// dotOperandIndex is the opIdx of a tensor type's #ttg.dot_op layout, or -1.
func dotOperandIndex(t ir.Type) int {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok {
		return -1
	}
	if e, ok := rt.Encoding.(*ir.EncodingAttr); ok {
		if d, ok := e.Enc.(*attr.DotOperand); ok {
			return d.OpIdx
		}
	}
	return -1
}

// enclosingFor is the nearest scf.for holding op, or nil.
func enclosingFor(op *ir.Operation) *ir.Operation {
	for p := op.ParentOp(); p != nil; p = p.ParentOp() {
		if p.Name() == "scf.for" {
			return p
		}
	}
	return nil
}

// firstUseInBlock is the first op of op's block that uses op's results or
// holds such a use, or nil.
func firstUseInBlock(op *ir.Operation) *ir.Operation {
	var first *ir.Operation
	for _, r := range op.Results() {
		for _, u := range r.Users() {
			if a := ancestorInBlock(op.Block(), u); a != nil && (first == nil || a.IsBefore(first)) {
				first = a
			}
		}
	}
	return first
}

// dominates reports whether op a properly dominates op b in structured
// control flow: b is after a in a's block, or nested in an op that is.
func dominates(a, b *ir.Operation) bool {
	anc := ancestorInBlock(a.Block(), b)
	return anc != nil && anc != a && a.IsBefore(anc)
}

// writesBetween is Triton's crossWriteSideEffectingOp: whether an op after
// start, up to and including the op of start's block that holds end, may
// write memory. As in Triton, an op of unknown effects is not counted, and
// neither is one holding any.
func writesBetween(start, end *ir.Operation) bool {
	anc := ancestorInBlock(start.Block(), end)
	if anc == nil {
		return true
	}
	for op := start.Next(); op != nil; op = op.Next() {
		if writeEffect(op) {
			return true
		}
		if op == anc {
			return false
		}
	}
	return true
}

// writeEffect is Triton's hasWriteSideEffect over MLIR's
// getEffectsRecursively: an effect other than read, allocate or free, by
// op or an op nested in it; false when any of them has unknown effects.
func writeEffect(op *ir.Operation) bool {
	unknown, write := false, false
	var visit func(o *ir.Operation)
	visit = func(o *ir.Operation) {
		if recursiveEffects[o.Name()] && o.Def() != nil {
			for _, r := range o.Regions() {
				for _, b := range r.Blocks {
					for n := b.First(); n != nil; n = n.Next() {
						visit(n)
					}
				}
			}
			return
		}
		e := opEffects(o)
		if !e.known {
			unknown = true
		}
		write = write || e.write
	}
	visit(op)
	return !unknown && write
}
