package ttg

import (
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// parseAsyncCopy parses `%src, %dst [mask %m] [other %o] [cacheModifier = X]
// [evictionPolicy = Y] [isVolatile] attr-dict : SrcT -> <memdesc body>`.
func parseAsyncCopy(p *ir.OpParser, st *ir.OpState) error {
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if len(refs) != 2 {
		return p.Errorf(p.Pos(), "expected source and destination operands")
	}
	var mask, other *ir.OperandRef
	if p.ParseOptionalKeyword("mask") {
		m, err := p.ParseOperand()
		if err != nil {
			return err
		}
		mask = &m
	}
	if p.ParseOptionalKeyword("other") {
		o, err := p.ParseOperand()
		if err != nil {
			return err
		}
		other = &o
	}
	if err := tt.ParseCacheEvict(p, st); err != nil {
		return err
	}
	if p.ParseOptionalKeyword("isVolatile") {
		st.Props = append(st.Props, ir.NamedAttr{Name: "isVolatile", Value: ir.True})
	}
	src, pos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	if err := p.Expect("->"); err != nil {
		return err
	}
	var dst ir.Type
	if p.IsPunct("<") {
		if dst, err = p.ParseMemDescBody(); err != nil {
			return err
		}
	} else if dst, err = p.ParseType(); err != nil {
		return err
	}
	sv, err := p.Resolve(refs[0], src)
	if err != nil {
		return err
	}
	dv, err := p.Resolve(refs[1], dst)
	if err != nil {
		return err
	}
	st.Operands = []*ir.Value{sv, dv}
	if mask != nil {
		mv, err := p.Resolve(*mask, p.MaskOf(src))
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, mv)
	}
	if other != nil {
		ot, ok := p.Pointee(src)
		if !ok {
			return p.Errorf(pos, "expected a tensor of pointers")
		}
		ov, err := p.Resolve(*other, ot)
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, ov)
	}
	if mask == nil && other != nil {
		st.Props = append(st.Props, ir.Segments(1, 1, 0, 1))
	}
	st.Types = []ir.Type{ir.AsyncToken}
	return nil
}

func printAsyncCopy(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw(", ")
	p.Operand(op.Operand(1))
	n := op.NumOperands()
	_, noMask := op.Attr("operandSegmentSizes").(*ir.DenseArrayAttr)
	switch {
	case n == 4:
		p.Raw(" mask ")
		p.Operand(op.Operand(2))
		p.Raw(" other ")
		p.Operand(op.Operand(3))
	case n == 3 && noMask:
		p.Raw(" other ")
		p.Operand(op.Operand(2))
	case n == 3:
		p.Raw(" mask ")
		p.Operand(op.Operand(2))
	}
	tt.PrintCacheEvict(p, op)
	elided := []string{"cache", "evict", "operandSegmentSizes"}
	if b, ok := op.Attr("isVolatile").(*ir.BoolAttr); ok && b.Value {
		p.Raw(" isVolatile")
		elided = append(elided, "isVolatile")
	}
	p.AttrDict(op, elided...)
	p.Raw(" : ")
	p.Type(op.Operand(0).Type())
	p.Raw(" -> ")
	if md, ok := op.Operand(1).Type().(*ir.MemDescType); ok {
		p.MemDescBody(md)
	} else {
		p.Type(op.Operand(1).Type())
	}
}
