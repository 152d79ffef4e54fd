package ir

import (
	"slices"
	"strconv"
)

// Type is an MLIR type. The implementations are *IntegerType, *FloatType,
// *IndexType, *NoneType, *RankedTensorType, *PointerType, *MemDescType,
// *TensorDescType, *FunctionType, *AsyncTokenType and *OpaqueType (any other
// dialect type, kept as text). Compare types with TypesEqual; printing with
// TypeString.
type Type interface {
	appendType(b []byte, ref AliasFunc) []byte
	isType()
}

// AliasFunc returns the alias reference (such as "#blocked") under which an
// attribute is printed, or "" to print it inline.
type AliasFunc func(Attribute) string

// Signedness of an integer type.
type Signedness uint8

// Integer signedness: i32, si32, ui32.
const (
	Signless Signedness = iota
	Signed
	Unsigned
)

// IntegerType is iN, siN or uiN.
type IntegerType struct {
	Width int
	Sign  Signedness
}

// FloatType is a floating-point type; Kind is its MLIR spelling (f16, bf16,
// f32, f64, tf32, f8E4M3FN, f8E5M2, ...).
type FloatType struct {
	Kind string
}

// IndexType is `index`.
type IndexType struct{}

// NoneType is `none`.
type NoneType struct{}

// Dynamic is the size of a dynamic dimension (`?`).
const Dynamic = int64(-1)

// RankedTensorType is `tensor<SHAPExELEM[, ENCODING]>`. Encoding is nil when
// absent; in TTGIR it is a layout attribute such as `#ttg.blocked<...>`.
type RankedTensorType struct {
	Shape    []int64
	Elem     Type
	Encoding Attribute
}

// PointerType is `!tt.ptr<POINTEE[, ADDRSPACE]>`; address space 1 (global)
// is the default and is not printed.
type PointerType struct {
	Pointee   Type
	AddrSpace int
}

// MemDescType is `!ttg.memdesc<SHAPExELEM, ENCODING, MEMSPACE[, mutable][, ALLOCSHAPE]>`.
// AllocShape is nil when it equals Shape.
type MemDescType struct {
	Shape       []int64
	Elem        Type
	Encoding    Attribute
	MemorySpace Attribute
	Mutable     bool
	AllocShape  []int64
}

// TensorDescType is Triton 3.6's `!tt.tensordesc<tensor<...>>`.
type TensorDescType struct {
	Block *RankedTensorType
}

// FunctionType is `(INPUTS) -> RESULTS`.
type FunctionType struct {
	Inputs, Results []Type
}

// AsyncTokenType is `!ttg.async.token`.
type AsyncTokenType struct{}

// OpaqueType is a dialect type this package does not model, kept as its
// text: Text is everything after '!', with each nested alias reference
// replaced by a NUL byte and stored in Refs (in order).
type OpaqueType struct {
	Text string
	Refs []Attribute
}

func (*IntegerType) isType()      {}
func (*FloatType) isType()        {}
func (*IndexType) isType()        {}
func (*NoneType) isType()         {}
func (*RankedTensorType) isType() {}
func (*PointerType) isType()      {}
func (*MemDescType) isType()      {}
func (*TensorDescType) isType()   {}
func (*FunctionType) isType()     {}
func (*AsyncTokenType) isType()   {}
func (*OpaqueType) isType()       {}

var (
	intTypes   = map[IntegerType]*IntegerType{}
	floatTypes = map[string]*FloatType{}
	// Index is the `index` type.
	Index Type = &IndexType{}
	// None is the `none` type.
	None Type = &NoneType{}
	// AsyncToken is `!ttg.async.token`.
	AsyncToken Type = &AsyncTokenType{}
	// I1, I8, I16, I32, I64 are the common signless integer types.
	I1, I8, I16, I32, I64 Type
	// F16, BF16, F32, F64 are the common float types.
	F16, BF16, F32, F64 Type
)

