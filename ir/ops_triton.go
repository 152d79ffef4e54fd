package ir

// Registration of the ttng, gpu and ub ops that Triton 3.6 TTGIR uses
// (the tt and ttg ops live in dialect/tt and dialect/ttg).

func init() {
	sub := &OpDef{Name: "ttng.tmem_subslice", Summary: "subslice of tensor memory", Traits: Pure, Props: []string{"N"}}
	ArrowFormat(sub, 1)
	Register(sub)
	poison := &OpDef{Name: "ub.poison", Summary: "a poison value", Traits: Pure}
	ColonTypeFormat(poison)
	Register(poison)
	Register(&OpDef{Name: "ttng.warp_group_dot", Summary: "Hopper warp-group MMA", Traits: MemoryRead,
		Props: []string{"inputPrecision", "maxNumImpreciseAcc", "isAsync"},
		Parse: parseWGDot, Print: printWGDot})
	wait := &OpDef{Name: "ttng.warp_group_dot_wait", Summary: "wait for async warp-group MMAs", Props: []string{"pendings"}}
	TypeListFormat(wait, true)
	Register(wait)
	fence := &OpDef{Name: "ttng.fence_async_shared", Summary: "async-proxy shared memory fence", Props: []string{"bCluster"}}
	AttrOnlyFormat(fence)
	Register(fence)
	b := &OpDef{Name: "gpu.barrier", Summary: "block-wide barrier"}
	AttrOnlyFormat(b)
	Register(b)
}

func (p *OpParser) parseDotTypes(st *OpState, refs []OperandRef) error {
	a, pos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	if err := p.Expect("*"); err != nil {
		return err
	}
	b, err := p.ParseType()
	if err != nil {
		return err
	}
	if err := p.Expect("->"); err != nil {
		return err
	}
	c, err := p.ParseType()
	if err != nil {
		return err
	}
	types := []Type{a, b, c}
	for len(types) < len(refs) {
		types = append(types, I1)
	}
	if st.Operands, err = p.ResolveAll(refs, types, pos); err != nil {
		return err
	}
	st.Types = []Type{c}
	return nil
}

func (p *OpPrinter) printDotTypes(op *Operation) {
	p.Raw(" : ")
	p.Type(op.Operand(0).Type())
	p.Raw(" * ")
	p.Type(op.Operand(1).Type())
	p.Raw(" -> ")
	p.Type(op.Result(0).Type())
}

func parseWGDot(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if len(refs) < 3 || len(refs) > 4 {
		return p.Errorf(p.Pos(), "expected 3 or 4 operands")
	}
	return p.parseDotTypes(st, refs)
}

func printWGDot(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operands(op.Operands())
	p.AttrDict(op)
	p.printDotTypes(op)
}

func itoa(v int64) string { return string(appendIntValue(nil, v, I64)) }

// printLocalAlloc prints `[%src] attr-dict : (T) -> M` (ttng.tmem_alloc).
func printLocalAlloc(p *OpPrinter, op *Operation) {
	p.OperandsAttrs(op.Operands(), op)
	p.ColonFunctional(op)
}
