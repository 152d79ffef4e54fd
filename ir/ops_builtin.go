package ir

// Registration of the builtin, func-like and control-flow ops:
// builtin.module, scf.for/if/yield/while/condition,
// cf.br/cond_br.

// moduleDef is builtin.module, which every registry holds (NewRegistry).
var moduleDef = &OpDef{Name: "builtin.module", Summary: "top-level container",
	Traits: IsolatedFromAbove | NoTerminator | SingleBlock | Symbol, Props: []string{"sym_name", "sym_visibility"},
	Parse: parseModule, Print: printModule}

func parseModule(p *OpParser, st *OpState) error {
	if p.tok.kind == tAt {
		name, _ := p.ParseSymbolName()
		st.Props = append(st.Props, NamedAttr{"sym_name", Str(name)})
	}
	if err := p.ParseOptionalAttrDictWithKeyword(st); err != nil {
		return err
	}
	r, err := p.ParseRegion(nil, true)
	if err != nil {
		return err
	}
	if len(r.Blocks) == 0 {
		r.AddBlock(&Block{})
	}
	st.Regions = []*Region{r}
	return nil
}

func printModule(p *OpPrinter, op *Operation) {
	if n, ok := op.Attr("sym_name").(*StringAttr); ok {
		p.Raw(" ")
		p.Symbol(n.Value)
	}
	p.AttrDictWithKeyword(op, "sym_name", "sym_visibility")
	p.Raw(" ")
	p.Region(op.Region(0), false, false)
}

// ensureYield appends an empty scf.yield to blocks of r that lack a
// terminator (the custom form leaves it out).
