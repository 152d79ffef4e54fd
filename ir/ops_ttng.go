package ir

// Registration of the shared- and tensor-memory ops of ttg and ttng that
// Triton 3.6 prints with tokens, static offsets or barriers: memdesc
// subslices, global scratch, tensor memory and mbarriers. Formats follow
// TritonGPUOps.td and TritonNvidiaGPUOps.td.

func init() {
	Register(&OpDef{Name: "ttg.memdesc_subslice", Summary: "subview of a memory descriptor at static offsets",
		Traits: Pure, Props: []string{"offsets"}, Parse: parseMemdescSubslice, Print: printMemdescSubslice})
	scratch := &OpDef{Name: "ttg.global_scratch_alloc", Summary: "allocate global scratch memory",
		Props: []string{"nbytes", "alignment"}}
	ColonTypeFormat(scratch)
	Register(scratch)
	// Triton names the results of the tensor memory ops (getAsmResultNames).
	Register(&OpDef{Name: "ttng.tmem_alloc", Summary: "allocate tensor memory",
		Parse: parseTMEMAlloc, Print: printLocalAlloc, ResultNames: []string{"result", "token"}})
	Register(&OpDef{Name: "ttng.tmem_load", Summary: "load from tensor memory", Traits: MemoryRead,
		Parse: parseTMEMLoad, Print: printTMEMLoad, ResultNames: []string{"result", "token"}})
	Register(&OpDef{Name: "ttng.tmem_store", Summary: "store into tensor memory", Traits: MemoryWrite,
		Parse: parseTMEMStore, Print: printTMEMStore})
	Register(&OpDef{Name: "ttng.init_barrier", Summary: "initialize an mbarrier", Traits: MemoryWrite,
		Props: []string{"count"}, Parse: parseInitBarrier, Print: printInitBarrier})
	Register(&OpDef{Name: "ttng.barrier_expect", Summary: "expect a byte count on an mbarrier", Traits: MemoryWrite,
		Props: []string{"size"}, Parse: parseBarrierExpect, Print: printBarrierExpect})
	Register(&OpDef{Name: "ttng.wait_barrier", Summary: "wait for an mbarrier phase", Traits: MemoryRead | MemoryWrite,
		Props: []string{"operandSegmentSizes"}, Parse: parseWaitBarrier, Print: printWaitBarrier})
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

// parseTMEMAlloc parses `[%src] attr-dict : (T) -> M` or `: () -> (M,
// !ttg.async.token)`.
func parseTMEMAlloc(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandsAttrs(st)
	if err != nil {
		return err
	}
	if len(refs) > 1 {
		return p.errorHere("expected at most one operand")
	}
	ft, pos, err := p.ParseFunctionalType(-1)
	if err != nil {
		return err
	}
	if n := len(ft.Results); n != 1 && n != 2 {
		return p.Errorf(pos, "expected a memory descriptor and an optional token")
	}
	return p.ResolveFunctional(st, refs, ft, pos)
}

// parseToken parses Triton's custom<Token>: an optional `[%dep]` or `[]`;
// with it the op returns an async token. It returns the dependency, if any.
func (p *OpParser) parseToken() (*Value, bool, error) {
	if !p.isPunct("[") {
		return nil, false, nil
	}
	refs, err := p.ParseBracketOperands()
	if err != nil || len(refs) == 0 {
		return nil, true, err
	}
	if len(refs) > 1 {
		return nil, true, p.errorHere("expected at most one token")
	}
	v, err := p.Resolve(refs[0], AsyncToken)
	return v, true, err
}

// printToken prints custom<Token>: `[%dep]`, `[]` or nothing.
func (p *OpPrinter) printToken(dep *Value, hasToken bool) {
	if !hasToken {
		return
	}
	p.Raw("[")
	if dep != nil {
		p.Operand(dep)
	}
	p.Raw("]")
}

// parseTMEMLoad parses `%m[%dep] attr-dict : M -> T` (results T and, with
// the brackets, a token).
func parseTMEMLoad(p *OpParser, st *OpState) error {
	m, err := p.ParseOperand()
	if err != nil {
		return err
	}
	dep, tok, err := p.parseToken()
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	if err := p.FinishOperandArrow(st, m); err != nil {
		return err
	}
	if dep != nil {
		st.Operands = append(st.Operands, dep)
	}
	if tok {
		st.Types = append(st.Types, AsyncToken)
	}
	return nil
}

func printTMEMLoad(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	var dep *Value
	if op.NumOperands() > 1 {
		dep = op.Operand(1)
	}
	p.printToken(dep, op.NumResults() > 1)
	p.AttrDict(op)
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

// parseTMEMStore parses `%src, %dst[%dep], %pred attr-dict : T -> M`;
// operands are dst, dep, src, pred.
func parseTMEMStore(p *OpParser, st *OpState) error {
	src, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	dst, err := p.ParseOperand()
	if err != nil {
		return err
	}
	dep, tok, err := p.parseToken()
	if err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	pred, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	a, b, err := p.ParseColonArrow()
	if err != nil {
		return err
	}
	dv, err := p.Resolve(dst, b)
	if err != nil {
		return err
	}
	st.Operands = []*Value{dv}
	if dep != nil {
		st.Operands = append(st.Operands, dep)
	}
	sv, err := p.Resolve(src, a)
	if err != nil {
		return err
	}
	pv, err := p.Resolve(pred, I1)
	if err != nil {
		return err
	}
	st.Operands = append(st.Operands, sv, pv)
	if tok {
		st.Types = []Type{AsyncToken}
	}
	return nil
}

func printTMEMStore(p *OpPrinter, op *Operation) {
	n := op.NumOperands()
	src, dst := op.Operand(n-2), op.Operand(0)
	p.Raw(" ")
	p.Operand(src)
	p.Raw(", ")
	p.Operand(dst)
	var dep *Value
	if n == 4 {
		dep = op.Operand(1)
	}
	p.printToken(dep, op.NumResults() > 0)
	p.Raw(", ")
	p.Operand(op.Operand(n - 1))
	p.AttrDict(op)
	p.ColonArrow(src.Type(), dst.Type())
}

// parseBarrierHead parses `%alloc, N` with N into prop.
func (p *OpParser) parseBarrierHead(st *OpState, prop string) (OperandRef, error) {
	a, err := p.ParseOperand()
	if err != nil {
		return a, err
	}
	if err := p.Expect(","); err != nil {
		return a, err
	}
	return a, p.ParseInt32Prop(st, prop)
}

// parseInitBarrier parses `%alloc, count attr-dict : M`.
func parseInitBarrier(p *OpParser, st *OpState) error {
	a, err := p.parseBarrierHead(st, "count")
	if err != nil {
		return err
	}
	t, _, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	v, err := p.Resolve(a, t)
	st.Operands = []*Value{v}
	return err
}

func printInitBarrier(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw(", " + Int32Prop(op, "count"))
	p.AttrDict(op, "count")
	p.ColonType(op.Operand(0).Type())
}

// parseBarrierExpect parses `%alloc, size attr-dict, %pred : M`.
func parseBarrierExpect(p *OpParser, st *OpState) error {
	a, err := p.parseBarrierHead(st, "size")
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	pred, err := p.ParseOperand()
	if err != nil {
		return err
	}
	t, err := p.ParseColonType()
	if err != nil {
		return err
	}
	av, err := p.Resolve(a, t)
	if err != nil {
		return err
	}
	pv, err := p.Resolve(pred, I1)
	st.Operands = []*Value{av, pv}
	return err
}

func printBarrierExpect(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw(", " + Int32Prop(op, "size"))
	p.AttrDict(op, "size")
	p.Raw(", ")
	p.Operand(op.Operand(1))
	p.ColonType(op.Operand(0).Type())
}

// parseWaitBarrier parses `%alloc, %phase[, %pred] [deps %d...] attr-dict
// : M[, D...]`.
func parseWaitBarrier(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandCount(2, 3)
	if err != nil {
		return err
	}
	var deps []OperandRef
	if p.ParseOptionalKeyword("deps") {
		if deps, err = p.ParseOperandList(); err != nil {
			return err
		}
	}
	pos, ts, err := p.ParseAttrsColonTypes(st, 1+len(deps))
	if err != nil {
		return err
	}
	if st.Operands, err = p.ResolveAll(refs, []Type{ts[0], I32, I1}[:len(refs)], pos); err != nil {
		return err
	}
	if len(deps) > 0 {
		dv, err := p.ResolveAll(deps, ts[1:], pos)
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, dv...)
	}
	st.Props = append(st.Props, Segments(1, 1, len(refs)-2, len(deps)))
	return nil
}

func printWaitBarrier(p *OpPrinter, op *Operation) {
	seg := SegmentSizes(op)
	npred, ndeps := 0, 0
	if len(seg) == 4 {
		npred, ndeps = int(seg[2]), int(seg[3])
	}
	head := 2 + npred
	p.Raw(" ")
	p.Operands(op.Operands()[:head])
	if ndeps > 0 {
		p.Raw(" deps ")
		p.Operands(op.Operands()[head : head+ndeps])
	}
	p.AttrDict(op, "operandSegmentSizes")
	p.Raw(" : ")
	p.Type(op.Operand(0).Type())
	for _, d := range op.Operands()[head : head+ndeps] {
		p.Raw(", ")
		p.Type(d.Type())
	}
}
