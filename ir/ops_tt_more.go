package ir

// Registration of the less common tt ops of Triton 3.6: clamps, atomics,
// block pointers, tensor descriptors, scaled dots, inline asm, external
// calls, prints and asserts. Their formats follow the assemblyFormat of
// TritonOps.td.

var (
	propagateNans = enumKeyword{names: []string{"none", "all"}, values: []int64{0, 0xFFFF}}
	memSemantics  = enumKeyword{names: []string{"relaxed", "acquire", "release", "acq_rel"}, base: 1}
	memScopes     = enumKeyword{names: []string{"gpu", "cta", "sys"}, base: 1}
	rmwOps        = enumKeyword{names: []string{"and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch"}, base: 1}
	scaleElemType = enumKeyword{names: []string{"e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "bf16", "fp16"}, base: 0}
)

func init() {
	Register(&OpDef{Name: "tt.clampf", Summary: "clamp a float between a minimum and a maximum",
		Traits: Pure | Elementwise | SameOperandsAndResultType | SameOperandsAndResultEncoding | SameOperandsAndResultShape,
		Props:  []string{"propagateNan"}, Parse: parseClampF, Print: printClampF})
	Register(&OpDef{Name: "tt.atomic_rmw", Summary: "atomic read-modify-write",
		Traits: MemoryRead | MemoryWrite | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Props:  []string{"atomic_rmw_op", "sem", "scope"}, Parse: parseAtomicRMW, Print: printAtomicRMW})
	Register(&OpDef{Name: "tt.atomic_cas", Summary: "atomic compare-and-swap",
		Traits: MemoryRead | MemoryWrite | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Props:  []string{"sem", "scope"}, Parse: parseAtomicCAS, Print: printAtomicCAS})
	Register(&OpDef{Name: "tt.make_tensor_ptr", Summary: "block pointer into a tensor", Traits: Pure,
		Props: []string{"order"}, Parse: parseMakeTensorPtr, Print: printMakeTensorPtr})
	Register(&OpDef{Name: "tt.advance", Summary: "advance a block pointer by offsets", Traits: Pure,
		Parse: parseAdvance, Print: printAdvance})
	Register(&OpDef{Name: "tt.make_tensor_descriptor", Summary: "tensor descriptor of a global tensor", Traits: Pure,
		Parse: parseMakeTensorDesc, Print: printMakeTensorDesc})
	Register(&OpDef{Name: "tt.descriptor_load", Summary: "load a block through a tensor descriptor", Traits: MemoryRead,
		Props: []string{"cache", "evict"}, Parse: parseDescriptorLoad, Print: printDescriptorLoad})
	Register(&OpDef{Name: "tt.descriptor_store", Summary: "store a block through a tensor descriptor",
		Traits: MemoryRead | MemoryWrite, Parse: parseDescriptorStore, Print: printDescriptorStore})
	Register(&OpDef{Name: "tt.dot_scaled", Summary: "matrix multiply of microscaled operands", Traits: Pure,
		Props: []string{"a_elem_type", "b_elem_type", "fastMath", "operandSegmentSizes"},
		Parse: parseDotScaled, Print: printDotScaled})
	ext := &OpDef{Name: "tt.extern_elementwise", Summary: "call an external elementwise function",
		Traits: Elementwise | SameOperandsAndResultEncoding, Props: []string{"libname", "libpath", "symbol", "pure"}}
	FunctionalFormat(ext)
	Register(ext)
	Register(&OpDef{Name: "tt.elementwise_inline_asm", Summary: "inline assembly applied to packed elements",
		Traits: Elementwise | SameOperandsAndResultEncoding,
		Props:  []string{"asm_string", "constraints", "pure", "packed_element"},
		Parse:  parseInlineAsm, Print: printInlineAsm})
	Register(&OpDef{Name: "tt.print", Summary: "device-side print", Traits: MemoryWrite,
		Props: []string{"prefix", "hex", "isSigned"}, Parse: parsePrint, Print: printPrint})
	Register(&OpDef{Name: "tt.assert", Summary: "device-side assert", Traits: MemoryWrite,
		Props: []string{"message"}, Parse: parseAssert, Print: printAssert})
}

// parseClampF parses `%x, %lo, %hi, propagateNan = none attr-dict : T`.
func parseClampF(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandsN(3)
	if err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	if ok, err := p.ParseEnumKeyword(st, "propagateNan", "propagateNan", propagateNans); err != nil || !ok {
		if err == nil {
			err = p.errorHere("expected 'propagateNan'")
		}
		return err
	}
	t, pos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	if st.Operands, err = p.resolveAll(refs, []Type{t}, pos); err != nil {
		return err
	}
	st.Types = []Type{t}
	return nil
}

func printClampF(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operands(op.Operands())
	p.Raw(", propagateNan = " + EnumWord(op, "propagateNan", propagateNans))
	p.AttrDict(op, "propagateNan")
	p.ColonType(op.Result(0).Type())
}

// parseAtomicRMW parses `op, sem, scope, %ptr, %val[, %mask] attr-dict :
// (P, V[, M]) -> R`.
func parseAtomicRMW(p *OpParser, st *OpState) error {
	if err := p.ParseEnumWord(st, "atomic_rmw_op", rmwOps); err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	return p.parseAtomicTail(st, 2, 3)
}

// parseAtomicTail parses `sem, scope, operands attr-dict : functional-type`
// with min to max operands.
func (p *OpParser) parseAtomicTail(st *OpState, min, max int) error {
	if err := p.ParseEnumWord(st, "sem", memSemantics); err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	if err := p.ParseEnumWord(st, "scope", memScopes); err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	refs, err := p.ParseOperandsAttrs(st)
	if err != nil {
		return err
	}
	if len(refs) < min || len(refs) > max {
		return p.errorHere("expected %d to %d operands", min, max)
	}
	ft, pos, err := p.ParseFunctionalType(len(refs))
	if err != nil {
		return err
	}
	return p.ResolveFunctional(st, refs, ft, pos)
}

func printAtomicRMW(p *OpPrinter, op *Operation) {
	p.Raw(" " + EnumWord(op, "atomic_rmw_op", rmwOps) + ",")
	printAtomicTail(p, op, "atomic_rmw_op")
}

func printAtomicTail(p *OpPrinter, op *Operation, elided ...string) {
	p.Raw(" " + EnumWord(op, "sem", memSemantics) + ", " + EnumWord(op, "scope", memScopes) + ", ")
	p.Operands(op.Operands())
	p.AttrDict(op, append(elided, "sem", "scope")...)
	p.ColonFunctional(op)
}

// parseAtomicCAS parses `sem, scope, %ptr, %cmp, %val attr-dict : (P, C, V) -> R`.
func parseAtomicCAS(p *OpParser, st *OpState) error { return p.parseAtomicTail(st, 3, 3) }

func printAtomicCAS(p *OpPrinter, op *Operation) { printAtomicTail(p, op) }

// parseBracketLists parses n comma-separated `[%a, ...]` lists.
func (p *OpParser) parseBracketLists(n int) ([][]OperandRef, error) {
	lists := make([][]OperandRef, n)
	for i := range lists {
		if err := p.Expect(","); err != nil {
			return nil, err
		}
		var err error
		if lists[i], err = p.ParseBracketOperands(); err != nil {
			return nil, err
		}
	}
	return lists, nil
}

// resolveLists resolves each list of refs with one type per list and
// appends the values to st.Operands.
func (p *OpParser) resolveLists(st *OpState, lists [][]OperandRef, types []Type, pos Pos) error {
	for i, l := range lists {
		if len(l) == 0 {
			continue
		}
		vs, err := p.resolveAll(l, types[i:i+1], pos)
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, vs...)
	}
	return nil
}

// printBracketLists prints `, [%a, ...]` for consecutive groups of op's
// operands starting at from, of the given sizes.
func printBracketLists(p *OpPrinter, op *Operation, from int, sizes ...int) {
	for _, n := range sizes {
		p.Raw(", ")
		p.BracketOperands(op.Operands()[from : from+n])
		from += n
	}
}

// parseMakeTensorPtr parses `%base, [%shape...], [%strides...],
// [%offsets...] attr-dict : <tensor<...>>` (the result type, printed
// without `!tt.ptr`); the base is a pointer to the block's element type.
func parseMakeTensorPtr(p *OpParser, st *OpState) error {
	return p.parseBlockPtrOp(st, []Type{I64, I64, I32}, func(t *PointerType, bt *RankedTensorType) Type {
		return &PointerType{Pointee: bt.Elem, AddrSpace: t.AddrSpace}
	})
}

func printMakeTensorPtr(p *OpPrinter, op *Operation) {
	n := (op.NumOperands() - 1) / 3
	printBlockPtrOp(p, op, n, n, n)
}

// parseAdvance parses `%ptr, [%offsets...] attr-dict : <tensor<...>>`.
func parseAdvance(p *OpParser, st *OpState) error {
	return p.parseBlockPtrOp(st, []Type{I32}, func(t *PointerType, _ *RankedTensorType) Type { return t })
}

func printAdvance(p *OpPrinter, op *Operation) { printBlockPtrOp(p, op, op.NumOperands()-1) }

// parseBlockPtrOp parses `%x, [...], ... attr-dict : <tensor<...>>`, with
// one bracketed operand list per entry of listTypes (the type of its
// operands); the result is the block pointer type and the first operand
// has type first(result).
func (p *OpParser) parseBlockPtrOp(st *OpState, listTypes []Type, first func(*PointerType, *RankedTensorType) Type) error {
	x, err := p.ParseOperand()
	if err != nil {
		return err
	}
	lists, err := p.parseBracketLists(len(listTypes))
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	pos := p.Pos()
	if err := p.Expect(":"); err != nil {
		return err
	}
	t, err := p.ParseStrippedType("tt.ptr")
	if err != nil {
		return err
	}
	pt, ok := t.(*PointerType)
	if !ok {
		return p.Errorf(pos, "expected a pointer to a tensor")
	}
	bt, ok := pt.Pointee.(*RankedTensorType)
	if !ok {
		return p.Errorf(pos, "expected a pointer to a tensor")
	}
	xv, err := p.Resolve(x, first(pt, bt))
	if err != nil {
		return err
	}
	st.Operands, st.Types = []*Value{xv}, []Type{t}
	return p.resolveLists(st, lists, listTypes, pos)
}

// printBlockPtrOp prints the format of parseBlockPtrOp with lists of the
// given sizes.
func printBlockPtrOp(p *OpPrinter, op *Operation, sizes ...int) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	printBracketLists(p, op, 1, sizes...)
	p.AttrDict(op)
	p.Raw(" : ")
	p.StrippedType(op.Result(0).Type())
}

