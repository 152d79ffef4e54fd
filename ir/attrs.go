package ir

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
)

// Attribute is an MLIR attribute value. The implementations are
// *IntegerAttr, *FloatAttr, *StringAttr, *BoolAttr, *UnitAttr, *ArrayAttr,
// *DenseArrayAttr, *DictionaryAttr, *TypeAttr, *SymbolRefAttr,
// *DenseElementsAttr, *EncodingAttr (a TritonGPU layout such as
// `#ttg.blocked<{...}>`, modelled by package attr) and *OpaqueAttr (any
// other dialect attribute, kept as text with its nested alias references).
// Compare with AttrsEqual; format with AttrString.
type Attribute interface {
	appendAttr(b []byte, ref AliasFunc) []byte
	isAttribute()
}

// NamedAttr is one `name = value` entry of an attribute dictionary or of an
// operation's attributes or properties.
type NamedAttr struct {
	Name  string
	Value Attribute
}

// IntegerAttr is `42 : i32`, `42 : i64` or `42 : index`. As in MLIR, the
// type is always printed except for i1 (`true`/`false`) and, inside an
// array, for i64 (`[1, 2]`).
type IntegerAttr struct {
	Value int64
	Type  Type
}

// FloatAttr is `1.000000e+00 : f32`. As in MLIR, the type is always
// printed except for f64 inside an array (`[2.500000e+00]`).
type FloatAttr struct {
	Value float64
	Type  Type
}

// StringAttr is `"text"`.
type StringAttr struct{ Value string }

// BoolAttr is `true` or `false`.
type BoolAttr struct{ Value bool }

// UnitAttr is `unit`; in a dictionary it prints as the bare name.
type UnitAttr struct{}

// ArrayAttr is `[a, b, ...]`.
type ArrayAttr struct{ Elems []Attribute }

// DenseArrayAttr is `array<i32: 1, 0>`. Ints holds the values of integer
// arrays (i1 as 0/1), Floats those of float arrays.
type DenseArrayAttr struct {
	Elem   Type
	Ints   []int64
	Floats []float64
}

// DictionaryAttr is `{name = value, ...}`.
type DictionaryAttr struct{ Entries []NamedAttr }

// TypeAttr is a type used as an attribute.
type TypeAttr struct{ Type Type }

// SymbolRefAttr is `@root` or `@root::@nested`.
type SymbolRefAttr struct {
	Root   string
	Nested []string
}

// DenseElementsAttr is `dense<...> : TYPE`. Elems holds one element for a
// splat, or all elements in row-major order; each is an *IntegerAttr,
// *FloatAttr or *BoolAttr. Hex is set instead for the hexadecimal form
// `dense<"0x...">`/`dense<0x...>` and printed as written.
type DenseElementsAttr struct {
	Type  Type
	Elems []Attribute
	Hex   string
}

// OpaqueAttr is a dialect attribute that this package keeps as text: Text
// is everything after '#', with each nested alias reference replaced by a
// NUL byte and stored in Refs (in order).
type OpaqueAttr struct {
	Text string
	Refs []Attribute
}

func (*IntegerAttr) isAttribute()       {}
func (*FloatAttr) isAttribute()         {}
func (*StringAttr) isAttribute()        {}
func (*BoolAttr) isAttribute()          {}
func (*UnitAttr) isAttribute()          {}
func (*ArrayAttr) isAttribute()         {}
func (*DenseArrayAttr) isAttribute()    {}
func (*DictionaryAttr) isAttribute()    {}
func (*TypeAttr) isAttribute()          {}
func (*SymbolRefAttr) isAttribute()     {}
func (*DenseElementsAttr) isAttribute() {}
func (*OpaqueAttr) isAttribute()        {}

// Shared instances of the parameterless attributes.
var (
	True  = &BoolAttr{true}
	False = &BoolAttr{false}
	Unit  = &UnitAttr{}
)

// Int returns an IntegerAttr of type t.
func Int(v int64, t Type) *IntegerAttr { return &IntegerAttr{Value: v, Type: t} }

// Str returns a StringAttr.
func Str(s string) *StringAttr { return &StringAttr{s} }

// Dialect returns the dialect namespace of an opaque attribute ("ttg" for
// `#ttg.blocked<...>`).
func (a *OpaqueAttr) Dialect() string {
	if i := strings.IndexByte(a.Text, '.'); i >= 0 {
		return a.Text[:i]
	}
	return a.Text
}

