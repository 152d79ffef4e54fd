package ir

import (
	"sort"
	"strings"
	"sync"
)

// Trait is a set of op properties that passes can query (a bitset).
type Trait uint64

// Op traits.
const (
	// Pure: no side effects; an unused result means the op can go.
	Pure Trait = 1 << iota
	// Elementwise: each result element depends only on the same element
	// of the operands (layout-agnostic).
	Elementwise
	// SameOperandsAndResultType: all operands and results have one type.
	SameOperandsAndResultType
	// SameOperandsAndResultShape: all tensor operands and results have one shape.
	SameOperandsAndResultShape
	// SameOperandsAndResultEncoding: all tensor operands and results have
	// one encoding.
	SameOperandsAndResultEncoding
	// SameOperandsAndResultElementType: one element type everywhere.
	SameOperandsAndResultElementType
	// Terminator: the op ends a block.
	Terminator
	// ReturnLike: a terminator that returns to the parent op.
	ReturnLike
	// IsolatedFromAbove: regions cannot use values defined outside.
	IsolatedFromAbove
	// NoTerminator: the op's blocks need no terminator.
	NoTerminator
	// SingleBlock: each region has at most one block.
	SingleBlock
	// Commutative: operands may be swapped.
	Commutative
	// Symbol: the op defines a symbol (sym_name).
	Symbol
	// ConstantLike: the op materializes a constant from its attributes.
	ConstantLike
	// MemoryRead and MemoryWrite: the op reads or writes memory.
	MemoryRead
	MemoryWrite
)

// OpDef describes a registered operation: its traits, its properties, its
// custom assembly format and its verifier.
type OpDef struct {
	// Name is the full op name, such as "tt.load".
	Name string
	// Summary is a one-line description.
	Summary string
	// Traits are the op's traits.
	Traits Trait
	// Props names the inherent attributes (MLIR properties); in generic
	// form they print as `<{...}>`, and parsing puts them in Op.Props.
	Props []string
	// Parse reads the custom assembly form after the op name; nil means
	// the op has no custom form and is always printed generically.
	Parse func(p *OpParser, st *OpState) error
	// Print writes the custom assembly form after the op name; nil means
	// generic form.
	Print func(p *OpPrinter, op *Operation)
	// Verify checks op-specific invariants; return an error whose message
	// becomes "'op.name' op <message>".
	Verify func(op *Operation) error
	// ResultNames are the names the printer gives to results that have no
	// name of their own (MLIR's OpAsmOpInterface::getAsmResultNames), as
	// `%result, %token = ttng.tmem_alloc`; nil means numbered results.
	ResultNames []string
}

func (d *OpDef) isProp(name string) bool {
	for _, p := range d.Props {
		if p == name {
			return true
		}
	}
	return false
}

// OpState is an operation under construction by a custom parser.
type OpState struct {
	// Name is the op name.
	Name string
	// NumResults is the number of results the left-hand side declares
	// (read-only for the parse function).
	NumResults int
	// Operands are the resolved operand values.
	Operands []*Value
	// Types are the result types the parse function found.
	Types []Type
	// Props and Attrs are the properties and discardable attributes.
	Props, Attrs []NamedAttr
	// Regions are the parsed regions.
	Regions []*Region
	// Successors are the successor blocks (operands appended to Operands).
	Successors []Successor
}

// AddAttrs sorts attrs into st.Props and st.Attrs using def.Props.
func (st *OpState) AddAttrs(def *OpDef, attrs []NamedAttr) {
	for _, a := range attrs {
		if def != nil && def.isProp(a.Name) {
			st.Props = append(st.Props, a)
		} else {
			st.Attrs = append(st.Attrs, a)
		}
	}
}

var registry struct {
	sync.RWMutex
	defs map[string]*OpDef
}

// Register adds def to the op registry, replacing an earlier definition of
// the same name. Other Go programs may register their own ops.
func Register(def *OpDef) {
	registry.Lock()
	defer registry.Unlock()
	if registry.defs == nil {
		registry.defs = map[string]*OpDef{}
	}
	registry.defs[def.Name] = def
}

// Lookup returns the definition of op name, or nil if it is not registered.
func Lookup(name string) *OpDef {
	registry.RLock()
	defer registry.RUnlock()
	return registry.defs[name]
}

// RegisteredOps returns the names of all registered ops, sorted.
func RegisteredOps() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.defs))
	for n := range registry.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DialectOf returns the dialect namespace of an op name ("tt" for "tt.load").
func DialectOf(opName string) string {
	if i := strings.IndexByte(opName, '.'); i >= 0 {
		return opName[:i]
	}
	return opName
}
