package ir

import (
	"fmt"
	"strconv"
)

// The declarative part of an op definition: what an op's operands,
// results, attributes and regions are called and how many of each it has.
// A definition that states them and an assembly format (OpDef.Format)
// gets its parser, printer, named accessors and the checks that follow
// from the declaration without hand-written code; see format.go.

// Arity says how many values an operand, result, region or successor
// group holds: exactly one, zero or one, or any number.
type Arity uint8

const (
	// One is exactly one value (MLIR's plain operand).
	One Arity = iota
	// Optional is zero or one value (MLIR's Optional<...>).
	Optional
	// Variadic is any number of values (MLIR's Variadic<...>).
	Variadic
)

// ArgDef declares one named operand, result, region or successor group.
type ArgDef struct {
	Name  string
	Arity Arity
}

// Arg declares a group holding exactly one value.
func Arg(name string) ArgDef { return ArgDef{Name: name} }

// Opt declares a group holding zero or one value.
func Opt(name string) ArgDef { return ArgDef{Name: name, Arity: Optional} }

// Vars declares a group holding any number of values.
func Vars(name string) ArgDef { return ArgDef{Name: name, Arity: Variadic} }

// AttrKind is the storage kind of a declared attribute; it decides how the
// attribute is written where an assembly format names it (`$axis`).
type AttrKind uint8

const (
	// AnyAttr is any attribute, written in full (`1 : i64`, `#blocked`).
	AnyAttr AttrKind = iota
	// I32Attr and I64Attr are integers written without their type.
	I32Attr
	I64Attr
	// BoolAttrKind is `true` or `false`.
	BoolAttrKind
	// UnitAttrKind is a flag: present or not.
	UnitAttrKind
	// StrAttr is a quoted string.
	StrAttr
	// SymbolAttr is a symbol name `@name`, stored as a string (MLIR's
	// SymbolNameAttr).
	SymbolAttr
	// SymbolRef is a symbol reference `@name`, stored as a SymbolRefAttr.
	SymbolRef
	// TypeAttrKind is a type used as an attribute.
	TypeAttrKind
	// DenseI32Array and DenseI64Array are `array<i32: ...>` written
	// `[1, 0]` in the custom form.
	DenseI32Array
	DenseI64Array
	// EnumAttrKind is an integer written as one of AttrDef.Enum's keywords.
	EnumAttrKind
)

// AttrDef declares one attribute of an op. Attributes are properties
// (MLIR's inherent attributes, printed as `<{...}>` in generic form)
// unless Discardable is set.
type AttrDef struct {
	Name string
	Kind AttrKind
	// Enum gives the keywords of an EnumAttrKind attribute.
	Enum *Enum
	// Optional attributes may be absent; required ones are checked by the
	// verifier.
	Optional bool
	// Default, when set, is the value an absent attribute stands for;
	// attr-dict leaves the attribute out when it has this value, as
	// MLIR's generated printers do.
	Default Attribute
	// Discardable makes the attribute a discardable one.
	Discardable bool
}

// Enum is an integer enumeration written as keywords: Cases[i] stands for
// the value Base+i (Triton's I32EnumAttr: `cache = 1 : i32` is `none`).
type Enum struct {
	Name  string
	Cases []string
	Base  int64
	// Type is the integer type of the stored value (i32 when nil).
	Type Type
}

// Value returns the value of keyword word.
func (e *Enum) Value(word string) (int64, bool) {
	for i, n := range e.Cases {
		if n == word {
			return e.Base + int64(i), true
		}
	}
	return 0, false
}

// Keyword returns the keyword of value v, or v in decimal when it has none.
func (e *Enum) Keyword(v int64) string {
	if i := v - e.Base; i >= 0 && i < int64(len(e.Cases)) {
		return e.Cases[i]
	}
	return strconv.FormatInt(v, 10)
}

func (e *Enum) typ() Type {
	if e.Type == nil {
		return I32
	}
	return e.Type
}

// Attr builds the stored attribute of value v.
func (e *Enum) Attr(v int64) Attribute { return Int(v, e.typ()) }