// Mnemonic returns the attribute name after the dialect ("blocked" for
// `#ttg.blocked<...>`).
func (a *OpaqueAttr) Mnemonic() string {
	s := a.Text
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	return s
}

// AliasPrefix returns the alias name Triton's printer gives an attribute
// ("blocked", "mma", "shared", "linear", "smem", "tmem"), or "" when it is
// printed inline.
func AliasPrefix(a Attribute) string {
	if e, ok := a.(*EncodingAttr); ok {
		return e.Enc.AliasPrefix()
	}
	o, ok := a.(*OpaqueAttr)
	if !ok {
		return ""
	}
	switch o.Dialect() {
	case "ttg", "triton_gpu":
		switch m := o.Mnemonic(); m {
		case "blocked", "linear":
			return m
		case "nvidia_mma", "amd_mfma", "amd_wmma", "mma":
			return "mma"
		case "shared_memory":
			return "smem"
		case "slice", "dot_op":
			return ""
		default:
			if strings.Contains(m, "shared") {
				return "shared"
			}
		}
	case "ttng":
		if o.Mnemonic() == "tensor_memory_encoding" {
			return "tmem"
		}
	}
	return ""
}

// AttrString formats a with every nested attribute inline.
func AttrString(a Attribute) string {
	return string(appendAttr(nil, a, nil))
}

// appendAttr appends a, or its alias when ref gives one.
func appendAttr(b []byte, a Attribute, ref AliasFunc) []byte {
	if a == nil {
		return append(b, "<<NULL ATTRIBUTE>>"...)
	}
	if ref != nil {
		if name := ref(a); name != "" {
			return append(b, name...)
		}
	}
	return a.appendAttr(b, ref)
}

// appendAttrElided appends a where MLIR may elide its type
// (AttrTypeElision::May, used for array elements): an i64 integer or an
// f64 float prints as its bare value.
func appendAttrElided(b []byte, a Attribute, ref AliasFunc) []byte {
	switch x := a.(type) {
	case *IntegerAttr:
		if isI64(x.Type) {
			return appendIntValue(b, x.Value, x.Type)
		}
	case *FloatAttr:
		if ft, ok := x.Type.(*FloatType); ok && ft.Kind == "f64" {
			return appendFloatValue(b, x.Value, x.Type)
		}
	}
	return appendAttr(b, a, ref)
}

// isI64 reports whether t is the signless 64-bit integer type (nil, the
// type of an untyped integer literal, counts as i64).
func isI64(t Type) bool {
	it, ok := t.(*IntegerType)
	return t == nil || ok && it.Width == 64 && it.Sign == Signless
}

// isBool reports whether t is i1, whose attributes print as true/false
// without a type.
func isBool(t Type) bool {
	it, ok := t.(*IntegerType)
	return ok && it.Width == 1 && it.Sign == Signless
}

func (a *IntegerAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	b = appendIntValue(b, a.Value, a.Type)
	if isBool(a.Type) {
		return b
	}
	b = append(b, " : "...)
	if a.Type == nil {
		return append(b, "i64"...)
	}
	return appendTypeRef(b, a.Type, ref)
}

func appendIntValue(b []byte, v int64, t Type) []byte {
	if it, ok := t.(*IntegerType); ok {
		if it.Width == 1 {
			if v != 0 {
				return append(b, "true"...)
			}
			return append(b, "false"...)
		}
		// As MLIR's APInt printing: the value is its low Width bits,
		// read as unsigned for unsigned types and as two's complement
		// otherwise (`255 : i8` prints as `-1 : i8`).
		if w := it.Width; w > 0 && w < 64 {
			if it.Sign == Unsigned {
				return strconv.AppendUint(b, uint64(v)&(1<<w-1), 10)
			}
			v = v << (64 - w) >> (64 - w)
		}
		if it.Sign == Unsigned {
			return strconv.AppendUint(b, uint64(v), 10)
		}
	}
	return strconv.AppendInt(b, v, 10)
}

func (a *FloatAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	b = appendFloatValue(b, a.Value, a.Type)
	b = append(b, " : "...)
	if a.Type == nil {
		return append(b, "f64"...)
	}
	return appendTypeRef(b, a.Type, ref)
}