// parseMakeTensorDesc parses `%base, [%shape...], [%strides...] attr-dict
// : !tt.ptr<T>, !tt.tensordesc<...>`.
func parseMakeTensorDesc(p *OpParser, st *OpState) error {
	base, err := p.ParseOperand()
	if err != nil {
		return err
	}
	lists, err := p.parseBracketLists(2)
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	pos := p.Pos()
	if err := p.Expect(":"); err != nil {
		return err
	}
	bt, err := p.ParseStrippedType("tt.ptr")
	if err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	dt, err := p.ParseStrippedType("tt.tensordesc")
	if err != nil {
		return err
	}
	ts := []Type{bt, dt}
	bv, err := p.Resolve(base, ts[0])
	if err != nil {
		return err
	}
	st.Operands, st.Types = []*Value{bv}, ts[1:]
	return p.resolveLists(st, lists, []Type{I32, I64}, pos)
}

func printMakeTensorDesc(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	n := (op.NumOperands() - 1) / 2
	printBracketLists(p, op, 1, n, n)
	p.AttrDict(op)
	p.Raw(" : ")
	p.StrippedType(op.Operand(0).Type())
	p.Raw(", ")
	p.StrippedType(op.Result(0).Type())
}

// parseDescIndices parses `%desc[%i, ...]` and resolves the indices as i32
// after the descriptor, whose type comes later.
func (p *OpParser) parseDescIndices() (OperandRef, []OperandRef, error) {
	desc, err := p.ParseOperand()
	if err != nil {
		return desc, nil, err
	}
	idx, err := p.ParseBracketOperands()
	return desc, idx, err
}

