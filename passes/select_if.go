package passes

import (
	"slices"

	"github.com/layoutopt/layoutopt/ir"
)

// CombineSelectIfPass is Triton's -tritongpu-combine-tensor-select-and-if.
// See its Doc.
var CombineSelectIfPass = &Pass{
	Name:    "tritongpu-combine-tensor-select-and-if",
	Summary: "Fold an arith.select into a later scf.if on the same condition: the if yields the select's true value in its then branch and its false value in its else branch (Triton 3.6's CombineTensorSelectAndIf)",
	Doc: `Triton 3.6's CombineTensorSelectAndIf, which make_ttgir runs (a select of
whole tensors costs a select per register; the if branches anyway). An
arith.select whose condition is also the condition of an scf.if later in the
same block becomes a new result of that if, when every use of the select is
after the if or inside it: the then branch yields the select's true value, the
else branch (made if there was none) its false value, and the uses inside a
branch take that branch's value directly. The selects folded into one if add
their results after its own, in the order the selects come.`,
	Run: runCombineSelectIf,
}

func init() { MustRegister(CombineSelectIfPass) }

func runCombineSelectIf(_ *Context, module *ir.Operation) error {
	var ifs []*ir.Operation
	selects := map[*ir.Operation][]*ir.Operation{}
	module.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() != "arith.select" || op.NumOperands() != 3 {
			return ir.Advance
		}
		// The condition's users, most recent first, as MLIR's use list.
		for _, u := range op.Operand(0).Users() {
			if u.Name() != "scf.if" || u.Block() != op.Block() || !op.IsBefore(u) || !usesAfterOrIn(op, u) {
				continue
			}
			if _, ok := selects[u]; !ok {
				ifs = append(ifs, u)
			}
			selects[u] = append(selects[u], op)
			break
		}
		return ir.Advance
	})
	for _, ifOp := range ifs {
		foldSelects(ifOp, selects[ifOp])
	}
	return nil
}

// usesAfterOrIn reports whether every use of sel's result is after ifOp
// in its block (or nested in an op that is) or inside ifOp.
func usesAfterOrIn(sel, ifOp *ir.Operation) bool {
	for _, u := range sel.Result(0).Users() {
		anc := ancestorInBlock(ifOp.Block(), u)
		if anc == nil || (anc != ifOp && !ifOp.IsBefore(anc)) {
			return false
		}
	}
	return true
}

// foldSelects rebuilds ifOp with one more result per select of sels.
func foldSelects(ifOp *ir.Operation, sels []*ir.Operation) {
	types := ifOp.ResultTypes()
	for _, s := range sels {
		types = append(types, s.Result(0).Type())
	}
	n := rebuildWithResults(ifOp, types)
	for i := range 2 {
		nb := n.Region(i).Entry()
		if nb == nil { // an if without else
			nb = ir.NewBlock()
			n.Region(i).AddBlock(nb)
		}
		y := nb.Last()
		if y == nil || y.Name() != "scf.yield" {
			y = ir.NewOperation("scf.yield", nil, nil, nil, 0)
			y.Loc = ifOp.Loc
			nb.Append(y)
		}
		// The select's value in this branch: its true value in then, its
		// false value in else; uses inside the branch take it directly.
		operands := y.Operands()
		for _, s := range sels {
			v := s.Operand(1 + i)
			s.Result(0).ReplaceUsesIf(v, func(u ir.Use) bool { return regionHolds(n.Region(i), u.Op) })
			operands = append(operands, v)
		}
		y.SetOperands(operands)
	}
	for i, r := range ifOp.Results() {
		r.ReplaceAllUsesWith(n.Result(i))
	}
	base := ifOp.NumResults()
	for k, s := range sels {
		s.Result(0).ReplaceAllUsesWith(n.Result(base + k))
	}
	for _, s := range slices.Backward(sels) {
		_ = s.Erase() // no uses left
	}
	_ = ifOp.Erase() // no uses left, its ops moved
}

// regionHolds reports whether op is in region r or nested in an op that is.
func regionHolds(r *ir.Region, op *ir.Operation) bool {
	for o := op; o != nil; o = o.ParentOp() {
		if b := o.Block(); b != nil && b.Parent() == r {
			return true
		}
	}
	return false
}
