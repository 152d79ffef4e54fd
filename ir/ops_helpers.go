package ir

import (
	"bytes"
	"fmt"
)

// Building blocks of the custom assembly formats. Each parse helper reads
// one recurring piece of an ODS assemblyFormat and each print helper writes
// it back exactly as MLIR's generated printers do, so that op definitions
// read as a sequence of pieces.

// ParseOperandsAttrs parses `%a, %b attr-dict` (the operand list may be
// empty) and returns the operand references.
func (p *OpParser) ParseOperandsAttrs(st *OpState) ([]OperandRef, error) {
	refs, err := p.ParseOperandList()
	if err != nil {
		return nil, err
	}
	return refs, p.ParseOptionalAttrDict(st)
}

// ParseOperandsAttrsColon parses `%a, %b attr-dict : T` and returns the
// references, the position of `:` (where resolution errors point) and T.
func (p *OpParser) ParseOperandsAttrsColon(st *OpState) ([]OperandRef, Pos, Type, error) {
	refs, err := p.ParseOperandsAttrs(st)
	if err != nil {
		return nil, Pos{}, nil, err
	}
	pos := p.Pos()
	t, err := p.ParseColonType()
	return refs, pos, t, err
}

// ParseArrowType parses `-> T`.
func (p *OpParser) ParseArrowType() (Type, error) {
	if err := p.Expect("->"); err != nil {
		return nil, err
	}
	return p.ParseType()
}

// ParseColonArrow parses `: A -> B`.
func (p *OpParser) ParseColonArrow() (a, b Type, err error) {
	if a, err = p.ParseColonType(); err != nil {
		return nil, nil, err
	}
	b, err = p.ParseArrowType()
	return a, b, err
}

// ParseOperandArrow parses `%x attr-dict : A -> B`, resolves %x as A and
// sets the single result to B (the shape of most view and cast ops).
func (p *OpParser) ParseOperandArrow(st *OpState) error {
	ref, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	return p.FinishOperandArrow(st, ref)
}

// FinishOperandArrow parses the `: A -> B` tail of ParseOperandArrow.
func (p *OpParser) FinishOperandArrow(st *OpState, ref OperandRef) error {
	a, b, err := p.ParseColonArrow()
	if err != nil {
		return err
	}
	v, err := p.Resolve(ref, a)
	if err != nil {
		return err
	}
	st.Operands, st.Types = []*Value{v}, []Type{b}
	return nil
}

// ParseBracketOperands parses `[%a, %b]` (possibly empty).
func (p *OpParser) ParseBracketOperands() ([]OperandRef, error) {
	if err := p.Expect("["); err != nil {
		return nil, err
	}
	var refs []OperandRef
	if !p.isPunct("]") {
		var err error
		if refs, err = p.ParseOperandList(); err != nil {
			return nil, err
		}
	}
	return refs, p.Expect("]")
}

// ParseFunctionalType parses `: (A, B) -> R` and checks that it has n
// inputs when n >= 0.
func (p *OpParser) ParseFunctionalType(n int) (*FunctionType, Pos, error) {
	pos := p.Pos()
	t, err := p.ParseColonType()
	if err != nil {
		return nil, pos, err
	}
	ft, ok := t.(*FunctionType)
	if !ok {
		return nil, pos, p.Errorf(pos, "expected function type")
	}
	if n >= 0 && len(ft.Inputs) != n {
		return nil, pos, p.Errorf(pos, "%d operands present, but expected %d", n, len(ft.Inputs))
	}
	return ft, pos, nil
}

// ResolveFunctional resolves refs against ft's inputs and takes ft's results.
func (p *OpParser) ResolveFunctional(st *OpState, refs []OperandRef, ft *FunctionType, pos Pos) error {
	if len(refs) != len(ft.Inputs) {
		return p.Errorf(pos, "%d operands present, but expected %d", len(refs), len(ft.Inputs))
	}
	if len(refs) > 0 {
		var err error
		if st.Operands, err = p.ResolveAll(refs, ft.Inputs, pos); err != nil {
			return err
		}
	}
	st.Types = ft.Results
	return nil
}

// OperandsAttrs prints ` %a, %b` (nothing without operands) and the
// attribute dictionary without the elided names.
func (p *OpPrinter) OperandsAttrs(vs []*Value, op *Operation, elided ...string) {
	p.OperandsAttrsNoDict(vs)
	p.AttrDict(op, elided...)
}

// ColonType prints ` : T`.
func (p *OpPrinter) ColonType(t Type) {
	p.Raw(" : ")
	p.Type(t)
}

// ColonArrow prints ` : A -> B`.
func (p *OpPrinter) ColonArrow(a, b Type) {
	p.ColonType(a)
	p.Raw(" -> ")
	p.Type(b)
}