// appendFloatValue prints v as MLIR does: six-digit exponent form when that
// reads back exactly, the shortest decimal form otherwise, and hexadecimal
// bits for infinities and NaNs.
func appendFloatValue(b []byte, v float64, t Type) []byte {
	bits := 64
	if ft, ok := t.(*FloatType); ok && ft.FloatBits() <= 32 {
		bits = 32
	}
	if !math.IsInf(v, 0) && !math.IsNaN(v) {
		s := strconv.AppendFloat(nil, v, 'e', 6, 64)
		if back, err := strconv.ParseFloat(string(s), bits); err == nil && back == v {
			return append(b, s...)
		}
		s = strconv.AppendFloat(nil, v, 'e', -1, bits)
		if !strings.Contains(string(s), ".") {
			// MLIR's literals need a '.', so write d.0eN.
			i := strings.IndexByte(string(s), 'e')
			s = append(append(append([]byte{}, s[:i]...), ".0"...), s[i:]...)
		}
		return append(b, s...)
	}
	if ft, ok := t.(*FloatType); ok && ft.FloatBits() == 16 {
		// MLIR prints a 16-bit NaN or infinity in its own width
		// (f16 NaN: 0x7E00; bf16 NaN: 0x7FC0).
		return append(b, "0x"+strings.ToUpper(strconv.FormatUint(uint64(nonFinite16(v, ft.Kind == "bf16")), 16))...)
	}
	if bits == 32 {
		return append(b, "0x"+strings.ToUpper(strconv.FormatUint(uint64(math.Float32bits(float32(v))), 16))...)
	}
	return append(b, "0x"+strings.ToUpper(strconv.FormatUint(math.Float64bits(v), 16))...)
}

// nonFinite16 returns the bits of NaN or ±Inf v as f16 (or bf16): the quiet
// NaN APFloat makes, its sign kept.
func nonFinite16(v float64, bf16 bool) uint16 {
	var r uint16 = 0x7C00 // f16 +Inf
	if bf16 {
		r = 0x7F80
	}
	if math.IsNaN(v) {
		if bf16 {
			r |= 0x40
		} else {
			r |= 0x200
		}
	}
	if math.Signbit(v) {
		r |= 0x8000
	}
	return r
}

func (a *StringAttr) appendAttr(b []byte, _ AliasFunc) []byte { return appendQuoted(b, a.Value) }

func (a *BoolAttr) appendAttr(b []byte, _ AliasFunc) []byte {
	if a.Value {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func (*UnitAttr) appendAttr(b []byte, _ AliasFunc) []byte { return append(b, "unit"...) }

func (a *ArrayAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	b = append(b, '[')
	for i, e := range a.Elems {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendAttrElided(b, e, ref)
	}
	return append(b, ']')
}

func (a *DenseArrayAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	b = append(b, "array<"...)
	b = appendTypeRef(b, a.Elem, ref)
	if _, isFloat := a.Elem.(*FloatType); isFloat {
		for i, v := range a.Floats {
			if i == 0 {
				b = append(b, ": "...)
			} else {
				b = append(b, ", "...)
			}
			b = appendFloatValue(b, v, a.Elem)
		}
	} else {
		for i, v := range a.Ints {
			if i == 0 {
				b = append(b, ": "...)
			} else {
				b = append(b, ", "...)
			}
			b = appendIntValue(b, v, a.Elem)
		}
	}
	return append(b, '>')
}

func (a *DictionaryAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	return appendAttrDict(b, a.Entries, ref)
}

// appendAttrDict appends `{a = 1 : i32, unitName, ...}`.
func appendAttrDict(b []byte, entries []NamedAttr, ref AliasFunc) []byte {
	b = append(b, '{')
	for i, e := range entries {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendAttrName(b, e.Name)
		if _, unit := e.Value.(*UnitAttr); unit {
			continue
		}
		b = append(b, " = "...)
		b = appendAttr(b, e.Value, ref)
	}
	return append(b, '}')
}

// appendAttrName appends a dictionary key: bare when it is an identifier
// (letters, digits, '_', '$', '.'), quoted otherwise.
func appendAttrName(b []byte, name string) []byte {
	if isBareIdent(name) {
		return append(b, name...)
	}
	return appendQuoted(b, name)
}

func isBareIdent(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.') {
			return false
		}
	}
	return true
}

func (a *TypeAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	return appendTypeRef(b, a.Type, ref)
}

func (a *SymbolRefAttr) appendAttr(b []byte, _ AliasFunc) []byte {
	b = appendSymbol(b, a.Root)
	for _, n := range a.Nested {
		b = append(b, "::"...)
		b = appendSymbol(b, n)
	}
	return b
}

