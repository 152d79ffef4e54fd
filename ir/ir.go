package ir

import (
	"fmt"
	"slices"
)

// Value is an SSA value: an operation result or a block argument. Its uses
// form an intrusive list, so ReplaceAllUsesWith and use queries cost
// nothing but the uses themselves.
type Value struct {
	typ   Type
	def   *Operation // defining op; nil for a block argument
	block *Block     // owning block, for a block argument
	uses  *opOperand // head of the use list
	index int32      // result number or argument number
	// pslot is the printer's scratch: the index of v's name in the
	// names of the one Print that holds printSlots (see printer.go).
	pslot int32

	// NameHint is the SSA name the value was written with, without '%'
	// and without a result-group suffix ("acc_61" for `%acc_61:3`). The
	// printer uses it when it is unique; names that MLIR generates itself
	// (numbers, argN) are regenerated.
	NameHint string
	// Loc is the location of a block argument (nil for op results, whose
	// location is their op's).
	Loc Location
}

// Type returns the value's type.
func (v *Value) Type() Type { return v.typ }

// SetType changes the value's type (the caller keeps the IR valid).
func (v *Value) SetType(t Type) { v.typ = t }

// DefiningOp returns the operation whose result v is, or nil for a block
// argument.
func (v *Value) DefiningOp() *Operation { return v.def }

// ResultIndex returns the result number of v in its defining op (or the
// argument number of a block argument).
func (v *Value) ResultIndex() int { return int(v.index) }

// IsBlockArg reports whether v is a block argument.
func (v *Value) IsBlockArg() bool { return v.def == nil }

// OwnerBlock returns the block of a block argument, or the block of the
// defining op of a result (nil if detached).
func (v *Value) OwnerBlock() *Block {
	if v.def != nil {
		return v.def.block
	}
	return v.block
}

// ArgIndex returns the argument number of a block argument (-1 for results).
func (v *Value) ArgIndex() int {
	if v.def != nil {
		return -1
	}
	return int(v.index)
}

// Use is one use of a value: operand Index of operation Op.
type Use struct {
	Op    *Operation
	Index int
}

// Uses returns the uses of v, most recent first.
func (v *Value) Uses() []Use {
	var us []Use
	for u := v.uses; u != nil; u = u.next {
		us = append(us, Use{u.owner, u.index})
	}
	return us
}

// Users returns the operations that use v (an op using v twice appears twice).
func (v *Value) Users() []*Operation {
	var ops []*Operation
	for u := v.uses; u != nil; u = u.next {
		ops = append(ops, u.owner)
	}
	return ops
}

// NumUses returns how many operands refer to v.
func (v *Value) NumUses() int {
	n := 0
	for u := v.uses; u != nil; u = u.next {
		n++
	}
	return n
}

// HasOneUse reports whether v has exactly one use.
func (v *Value) HasOneUse() bool { return v.uses != nil && v.uses.next == nil }

// UseEmpty reports whether v is unused.
func (v *Value) UseEmpty() bool { return v.uses == nil }

// ReplaceAllUsesWith makes every use of v refer to w instead.
func (v *Value) ReplaceAllUsesWith(w *Value) {
	if v == w {
		return
	}
	for v.uses != nil {
		v.uses.set(w)
	}
}

// ReplaceUsesIf replaces the uses of v for which keep returns true.
func (v *Value) ReplaceUsesIf(w *Value, replace func(Use) bool) {
	for u := v.uses; u != nil; {
		next := u.next
		if replace(Use{u.owner, u.index}) {
			u.set(w)
		}
		u = next
	}
}

// String returns the value's name hint (or a description) for debugging.
func (v *Value) String() string {
	if v.NameHint != "" {
		return "%" + v.NameHint
	}
	if v.def != nil {
		return fmt.Sprintf("<result %d of %s>", v.index, v.def.name)
	}
	return fmt.Sprintf("<block argument %d>", v.index)
}

// opOperand is one operand slot of an operation, linked into the use list of
// the value it refers to.
type opOperand struct {
	value      *Value
	owner      *Operation
	index      int
	prev, next *opOperand
}

func (u *opOperand) link() {
	if u.value == nil {
		return
	}
	u.prev = nil
	u.next = u.value.uses
	if u.next != nil {
		u.next.prev = u
	}
	u.value.uses = u
}

