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
		Verify: hasParent("tt.func")}
	TypeListFormat(ret, false)
	Register(ret)
	Register(&OpDef{Name: "tt.call", Summary: "call a tt.func", Props: []string{"callee", "arg_attrs", "res_attrs"},
		Parse: parseCall, Print: printCall, Verify: verifyCall})
	Register(&OpDef{Name: "scf.for", Summary: "counted loop", Traits: SingleBlock,
		Parse: parseFor, Print: printFor, Verify: verifyFor})
	Register(&OpDef{Name: "scf.if", Summary: "if-then-else", Traits: SingleBlock,
		Parse: parseIf, Print: printIf, Verify: verifyIf})
	yield := &OpDef{Name: "scf.yield", Summary: "yield values to the parent scf op", Traits: Pure | Terminator | ReturnLike,
		Verify: verifyYield}
	TypeListFormat(yield, false)
	Register(yield)
	Register(&OpDef{Name: "scf.while", Summary: "while loop",
		Parse: parseWhile, Print: printWhile})
	Register(&OpDef{Name: "scf.condition", Summary: "loop condition of scf.while", Traits: Pure | Terminator,
		Parse: parseCondition, Print: printCondition, Verify: hasParent("scf.while")})
	Register(&OpDef{Name: "cf.br", Summary: "unconditional branch", Traits: Pure | Terminator,
		Parse: parseBr, Print: printBr})
	Register(&OpDef{Name: "cf.cond_br", Summary: "conditional branch", Traits: Pure | Terminator,
		Props: []string{"operandSegmentSizes"}, Parse: parseCondBr, Print: printCondBr})
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
func ensureYield(r *Region) {
	for _, b := range r.Blocks {
		if b.last == nil || b.last.name != "scf.yield" && !b.last.HasTrait(Terminator) {
			b.Append(NewOperation("scf.yield", nil, nil, nil, 0))
		}
	}
}

// printElidingEmptyYield prints r without a trailing operand-less scf.yield.
func printElidingEmptyYield(p *OpPrinter, r *Region) {
	var hidden *Operation
	if b := r.Entry(); b != nil && len(r.Blocks) == 1 && b.last != nil && b.last.name == "scf.yield" &&
		b.last.NumOperands() == 0 && len(b.last.Attrs) == 0 {
		hidden = b.last
	}
	p.region(r, false, false, hidden)
}