// TypeRule derives the type of the operand or result Target from that of
// From (MLIR's TypesMatchWith and AllTypesMatch): Fn maps From's type to
// Target's, or returns nil when it cannot; nil Fn means the same type.
// The format parser uses the rules for types the text does not spell out.
type TypeRule struct {
	Target, From string
	Fn           func(Type) Type
}

// Same returns the rule that Target has the type of From.
func Same(target, from string) TypeRule { return TypeRule{Target: target, From: from} }

// Dialect is a namespace of ops, registered together.
type Dialect struct {
	// Name is the namespace, such as "ttg".
	Name string
	// Summary is a one-line description.
	Summary string
	// Ops are the dialect's op definitions; each name starts with Name+".".
	Ops []*OpDef
}

// operandIndex returns the position of the operand group name, or -1.
func (d *OpDef) operandIndex(name string) int {
	for i, a := range d.Operands {
		if a.Name == name {
			return i
		}
	}
	return -1
}

func (d *OpDef) resultIndex(name string) int {
	for i, a := range d.Results {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// attrDef returns the declaration of attribute name, or nil.
func (d *OpDef) attrDef(name string) *AttrDef {
	for i := range d.Attrs {
		if d.Attrs[i].Name == name {
			return &d.Attrs[i]
		}
	}
	return nil
}

// groups splits n values among decls, as MLIR does: with a segment-size
// attribute (sizes non-nil) by its entries; otherwise the one variadic or
// optional group takes what the fixed ones leave. ok is false when the
// counts cannot be split.
func groups(decls []ArgDef, n int, sizes []int64) (bounds []int, ok bool) {
	return groupsInto(make([]int, len(decls)+1), decls, n, sizes)
}

// groupsInto is groups writing the bounds into buf (len(decls)+1 long).
func groupsInto(bounds []int, decls []ArgDef, n int, sizes []int64) ([]int, bool) {
	clear(bounds)
	if sizes != nil {
		if len(sizes) != len(decls) {
			return nil, false
		}
		for i, s := range sizes {
			bounds[i+1] = bounds[i] + int(s)
		}
		return bounds, bounds[len(decls)] == n
	}
	fixed, vars := 0, 0
	for _, a := range decls {
		if a.Arity == One {
			fixed++
		} else {
			vars++
		}
	}
	rest := n - fixed
	if rest < 0 || vars == 0 && rest != 0 || vars > 1 && rest != 0 {
		// With several variable groups and no segment sizes, MLIR's
		// accessors cannot tell them apart either; only the all-empty
		// case is unambiguous.
		if !(vars > 1 && rest == 0) {
			return nil, false
		}
	}
	for i, a := range decls {
		w := 1
		if a.Arity != One {
			w = 0
			if vars == 1 {
				w = rest
			}
		}
		if a.Arity == Optional && w > 1 {
			return nil, false
		}
		bounds[i+1] = bounds[i] + w
	}
	return bounds, true
}

// segmentSizesOf returns the operandSegmentSizes property of op as int64s.
func segmentSizesOf(op *Operation) []int64 {
	if d, ok := op.Attr("operandSegmentSizes").(*DenseArrayAttr); ok {
		return d.Ints
	}
	return nil
}

// operandBounds returns the operand index bounds of op's declared groups.
func (op *Operation) operandBounds() ([]int, bool) {
	if op.def == nil || op.def.Operands == nil {
		return nil, false
	}
	var sizes []int64
	if op.def.Traits&AttrSizedOperandSegments != 0 {
		sizes = segmentSizesOf(op)
	}
	return groups(op.def.Operands, len(op.operands), sizes)
}

// operandBoundsInto is operandBounds writing into buf when it is long
// enough (the printer's hot path).
func (op *Operation) operandBoundsInto(buf []int) ([]int, bool) {
	if op.def == nil || op.def.Operands == nil {
		return nil, false
	}
	var sizes []int64
	if op.def.Traits&AttrSizedOperandSegments != 0 {
		sizes = segmentSizesOf(op)
	}
	if n := len(op.def.Operands) + 1; n <= len(buf) {
		return groupsInto(buf[:n], op.def.Operands, len(op.operands), sizes)
	}
	return groups(op.def.Operands, len(op.operands), sizes)
}

// OperandGroup returns the operands of the declared operand group name
// (empty for an absent optional operand). It panics if the op's
// definition declares no such group, as a typo in a pass is a bug.
func (op *Operation) OperandGroup(name string) []*Value {
	i := -1
	if op.def != nil {
		i = op.def.operandIndex(name)
	}
	if i < 0 {
		panic(fmt.Sprintf("ir: %s declares no operand %q", op.name, name))
	}
	b, ok := op.operandBounds()
	if !ok {
		return nil
	}
	out := make([]*Value, 0, b[i+1]-b[i])
	for k := b[i]; k < b[i+1]; k++ {
		out = append(out, op.operands[k].value)
	}
	return out
}

// NamedOperand returns the value of the declared operand name, or nil
// when it is an absent optional operand.
func (op *Operation) NamedOperand(name string) *Value {
	if vs := op.OperandGroup(name); len(vs) > 0 {
		return vs[0]
	}
	return nil
}

// ResultGroup returns the results of the declared result group name.
func (op *Operation) ResultGroup(name string) []*Value {
	i := -1
	if op.def != nil {
		i = op.def.resultIndex(name)
	}
	if i < 0 {
		panic(fmt.Sprintf("ir: %s declares no result %q", op.name, name))
	}
	b, ok := groups(op.def.Results, len(op.results), nil)
	if !ok {
		return nil
	}
	out := make([]*Value, 0, b[i+1]-b[i])
	for k := b[i]; k < b[i+1]; k++ {
		out = append(out, &op.results[k])
	}
	return out
}

// NamedResult returns the value of the declared result name, or nil.
func (op *Operation) NamedResult(name string) *Value {
	if vs := op.ResultGroup(name); len(vs) > 0 {
		return vs[0]
	}
	return nil
}

// AttrOrDefault returns attribute name, or its declared default when the
// op does not carry it (nil when there is neither).
func (op *Operation) AttrOrDefault(name string) Attribute {
	if a := op.Attr(name); a != nil {
		return a
	}
	if op.def != nil {
		if d := op.def.attrDef(name); d != nil {
			return d.Default
		}
	}
	return nil
}

// verifyDeclared checks what an op's declaration implies: operand and
// result counts fit the declared groups, required attributes are present
// and declared attributes have their declared kind.
func (d *OpDef) verifyDeclared(op *Operation) error {
	if d.Operands != nil {
		if _, ok := op.operandBounds(); !ok {
			return fmt.Errorf("%s", countMessage("operand", d.Operands, len(op.operands), d.Traits&AttrSizedOperandSegments != 0))
		}
	}
	if d.Results != nil {
		if _, ok := groups(d.Results, len(op.results), nil); !ok {
			return fmt.Errorf("%s", countMessage("result", d.Results, len(op.results), false))
		}
	}
	for i := range d.Attrs {
		a := &d.Attrs[i]
		v := op.Attr(a.Name)
		if v == nil {
			if !a.Optional && a.Default == nil && a.Kind != UnitAttrKind {
				return fmt.Errorf("requires attribute '%s'", a.Name)
			}
			continue
		}
		if !attrHasKind(v, a) {
			return fmt.Errorf("attribute '%s' failed to satisfy constraint: %s", a.Name, kindDescription(a))
		}
	}
	return nil
}

func countMessage(what string, decls []ArgDef, n int, segmented bool) string {
	fixed, vars := 0, 0
	for _, a := range decls {
		if a.Arity == One {
			fixed++
		} else {
			vars++
		}
	}
	if segmented {
		return "operand count (" + strconv.Itoa(n) + ") does not match with the total size specified in attribute 'operandSegmentSizes'"
	}
	if vars == 0 {
		return fmt.Sprintf("requires %d %ss, but found %d", fixed, what, n)
	}
	return fmt.Sprintf("requires at least %d %ss, but found %d", fixed, what, n)
}

func attrHasKind(v Attribute, a *AttrDef) bool {
	switch a.Kind {
	case I32Attr:
		i, ok := v.(*IntegerAttr)
		return ok && TypesEqual(i.Type, I32)
	case I64Attr:
		i, ok := v.(*IntegerAttr)
		return ok && TypesEqual(i.Type, I64)
	case EnumAttrKind:
		i, ok := v.(*IntegerAttr)
		return ok && TypesEqual(i.Type, a.Enum.typ())
	case BoolAttrKind:
		_, ok := v.(*BoolAttr)
		return ok
	case UnitAttrKind:
		_, ok := v.(*UnitAttr)
		return ok
	case StrAttr, SymbolAttr:
		_, ok := v.(*StringAttr)
		return ok
	case SymbolRef:
		_, ok := v.(*SymbolRefAttr)
		return ok
	case TypeAttrKind:
		_, ok := v.(*TypeAttr)
		return ok
	case DenseI32Array, DenseI64Array:
		d, ok := v.(*DenseArrayAttr)
		want := I32
		if a.Kind == DenseI64Array {
			want = I64
		}
		return ok && TypesEqual(d.Elem, want)
	}
	return true
}

func kindDescription(a *AttrDef) string {
	switch a.Kind {
	case I32Attr:
		return "32-bit signless integer attribute"
	case I64Attr:
		return "64-bit signless integer attribute"
	case EnumAttrKind:
		return a.Enum.Name
	case BoolAttrKind:
		return "bool attribute"
	case UnitAttrKind:
		return "unit attribute"
	case StrAttr:
		return "string attribute"
	case SymbolAttr:
		return "string attribute"
	case SymbolRef:
		return "symbol reference attribute"
	case TypeAttrKind:
		return "any type attribute"
	case DenseI32Array:
		return "i32 dense array attribute"
	case DenseI64Array:
		return "i64 dense array attribute"
	}
	return "attribute"
}

// RegionGroup returns the regions of the declared region group name, split
// among the groups as operands are (one region for each plain group, what
// they leave for the one optional or variadic group). It panics if the
// op's definition declares no such group, as OperandGroup does.
func (op *Operation) RegionGroup(name string) []*Region {
	i := -1
	if op.def != nil {
		for k, r := range op.def.Regions {
			if r.Name == name {
				i = k
			}
		}
	}
	if i < 0 {
		panic(fmt.Sprintf("ir: %s declares no region %q", op.name, name))
	}
	b, ok := groups(op.def.Regions, len(op.regions), nil)
	if !ok {
		return nil
	}
	return op.regions[b[i]:b[i+1]]
}

// NamedRegion returns the region of the declared region group name, or nil
// when it is an absent optional region.
func (op *Operation) NamedRegion(name string) *Region {
	if rs := op.RegionGroup(name); len(rs) > 0 {
		return rs[0]
	}
	return nil
}

// EnumKeyword returns the keyword of the value of the declared enum
// attribute name (its default when absent), or the value in decimal when
// the enum has no keyword for it.
func (op *Operation) EnumKeyword(name string) string {
	v := AttrIntValue(op.AttrOrDefault(name))
	if op.def != nil {
		if d := op.def.attrDef(name); d != nil && d.Enum != nil {
			return d.Enum.Keyword(v)
		}
	}
	return strconv.FormatInt(v, 10)
}

// AttrIntValue returns the value of an integer attribute, 0 for any other.
func AttrIntValue(a Attribute) int64 {
	if i, ok := a.(*IntegerAttr); ok {
		return i.Value
	}
	return 0
}

// AttrBoolValue returns the value of a bool attribute, false for any other.
func AttrBoolValue(a Attribute) bool {
	b, ok := a.(*BoolAttr)
	return ok && b.Value
}

// AttrStringValue returns the value of a string attribute, "" for any other.
func AttrStringValue(a Attribute) string {
	if s, ok := a.(*StringAttr); ok {
		return s.Value
	}
	return ""
}

// AttrInts returns a copy of the elements of a dense integer array
// attribute, nil for any other.
func AttrInts(a Attribute) []int64 {
	if d, ok := a.(*DenseArrayAttr); ok {
		return append([]int64{}, d.Ints...)
	}
	return nil
}