func (u *opOperand) unlink() {
	if u.value == nil {
		return
	}
	if u.prev != nil {
		u.prev.next = u.next
	} else {
		u.value.uses = u.next
	}
	if u.next != nil {
		u.next.prev = u.prev
	}
	u.prev, u.next = nil, nil
}

func (u *opOperand) set(v *Value) {
	u.unlink()
	u.value = v
	u.link()
}

// Successor is a successor block of a terminator; its operands are the
// op's trailing operands, NumOperands of them per successor in order.
type Successor struct {
	Block       *Block
	NumOperands int
}

// Operation is an MLIR operation: a name, operands, results, properties
// (inherent attributes, printed as `<{...}>` in generic form), discardable
// attributes, regions, successors and a location. Operations live in a
// Block's doubly linked list.
type Operation struct {
	name     string
	def      *OpDef
	operands []opOperand
	results  []Value
	regions  []*Region

	// Props are the inherent attributes (MLIR properties) in order.
	Props []NamedAttr
	// Attrs are the discardable attributes in order.
	Attrs []NamedAttr
	// Successors are the successor blocks of a terminator.
	Successors []Successor
	// Loc is the op's location (nil for none: printed as loc(unknown)).
	Loc Location
	// pos is where the op was parsed (see Pos).
	pos opPos

	block      *Block
	prev, next *Operation
}

// NewOperation creates a detached operation. Attributes named in the op's
// registered definition (OpDef.Props) become properties, the rest
// discardable attributes. numRegions empty regions are created.
func NewOperation(name string, operands []*Value, resultTypes []Type, attrs []NamedAttr, numRegions int) *Operation {
	op := &Operation{name: name, def: Lookup(name)}
	op.SetOperands(operands)
	op.results = make([]Value, len(resultTypes))
	for i, t := range resultTypes {
		op.results[i] = Value{typ: t, def: op, index: int32(i)}
	}
	for _, a := range attrs {
		if op.def != nil && op.def.isProp(a.Name) {
			op.Props = append(op.Props, a)
		} else {
			op.Attrs = append(op.Attrs, a)
		}
	}
	for i := 0; i < numRegions; i++ {
		op.regions = append(op.regions, &Region{parent: op})
	}
	return op
}

// Name returns the op name, such as "tt.load".
func (op *Operation) Name() string { return op.name }

// Def returns the registered definition of the op, or nil.
func (op *Operation) Def() *OpDef { return op.def }

// HasTrait reports whether the op is registered with trait t.
func (op *Operation) HasTrait(t Trait) bool { return op.def != nil && op.def.Traits&t != 0 }

// NumOperands returns the number of operands.
func (op *Operation) NumOperands() int { return len(op.operands) }

// Operand returns operand i.
func (op *Operation) Operand(i int) *Value { return op.operands[i].value }

// Operands returns the operand values (a new slice).
func (op *Operation) Operands() []*Value {
	vs := make([]*Value, len(op.operands))
	for i := range op.operands {
		vs[i] = op.operands[i].value
	}
	return vs
}

// SetOperand makes operand i refer to v.
func (op *Operation) SetOperand(i int, v *Value) { op.operands[i].set(v) }

// SetOperands replaces all operands.
func (op *Operation) SetOperands(vs []*Value) {
	for i := range op.operands {
		op.operands[i].unlink()
	}
	op.operands = make([]opOperand, len(vs))
	for i, v := range vs {
		op.operands[i] = opOperand{value: v, owner: op, index: i}
		op.operands[i].link()
	}
}

// NumResults returns the number of results.
func (op *Operation) NumResults() int { return len(op.results) }

// Result returns result i.
func (op *Operation) Result(i int) *Value { return &op.results[i] }

// Results returns the result values (a new slice).
func (op *Operation) Results() []*Value {
	vs := make([]*Value, len(op.results))
	for i := range op.results {
		vs[i] = &op.results[i]
	}
	return vs
}

// ResultTypes returns the result types.
func (op *Operation) ResultTypes() []Type {
	ts := make([]Type, len(op.results))
	for i := range op.results {
		ts[i] = op.results[i].typ
	}
	return ts
}

