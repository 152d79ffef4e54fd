// Package scf declares the ops of MLIR's scf dialect that Triton kernels
// use: scf.for, scf.if, scf.while, scf.condition and scf.yield. Importing
// the package registers them in ir.Default().
//
// Their syntax is hand-written here, as MLIR hand-writes it (the regions
// take their arguments from the op's own operands); scf.yield has a
// declarative format.
package scf

import (
	"errors"
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/ir"
)

// Dialect is the scf dialect.
var Dialect = &ir.Dialect{Name: "scf", Summary: "structured control flow", Ops: []*ir.OpDef{
	{Name: "scf.for", Summary: "counted loop", Traits: ir.SingleBlock,
		Operands: []ir.ArgDef{ir.Arg("lowerBound"), ir.Arg("upperBound"), ir.Arg("step"), ir.Vars("initArgs")},
		Results:  []ir.ArgDef{ir.Vars("results")}, Regions: []ir.ArgDef{ir.Arg("region")},
		Attrs: []ir.AttrDef{{Name: "unsignedCmp", Kind: ir.UnitAttrKind, Optional: true}},
		Parse: parseFor, Print: printFor, Verify: verifyFor},
	{Name: "scf.if", Summary: "if-then-else", Traits: ir.SingleBlock,
		Operands: []ir.ArgDef{ir.Arg("condition")}, Results: []ir.ArgDef{ir.Vars("results")},
		Regions: []ir.ArgDef{ir.Arg("thenRegion"), ir.Arg("elseRegion")},
		Parse:   parseIf, Print: printIf, Verify: verifyIf},
	{Name: "scf.yield", Summary: "yield values to the parent scf op", Traits: ir.Pure | ir.Terminator | ir.ReturnLike,
		Operands: []ir.ArgDef{ir.Vars("results")},
		Format:   "attr-dict ($results^ `:` type($results))?",
		Verify:   verifyYield},
	{Name: "scf.while", Summary: "while loop",
		Operands: []ir.ArgDef{ir.Vars("inits")}, Results: []ir.ArgDef{ir.Vars("results")},
		Regions: []ir.ArgDef{ir.Arg("before"), ir.Arg("after")},
		Parse:   parseWhile, Print: printWhile},
	{Name: "scf.condition", Summary: "loop condition of scf.while", Traits: ir.Pure | ir.Terminator,
		Operands: []ir.ArgDef{ir.Arg("condition"), ir.Vars("args")},
		Parse:    parseCondition, Print: printCondition, Verify: ir.HasParent("scf.while")},
}}

func init() { ir.MustRegisterDialect(Dialect) }

func ensureYield(r *ir.Region) {
	for _, b := range r.Blocks {
		if b.Last() == nil || b.Last().Name() != "scf.yield" && !b.Last().HasTrait(ir.Terminator) {
			b.Append(ir.NewOperation("scf.yield", nil, nil, nil, 0))
		}
	}
}

// printElidingEmptyYield prints r without a trailing operand-less scf.yield.
func printElidingEmptyYield(p *ir.OpPrinter, r *ir.Region) {
	var hidden *ir.Operation
	if b := r.Entry(); b != nil && len(r.Blocks) == 1 && b.Last() != nil && b.Last().Name() == "scf.yield" &&
		b.Last().NumOperands() == 0 && len(b.Last().Attrs) == 0 {
		hidden = b.Last()
	}
	p.RegionSkipping(r, false, false, hidden)
}

// parseFor parses `%iv = %lb to %ub step %st [iter_args(%a = %x, ...) -> (T, ...)] [: T] region`.
func parseFor(p *ir.OpParser, st *ir.OpState) error {
	if p.ParseOptionalKeyword("unsigned") {
		st.Props = append(st.Props, ir.NamedAttr{Name: "unsignedCmp", Value: ir.Unit})
	}
	iv, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect("="); err != nil {
		return err
	}
	lb, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParseKeyword("to"); err != nil {
		return err
	}
	ub, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParseKeyword("step"); err != nil {
		return err
	}
	step, err := p.ParseOperand()
	if err != nil {
		return err
	}
	var iterArgs, inits []ir.OperandRef
	var iterTypes []ir.Type
	if p.ParseOptionalKeyword("iter_args") {
		if iterArgs, inits, err = parseAssignmentList(p); err != nil {
			return err
		}
		if iterTypes, err = p.ParseArrowTypeList(); err != nil {
			return err
		}
		if len(iterTypes) != len(iterArgs) {
			return p.Errorf(p.Pos(), "mismatch in number of loop-carried values and defined values")
		}
	}
	var ivType ir.Type = ir.Index
	if p.ParseOptional(":") {
		if ivType, err = p.ParseType(); err != nil {
			return err
		}
	}
	pos := p.Pos()
	bounds, err := p.ResolveSame([]ir.OperandRef{lb, ub, step}, []ir.Type{ivType}, pos)
	if err != nil {
		return err
	}
	initVals, err := p.ResolveAll(inits, iterTypes, pos)
	if err != nil && len(inits) > 0 {
		return err
	}
	args := []*ir.Value{p.NewArg(iv, ivType, nil)}
	for i, a := range iterArgs {
		args = append(args, p.NewArg(a, iterTypes[i], nil))
	}
	r, err := p.ParseRegion(args, false)
	if err != nil {
		return err
	}
	ensureYield(r)
	st.Operands = append(bounds, initVals...)
	st.Types = iterTypes
	st.Regions = []*ir.Region{r}
	return p.ParseOptionalAttrDict(st)
}

