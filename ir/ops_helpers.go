package ir

import (
	"bytes"
)

// Building blocks of the custom assembly formats. Each parse helper reads
// one recurring piece of an ODS assemblyFormat and each print helper writes
// it back exactly as MLIR's generated printers do, so that op definitions
// read as a sequence of pieces.

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

// BracketOperands prints `[%a, %b]`.
func (p *OpPrinter) BracketOperands(vs []*Value) {
	p.Raw("[")
	p.Operands(vs)
	p.Raw("]")
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

// Segments returns the operandSegmentSizes property for the given sizes.
func Segments(sizes ...int) NamedAttr {
	ints := make([]int64, len(sizes))
	for i, s := range sizes {
		ints[i] = int64(s)
	}
	return NamedAttr{"operandSegmentSizes", &DenseArrayAttr{Elem: I32, Ints: ints}}
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

// SegmentSizes returns op's operandSegmentSizes, or nil.
func SegmentSizes(op *Operation) []int64 { return segmentSizesOf(op) }

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

// ColonFunctional prints ` : (A, B) -> R` for op's operands and results.
func (p *OpPrinter) ColonFunctional(op *Operation) {
	p.Raw(" : ")
	p.FunctionalType(op.OperandTypes(), op.ResultTypes())
}