// OperandTypes returns the operand types.
func (op *Operation) OperandTypes() []Type {
	ts := make([]Type, len(op.operands))
	for i := range op.operands {
		if v := op.operands[i].value; v != nil {
			ts[i] = v.typ
		}
	}
	return ts
}

// NumRegions returns the number of regions of op.
func (op *Operation) NumRegions() int { return len(op.regions) }

// Regions returns the op's regions.
func (op *Operation) Regions() []*Region { return op.regions }

// Region returns region i.
func (op *Operation) Region(i int) *Region { return op.regions[i] }

// AddRegion appends an empty region and returns it.
func (op *Operation) AddRegion() *Region {
	r := &Region{parent: op}
	op.regions = append(op.regions, r)
	return r
}

// Block returns the block that contains op, or nil if detached.
func (op *Operation) Block() *Block { return op.block }

// ParentOp returns the op whose region contains op, or nil.
func (op *Operation) ParentOp() *Operation {
	if op.block == nil || op.block.parent == nil {
		return nil
	}
	return op.block.parent.parent
}

// Next returns the following op in the block, or nil.
func (op *Operation) Next() *Operation { return op.next }

// Prev returns the preceding op in the block, or nil.
func (op *Operation) Prev() *Operation { return op.prev }

// IsBefore reports whether op comes before other in the same block (O(n)).
func (op *Operation) IsBefore(other *Operation) bool {
	if op.block == nil || op.block != other.block {
		return false
	}
	for o := op.next; o != nil; o = o.next {
		if o == other {
			return true
		}
	}
	return false
}

// Attr returns the property or discardable attribute called name (properties
// first), or nil.
func (op *Operation) Attr(name string) Attribute {
	for _, a := range op.Props {
		if a.Name == name {
			return a.Value
		}
	}
	for _, a := range op.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return nil
}

// SetAttr sets attribute name to v: it replaces an existing property or
// attribute of that name, or adds it (as a property when the op's
// definition lists it, otherwise as a discardable attribute).
func (op *Operation) SetAttr(name string, v Attribute) {
	for i := range op.Props {
		if op.Props[i].Name == name {
			op.Props[i].Value = v
			return
		}
	}
	for i := range op.Attrs {
		if op.Attrs[i].Name == name {
			op.Attrs[i].Value = v
			return
		}
	}
	if op.def != nil && op.def.isProp(name) {
		op.Props = append(op.Props, NamedAttr{name, v})
		return
	}
	op.Attrs = append(op.Attrs, NamedAttr{name, v})
}

// RemoveAttr removes the property or attribute called name and reports
// whether there was one.
func (op *Operation) RemoveAttr(name string) bool {
	for i := range op.Props {
		if op.Props[i].Name == name {
			op.Props = append(op.Props[:i:i], op.Props[i+1:]...)
			return true
		}
	}
	for i := range op.Attrs {
		if op.Attrs[i].Name == name {
			op.Attrs = append(op.Attrs[:i:i], op.Attrs[i+1:]...)
			return true
		}
	}
	return false
}

// IntAttr returns the value of integer attribute name and whether it exists.
func (op *Operation) IntAttr(name string) (int64, bool) {
	if a, ok := op.Attr(name).(*IntegerAttr); ok {
		return a.Value, true
	}
	return 0, false
}

// Remove unlinks op from its block without dropping its operands' uses.
func (op *Operation) Remove() {
	if op.block != nil {
		op.block.unlink(op)
	}
}

// Erase removes op from its block and drops its operands' uses and those
// inside its regions. Its results must be unused; Erase returns an error
// otherwise and leaves the IR unchanged.
func (op *Operation) Erase() error {
	for i := range op.results {
		if op.results[i].uses != nil {
			return fmt.Errorf("dialect: erasing %s whose result %d still has uses", op.name, i)
		}
	}
	op.Remove()
	op.dropAllReferences()
	return nil
}

// dropAllReferences unlinks every operand of op and of ops nested in it.
func (op *Operation) dropAllReferences() {
	for i := range op.operands {
		op.operands[i].unlink()
		op.operands[i].value = nil
	}
	for _, r := range op.regions {
		for _, b := range r.Blocks {
			for o := b.first; o != nil; o = o.next {
				o.dropAllReferences()
			}
		}
	}
}

