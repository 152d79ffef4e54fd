package llvmemit

import (
	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/scf"
	"github.com/layoutopt/layoutopt/ir"
)

// Structured control flow becomes basic blocks; every register of a
// loop-carried or yielded tensor gets its own phi. The terminators
// (scf.yield, scf.condition) are read by their parent's hook.

func init() {
	Register("scf.for", lowerFor)
	Register("scf.if", lowerIf)
	Register("scf.while", lowerWhile)
	for _, n := range []string{"scf.yield", "scf.condition", "tt.reduce.return", "tt.scan.return"} {
		Register(n, func(l *Lowerer, op *ir.Operation) error {
			return errorf(op, "a terminator outside its parent op")
		})
	}
}

// phis creates one phi per register of vals in blk, with incoming values
// from pred.
func phis(blk *lir.Block, vals [][]value.Value, pred *lir.Block) ([][]value.Value, [][]*lir.InstPhi) {
	out := make([][]value.Value, len(vals))
	ps := make([][]*lir.InstPhi, len(vals))
	for i, vs := range vals {
		for _, v := range vs {
			p := blk.NewPhi(lir.NewIncoming(v, pred))
			out[i] = append(out[i], p)
			ps[i] = append(ps[i], p)
		}
	}
	return out, ps
}

func addIncoming(ps [][]*lir.InstPhi, vals [][]value.Value, from *lir.Block) {
	for i := range ps {
		for r, p := range ps[i] {
			p.Incs = append(p.Incs, lir.NewIncoming(vals[i][r], from))
		}
	}
}

func lowerFor(l *Lowerer, op *ir.Operation) error {
	f, _ := scf.AsFor(op)
	lb, ub, step := l.Values(f.LowerBound())[0], l.Values(f.UpperBound())[0], l.Values(f.Step())[0]
	var inits [][]value.Value
	for _, v := range f.InitArgs() {
		inits = append(inits, l.Values(v))
	}
	pre := l.cur
	header, body, exit := l.NewBlock("for.header"), l.NewBlock("for.body"), l.NewBlock("for.exit")
	pre.NewBr(header)
	l.cur = header
	all := append([][]value.Value{{lb}}, inits...)
	cur, ps := phis(header, all, pre)
	pred := enum.IPredSLT
	if f.UnsignedCmp() {
		pred = enum.IPredULT
	}
	header.NewCondBr(header.NewICmp(pred, cur[0][0], ub), body, exit)
	l.cur = body
	term, yields, err := l.lowerRegionBody(f.RegionRegion().Entry(), cur)
	if err != nil {
		return err
	}
	if term == nil || term.Name() != "scf.yield" {
		return errorf(op, "the loop body must end in scf.yield")
	}
	next := l.cur.NewAdd(cur[0][0], step)
	addIncoming(ps, append([][]value.Value{{next}}, yields...), l.cur)
	l.cur.NewBr(header)
	l.cur = exit
	for i, r := range op.Results() {
		l.Define(r, cur[i+1])
	}
	return nil
}

func lowerIf(l *Lowerer, op *ir.Operation) error {
	f, _ := scf.AsIf(op)
	cond := l.Values(f.Condition())[0]
	then, merge := l.NewBlock("if.then"), l.NewBlock("if.end")
	els := merge
	hasElse := f.ElseRegion().Entry() != nil && len(f.ElseRegion().Entry().Ops()) > 0
	if hasElse {
		els = l.NewBlock("if.else")
	}
	l.cur.NewCondBr(cond, then, els)
	var ends []*lir.Block
	var results [][][]value.Value
	for i, blk := range []*lir.Block{then, els} {
		if i == 1 && !hasElse {
			break
		}
		l.cur = blk
		region := f.ThenRegion()
		if i == 1 {
			region = f.ElseRegion()
		}
		_, ys, err := l.lowerRegionBody(region.Entry(), nil)
		if err != nil {
			return err
		}
		l.cur.NewBr(merge)
		ends = append(ends, l.cur)
		results = append(results, ys)
	}
	l.cur = merge
	if op.NumResults() == 0 {
		return nil
	}
	if len(ends) != 2 {
		return errorf(op, "an scf.if with results needs an else region")
	}
	for i, r := range op.Results() {
		out := make([]value.Value, len(results[0][i]))
		for k := range out {
			out[k] = merge.NewPhi(lir.NewIncoming(results[0][i][k], ends[0]), lir.NewIncoming(results[1][i][k], ends[1]))
		}
		l.Define(r, out)
	}
	return nil
}

func lowerWhile(l *Lowerer, op *ir.Operation) error {
	w, _ := scf.AsWhile(op)
	var inits [][]value.Value
	for _, v := range w.Inits() {
		inits = append(inits, l.Values(v))
	}
	pre := l.cur
	before, after, exit := l.NewBlock("while.before"), l.NewBlock("while.after"), l.NewBlock("while.exit")
	pre.NewBr(before)
	l.cur = before
	cur, ps := phis(before, inits, pre)
	term, cargs, err := l.lowerRegionBody(w.Before().Entry(), cur)
	if err != nil {
		return err
	}
	if term == nil || term.Name() != "scf.condition" {
		return errorf(op, "the before region must end in scf.condition")
	}
	// The forwarded values live in the block that ends the before region.
	l.cur.NewCondBr(cargs[0][0], after, exit)
	l.cur = after
	term, yields, err := l.lowerRegionBody(w.After().Entry(), cargs[1:])
	if err != nil {
		return err
	}
	if term == nil || term.Name() != "scf.yield" {
		return errorf(op, "the after region must end in scf.yield")
	}
	addIncoming(ps, yields, l.cur)
	l.cur.NewBr(before)
	l.cur = exit
	for i, r := range op.Results() {
		l.Define(r, cargs[i+1])
	}
	return nil
}

// ifThen emits body in a block that runs only where cond holds, and
// continues after it.
func (l *Lowerer) ifThen(cond value.Value, hint string, body func()) {
	then, cont := l.NewBlock(hint), l.NewBlock(hint+".end")
	l.cur.NewCondBr(cond, then, cont)
	l.cur = then
	body()
	l.cur.NewBr(cont)
	l.cur = cont
}
