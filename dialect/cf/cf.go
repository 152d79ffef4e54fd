// Package cf declares the branch ops of MLIR's cf dialect (cf.br,
// cf.cond_br). Importing the package registers them in ir.Default().
package cf

import "github.com/layoutopt/layoutopt/ir"

// Dialect is the cf dialect.
var Dialect = &ir.Dialect{Name: "cf", Summary: "unstructured control flow", Ops: []*ir.OpDef{
	{Name: "cf.br", Summary: "unconditional branch", Traits: ir.Pure | ir.Terminator,
		Operands: []ir.ArgDef{ir.Vars("destOperands")},
		Parse:    parseBr, Print: printBr},
	{Name: "cf.cond_br", Summary: "conditional branch", Traits: ir.Pure | ir.Terminator | ir.AttrSizedOperandSegments,
		Operands: []ir.ArgDef{ir.Arg("condition"), ir.Vars("trueDestOperands"), ir.Vars("falseDestOperands")},
		Parse:    parseCondBr, Print: printCondBr},
}}

func init() { ir.MustRegisterDialect(Dialect) }

func parseBr(p *ir.OpParser, st *ir.OpState) error {
	if err := p.ParseSuccessorWithArgs(st); err != nil {
		return err
	}
	return p.ParseOptionalAttrDict(st)
}

func printBr(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw(" ")
	p.Successor(op, 0)
	p.AttrDict(op)
}

func parseCondBr(p *ir.OpParser, st *ir.OpState) error {
	c, err := p.ParseOperand()
	if err != nil {
		return err
	}
	cv, err := p.Resolve(c, ir.I1)
	if err != nil {
		return err
	}
	st.Operands = []*ir.Value{cv}
	if err := p.Expect(","); err != nil {
		return err
	}
	if err := p.ParseSuccessorWithArgs(st); err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	if err := p.ParseSuccessorWithArgs(st); err != nil {
		return err
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: "operandSegmentSizes", Value: &ir.DenseArrayAttr{Elem: ir.I32,
		Ints: []int64{1, int64(st.Successors[0].NumOperands), int64(st.Successors[1].NumOperands)}}})
	return p.ParseOptionalAttrDict(st)
}

func printCondBr(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw(", ")
	p.Successor(op, 0)
	p.Raw(", ")
	p.Successor(op, 1)
	p.AttrDict(op, "operandSegmentSizes")
}
