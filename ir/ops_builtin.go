package ir

// Registration of the builtin, func-like and control-flow ops:
// builtin.module, tt.func/return/call, scf.for/if/yield/while/condition,
// cf.br/cond_br.

// moduleDef is builtin.module, which every registry holds (NewRegistry).
var moduleDef = &OpDef{Name: "builtin.module", Summary: "top-level container",
	Traits: IsolatedFromAbove | NoTerminator | SingleBlock | Symbol, Props: []string{"sym_name", "sym_visibility"},
	Parse: parseModule, Print: printModule}

func init() {
	Register(&OpDef{Name: "tt.func", Summary: "a Triton function",
		Traits: IsolatedFromAbove | Symbol,
		Props:  []string{"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"},
		Parse:  parseFunc, Print: printFunc, Verify: verifyFunc})
	ret := &OpDef{Name: "tt.return", Summary: "return from a tt.func", Traits: Pure | Terminator | ReturnLike,
		Verify: HasParent("tt.func")}
	TypeListFormat(ret, false)
	Register(ret)
	Register(&OpDef{Name: "tt.call", Summary: "call a tt.func", Props: []string{"callee", "arg_attrs", "res_attrs"},
		Parse: parseCall, Print: printCall, Verify: verifyCall})
}

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

// parseFunc parses `[visibility] @name(args) [-> results] [attributes {...}] [body]`.
func parseFunc(p *OpParser, st *OpState) error {
	if kw := p.PeekKeyword(); kw == "public" || kw == "private" || kw == "nested" {
		p.advance()
		st.Props = append(st.Props, NamedAttr{"sym_visibility", Str(kw)})
	}
	name, err := p.ParseSymbolName()
	if err != nil {
		return err
	}
	if err := p.Expect("("); err != nil {
		return err
	}
	var args []*Value
	var argTypes []Type
	var argAttrs []Attribute
	anyArgAttr := false
	if !p.ParseOptional(")") {
		named := p.PeekOperand()
		for {
			var ref OperandRef
			var t Type
			var err error
			if named {
				if ref, err = p.ParseOperand(); err != nil {
					return err
				}
				t, err = p.ParseColonType()
			} else {
				// A declaration may list bare types.
				t, err = p.ParseType()
			}
			if err != nil {
				return err
			}
			var dict Attribute = &DictionaryAttr{}
			if p.isPunct("{") {
				entries, err := p.parseAttrDictEntries()
				if err != nil {
					return err
				}
				dict = &DictionaryAttr{Entries: entries}
				anyArgAttr = anyArgAttr || len(entries) > 0
			}
			loc, err := p.ParseOptionalLocation()
			if err != nil {
				return err
			}
			args = append(args, p.NewArg(ref, t, loc))
			argTypes = append(argTypes, t)
			argAttrs = append(argAttrs, dict)
			if !p.ParseOptional(",") {
				break
			}
		}
		if err := p.Expect(")"); err != nil {
			return err
		}
	}
	var results []Type
	if p.ParseOptional("->") {
		if results, err = p.parseResultTypes(); err != nil {
			return err
		}
	}
	st.Props = append(st.Props,
		NamedAttr{"sym_name", Str(name)},
		NamedAttr{"function_type", &TypeAttr{&FunctionType{Inputs: argTypes, Results: results}}})
	if anyArgAttr {
		st.Props = append(st.Props, NamedAttr{"arg_attrs", &ArrayAttr{Elems: argAttrs}})
	}
	if err := p.ParseOptionalAttrDictWithKeyword(st); err != nil {
		return err
	}
	if p.isPunct("{") {
		if args == nil {
			args = []*Value{}
		}
		for _, a := range args {
			if a.NameHint == "" {
				return p.errorHere("expected SSA identifiers for the arguments of a function with a body")
			}
		}
		r, err := p.ParseRegion(args, true)
		if err != nil {
			return err
		}
		st.Regions = []*Region{r}
	} else {
		st.Regions = []*Region{{}}
	}
	return nil
}

// FuncType returns the function type of a tt.func op, or nil.
func FuncType(op *Operation) *FunctionType {
	if ta, ok := op.Attr("function_type").(*TypeAttr); ok {
		ft, _ := ta.Type.(*FunctionType)
		return ft
	}
	return nil
}

func printFunc(p *OpPrinter, op *Operation) {
	if v, ok := op.Attr("sym_visibility").(*StringAttr); ok {
		p.Raw(" " + v.Value)
	}
	p.Raw(" ")
	if n, ok := op.Attr("sym_name").(*StringAttr); ok {
		p.Symbol(n.Value)
	}
	p.Raw("(")
	ft := FuncType(op)
	var argAttrs []Attribute
	if aa, ok := op.Attr("arg_attrs").(*ArrayAttr); ok {
		argAttrs = aa.Elems
	}
	body := op.Region(0)
	if entry := body.Entry(); entry != nil {
		for i, a := range entry.args {
			if i > 0 {
				p.Raw(", ")
			}
			p.Operand(a)
			p.Raw(": ")
			p.Type(a.typ)
			if i < len(argAttrs) {
				if d, ok := argAttrs[i].(*DictionaryAttr); ok && len(d.Entries) > 0 {
					p.Raw(" ")
					p.Dict(d.Entries)
				}
			}
			p.ArgLoc(a)
		}
	} else if ft != nil {
		for i, t := range ft.Inputs {
			if i > 0 {
				p.Raw(", ")
			}
			p.Type(t)
			if i < len(argAttrs) {
				if d, ok := argAttrs[i].(*DictionaryAttr); ok && len(d.Entries) > 0 {
					p.Raw(" ")
					p.Dict(d.Entries)
				}
			}
		}
	}
	p.Raw(")")
	if ft != nil && len(ft.Results) > 0 {
		p.Raw(" -> ")
		p.ResultTypes(ft.Results)
	}
	p.AttrDictWithKeyword(op, "sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
	if len(body.Blocks) > 0 {
		p.Raw(" ")
		p.Region(body, false, false)
	}
}

func parseCall(p *OpParser, st *OpState) error {
	name, err := p.ParseSymbolName()
	if err != nil {
		return err
	}
	if err := p.Expect("("); err != nil {
		return err
	}
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if err := p.Expect(")"); err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	ft, pos, err := p.ParseFunctionalType(-1)
	if err != nil {
		return err
	}
	if err := p.ResolveFunctional(st, refs, ft, pos); err != nil {
		return err
	}
	st.Props = append(st.Props, NamedAttr{"callee", &SymbolRefAttr{Root: name}})
	return nil
}

func printCall(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	if s, ok := op.Attr("callee").(*SymbolRefAttr); ok {
		p.Attr(s)
	}
	p.Raw("(")
	p.Operands(op.Operands())
	p.Raw(")")
	p.AttrDict(op, "callee")
	p.Raw(" : ")
	p.FunctionalType(op.OperandTypes(), op.ResultTypes())
}

// ensureYield appends an empty scf.yield to blocks of r that lack a
// terminator (the custom form leaves it out).
