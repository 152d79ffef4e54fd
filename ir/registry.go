package ir

import (
	"fmt"
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
	// AttrSizedOperandSegments: the operandSegmentSizes property splits
	// the operands among several optional or variadic groups.
	AttrSizedOperandSegments
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
	// AsmResultNames, when set, names results from the op itself
	// (getAsmResultNames computed, as arith.constant's %c0_i32, %cst,
	// %true): set(i, name) names result i; it replaces ResultNames.
	// Names apply in custom form only, as in MLIR.
	AsmResultNames func(op *Operation, set func(result int, name string))

	// The declaration (see opdef.go and format.go). Operands, Results,
	// Attrs and Regions name the op's parts; an op that declares them is
	// checked against them by the verifier and can be read by name
	// (Operation.NamedOperand). Format is its declarative assembly format:
	// with it, Register derives Parse and Print.
	Operands, Results []ArgDef
	Attrs             []AttrDef
	Regions           []ArgDef
	Format            string
	// Custom holds the custom<Name> directives Format uses.
	Custom map[string]*Custom
	// TypeRules derive types the format does not write.
	TypeRules []TypeRule
	// InferTypes, when set, fills in the types left unknown after the
	// rules (MLIR's InferTypeOpInterface), through the FormatState.
	InferTypes func(fs *FormatState) error
	// Layout is the op's layout behaviour (layoutrule.go); nil derives it
	// from the traits (Operation.Layout).
	Layout *LayoutRule

	derived bool // Parse and Print come from Format
	fmtOnce sync.Once
	fmt     *compiledFormat
	fmtErr  error
}

// complete derives what the declaration implies: the property names, and
// Parse and Print from the assembly format.
func (d *OpDef) complete() error {
	if d.Props == nil {
		for _, a := range d.Attrs {
			if !a.Discardable {
				d.Props = append(d.Props, a.Name)
			}
		}
		if d.Traits&AttrSizedOperandSegments != 0 {
			d.Props = append(d.Props, "operandSegmentSizes")
		}
	}
	if d.Format == "" || d.derived {
		return nil
	}
	if d.Parse != nil || d.Print != nil {
		return fmt.Errorf("op '%s' has both an assembly format and hand-written Parse/Print", d.Name)
	}
	cf, err := d.compiled()
	if err != nil {
		return err
	}
	d.Parse = func(p *OpParser, st *OpState) error { return parseFormat(p, st, d, cf) }
	d.Print = func(p *OpPrinter, op *Operation) { printFormat(p, op, d, cf) }
	d.derived = true
	return nil
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

// Registry maps op names to their definitions, like the set of dialects
// loaded in an MLIRContext. The zero value is not usable; NewRegistry
// makes one. Registering a name twice is an error, never a replacement.
type Registry struct {
	mu       sync.RWMutex
	defs     map[string]*OpDef
	dialects map[string]*Dialect
}

// NewRegistry returns a registry holding only builtin.module, as an
// MLIRContext starts with the builtin dialect.
func NewRegistry() *Registry {
	return &Registry{defs: map[string]*OpDef{moduleDef.Name: moduleDef}, dialects: map[string]*Dialect{}}
}

// Register adds op definitions. It fails, registering none of them, when
// a name is taken or a definition is malformed (its assembly format does
// not compile).
func (r *Registry) Register(defs ...*OpDef) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	for _, d := range defs {
		if d.Name == "" || !strings.Contains(d.Name, ".") {
			return fmt.Errorf("op name %q has no dialect prefix", d.Name)
		}
		if r.defs[d.Name] != nil || seen[d.Name] {
			return fmt.Errorf("op '%s' is already registered", d.Name)
		}
		seen[d.Name] = true
	}
	for _, d := range defs {
		if err := d.complete(); err != nil {
			return err
		}
	}
	for _, d := range defs {
		r.defs[d.Name] = d
	}
	return nil
}

// RegisterDialect registers a dialect and its ops; a dialect name, like
// an op name, can be registered once.
func (r *Registry) RegisterDialect(d *Dialect) error {
	r.mu.Lock()
	if r.dialects[d.Name] != nil {
		r.mu.Unlock()
		return fmt.Errorf("dialect '%s' is already registered", d.Name)
	}
	for _, o := range d.Ops {
		if DialectOf(o.Name) != d.Name {
			r.mu.Unlock()
			return fmt.Errorf("op '%s' is not in dialect '%s'", o.Name, d.Name)
		}
	}
	r.mu.Unlock()
	if err := r.Register(d.Ops...); err != nil {
		return err
	}
	r.mu.Lock()
	r.dialects[d.Name] = d
	r.mu.Unlock()
	return nil
}

// Lookup returns the definition of op name, or nil.
func (r *Registry) Lookup(name string) *OpDef {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.defs[name]
}

// Ops returns the names of the registered ops, sorted.
func (r *Registry) Ops() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.defs))
	for n := range r.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Dialects returns the registered dialects, sorted by name.
func (r *Registry) Dialects() []*Dialect {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Dialect, 0, len(r.dialects))
	for _, d := range r.dialects {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// HasDialect reports whether some registered op is in dialect name.
func (r *Registry) HasDialect(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.dialects[name] != nil {
		return true
	}
	for n := range r.defs {
		if DialectOf(n) == name {
			return true
		}
	}
	return false
}

// defaultRegistry holds the ops registered by package init functions: the
// dialect packages under dialect/ register theirs, so that importing a
// dialect makes its ops known to Parse, NewOperation and the verifier.
var defaultRegistry = NewRegistry()

// Default returns the process-wide registry that Parse uses when
// ParseConfig.Registry is nil.
func Default() *Registry { return defaultRegistry }

// MustRegisterDialect registers d in the default registry and panics when
// that fails (a duplicate name is a bug in the program, as with
// database/sql.Register). Dialect packages call it from init.
func MustRegisterDialect(d *Dialect) {
	if err := defaultRegistry.RegisterDialect(d); err != nil {
		panic("ir: " + err.Error())
	}
}

// Register adds def to the default registry and panics when the name is
// taken or the definition is malformed.
func Register(def *OpDef) {
	if err := defaultRegistry.Register(def); err != nil {
		panic("ir: " + err.Error())
	}
}

// Lookup returns the definition of op name in the default registry, or
// nil if it is not registered.
func Lookup(name string) *OpDef { return defaultRegistry.Lookup(name) }

// RegisteredOps returns the names of all ops of the default registry,
// sorted.
func RegisteredOps() []string { return defaultRegistry.Ops() }

// DialectOf returns the dialect namespace of an op name ("tt" for "tt.load").
func DialectOf(opName string) string {
	if i := strings.IndexByte(opName, '.'); i >= 0 {
		return opName[:i]
	}
	return opName
}