// MoveBefore moves op (detached or not) right before at.
func (op *Operation) MoveBefore(at *Operation) {
	op.Remove()
	at.block.InsertBefore(at, op)
}

// MoveAfter moves op right after at.
func (op *Operation) MoveAfter(at *Operation) {
	op.Remove()
	at.block.InsertAfter(at, op)
}

// IsAncestor reports whether op is other or contains other in its regions.
func (op *Operation) IsAncestor(other *Operation) bool {
	for o := other; o != nil; o = o.ParentOp() {
		if o == op {
			return true
		}
	}
	return false
}

// WalkResult controls a walk.
type WalkResult int

// Walk results: continue, skip the op's regions (pre-order only), stop.
const (
	Advance WalkResult = iota
	Skip
	Interrupt
)

// Walk calls fn on op and every op nested in it, in pre-order (an op before
// the ops in its regions). It returns Interrupt if fn interrupted the walk.
// fn may erase or move the op it is given, but not other ops.
func (op *Operation) Walk(fn func(*Operation) WalkResult) WalkResult {
	switch fn(op) {
	case Interrupt:
		return Interrupt
	case Skip:
		return Advance
	}
	for _, r := range op.regions {
		for _, b := range r.Blocks {
			for o := b.first; o != nil; {
				next := o.next
				if o.Walk(fn) == Interrupt {
					return Interrupt
				}
				o = next
			}
		}
	}
	return Advance
}

// WalkPost calls fn on every op nested in op and then on op itself
// (post-order). fn may erase the op it is given.
func (op *Operation) WalkPost(fn func(*Operation) WalkResult) WalkResult {
	for _, r := range op.regions {
		for _, b := range r.Blocks {
			for o := b.first; o != nil; {
				next := o.next
				if o.WalkPost(fn) == Interrupt {
					return Interrupt
				}
				o = next
			}
		}
	}
	if fn(op) == Interrupt {
		return Interrupt
	}
	return Advance
}

// String prints op (and its regions) in custom form without aliases or
// locations, for debugging and messages.
func (op *Operation) String() string {
	return printOpString(op, PrintConfig{})
}

// Block is a list of operations with arguments, inside a region.
type Block struct {
	args        []*Value
	first, last *Operation
	parent      *Region
	// Label is the block name as written (without '^'), a hint for printing.
	Label string
}

// NewBlock returns a detached block with arguments of the given types.
func NewBlock(argTypes ...Type) *Block {
	b := &Block{}
	for _, t := range argTypes {
		b.AddArg(t)
	}
	return b
}

// Args returns the block arguments.
func (b *Block) Args() []*Value { return b.args }

// Arg returns argument i.
func (b *Block) Arg(i int) *Value { return b.args[i] }

// NumArgs returns the number of arguments.
func (b *Block) NumArgs() int { return len(b.args) }

// AddArg appends an argument of type t and returns it.
func (b *Block) AddArg(t Type) *Value {
	v := &Value{typ: t}
	b.appendArg(v)
	return v
}

// appendArg makes v, a new value, b's last argument.
func (b *Block) appendArg(v *Value) {
	v.block, v.index = b, int32(len(b.args))
	b.args = append(b.args, v)
}

// EraseArg removes argument i, which must be unused.
func (b *Block) EraseArg(i int) error {
	if !b.args[i].UseEmpty() {
		return fmt.Errorf("dialect: erasing block argument %d that still has uses", i)
	}
	b.args = append(b.args[:i:i], b.args[i+1:]...)
	for j := i; j < len(b.args); j++ {
		b.args[j].index = int32(j)
	}
	return nil
}

// Parent returns the region that contains b.
func (b *Block) Parent() *Region { return b.parent }

// ParentOp returns the op that contains b.
func (b *Block) ParentOp() *Operation {
	if b.parent == nil {
		return nil
	}
	return b.parent.parent
}

// First returns the first op of b, or nil.
func (b *Block) First() *Operation { return b.first }

// Last returns the last op of b (its terminator, usually), or nil.
func (b *Block) Last() *Operation { return b.last }

// Ops returns the ops of b in order (a new slice).
func (b *Block) Ops() []*Operation {
	var ops []*Operation
	for o := b.first; o != nil; o = o.next {
		ops = append(ops, o)
	}
	return ops
}

