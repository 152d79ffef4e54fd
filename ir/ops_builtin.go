package ir

// Registration of the builtin, func-like and control-flow ops:
// builtin.module, scf.for/if/yield/while/condition,
// cf.br/cond_br.

// moduleDef is builtin.module, which every registry holds (NewRegistry).
var moduleDef = &OpDef{Name: "builtin.module", Summary: "top-level container",
	Traits: IsolatedFromAbove | NoTerminator | SingleBlock | Symbol, Props: []string{"sym_name", "sym_visibility"},
	Parse: parseModule, Print: printModule}

func init() {
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