// ColonFunctional prints ` : (A, B) -> R` for op's operands and results.
func (p *OpPrinter) ColonFunctional(op *Operation) {
	p.Raw(" : ")
	p.FunctionalType(op.OperandTypes(), op.ResultTypes())
}

// BracketOperands prints `[%a, %b]`.
func (p *OpPrinter) BracketOperands(vs []*Value) {
	p.Raw("[")
	p.Operands(vs)
	p.Raw("]")
}

// OperandArrow prints ` %x attr-dict : A -> B` for op's first operand and
// first result.
func (p *OpPrinter) OperandArrow(op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.AttrDict(op)
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

// SameTypeFormat is `%a, %b attr-dict : T`: every operand and the one
// result have type T.
func SameTypeFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error {
		refs, err := p.ParseOperandList()
		if err != nil {
			return err
		}
		t, pos, err := p.ParseAttrDictAndType(st)
		if err != nil {
			return err
		}
		if len(refs) > 0 {
			if st.Operands, err = p.resolveAll(refs, []Type{t}, pos); err != nil {
				return err
			}
		}
		st.Types = []Type{t}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.OperandsAttrsNoDict(op.Operands())
		p.AttrDict(op)
		switch {
		case op.NumOperands() > 0:
			p.ColonType(op.Operand(0).Type())
		case op.NumResults() > 0:
			p.ColonType(op.Result(0).Type())
		default:
			p.Raw(" : ")
		}
	}
}

// ArrowFormat is `%a, %b attr-dict : A -> B`: operands of type A, nres
// results of type B.
func ArrowFormat(def *OpDef, nres int) {
	def.Parse = func(p *OpParser, st *OpState) error {
		refs, err := p.ParseOperandsAttrs(st)
		if err != nil {
			return err
		}
		pos := p.Pos()
		a, b, err := p.ParseColonArrow()
		if err != nil {
			return err
		}
		if st.Operands, err = p.resolveAll(refs, []Type{a}, pos); err != nil {
			return err
		}
		for i := 0; i < nres; i++ {
			st.Types = append(st.Types, b)
		}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.OperandsAttrs(op.Operands(), op)
		p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
	}
}

// CastFormat is `%x attr-dict : A to B`.
func CastFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error {
		ref, err := p.ParseOperand()
		if err != nil {
			return err
		}
		a, _, err := p.ParseAttrDictAndType(st)
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
		st.Operands, st.Types = []*Value{v}, []Type{b}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.OperandsAttrs(op.Operands()[:1], op)
		p.ColonType(op.Operand(0).Type())
		p.Raw(" to ")
		p.Type(op.Result(0).Type())
	}
}

// TypeListFormat is `[%a, %b : T1, T2]` (terminators like scf.yield,
// tt.return) or, with results, `%a, %b attr-dict : T1, T2` producing one
// result per operand of the same type (ttng.warp_group_dot_wait).
func TypeListFormat(def *OpDef, withResults bool) {
	def.Parse = func(p *OpParser, st *OpState) error {
		refs, err := p.ParseOperandsAttrs(st)
		if err != nil || len(refs) == 0 {
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
		if st.Operands, err = p.ResolveAll(refs, ts, pos); err != nil {
			return err
		}
		if withResults {
			st.Types = ts
		}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.OperandsAttrs(op.Operands(), op)
		if op.NumOperands() > 0 {
			p.Raw(" : ")
			p.Types(op.OperandTypes())
		}
	}
}

// AttrOnlyFormat is `attr-dict` with results of the given fixed types.
func AttrOnlyFormat(def *OpDef, results ...Type) {
	def.Parse = func(p *OpParser, st *OpState) error {
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		st.Types = append(st.Types, results...)
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) { p.AttrDict(op) }
}

// ColonTypeFormat is `attr-dict : T` with no operands (tt.make_range,
// ub.poison).
func ColonTypeFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error {
		t, _, err := p.ParseAttrDictAndType(st)
		if err != nil {
			return err
		}
		st.Types = []Type{t}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.AttrDict(op)
		p.ColonType(op.Result(0).Type())
	}
}

// FunctionalFormat is `%a, %b attr-dict : (A, B) -> R` (MLIR's
// `operands attr-dict : functional-type(operands, results)`).
func FunctionalFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error {
		refs, err := p.ParseOperandsAttrs(st)
		if err != nil {
			return err
		}
		ft, pos, err := p.ParseFunctionalType(-1)
		if err != nil {
			return err
		}
		return p.ResolveFunctional(st, refs, ft, pos)
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		p.OperandsAttrs(op.Operands(), op)
		p.ColonFunctional(op)
	}
}