// Empty reports whether b has no ops.
func (b *Block) Empty() bool { return b.first == nil }

// Append adds op (detached) at the end of b.
func (b *Block) Append(op *Operation) {
	b.insert(op, b.last, nil)
}

// InsertBefore inserts op (detached) right before at (nil: at the end).
func (b *Block) InsertBefore(at, op *Operation) {
	if at == nil {
		b.Append(op)
		return
	}
	b.insert(op, at.prev, at)
}

// InsertAfter inserts op (detached) right after at (nil: at the start).
func (b *Block) InsertAfter(at, op *Operation) {
	if at == nil {
		b.insert(op, nil, b.first)
		return
	}
	b.insert(op, at, at.next)
}

func (b *Block) insert(op, prev, next *Operation) {
	if op.block != nil {
		panic("dialect: inserting an operation that is already in a block")
	}
	op.block, op.prev, op.next = b, prev, next
	if prev != nil {
		prev.next = op
	} else {
		b.first = op
	}
	if next != nil {
		next.prev = op
	} else {
		b.last = op
	}
}

func (b *Block) unlink(op *Operation) {
	if op.prev != nil {
		op.prev.next = op.next
	} else {
		b.first = op.next
	}
	if op.next != nil {
		op.next.prev = op.prev
	} else {
		b.last = op.prev
	}
	op.block, op.prev, op.next = nil, nil, nil
}

// Region is an ordered list of blocks owned by an operation.
type Region struct {
	Blocks []*Block
	parent *Operation
}

// ParentOp returns the op that owns r.
func (r *Region) ParentOp() *Operation { return r.parent }

// AddBlock appends b (detached) to r.
func (r *Region) AddBlock(b *Block) {
	b.parent = r
	r.Blocks = append(r.Blocks, b)
}

// Entry returns the first block, or nil for an empty region.
func (r *Region) Entry() *Block {
	if len(r.Blocks) == 0 {
		return nil
	}
	return r.Blocks[0]
}

// Module is a parsed file: the top-level builtin.module operation plus
// what the printer needs to reproduce the input's aliases.
type Module struct {
	// Op is the builtin.module operation.
	Op *Operation
	// Aliases are the attribute and type alias definitions of the input
	// (`#blocked = ...`, `!memdesc = ...`), in input order. The printer
	// reuses these names for the attributes still in use and invents
	// Triton-style names (`#blocked2`, ...) for new ones.
	Aliases []Alias
	// LocAliases are the `#locN = loc(...)` definitions in input order.
	LocAliases []*LocAlias
	// Implicit records that the input had no explicit top-level module.
	Implicit bool
	// Registry is the registry the module was parsed with (nil: Default()).
	Registry *Registry
	// Resources are the external resources of the input's file metadata
	// dictionary (`{-# external_resources: ... #-}`), printed back after
	// the module as mlir-opt does.
	Resources []ExternalResource
}

// Alias is an attribute or type alias definition.
type Alias struct {
	Name string // without '#' or '!'
	Attr Attribute
	Type Type // set for a type alias (`!name = type`)
	seq  int  // definition order in the input
}

// NewModule returns an empty module with one block.
func NewModule() *Module {
	op := NewOperation("builtin.module", nil, nil, nil, 1)
	op.regions[0].AddBlock(NewBlock())
	return &Module{Op: op}
}

// Body returns the module's block.
func (m *Module) Body() *Block { return m.Op.regions[0].Blocks[0] }

// Walk walks every op of the module (the module op first).
func (m *Module) Walk(fn func(*Operation) WalkResult) WalkResult { return m.Op.Walk(fn) }

// HasOp reports whether the module holds an op of one of the names.
func (m *Module) HasOp(names ...string) bool {
	return m.Walk(func(op *Operation) WalkResult {
		if slices.Contains(names, op.Name()) {
			return Interrupt
		}
		return Advance
	}) == Interrupt
}

// IntAttr returns the integer module attribute name (such as
// "ttg.num-warps"), or def when absent.
func (m *Module) IntAttr(name string, def int64) int64 {
	if v, ok := m.Op.IntAttr(name); ok {
		return v
	}
	return def
}