// floatKinds are the float type spellings the parser accepts.
var floatKinds = []string{"f16", "bf16", "f32", "f64", "f80", "f128", "tf32",
	"f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E4M3",
	"f8E3M4", "f8E8M0FNU", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN"}

func init() {
	for _, w := range []int{1, 8, 16, 32, 64, 128} {
		for _, s := range []Signedness{Signless, Signed, Unsigned} {
			k := IntegerType{w, s}
			intTypes[k] = &IntegerType{w, s}
		}
	}
	for _, k := range floatKinds {
		floatTypes[k] = &FloatType{k}
	}
	I1, I8, I16, I32, I64 = IntType(1), IntType(8), IntType(16), IntType(32), IntType(64)
	F16, BF16, F32, F64 = floatTypes["f16"], floatTypes["bf16"], floatTypes["f32"], floatTypes["f64"]
}

// IntType returns the signless integer type of the given width (shared
// instances for the common widths).
func IntType(width int) Type {
	if t, ok := intTypes[IntegerType{width, Signless}]; ok {
		return t
	}
	return &IntegerType{Width: width}
}

// FloatTypeOf returns the float type spelled kind, or nil if kind is not a
// float type.
func FloatTypeOf(kind string) Type {
	if t, ok := floatTypes[kind]; ok {
		return t
	}
	return nil
}

// FloatBits returns the bit width of a float type.
func (t *FloatType) FloatBits() int {
	switch t.Kind {
	case "f16", "bf16":
		return 16
	case "f32", "tf32":
		return 32
	case "f64":
		return 64
	case "f80":
		return 80
	case "f128":
		return 128
	case "f6E2M3FN", "f6E3M2FN":
		return 6
	case "f4E2M1FN":
		return 4
	}
	return 8
}

// ElementType returns the element type of a tensor or memdesc type, or t
// itself for other types.
func ElementType(t Type) Type {
	switch x := t.(type) {
	case *RankedTensorType:
		return x.Elem
	case *MemDescType:
		return x.Elem
	}
	return t
}

// ShapeOf returns the shape of a tensor or memdesc type and whether t has one.
func ShapeOf(t Type) ([]int64, bool) {
	switch x := t.(type) {
	case *RankedTensorType:
		return x.Shape, true
	case *MemDescType:
		return x.Shape, true
	}
	return nil, false
}

// ShapeOrScalar is ShapeOf, with [1] for a type without a shape (a scalar
// is a tensor of one element).
func ShapeOrScalar(t Type) []int64 {
	if s, ok := ShapeOf(t); ok {
		return s
	}
	return []int64{1}
}

// IntShape returns the shape of a tensor or memdesc type as ints (nil for
// any other type), the form the layout functions of package attr take.
func IntShape(t Type) []int {
	s, _ := ShapeOf(t)
	out := make([]int, len(s))
	for i, x := range s {
		out[i] = int(x)
	}
	return out
}

// EncodingOf returns the encoding of a tensor or memdesc type, or nil.
func EncodingOf(t Type) Attribute {
	switch x := t.(type) {
	case *RankedTensorType:
		return x.Encoding
	case *MemDescType:
		return x.Encoding
	}
	return nil
}

// WithEncoding returns a copy of tensor type t with encoding enc.
func (t *RankedTensorType) WithEncoding(enc Attribute) *RankedTensorType {
	return &RankedTensorType{Shape: t.Shape, Elem: t.Elem, Encoding: enc}
}

// TypesEqual reports whether a and b are the same type (structurally).
func TypesEqual(a, b Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	switch x := a.(type) {
	case *IntegerType:
		y, ok := b.(*IntegerType)
		return ok && *x == *y
	case *FloatType:
		y, ok := b.(*FloatType)
		return ok && x.Kind == y.Kind
	case *IndexType:
		_, ok := b.(*IndexType)
		return ok
	case *NoneType:
		_, ok := b.(*NoneType)
		return ok
	case *AsyncTokenType:
		_, ok := b.(*AsyncTokenType)
		return ok
	case *RankedTensorType:
		y, ok := b.(*RankedTensorType)
		return ok && shapesEqual(x.Shape, y.Shape) && TypesEqual(x.Elem, y.Elem) && AttrsEqual(x.Encoding, y.Encoding)
	case *PointerType:
		y, ok := b.(*PointerType)
		return ok && x.AddrSpace == y.AddrSpace && TypesEqual(x.Pointee, y.Pointee)
	case *MemDescType:
		y, ok := b.(*MemDescType)
		return ok && shapesEqual(x.Shape, y.Shape) && TypesEqual(x.Elem, y.Elem) &&
			AttrsEqual(x.Encoding, y.Encoding) && AttrsEqual(x.MemorySpace, y.MemorySpace) &&
			x.Mutable == y.Mutable && shapesEqual(x.AllocShape, y.AllocShape)
	case *TensorDescType:
		y, ok := b.(*TensorDescType)
		return ok && TypesEqual(x.Block, y.Block)
	case *FunctionType:
		y, ok := b.(*FunctionType)
		return ok && typeListsEqual(x.Inputs, y.Inputs) && typeListsEqual(x.Results, y.Results)
	case *OpaqueType:
		y, ok := b.(*OpaqueType)
		return ok && x.Text == y.Text && attrListsEqual(x.Refs, y.Refs)
	}
	return false
}

func typeListsEqual(a, b []Type) bool { return slices.EqualFunc(a, b, TypesEqual) }

func shapesEqual(a, b []int64) bool { return slices.Equal(a, b) }

// TypeString formats t with every attribute inline (no aliases).
func TypeString(t Type) string {
	if t == nil {
		return "<<NULL TYPE>>"
	}
	return string(t.appendType(nil, nil))
}

func appendTypeRef(b []byte, t Type, ref AliasFunc) []byte {
	if t == nil {
		return append(b, "<<NULL TYPE>>"...)
	}
	return t.appendType(b, ref)
}

func (t *IntegerType) appendType(b []byte, _ AliasFunc) []byte {
	switch t.Sign {
	case Signed:
		b = append(b, 's')
	case Unsigned:
		b = append(b, 'u')
	}
	b = append(b, 'i')
	return strconv.AppendInt(b, int64(t.Width), 10)
}

func (t *FloatType) appendType(b []byte, _ AliasFunc) []byte { return append(b, t.Kind...) }
func (*IndexType) appendType(b []byte, _ AliasFunc) []byte   { return append(b, "index"...) }
func (*NoneType) appendType(b []byte, _ AliasFunc) []byte    { return append(b, "none"...) }
func (*AsyncTokenType) appendType(b []byte, _ AliasFunc) []byte {
	return append(b, "!ttg.async.token"...)
}

func appendShape(b []byte, shape []int64) []byte {
	for _, d := range shape {
		if d == Dynamic {
			b = append(b, '?')
		} else {
			b = strconv.AppendInt(b, d, 10)
		}
		b = append(b, 'x')
	}
	return b
}

func (t *RankedTensorType) appendType(b []byte, ref AliasFunc) []byte {
	b = append(b, "tensor<"...)
	b = t.appendBody(b, ref)
	return append(b, '>')
}

func (t *RankedTensorType) appendBody(b []byte, ref AliasFunc) []byte {
	b = appendShape(b, t.Shape)
	b = appendTypeRef(b, t.Elem, ref)
	if t.Encoding != nil {
		b = append(b, ", "...)
		b = appendAttr(b, t.Encoding, ref)
	}
	return b
}

func (t *PointerType) appendType(b []byte, ref AliasFunc) []byte {
	b = append(b, "!tt.ptr<"...)
	b = appendTypeRef(b, t.Pointee, ref)
	if t.AddrSpace != 1 {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(t.AddrSpace), 10)
	}
	return append(b, '>')
}

