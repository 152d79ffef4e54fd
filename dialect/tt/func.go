package tt

import "github.com/layoutopt/layoutopt/ir"

// tt.func, whose syntax Triton writes in C++ (FunctionOpInterface's
// parseFunctionOp / printFunctionOp), as MLIR's func.func.
var funcDef = &ir.OpDef{Name: "tt.func", Summary: "a Triton function",
	Traits: ir.IsolatedFromAbove | ir.Symbol,
	Attrs: []ir.AttrDef{{Name: "sym_name", Kind: ir.SymbolAttr}, {Name: "function_type", Kind: ir.TypeAttrKind},
		{Name: "sym_visibility", Kind: ir.StrAttr, Optional: true},
		{Name: "arg_attrs", Optional: true}, {Name: "res_attrs", Optional: true}},
	Regions: args("body"),
	Parse:   parseFunc, Print: printFunc, Verify: verifyFunc}

// parseFunc parses `[visibility] @name(args) [-> results] [attributes {...}] [body]`.
func parseFunc(p *ir.OpParser, st *ir.OpState) error {
	if kw := p.PeekKeyword(); kw == "public" || kw == "private" || kw == "nested" {
		p.Advance()
		st.Props = append(st.Props, ir.NamedAttr{Name: "sym_visibility", Value: ir.Str(kw)})
	}
	name, err := p.ParseSymbolName()
	if err != nil {
		return err
	}
	if err := p.Expect("("); err != nil {
		return err
	}
	var args []*ir.Value
	var argTypes []ir.Type
	var argAttrs []ir.Attribute
	anyArgAttr := false
	if !p.ParseOptional(")") {
		named := p.PeekOperand()
		for {
			var ref ir.OperandRef
			var t ir.Type
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
			var dict ir.Attribute = &ir.DictionaryAttr{}
			if p.IsPunct("{") {
				entries, err := p.ParseAttrDictEntries()
				if err != nil {
					return err
				}
				dict = &ir.DictionaryAttr{Entries: entries}
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
	var results []ir.Type
	if p.ParseOptional("->") {
		if results, err = p.ParseResultTypes(); err != nil {
			return err
		}
	}
	st.Props = append(st.Props,
		ir.NamedAttr{Name: "sym_name", Value: ir.Str(name)},
		ir.NamedAttr{Name: "function_type", Value: &ir.TypeAttr{Type: &ir.FunctionType{Inputs: argTypes, Results: results}}})
	if anyArgAttr {
		st.Props = append(st.Props, ir.NamedAttr{Name: "arg_attrs", Value: &ir.ArrayAttr{Elems: argAttrs}})
	}
	if err := p.ParseOptionalAttrDictWithKeyword(st); err != nil {
		return err
	}
	if p.IsPunct("{") {
		if args == nil {
			args = []*ir.Value{}
		}
		for _, a := range args {
			if a.NameHint == "" {
				return p.ErrorHere("expected SSA identifiers for the arguments of a function with a body")
			}
		}
		r, err := p.ParseRegion(args, true)
		if err != nil {
			return err
		}
		st.Regions = []*ir.Region{r}
	} else {
		st.Regions = []*ir.Region{{}}
	}
	return nil
}

// FuncType returns the function type of a tt.func op, or nil.
func FuncType(op *ir.Operation) *ir.FunctionType {
	if ta, ok := op.Attr("function_type").(*ir.TypeAttr); ok {
		ft, _ := ta.Type.(*ir.FunctionType)
		return ft
	}
	return nil
}

func printArgAttrs(p *ir.OpPrinter, argAttrs []ir.Attribute, i int) {
	if i < len(argAttrs) {
		if d, ok := argAttrs[i].(*ir.DictionaryAttr); ok && len(d.Entries) > 0 {
			p.Raw(" ")
			p.Dict(d.Entries)
		}
	}
}

func printFunc(p *ir.OpPrinter, op *ir.Operation) {
	if v, ok := op.Attr("sym_visibility").(*ir.StringAttr); ok {
		p.Raw(" " + v.Value)
	}
	p.Raw(" ")
	if n, ok := op.Attr("sym_name").(*ir.StringAttr); ok {
		p.Symbol(n.Value)
	}
	p.Raw("(")
	ft := FuncType(op)
	var argAttrs []ir.Attribute
	if aa, ok := op.Attr("arg_attrs").(*ir.ArrayAttr); ok {
		argAttrs = aa.Elems
	}
	body := op.Region(0)
	if entry := body.Entry(); entry != nil {
		for i, a := range entry.Args() {
			if i > 0 {
				p.Raw(", ")
			}
			p.Operand(a)
			p.Raw(": ")
			p.Type(a.Type())
			printArgAttrs(p, argAttrs, i)
			p.ArgLoc(a)
		}
	} else if ft != nil {
		for i, t := range ft.Inputs {
			if i > 0 {
				p.Raw(", ")
			}
			p.Type(t)
			printArgAttrs(p, argAttrs, i)
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