// parseDescriptorLoad parses `%desc[%i...] [cacheModifier = X]
// [evictionPolicy = Y] attr-dict : !tt.tensordesc<...> -> T`.
func parseDescriptorLoad(p *OpParser, st *OpState) error {
	desc, idx, err := p.parseDescIndices()
	if err != nil {
		return err
	}
	if err := p.parseCacheEvict(st); err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	pos := p.Pos()
	if err := p.FinishOperandArrow(st, desc); err != nil {
		return err
	}
	return p.resolveLists(st, [][]OperandRef{idx}, []Type{I32}, pos)
}

func printDescriptorLoad(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.BracketOperands(op.Operands()[1:])
	printCacheEvict(p, op)
	p.AttrDict(op, "cache", "evict")
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

// parseDescriptorStore parses `%desc[%i...], %src attr-dict :
// !tt.tensordesc<...>, T`.
func parseDescriptorStore(p *OpParser, st *OpState) error {
	desc, idx, err := p.parseDescIndices()
	if err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	src, err := p.ParseOperand()
	if err != nil {
		return err
	}
	pos, ts, err := p.ParseAttrsColonTypes(st, 2)
	if err != nil {
		return err
	}
	if st.Operands, err = p.ResolveAll([]OperandRef{desc, src}, ts, pos); err != nil {
		return err
	}
	return p.resolveLists(st, [][]OperandRef{idx}, []Type{I32}, pos)
}

func printDescriptorStore(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.BracketOperands(op.Operands()[2:])
	p.Raw(", ")
	p.Operand(op.Operand(1))
	p.AttrDict(op)
	p.Raw(" : ")
	p.Types(op.OperandTypes()[:2])
}

// parseDotScaled parses `%a [scale %as], %b [scale %bs], %c lhs = E rhs = E
// attr-dict : A[, AS] * B[, BS] -> D`.
func parseDotScaled(p *OpParser, st *OpState) error {
	var refs [5]OperandRef
	var has [5]bool
	for i, k := range []int{0, 1, 2} {
		if i > 0 {
			if err := p.Expect(","); err != nil {
				return err
			}
		}
		r, err := p.ParseOperand()
		if err != nil {
			return err
		}
		refs[k], has[k] = r, true
		if k < 2 && p.ParseOptionalKeyword("scale") {
			if refs[k+3], err = p.ParseOperand(); err != nil {
				return err
			}
			has[k+3] = true
		}
	}
	for _, side := range []struct{ kw, prop string }{{"lhs", "a_elem_type"}, {"rhs", "b_elem_type"}} {
		if ok, err := p.ParseEnumKeyword(st, side.kw, side.prop, scaleElemType); err != nil || !ok {
			if err == nil {
				err = p.errorHere("expected '%s'", side.kw)
			}
			return err
		}
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	var types [5]Type
	if err := p.Expect(":"); err != nil {
		return err
	}
	for _, k := range []int{0, 1} {
		if k == 1 {
			if err := p.Expect("*"); err != nil {
				return err
			}
		}
		var err error
		if types[k], err = p.ParseType(); err != nil {
			return err
		}
		if has[k+3] {
			if err := p.Expect(","); err != nil {
				return err
			}
			if types[k+3], err = p.ParseType(); err != nil {
				return err
			}
		}
	}
	d, err := p.ParseArrowType()
	if err != nil {
		return err
	}
	types[2] = d
	sizes := []int{1, 1, 1, 0, 0}
	for k := 0; k < 5; k++ {
		if !has[k] {
			continue
		}
		sizes[k] = 1
		v, err := p.Resolve(refs[k], types[k])
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, v)
	}
	st.Props = append(st.Props, Segments(sizes...))
	st.Types = []Type{d}
	return nil
}

func printDotScaled(p *OpPrinter, op *Operation) {
	seg := SegmentSizes(op)
	scaled := func(k int) bool { return len(seg) == 5 && seg[k] == 1 }
	// Operand indices of a_scale and b_scale (after a, b, c).
	scaleIdx := [2]int{3, 3}
	if scaled(3) {
		scaleIdx[1] = 4
	}
	p.Raw(" ")
	for k := 0; k < 2; k++ {
		p.Operand(op.Operand(k))
		if scaled(k + 3) {
			p.Raw(" scale ")
			p.Operand(op.Operand(scaleIdx[k]))
		}
		p.Raw(", ")
	}
	p.Operand(op.Operand(2))
	p.Raw(" lhs = " + EnumWord(op, "a_elem_type", scaleElemType) + " rhs = " + EnumWord(op, "b_elem_type", scaleElemType))
	p.AttrDict(op, "a_elem_type", "b_elem_type", "operandSegmentSizes")
	p.Raw(" : ")
	for k := 0; k < 2; k++ {
		if k == 1 {
			p.Raw(" * ")
		}
		p.Type(op.Operand(k).Type())
		if scaled(k + 3) {
			p.Raw(", ")
			p.Type(op.Operand(scaleIdx[k]).Type())
		}
	}
	p.Raw(" -> ")
	p.Type(op.Result(0).Type())
}

// parseInlineAsm parses `"asm" attr-dict [%args : T...] -> R...`.
func parseInlineAsm(p *OpParser, st *OpState) error {
	if err := p.ParseStringProp(st, "asm_string"); err != nil {
		return err
	}
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
		if st.Operands, err = p.ResolveAll(refs, ts, pos); err != nil {
			return err
		}
	}
	if err := p.Expect("->"); err != nil {
		return err
	}
	st.Types, err = p.ParseTypeList()
	return err
}