func (t *MemDescType) appendType(b []byte, ref AliasFunc) []byte {
	b = append(b, "!ttg.memdesc"...)
	return t.appendBody(b, ref)
}

// appendBody appends `<...>` without the `!ttg.memdesc` keyword (the form
// ttg.async_copy_global_to_local prints).
func (t *MemDescType) appendBody(b []byte, ref AliasFunc) []byte {
	b = append(b, '<')
	b = appendShape(b, t.Shape)
	b = appendTypeRef(b, t.Elem, ref)
	if t.Encoding != nil {
		b = append(b, ", "...)
		b = appendAttr(b, t.Encoding, ref)
	}
	if t.MemorySpace != nil {
		b = append(b, ", "...)
		b = appendAttr(b, t.MemorySpace, ref)
	}
	if t.Mutable {
		b = append(b, ", mutable"...)
	}
	if t.AllocShape != nil && !shapesEqual(t.AllocShape, t.Shape) {
		b = append(b, ", "...)
		s := appendShape(b, t.AllocShape)
		b = s[:len(s)-1]
	}
	return append(b, '>')
}

func (t *TensorDescType) appendType(b []byte, ref AliasFunc) []byte {
	b = append(b, "!tt.tensordesc<"...)
	b = appendTypeRef(b, t.Block, ref)
	return append(b, '>')
}

func (t *FunctionType) appendType(b []byte, ref AliasFunc) []byte {
	b = append(b, '(')
	b = appendTypeList(b, t.Inputs, ref)
	b = append(b, ") -> "...)
	return appendResultTypes(b, t.Results, ref)
}

// appendResultTypes prints a function result list: a single non-function
// type bare, otherwise parenthesized.
func appendResultTypes(b []byte, ts []Type, ref AliasFunc) []byte {
	if len(ts) == 1 {
		if _, fn := ts[0].(*FunctionType); !fn {
			return appendTypeRef(b, ts[0], ref)
		}
	}
	b = append(b, '(')
	b = appendTypeList(b, ts, ref)
	return append(b, ')')
}

func appendTypeList(b []byte, ts []Type, ref AliasFunc) []byte {
	for i, t := range ts {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendTypeRef(b, t, ref)
	}
	return b
}

func (t *OpaqueType) appendType(b []byte, ref AliasFunc) []byte {
	b = append(b, '!')
	return appendOpaque(b, t.Text, t.Refs, ref)
}

// appendOpaque appends text, replacing each NUL byte with the next ref.
func appendOpaque(b []byte, text string, refs []Attribute, ref AliasFunc) []byte {
	k := 0
	for i := 0; i < len(text); i++ {
		if text[i] == 0 && k < len(refs) {
			b = appendAttr(b, refs[k], ref)
			k++
			continue
		}
		b = append(b, text[i])
	}
	return b
}
