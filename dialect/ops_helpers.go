package dialect

import "fmt"

// Helpers that build the common custom assembly formats.

// sameTypeFormat is `%a, %b attr-dict : T`: every operand and the one
// result have type T.
func sameTypeFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error {
		refs, err := p.ParseOperandList()
		if err != nil {
			return err
		}
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		pos := p.Pos()
		t, err := p.ParseColonType()
		if err != nil {
			return err
		}
		if len(refs) > 0 {
			if st.Operands, err = p.ResolveAll(refs, []Type{t}, pos); err != nil {
				return err
			}
		}
		st.Types = []Type{t}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		if op.NumOperands() > 0 {
			p.Raw(" ")
			p.Operands(op.Operands())
		}
		p.AttrDict(op)
		p.Raw(" : ")
		if op.NumOperands() > 0 {
			p.Type(op.Operand(0).Type())
		} else if op.NumResults() > 0 {
			p.Type(op.Result(0).Type())
		}
	}
}

// arrowFormat is `%a, %b attr-dict : A -> B`: operands of type A, nres
// results of type B.
func arrowFormat(def *OpDef, nres int) {
	def.Parse = func(p *OpParser, st *OpState) error {
		refs, err := p.ParseOperandList()
		if err != nil {
			return err
		}
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		pos := p.Pos()
		a, err := p.ParseColonType()
		if err != nil {
			return err
		}
		if err := p.Expect("->"); err != nil {
			return err
		}
		b, err := p.ParseType()
		if err != nil {
			return err
		}
		if st.Operands, err = p.ResolveAll(refs, []Type{a}, pos); err != nil {
			return err
		}
		for i := 0; i < nres; i++ {
			st.Types = append(st.Types, b)
		}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.Raw(" ")
		p.Operands(op.Operands())
		p.AttrDict(op)
		p.Raw(" : ")
		p.Type(op.Operand(0).Type())
		p.Raw(" -> ")
		p.Type(op.Result(0).Type())
	}
}

// castFormat is `%x attr-dict : A to B`.
func castFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error {
		ref, err := p.ParseOperand()
		if err != nil {
			return err
		}
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		pos := p.Pos()
		a, err := p.ParseColonType()
		if err != nil {
			return err
		}
		if err := p.ParseKeyword("to"); err != nil {
			return err
		}
		b, err := p.ParseType()
		if err != nil {
			return err
		}
		v, err := p.Resolve(ref, a)
		if err != nil {
			return err
		}
		_ = pos
		st.Operands, st.Types = []*Value{v}, []Type{b}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.Raw(" ")
		p.Operand(op.Operand(0))
		p.AttrDict(op)
		p.Raw(" : ")
		p.Type(op.Operand(0).Type())
		p.Raw(" to ")
		p.Type(op.Result(0).Type())
	}
}

// typeListFormat is `[%a, %b : T1, T2]` (terminators like scf.yield,
// tt.return) or, with results, `%a, %b attr-dict : T1, T2` producing one
// result per operand of the same type (ttng.warp_group_dot_wait).
func typeListFormat(def *OpDef, withResults bool) {
	def.Parse = func(p *OpParser, st *OpState) error {
		refs, err := p.ParseOperandList()
		if err != nil {
			return err
		}
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		if len(refs) == 0 {
			return nil
		}
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
		if len(ts) != len(refs) {
			return p.Errorf(pos, "%d operands present, but expected %d", len(refs), len(ts))
		}
		if withResults {
			st.Types = ts
		}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		if op.NumOperands() > 0 {
			p.Raw(" ")
			p.Operands(op.Operands())
		}
		p.AttrDict(op)
		if op.NumOperands() > 0 {
			p.Raw(" : ")
			p.Types(op.OperandTypes())
		}
	}
}

// attrOnlyFormat is `attr-dict` with results of the given fixed types.
func attrOnlyFormat(def *OpDef, results ...Type) {
	def.Parse = func(p *OpParser, st *OpState) error {
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		st.Types = append(st.Types, results...)
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) { p.AttrDict(op) }
}

// colonTypeFormat is `attr-dict : T` with no operands (tt.make_range,
// ub.poison).
func colonTypeFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error {
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		t, err := p.ParseColonType()
		if err != nil {
			return err
		}
		st.Types = []Type{t}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.AttrDict(op)
		p.Raw(" : ")
		p.Type(op.Result(0).Type())
	}
}

// enumKeyword maps enum names to integer values for props printed as
// keywords (cacheModifier = ca).
type enumKeyword struct {
	names []string // index = value - base
	base  int64
}

func (e enumKeyword) value(name string) (int64, bool) {
	for i, n := range e.names {
		if n == name {
			return int64(i) + e.base, true
		}
	}
	return 0, false
}

func (e enumKeyword) name(v int64) string {
	if i := v - e.base; i >= 0 && i < int64(len(e.names)) {
		return e.names[i]
	}
	return fmt.Sprint(v)
}

// parseEnumKeyword parses `name = keyword` into prop when name is next.
func (p *OpParser) parseEnumKeyword(st *OpState, kw, prop string, e enumKeyword) (bool, error) {
	if p.PeekKeyword() != kw {
		return false, nil
	}
	p.advance()
	if err := p.Expect("="); err != nil {
		return true, err
	}
	pos := p.Pos()
	word, err := p.ParseIdent("keyword")
	if err != nil {
		return true, err
	}
	v, ok := e.value(word)
	if !ok {
		return true, p.Errorf(pos, "expected one of [%s] for %s", joinNames(e.names), kw)
	}
	st.Props = append(st.Props, NamedAttr{prop, Int(v, I32)})
	return true, nil
}

func joinNames(ns []string) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// printEnumKeyword prints ` kw = name` when prop is set and not def.
func printEnumKeyword(p *OpPrinter, op *Operation, kw, prop string, e enumKeyword, def int64, comma bool) {
	v, ok := op.IntAttr(prop)
	if !ok || v == def {
		return
	}
	if comma {
		p.Raw(",")
	}
	p.Raw(" " + kw + " = " + e.name(v))
}

// pointeeLike returns the type loaded through pointer type t: the pointee
// for a scalar pointer, a tensor of pointees (same shape and encoding) for a
// tensor of pointers.
func pointeeLike(t Type) (Type, bool) {
	switch x := t.(type) {
	case *PointerType:
		if bt, ok := x.Pointee.(*RankedTensorType); ok {
			return bt, true // block pointer
		}
		return x.Pointee, true
	case *RankedTensorType:
		if pt, ok := x.Elem.(*PointerType); ok {
			return &RankedTensorType{Shape: x.Shape, Elem: pt.Pointee, Encoding: x.Encoding}, true
		}
	}
	return nil, false
}

// withElem returns t (a tensor or scalar) with element type e (i1 masks).
func withElem(t Type, e Type) Type {
	if x, ok := t.(*RankedTensorType); ok {
		return &RankedTensorType{Shape: x.Shape, Elem: e, Encoding: x.Encoding}
	}
	return e
}