func printFor(p *ir.OpPrinter, op *ir.Operation) {
	if op.Attr("unsignedCmp") != nil {
		p.Raw(" unsigned")
	}
	body := op.Region(0).Entry()
	p.Raw(" ")
	p.Operand(body.Arg(0))
	p.Raw(" = ")
	p.Operand(op.Operand(0))
	p.Raw(" to ")
	p.Operand(op.Operand(1))
	p.Raw(" step ")
	p.Operand(op.Operand(2))
	if op.NumOperands() > 3 {
		p.Raw(" iter_args(")
		for i := 3; i < op.NumOperands(); i++ {
			if i > 3 {
				p.Raw(", ")
			}
			p.Operand(body.Arg(i - 2))
			p.Raw(" = ")
			p.Operand(op.Operand(i))
		}
		p.Raw(") -> (")
		p.Types(op.ResultTypes())
		p.Raw(")")
	}
	if _, isIndex := body.Arg(0).Type().(*ir.IndexType); !isIndex {
		p.Raw("  : ")
		p.Type(body.Arg(0).Type())
	}
	p.Raw(" ")
	if op.NumResults() > 0 {
		p.Region(op.Region(0), false, false)
	} else {
		printElidingEmptyYield(p, op.Region(0))
	}
	p.AttrDict(op, "unsignedCmp")
}

// parseIf parses `%c [-> (T...)] region [else region]`.
func parseIf(p *ir.OpParser, st *ir.OpState) error {
	c, err := p.ParseOperand()
	if err != nil {
		return err
	}
	cv, err := p.Resolve(c, ir.I1)
	if err != nil {
		return err
	}
	if p.ParseOptional("->") {
		if st.Types, err = p.ParseResultTypes(); err != nil {
			return err
		}
	}
	then, err := p.ParseRegion(nil, false)
	if err != nil {
		return err
	}
	if len(then.Blocks) == 0 {
		then.AddBlock(&ir.Block{})
	}
	ensureYield(then)
	els := &ir.Region{}
	if p.ParseOptionalKeyword("else") {
		if els, err = p.ParseRegion(nil, false); err != nil {
			return err
		}
		if len(els.Blocks) == 0 {
			els.AddBlock(&ir.Block{})
		}
		ensureYield(els)
	}
	st.Operands = []*ir.Value{cv}
	st.Regions = []*ir.Region{then, els}
	return p.ParseOptionalAttrDict(st)
}

func printIf(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	if op.NumResults() > 0 {
		p.Raw(" -> (")
		p.Types(op.ResultTypes())
		p.Raw(")")
	}
	p.Raw(" ")
	printElidingEmptyYield(p, op.Region(0))
	if els := op.Region(1); len(els.Blocks) > 0 {
		if b := els.Entry(); !(b.First() == b.Last() && b.First() != nil && b.First().Name() == "scf.yield" && b.First().NumOperands() == 0 && op.NumResults() == 0 && !p.Config().DebugInfo) {
			p.Raw(" else ")
			printElidingEmptyYield(p, els)
		}
	}
	p.AttrDict(op)
}

// parseWhile parses `(%a = %init, ...) : (T...) -> (R...) region do region`.
func parseWhile(p *ir.OpParser, st *ir.OpState) error {
	argRefs, inits, err := parseAssignmentList(p)
	if err != nil {
		return err
	}
	pos := p.Pos()
	t, err := p.ParseColonType()
	if err != nil {
		return err
	}
	ft, ok := t.(*ir.FunctionType)
	if !ok || len(ft.Inputs) != len(inits) {
		return p.Errorf(pos, "expected function type with %d inputs", len(inits))
	}
	if len(inits) > 0 {
		if st.Operands, err = p.ResolveAll(inits, ft.Inputs, pos); err != nil {
			return err
		}
	}
	args := []*ir.Value{}
	for i, a := range argRefs {
		args = append(args, p.NewArg(a, ft.Inputs[i], nil))
	}
	before, err := p.ParseRegion(args, false)
	if err != nil {
		return err
	}
	if err := p.ParseKeyword("do"); err != nil {
		return err
	}
	after, err := p.ParseRegion(nil, false)
	if err != nil {
		return err
	}
	st.Types = ft.Results
	st.Regions = []*ir.Region{before, after}
	return p.ParseOptionalAttrDictWithKeyword(st)
}