// OperandArrowFormat is `%x attr-dict : A -> B`, one operand, one result.
func OperandArrowFormat(def *OpDef) {
	def.Parse = func(p *OpParser, st *OpState) error { return p.ParseOperandArrow(st) }
	def.Print = func(p *OpPrinter, op *Operation) { p.OperandArrow(op) }
}

// enumKeyword maps the keywords of an I32EnumAttr or I64EnumAttr to their
// integer values (cacheModifier = ca). In generic form such enums are plain
// integer attributes (`cache = 2 : i32`): they are not dialect attributes.
type enumKeyword struct {
	names  []string // index = value - base, unless values is set
	base   int64
	values []int64 // explicit values of names, for sparse enums
}

func (e enumKeyword) value(name string) (int64, bool) {
	for i, n := range e.names {
		if n == name {
			if e.values != nil {
				return e.values[i], true
			}
			return int64(i) + e.base, true
		}
	}
	return 0, false
}

func (e enumKeyword) name(v int64) string {
	if e.values != nil {
		for i, x := range e.values {
			if x == v {
				return e.names[i]
			}
		}
		return fmt.Sprint(v)
	}
	if i := v - e.base; i >= 0 && i < int64(len(e.names)) {
		return e.names[i]
	}
	return fmt.Sprint(v)
}