// parseFor parses `%iv = %lb to %ub step %st [iter_args(%a = %x, ...) -> (T, ...)] [: T] region`.
func parseFor(p *OpParser, st *OpState) error {
	if p.ParseOptionalKeyword("unsigned") {
		st.Props = append(st.Props, NamedAttr{"unsignedCmp", Unit})
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
	var iterArgs, inits []OperandRef
	var iterTypes []Type
	if p.ParseOptionalKeyword("iter_args") {
		if iterArgs, inits, err = p.parseAssignmentList(); err != nil {
			return err
		}
		if iterTypes, err = p.ParseArrowTypeList(); err != nil {
			return err
		}
		if len(iterTypes) != len(iterArgs) {
			return p.Errorf(p.Pos(), "mismatch in number of loop-carried values and defined values")
		}
	}
	var ivType Type = Index
	if p.ParseOptional(":") {
		if ivType, err = p.ParseType(); err != nil {
			return err
		}
	}
	pos := p.Pos()
	bounds, err := p.resolveAll([]OperandRef{lb, ub, step}, []Type{ivType}, pos)
	if err != nil {
		return err
	}
	initVals, err := p.ResolveAll(inits, iterTypes, pos)
	if err != nil && len(inits) > 0 {
		return err
	}
	args := []*Value{p.NewArg(iv, ivType, nil)}
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
	st.Regions = []*Region{r}
	return p.ParseOptionalAttrDict(st)
}

func printFor(p *OpPrinter, op *Operation) {
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
	if _, isIndex := body.Arg(0).Type().(*IndexType); !isIndex {
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
func parseIf(p *OpParser, st *OpState) error {
	c, err := p.ParseOperand()
	if err != nil {
		return err
	}
	cv, err := p.Resolve(c, I1)
	if err != nil {
		return err
	}
	if p.ParseOptional("->") {
		if st.Types, err = p.parseResultTypes(); err != nil {
			return err
		}
	}
	then, err := p.ParseRegion(nil, false)
	if err != nil {
		return err
	}
	if len(then.Blocks) == 0 {
		then.AddBlock(&Block{})
	}
	ensureYield(then)
	els := &Region{}
	if p.ParseOptionalKeyword("else") {
		if els, err = p.ParseRegion(nil, false); err != nil {
			return err
		}
		if len(els.Blocks) == 0 {
			els.AddBlock(&Block{})
		}
		ensureYield(els)
	}
	st.Operands = []*Value{cv}
	st.Regions = []*Region{then, els}
	return p.ParseOptionalAttrDict(st)
}

func printIf(p *OpPrinter, op *Operation) {
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
		if b := els.Entry(); !(b.first == b.last && b.first != nil && b.first.name == "scf.yield" && b.first.NumOperands() == 0 && op.NumResults() == 0 && !p.cfg.DebugInfo) {
			p.Raw(" else ")
			printElidingEmptyYield(p, els)
		}
	}
	p.AttrDict(op)
}

// parseWhile parses `(%a = %init, ...) : (T...) -> (R...) region do region`.
func parseWhile(p *OpParser, st *OpState) error {
	argRefs, inits, err := p.parseAssignmentList()
	if err != nil {
		return err
	}
	pos := p.Pos()
	t, err := p.ParseColonType()
	if err != nil {
		return err
	}
	ft, ok := t.(*FunctionType)
	if !ok || len(ft.Inputs) != len(inits) {
		return p.Errorf(pos, "expected function type with %d inputs", len(inits))
	}
	if len(inits) > 0 {
		if st.Operands, err = p.ResolveAll(inits, ft.Inputs, pos); err != nil {
			return err
		}
	}
	args := []*Value{}
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
	st.Regions = []*Region{before, after}
	return p.ParseOptionalAttrDictWithKeyword(st)
}

func printWhile(p *OpPrinter, op *Operation) {
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

func parseCondition(p *OpParser, st *OpState) error {
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
	cv, err := p.Resolve(c, I1)
	if err != nil {
		return err
	}
	st.Operands = []*Value{cv}
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

func printCondition(p *OpPrinter, op *Operation) {
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

func parseBr(p *OpParser, st *OpState) error {
	if err := p.ParseSuccessorWithArgs(st); err != nil {
		return err
	}
	return p.ParseOptionalAttrDict(st)
}

func printBr(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Successor(op, 0)
	p.AttrDict(op)
}

func parseCondBr(p *OpParser, st *OpState) error {
	c, err := p.ParseOperand()
	if err != nil {
		return err
	}
	cv, err := p.Resolve(c, I1)
	if err != nil {
		return err
	}
	st.Operands = []*Value{cv}
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
	st.Props = append(st.Props, NamedAttr{"operandSegmentSizes", &DenseArrayAttr{Elem: I32,
		Ints: []int64{1, int64(st.Successors[0].NumOperands), int64(st.Successors[1].NumOperands)}}})
	return p.ParseOptionalAttrDict(st)
}

func printCondBr(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw(", ")
	p.Successor(op, 0)
	p.Raw(", ")
	p.Successor(op, 1)
	p.AttrDict(op, "operandSegmentSizes")
}

// parseAssignmentList parses `(%a = %x, %b = %y)` (possibly empty), the
// region arguments and their initial values of scf.for and scf.while.
func (p *OpParser) parseAssignmentList() (lhs, rhs []OperandRef, err error) {
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