func printWhile(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw(" (")
	before := op.Region(0).Entry()
	for i := 0; i < op.NumOperands(); i++ {
		if i > 0 {
			p.Raw(", ")
		}
		if before != nil && i < before.NumArgs() {
			p.Operand(before.Arg(i))
		}
		p.Raw(" = ")
		p.Operand(op.Operand(i))
	}
	p.Raw(") : ")
	p.FunctionalType(op.OperandTypes(), op.ResultTypes())
	p.Raw(" ")
	p.Region(op.Region(0), false, false)
	p.Raw(" do ")
	p.Region(op.Region(1), true, false)
	p.AttrDictWithKeyword(op)
}

func parseCondition(p *ir.OpParser, st *ir.OpState) error {
	if err := p.Expect("("); err != nil {
		return err
	}
	c, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect(")"); err != nil {
		return err
	}
	cv, err := p.Resolve(c, ir.I1)
	if err != nil {
		return err
	}
	st.Operands = []*ir.Value{cv}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if len(refs) > 0 {
		pos := p.Pos()
		if err := p.Expect(":"); err != nil {
			return err
		}
		ts, err := p.ParseTypeList()
		if err != nil {
			return err
		}
		vals, err := p.ResolveAll(refs, ts, pos)
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, vals...)
	}
	return nil
}

func printCondition(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw("(")
	p.Operand(op.Operand(0))
	p.Raw(")")
	p.AttrDict(op)
	if op.NumOperands() > 1 {
		p.Raw(" ")
		p.OperandRange(op, 1, op.NumOperands())
		p.Raw(" : ")
		p.Types(op.OperandTypes()[1:])
	}
}

// parseAssignmentList parses `(%a = %x, %b = %y)` (possibly empty), the
// region arguments and their initial values of scf.for and scf.while.
func parseAssignmentList(p *ir.OpParser) (lhs, rhs []ir.OperandRef, err error) {
	if err := p.Expect("("); err != nil {
		return nil, nil, err
	}
	if p.ParseOptional(")") {
		return nil, nil, nil
	}
	for {
		a, err := p.ParseOperand()
		if err != nil {
			return nil, nil, err
		}
		if err := p.Expect("="); err != nil {
			return nil, nil, err
		}
		x, err := p.ParseOperand()
		if err != nil {
			return nil, nil, err
		}
		lhs, rhs = append(lhs, a), append(rhs, x)
		if !p.ParseOptional(",") {
			break
		}
	}
	return lhs, rhs, p.Expect(")")
}

func verifyFor(op *ir.Operation) error {
	if op.NumOperands() < 3 {
		return errors.New("expects lower bound, upper bound and step operands")
	}
	body := op.Region(0).Entry()
	if body == nil || body.NumArgs() != op.NumOperands()-2 {
		return errors.New("expects the body to take the induction variable and one argument per iter_arg")
	}
	for i := 0; i < 3; i++ {
		if !ir.TypesEqual(op.Operand(i).Type(), body.Arg(0).Type()) {
			return errors.New("expects the bounds and step to have the induction variable's type")
		}
	}
	if op.NumResults() != op.NumOperands()-3 {
		return errors.New("mismatch in number of loop-carried values and defined values")
	}
	for i := 0; i < op.NumResults(); i++ {
		if !ir.TypesEqual(op.Operand(i+3).Type(), op.Result(i).Type()) || !ir.TypesEqual(body.Arg(i+1).Type(), op.Result(i).Type()) {
			return fmt.Errorf("types mismatch between iter operand %d and result", i)
		}
	}
	if y := body.Last(); y != nil && y.Name() == "scf.yield" {
		if !slices.EqualFunc(y.OperandTypes(), op.ResultTypes(), ir.TypesEqual) {
			return errors.New("expects the yielded values to match the result types")
		}
	}
	return nil
}

// verifyYield is scf.yield's ParentOneOf<ExecuteRegionOp, ForOp, IfOp,
// IndexSwitchOp, WhileOp>.
var verifyYield = ir.HasParent("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while")

// verifyIf is scf::IfOp::verify.
func verifyIf(op *ir.Operation) error {
	if op.NumResults() > 0 && (op.NumRegions() < 2 || len(op.Region(1).Blocks) == 0) {
		return errors.New("must have an else block if defining values")
	}
	return nil
}