// ParseEnumKeyword parses `name = keyword` into prop when name is next.
func (p *OpParser) ParseEnumKeyword(st *OpState, kw, prop string, e enumKeyword) (bool, error) {
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

// PrintEnumKeyword prints ` kw = name` when prop is set and not def.
func PrintEnumKeyword(p *OpPrinter, op *Operation, kw, prop string, e enumKeyword, def int64, comma bool) {
	v, ok := op.IntAttr(prop)
	if !ok || v == def {
		return
	}
	if comma {
		p.Raw(",")
	}
	p.Raw(" " + kw + " = " + e.name(v))
}

// PointeeLike returns the type loaded through pointer type t: the pointee
// for a scalar pointer, a tensor of pointees (same shape and encoding) for a
// tensor of pointers.
func PointeeLike(t Type) (Type, bool) {
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

// WithElem returns t (a tensor or scalar) with element type e (i1 masks).
func WithElem(t Type, e Type) Type {
	if x, ok := t.(*RankedTensorType); ok {
		return &RankedTensorType{Shape: x.Shape, Elem: e, Encoding: x.Encoding}
	}
	return e
}

// ParseEnumWord parses a bare enum keyword (`fadd`) into the i32 property
// prop.
func (p *OpParser) ParseEnumWord(st *OpState, prop string, e enumKeyword) error {
	pos := p.Pos()
	word, err := p.ParseIdent(prop)
	if err != nil {
		return err
	}
	v, ok := e.value(word)
	if !ok {
		return p.Errorf(pos, "expected one of [%s] for %s", joinNames(e.names), prop)
	}
	st.Props = append(st.Props, NamedAttr{prop, Int(v, I32)})
	return nil
}

// EnumWord returns the keyword of op's enum property prop.
func EnumWord(op *Operation, prop string, e enumKeyword) string {
	v, _ := op.IntAttr(prop)
	return e.name(v)
}

// ParseInt32Prop parses an integer literal into the i32 property prop.
func (p *OpParser) ParseInt32Prop(st *OpState, prop string) error {
	n, err := p.ParseInt()
	if err != nil {
		return err
	}
	st.Props = append(st.Props, NamedAttr{prop, Int(n, I32)})
	return nil
}

// Int32Prop returns op's integer property prop as text.
func Int32Prop(op *Operation, prop string) string {
	v, _ := op.IntAttr(prop)
	return itoa(v)
}

// ParseStringProp parses a string literal into the property prop.
func (p *OpParser) ParseStringProp(st *OpState, prop string) error {
	s, err := p.ParseString()
	if err != nil {
		return err
	}
	st.Props = append(st.Props, NamedAttr{prop, Str(s)})
	return nil
}

// StringProp prints op's string property prop quoted.
func (p *OpPrinter) StringProp(op *Operation, prop string) {
	if s, ok := op.Attr(prop).(*StringAttr); ok {
		p.String(s.Value)
	} else {
		p.String("")
	}
}

// Segments returns the operandSegmentSizes property for the given sizes.
func Segments(sizes ...int) NamedAttr {
	ints := make([]int64, len(sizes))
	for i, s := range sizes {
		ints[i] = int64(s)
	}
	return NamedAttr{"operandSegmentSizes", &DenseArrayAttr{Elem: I32, Ints: ints}}
}

// SegmentSizes returns op's operandSegmentSizes, or nil.
func SegmentSizes(op *Operation) []int64 {
	if d, ok := op.Attr("operandSegmentSizes").(*DenseArrayAttr); ok {
		return d.Ints
	}
	return nil
}

// ParseOperandsN parses exactly n comma-separated operands.
func (p *OpParser) ParseOperandsN(n int) ([]OperandRef, error) {
	refs := make([]OperandRef, n)
	for i := range refs {
		if i > 0 {
			if err := p.Expect(","); err != nil {
				return nil, err
			}
		}
		var err error
		if refs[i], err = p.ParseOperand(); err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// ParseStrippedType parses a type that ODS prints without its dialect
// prefix when the operand's constraint names the type class (`<f16>` for
// !tt.ptr<f16>, `<tensor<...>>` for !tt.tensordesc<...>); the full form
// is accepted too. prefix is the dialect type keyword ("tt.ptr").
func (p *OpParser) ParseStrippedType(prefix string) (Type, error) {
	if !p.isPunct("<") {
		return p.ParseType()
	}
	p.advance()
	inner, err := p.ParseType()
	if err != nil {
		return nil, err
	}
	var t Type
	switch prefix {
	case "tt.ptr":
		pt := &PointerType{Pointee: inner, AddrSpace: 1}
		if p.ParseOptional(",") {
			as, err := p.ParseInt()
			if err != nil {
				return nil, err
			}
			pt.AddrSpace = int(as)
		}
		t = pt
	case "tt.tensordesc":
		rt, ok := inner.(*RankedTensorType)
		if !ok {
			return nil, p.errorHere("expected tensor type in tensor descriptor")
		}
		t = &TensorDescType{Block: rt}
	default:
		return nil, p.errorHere("no stripped form for !%s", prefix)
	}
	return t, p.Expect(">")
}

// StrippedType prints t without its `!dialect.name` prefix (see
// ParseStrippedType).
func (p *OpPrinter) StrippedType(t Type) {
	start := len(p.buf)
	p.Type(t)
	if p.buf[start] == '!' {
		if i := bytes.IndexByte(p.buf[start:], '<'); i > 0 {
			p.buf = append(p.buf[:start], p.buf[start+i:]...)
		}
	}
}

// ParseAttrsColonTypes parses `attr-dict : T1, T2, ...`, checks that there
// are n types when n >= 0, and returns the position of `:`.
func (p *OpParser) ParseAttrsColonTypes(st *OpState, n int) (Pos, []Type, error) {
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return Pos{}, nil, err
	}
	pos := p.Pos()
	if err := p.Expect(":"); err != nil {
		return pos, nil, err
	}
	ts, err := p.ParseTypeList()
	if err != nil {
		return pos, nil, err
	}
	if n >= 0 && len(ts) != n {
		return pos, nil, p.Errorf(pos, "expected %d types", n)
	}
	return pos, ts, nil
}

// ParseOperandCount parses `%a, %b, ...` and checks that there are min to
// max operands.
func (p *OpParser) ParseOperandCount(min, max int) ([]OperandRef, error) {
	refs, err := p.ParseOperandList()
	if err != nil {
		return nil, err
	}
	if len(refs) < min || len(refs) > max {
		if min == max {
			return nil, p.Errorf(p.Pos(), "expected %d operands", min)
		}
		return nil, p.Errorf(p.Pos(), "expected %d to %d operands", min, max)
	}
	return refs, nil
}

// OperandsAttrsNoDict prints ` %a, %b` (nothing without operands); the
// attribute dictionary follows later pieces of the format.
func (p *OpPrinter) OperandsAttrsNoDict(vs []*Value) {
	if len(vs) > 0 {
		p.Raw(" ")
		p.Operands(vs)
	}
}

// ParseIndexedAttrs parses `%x[%i] attr-dict` (tt.gather, ttg.memdesc_index).
func (p *OpParser) ParseIndexedAttrs(st *OpState) (x, idx OperandRef, err error) {
	if x, err = p.ParseOperand(); err != nil {
		return x, idx, err
	}
	refs, err := p.ParseBracketOperands()
	if err != nil {
		return x, idx, err
	}
	if len(refs) != 1 {
		return x, idx, p.errorHere("expected one index operand")
	}
	return x, refs[0], p.ParseOptionalAttrDict(st)
}

// ParseAttrDictAndType parses `attr-dict : T`, the tail of most custom
// formats, and returns T with the position of its ':' (where an error about
// the type belongs).
func (p *OpParser) ParseAttrDictAndType(st *OpState) (Type, Pos, error) {
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return nil, Pos{}, err
	}
	pos := p.Pos()
	t, err := p.ParseColonType()
	return t, pos, err
}

func itoa(v int64) string { return string(appendIntValue(nil, v, I64)) }
