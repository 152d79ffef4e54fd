package tt

import "github.com/layoutopt/layoutopt/ir"

// The hand-written syntax of the tt ops whose ODS format the declarative
// engine cannot express: the sparse propagateNan enum of tt.clampf, and
// the block pointer and tensor descriptor types that ODS prints without
// their `!tt.ptr` / `!tt.tensordesc` prefix.

// parseClampF parses `%x, %lo, %hi, propagateNan = none attr-dict : T`.
func parseClampF(p *ir.OpParser, st *ir.OpState) error {
	refs, err := p.ParseOperandsN(3)
	if err != nil {
		return err
	}
	if err := p.Expect(","); err != nil {
		return err
	}
	if err := p.ParseKeyword("propagateNan"); err != nil {
		return err
	}
	if err := p.Expect("="); err != nil {
		return err
	}
	pos := p.Pos()
	word, err := p.ParseIdent("keyword")
	if err != nil {
		return err
	}
	v, ok := propagateNan[word]
	if !ok {
		return p.Errorf(pos, "expected one of [none, all] for propagateNan")
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: "propagateNan", Value: ir.Int(v, ir.I32)})
	t, pos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	if st.Operands, err = p.ResolveSame(refs, []ir.Type{t}, pos); err != nil {
		return err
	}
	st.Types = []ir.Type{t}
	return nil
}

func printClampF(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw(" ")
	p.Operands(op.Operands())
	v, _ := op.IntAttr("propagateNan")
	word := "none"
	if v != 0 {
		word = "all"
	}
	p.Raw(", propagateNan = " + word)
	p.AttrDict(op, "propagateNan")
	p.ColonType(op.Result(0).Type())
}

// parseBracketLists parses n comma-separated `[%a, ...]` lists.
func parseBracketLists(p *ir.OpParser, n int) ([][]ir.OperandRef, error) {
	lists := make([][]ir.OperandRef, n)
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
func resolveLists(p *ir.OpParser, st *ir.OpState, lists [][]ir.OperandRef, types []ir.Type, pos ir.Pos) error {
	for i, l := range lists {
		if len(l) == 0 {
			continue
		}
		vs, err := p.ResolveSame(l, types[i:i+1], pos)
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, vs...)
	}
	return nil
}

// printBracketLists prints `, [%a, ...]` for consecutive groups of op's
// operands starting at from, of the given sizes.
func printBracketLists(p *ir.OpPrinter, op *ir.Operation, from int, sizes ...int) {
	for _, n := range sizes {
		p.Raw(", ")
		p.BracketOperands(op.Operands()[from : from+n])
		from += n
	}
}

// parseMakeTensorPtr parses `%base, [%shape...], [%strides...],
// [%offsets...] attr-dict : <tensor<...>>` (the result type, printed
// without `!tt.ptr`); the base is a pointer to the block's element type.
func parseMakeTensorPtr(p *ir.OpParser, st *ir.OpState) error {
	return parseBlockPtrOp(p, st, []ir.Type{ir.I64, ir.I64, ir.I32}, func(t *ir.PointerType, bt *ir.RankedTensorType) ir.Type {
		return &ir.PointerType{Pointee: bt.Elem, AddrSpace: t.AddrSpace}
	})
}

func printMakeTensorPtr(p *ir.OpPrinter, op *ir.Operation) {
	n := (op.NumOperands() - 1) / 3
	printBlockPtrOp(p, op, n, n, n)
}

// parseAdvance parses `%ptr, [%offsets...] attr-dict : <tensor<...>>`.
func parseAdvance(p *ir.OpParser, st *ir.OpState) error {
	return parseBlockPtrOp(p, st, []ir.Type{ir.I32}, func(t *ir.PointerType, _ *ir.RankedTensorType) ir.Type { return t })
}

func printAdvance(p *ir.OpPrinter, op *ir.Operation) { printBlockPtrOp(p, op, op.NumOperands()-1) }

// parseBlockPtrOp parses `%x, [...], ... attr-dict : <tensor<...>>`, with
// one bracketed operand list per entry of listTypes (the type of its
// operands); the result is the block pointer type and the first operand
// has type first(result).
func parseBlockPtrOp(p *ir.OpParser, st *ir.OpState, listTypes []ir.Type, first func(*ir.PointerType, *ir.RankedTensorType) ir.Type) error {
	x, err := p.ParseOperand()
	if err != nil {
		return err
	}
	lists, err := parseBracketLists(p, len(listTypes))
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
	pt, ok := t.(*ir.PointerType)
	if !ok {
		return p.Errorf(pos, "expected a pointer to a tensor")
	}
	bt, ok := pt.Pointee.(*ir.RankedTensorType)
	if !ok {
		return p.Errorf(pos, "expected a pointer to a tensor")
	}
	xv, err := p.Resolve(x, first(pt, bt))
	if err != nil {
		return err
	}
	st.Operands, st.Types = []*ir.Value{xv}, []ir.Type{t}
	return resolveLists(p, st, lists, listTypes, pos)
}

// printBlockPtrOp prints the format of parseBlockPtrOp with lists of the
// given sizes.
func printBlockPtrOp(p *ir.OpPrinter, op *ir.Operation, sizes ...int) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	printBracketLists(p, op, 1, sizes...)
	p.AttrDict(op)
	p.Raw(" : ")
	p.StrippedType(op.Result(0).Type())
}

// parseMakeTensorDesc parses `%base, [%shape...], [%strides...] attr-dict
// : !tt.ptr<T>, !tt.tensordesc<...>`.
func parseMakeTensorDesc(p *ir.OpParser, st *ir.OpState) error {
	base, err := p.ParseOperand()
	if err != nil {
		return err
	}
	lists, err := parseBracketLists(p, 2)
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
	bv, err := p.Resolve(base, bt)
	if err != nil {
		return err
	}
	st.Operands, st.Types = []*ir.Value{bv}, []ir.Type{dt}
	return resolveLists(p, st, lists, []ir.Type{ir.I32, ir.I64}, pos)
}

func printMakeTensorDesc(p *ir.OpPrinter, op *ir.Operation) {
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