// appendSymbol appends @name, quoting the name when it is not a bare
// identifier.
func appendSymbol(b []byte, name string) []byte {
	b = append(b, '@')
	if isBareIdent(name) {
		return append(b, name...)
	}
	return appendQuoted(b, name)
}

func (a *DenseElementsAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	b = append(b, "dense<"...)
	switch {
	case a.Hex != "":
		b = append(b, a.Hex...)
	case len(a.Elems) == 1:
		b = appendDenseElem(b, a.Elems[0])
	case len(a.Elems) > 1:
		shape, _ := ShapeOf(a.Type)
		b = appendDenseNested(b, a.Elems, shape)
	}
	b = append(b, "> : "...)
	return appendTypeRef(b, a.Type, ref)
}

func appendDenseElem(b []byte, e Attribute) []byte {
	switch x := e.(type) {
	case *IntegerAttr:
		return appendIntValue(b, x.Value, x.Type)
	case *FloatAttr:
		return appendFloatValue(b, x.Value, x.Type)
	}
	return appendAttr(b, e, nil)
}

func appendDenseNested(b []byte, elems []Attribute, shape []int64) []byte {
	if len(shape) == 0 {
		if len(elems) > 0 {
			b = appendDenseElem(b, elems[0])
		}
		return b
	}
	n := int64(len(elems))
	if shape[0] > 0 {
		n /= shape[0]
	}
	b = append(b, '[')
	for i := int64(0); i < shape[0]; i++ {
		if i > 0 {
			b = append(b, ", "...)
		}
		lo, hi := i*n, (i+1)*n
		if hi > int64(len(elems)) {
			break
		}
		b = appendDenseNested(b, elems[lo:hi], shape[1:])
	}
	return append(b, ']')
}

func (a *OpaqueAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	b = append(b, '#')
	return appendOpaque(b, a.Text, a.Refs, ref)
}

// AttrsEqual reports whether a and b are the same attribute (structurally).
func AttrsEqual(a, b Attribute) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	switch x := a.(type) {
	case *IntegerAttr:
		y, ok := b.(*IntegerAttr)
		return ok && x.Value == y.Value && TypesEqual(x.Type, y.Type)
	case *FloatAttr:
		y, ok := b.(*FloatAttr)
		return ok && (x.Value == y.Value || math.IsNaN(x.Value) && math.IsNaN(y.Value)) && TypesEqual(x.Type, y.Type)
	case *StringAttr:
		y, ok := b.(*StringAttr)
		return ok && x.Value == y.Value
	case *BoolAttr:
		y, ok := b.(*BoolAttr)
		return ok && x.Value == y.Value
	case *UnitAttr:
		_, ok := b.(*UnitAttr)
		return ok
	case *ArrayAttr:
		y, ok := b.(*ArrayAttr)
		return ok && attrListsEqual(x.Elems, y.Elems)
	case *DenseArrayAttr:
		y, ok := b.(*DenseArrayAttr)
		return ok && TypesEqual(x.Elem, y.Elem) && slices.Equal(x.Ints, y.Ints) && slices.Equal(x.Floats, y.Floats)
	case *DictionaryAttr:
		y, ok := b.(*DictionaryAttr)
		return ok && namedAttrsEqual(x.Entries, y.Entries)
	case *TypeAttr:
		y, ok := b.(*TypeAttr)
		return ok && TypesEqual(x.Type, y.Type)
	case *SymbolRefAttr:
		y, ok := b.(*SymbolRefAttr)
		return ok && x.Root == y.Root && slices.Equal(x.Nested, y.Nested)
	case *DenseElementsAttr:
		y, ok := b.(*DenseElementsAttr)
		return ok && x.Hex == y.Hex && TypesEqual(x.Type, y.Type) && attrListsEqual(x.Elems, y.Elems)
	case *OpaqueAttr:
		y, ok := b.(*OpaqueAttr)
		return ok && x.Text == y.Text && attrListsEqual(x.Refs, y.Refs)
	case *EncodingAttr:
		y, ok := b.(*EncodingAttr)
		return ok && (x.Enc == y.Enc || attr.Equal(x.Enc, y.Enc))
	}
	return false
}

func attrListsEqual(a, b []Attribute) bool { return slices.EqualFunc(a, b, AttrsEqual) }

func namedAttrsEqual(a, b []NamedAttr) bool {
	return slices.EqualFunc(a, b, func(x, y NamedAttr) bool { return x.Name == y.Name && AttrsEqual(x.Value, y.Value) })
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
