package ir

// Registration of the ttg memory ops that Triton 3.6 prints with static
// offsets: memdesc subslices and global scratch (TritonGPUOps.td). The
// ttng ops are declared in package dialect/ttng.

func init() {
	Register(&OpDef{Name: "ttg.memdesc_subslice", Summary: "subview of a memory descriptor at static offsets",
		Traits: Pure, Props: []string{"offsets"}, Parse: parseMemdescSubslice, Print: printMemdescSubslice})
	scratch := &OpDef{Name: "ttg.global_scratch_alloc", Summary: "allocate global scratch memory",
		Props: []string{"nbytes", "alignment"}}
	ColonTypeFormat(scratch)
	Register(scratch)
}

// parseMemdescSubslice parses `%m[2, 0] attr-dict : A -> B`.
func parseMemdescSubslice(p *OpParser, st *OpState) error {
	m, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect("["); err != nil {
		return err
	}
	var offs []int64
	for !p.isPunct("]") {
		if len(offs) > 0 {
			if err := p.Expect(","); err != nil {
				return err
			}
		}
		n, err := p.ParseInt()
		if err != nil {
			return err
		}
		offs = append(offs, n)
	}
	p.advance()
	st.Props = append(st.Props, NamedAttr{"offsets", &DenseArrayAttr{Elem: I32, Ints: offs}})
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	return p.FinishOperandArrow(st, m)
}

func printMemdescSubslice(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw("[")
	if d, ok := op.Attr("offsets").(*DenseArrayAttr); ok {
		for i, v := range d.Ints {
			if i > 0 {
				p.Raw(", ")
			}
			p.Raw(itoa(v))
		}
	}
	p.Raw("]")
	p.AttrDict(op, "offsets")
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}