// Clone returns a deep copy of m: new operations, blocks and values, the
// same (immutable) types, attributes and locations.
func (m *Module) Clone() *Module {
	vmap := map[*Value]*Value{}
	bmap := map[*Block]*Block{}
	c := &Module{Op: m.Op.clone(vmap, bmap), Implicit: m.Implicit, Registry: m.Registry}
	c.Op.fixup(vmap, bmap)
	c.Aliases = append([]Alias(nil), m.Aliases...)
	c.Resources = append([]ExternalResource(nil), m.Resources...)
	lmap := map[*LocAlias]*LocAlias{}
	for _, la := range m.LocAliases {
		n := *la
		lmap[la] = &n
		c.LocAliases = append(c.LocAliases, &n)
	}
	var remap func(Location) Location
	remap = func(l Location) Location {
		switch x := l.(type) {
		case LocRef:
			if n, ok := lmap[x.Alias]; ok {
				return LocRef{n}
			}
		case NameLoc:
			if x.Child != nil {
				x.Child = remap(x.Child)
			}
			return x
		case CallSiteLoc:
			return CallSiteLoc{remap(x.Callee), remap(x.Caller)}
		case FusedLoc:
			locs := make([]Location, len(x.Locs))
			for i, y := range x.Locs {
				locs[i] = remap(y)
			}
			return FusedLoc{locs, x.Metadata}
		}
		return l
	}
	for _, la := range c.LocAliases {
		if la.Loc != nil {
			la.Loc = remap(la.Loc)
		}
	}
	c.Op.Walk(func(op *Operation) WalkResult {
		op.Loc = remap(op.Loc)
		for _, r := range op.regions {
			for _, b := range r.Blocks {
				for _, a := range b.args {
					if a.Loc != nil {
						a.Loc = remap(a.Loc)
					}
				}
			}
		}
		return Advance
	})
	return c
}

// Clone returns a deep copy of op, detached. Operands defined outside op
// keep referring to the same values.
func (op *Operation) Clone() *Operation {
	vmap := map[*Value]*Value{}
	bmap := map[*Block]*Block{}
	c := op.clone(vmap, bmap)
	c.fixup(vmap, bmap)
	return c
}

// clone copies op; operands are filled in by fixup once every value of the
// copy exists (regions may use values defined later in graph order).
func (op *Operation) clone(vmap map[*Value]*Value, bmap map[*Block]*Block) *Operation {
	c := &Operation{name: op.name, def: op.def, Loc: op.Loc, pos: op.pos}
	c.Props = append([]NamedAttr(nil), op.Props...)
	c.Attrs = append([]NamedAttr(nil), op.Attrs...)
	c.operands = make([]opOperand, len(op.operands))
	for i := range op.operands {
		c.operands[i] = opOperand{value: op.operands[i].value, owner: c, index: i}
	}
	c.results = make([]Value, len(op.results))
	for i := range op.results {
		r := &op.results[i]
		c.results[i] = Value{typ: r.typ, def: c, index: int32(i), NameHint: r.NameHint}
		vmap[r] = &c.results[i]
	}
	c.Successors = append([]Successor(nil), op.Successors...)
	for _, r := range op.regions {
		cr := c.AddRegion()
		for _, b := range r.Blocks {
			cb := &Block{Label: b.Label}
			bmap[b] = cb
			for _, a := range b.args {
				na := cb.AddArg(a.typ)
				na.NameHint, na.Loc = a.NameHint, a.Loc
				vmap[a] = na
			}
			cr.AddBlock(cb)
			for o := b.first; o != nil; o = o.next {
				cb.Append(o.clone(vmap, bmap))
			}
		}
	}
	return c
}

func (op *Operation) fixup(vmap map[*Value]*Value, bmap map[*Block]*Block) {
	for i := range op.operands {
		u := &op.operands[i]
		if n, ok := vmap[u.value]; ok {
			u.value = n
		}
		u.link()
	}
	for i, s := range op.Successors {
		if n, ok := bmap[s.Block]; ok {
			op.Successors[i].Block = n
		}
	}
	for _, r := range op.regions {
		for _, b := range r.Blocks {
			for o := b.first; o != nil; o = o.next {
				o.fixup(vmap, bmap)
			}
		}
	}
}