func printInlineAsm(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.StringProp(op, "asm_string")
	// MLIR's printer puts the attribute dictionary before the operands.
	p.AttrDict(op, "asm_string")
	if op.NumOperands() > 0 {
		p.Raw(" ")
		p.Operands(op.Operands())
		p.Raw(" : ")
		p.Types(op.OperandTypes())
	}
	p.Raw(" -> ")
	p.Types(op.ResultTypes())
}

// parsePrint parses `"prefix" attr-dict [: %args : T...]`.
func parsePrint(p *OpParser, st *OpState) error {
	if err := p.ParseStringProp(st, "prefix"); err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	if !p.ParseOptional(":") {
		return nil
	}
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	pos := p.Pos()
	if err := p.Expect(":"); err != nil {
		return err
	}
	ts, err := p.ParseTypeList()
	if err != nil {
		return err
	}
	st.Operands, err = p.ResolveAll(refs, ts, pos)
	return err
}

func printPrint(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.StringProp(op, "prefix")
	p.AttrDict(op, "prefix")
	if op.NumOperands() > 0 {
		p.Raw(" : ")
		p.Operands(op.Operands())
		p.Raw(" : ")
		p.Types(op.OperandTypes())
	}
}

// parseAssert parses `%cond, "message" attr-dict : T`.
func parseAssert(p *OpParser, st *OpState) error {
	c, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	if err := p.ParseStringProp(st, "message"); err != nil {
		return err
	}
	t, _, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	cv, err := p.Resolve(c, t)
	st.Operands = []*Value{cv}
	return err
}

func printAssert(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw(", ")
	p.StringProp(op, "message")
	p.AttrDict(op, "message")
	p.ColonType(op.Operand(0).Type())
}
