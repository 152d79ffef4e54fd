package ir

import (
	"bytes"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"
)

// PrintConfig controls Print, like mlir-opt's printing flags.
type PrintConfig struct {
	// DebugInfo prints locations (-mlir-print-debuginfo).
	DebugInfo bool
	// Generic prints every op in generic form (-mlir-print-op-generic).
	Generic bool
	// LocalScope prints attributes, types and locations inline, with no
	// alias definitions (-mlir-print-local-scope: MLIR then prints without
	// an alias state).
	LocalScope bool
	// PropsAsAttrs prints properties inside the attribute dictionary in
	// generic form, as MLIR releases before 17 did (for older tools such as
	// mlir-opt-14); Parse reads both spellings.
	PropsAsAttrs bool
	// NameLocAsPrefix names a value after the NameLoc in its location
	// (`loc("x"(...))` prints %x), as -mlir-use-nameloc-as-prefix does and
	// as Triton prints its IR; other values are named as without it.
	NameLocAsPrefix bool
	// KeepNames names a value after the SSA name the input wrote it with
	// (Value.NameHint), made unique, instead of MLIR's name; numbers and
	// argN are regenerated, and values without a name of their own are
	// named as MLIR names them. Not an MLIR flag: MLIR's parser forgets
	// the names it reads.
	KeepNames bool
}

// OpPrinter writes IR text; custom op print functions (OpDef.Print) use its
// methods to write their assembly form.
type OpPrinter struct {
	buf    []byte
	w      io.Writer
	err    error
	cfg    PrintConfig
	indent int
	// freeScopes holds naming scopes whose maps are reused.
	freeScopes []*nameScope

	// names maps values to their names; with useSlots, slots does
	// instead (see printSlots).
	names      map[*Value]ssaName
	useSlots   bool
	slots      []slotName
	blockNames map[*Block]string
	ref        AliasFunc
	typeText   map[Type]string // rendered types (types are immutable)
	typeNames  map[Type]string // type aliases in use ("!name")

	// Scratch of numberOp: the names an op gives its results, whether it
	// gave any, the op, the bound setAsmName, and the group heads.
	asmNames []string
	asmAny   bool
	asmOp    *Operation
	setAsm   func(int, string)
	heads    []ssaName
}

// appendType appends t through the alias plan, caching the text per type.
func (p *OpPrinter) appendType(b []byte, t Type) []byte {
	if t == nil {
		return append(b, "<<NULL TYPE>>"...)
	}
	switch t.(type) {
	case *IntegerType, *FloatType, *IndexType:
		return t.appendType(b, p.ref)
	}
	if n, ok := p.typeNames[t]; ok {
		return append(b, n...)
	}
	s, ok := p.typeText[t]
	if !ok {
		s = string(t.appendType(nil, p.ref))
		p.typeText[t] = s
	}
	return append(b, s...)
}

func (p *OpPrinter) appendTypes(b []byte, ts []Type) []byte {
	for i, t := range ts {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = p.appendType(b, t)
	}
	return b
}

func (p *OpPrinter) appendResultTypes(b []byte, ts []Type) []byte {
	if len(ts) == 1 {
		if _, fn := ts[0].(*FunctionType); !fn {
			return p.appendType(b, ts[0])
		}
	}
	b = append(b, '(')
	b = p.appendTypes(b, ts)
	return append(b, ')')
}

// printSlots is held by the one Print at a time that records names in the
// values' pslot fields, a dense slice in naming order, instead of a map
// keyed by *Value: on a large module the map's random accesses (two cache
// misses per value) and its size dominated naming. Another Print running
// at the same time uses the map, so printing stays safe to do
// concurrently: only the holder reads or writes pslot.
var printSlots atomic.Bool

// slotName is a name recorded through Value.pslot; v checks that a pslot
// was set by this printer and not left by an earlier one.
type slotName struct {
	v *Value
	n ssaName
}

func (p *OpPrinter) setName(v *Value, n ssaName) {
	if !p.useSlots {
		p.names[v] = n
		return
	}
	v.pslot = int32(len(p.slots))
	p.slots = append(p.slots, slotName{v, n})
}

func (p *OpPrinter) lookupName(v *Value) (ssaName, bool) {
	if !p.useSlots {
		n, ok := p.names[v]
		return n, ok
	}
	if i := int(v.pslot); i < len(p.slots) && p.slots[i].v == v {
		return p.slots[i].n, true
	}
	return ssaName{}, false
}

// Print writes m as MLIR text: alias definitions, the module, and (with
// DebugInfo) the location aliases, as Triton prints them.
func Print(w io.Writer, m *Module, cfg PrintConfig) error {
	p := newPrinter(w, cfg)
	al := computeAliases(m, cfg)
	// Size the names up front: growing them op by op copies (or
	// rehashes) every entry several times on a large module.
	if printSlots.CompareAndSwap(false, true) {
		defer printSlots.Store(false)
		p.useSlots = true
		p.slots = make([]slotName, 0, al.numValues)
		if n := uintptr(cap(p.slots)) * unsafe.Sizeof(slotName{}); n >= hugePage {
			adviseHuge(unsafe.Pointer(unsafe.SliceData(p.slots)), n)
		}
	} else {
		p.names = make(map[*Value]ssaName, al.numValues)
	}
	p.blockNames = make(map[*Block]string, al.numBlocks)
	if !cfg.LocalScope {
		p.ref = al.ref
		p.typeNames = al.typeNames
	}
	for _, d := range al.defsBefore {
		p.buf = append(p.buf, d...)
		p.buf = append(p.buf, '\n')
	}
	p.nameValues(m.Op)
	p.printOp(m.Op)
	p.buf = append(p.buf, '\n')
	for _, d := range al.defsAfter {
		p.buf = append(p.buf, d...)
		p.buf = append(p.buf, '\n')
	}
	p.buf = appendFileMetadata(p.buf, m)
	p.flush(true)
	return p.err
}

// String prints m with the default configuration.
func (m *Module) String() string {
	var b bytes.Buffer
	Print(&b, m, PrintConfig{})
	return b.String()
}

func newPrinter(w io.Writer, cfg PrintConfig) *OpPrinter {
	return &OpPrinter{w: w, cfg: cfg, names: map[*Value]ssaName{}, blockNames: map[*Block]string{}, typeText: map[Type]string{}}
}

// PrintOp writes op alone (with its regions, without a final newline) as
// MLIR's Operation::print does for an op inside a module, such as the op a
// nested pass runs on in -mlir-print-ir-* dumps: in local scope (attributes,
// types and locations inline, whatever cfg.LocalScope says), SSA values
// numbered from op, generic form with cfg.Generic, locations with
// cfg.DebugInfo.
func PrintOp(w io.Writer, op *Operation, cfg PrintConfig) error {
	cfg.LocalScope = true
	p := newPrinter(w, cfg)
	p.nameValues(op)
	p.printOp(op)
	p.flush(true)
	return p.err
}

func printOpString(op *Operation, cfg PrintConfig) string {
	var b bytes.Buffer
	PrintOp(&b, op, cfg)
	return b.String()
}

func (p *OpPrinter) flush(force bool) {
	if p.err != nil {
		p.buf = p.buf[:0]
		return
	}
	if force || len(p.buf) > 64<<10 {
		_, p.err = p.w.Write(p.buf)
		p.buf = p.buf[:0]
	}
}

// ---- SSA names ----

// ssaName is a printed SSA name: %base or %num, then #idx when idx >= 0.
type ssaName struct {
	base string
	num  int32
	idx  int32
}

func (n ssaName) appendTo(b []byte) []byte {
	b = append(b, '%')
	if n.base != "" {
		b = append(b, n.base...)
	} else {
		b = strconv.AppendInt(b, int64(n.num), 10)
	}
	if n.idx >= 0 {
		b = append(b, '#')
		b = strconv.AppendInt(b, int64(n.idx), 10)
	}
	return b
}

type nameCounters struct {
	nextValue, nextArg, nextConflict int
}

type nameScope struct {
	used   map[string]bool
	parent *nameScope
}

func (s *nameScope) isUsed(n string) bool {
	for ; s != nil; s = s.parent {
		if s.used[n] {
			return true
		}
	}
	return false
}

// newNameScope returns an empty scope inside parent, reusing the map of a
// freed one.
func (p *OpPrinter) newNameScope(parent *nameScope) *nameScope {
	if n := len(p.freeScopes); n > 0 {
		s := p.freeScopes[n-1]
		p.freeScopes = p.freeScopes[:n-1]
		s.parent = parent
		return s
	}
	return &nameScope{used: map[string]bool{}, parent: parent}
}

// maxReusedNameScope bounds the names of a freed scope whose map is
// reused: clearing a map costs its capacity, which small scopes should not
// pay.
const maxReusedNameScope = 1024

// freeNameScope hands s, no longer used, back for reuse.
func (p *OpPrinter) freeNameScope(s *nameScope) {
	if len(s.used) > maxReusedNameScope {
		return
	}
	clear(s.used)
	s.parent = nil
	p.freeScopes = append(p.freeScopes, s)
}

// isAutoName reports whether an SSA name is one the printer generates
// itself (a number or argN): PrintConfig.KeepNames regenerates it rather
// than keeping it.
func isAutoName(s string) bool {
	if s == "" {
		return true
	}
	if strings.HasPrefix(s, "arg") && len(s) > 3 {
		s = s[3:]
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// namingContext is a region waiting to be named with the counters and the
// names scope it starts from (SSANameState's NamingContext).
type namingContext struct {
	region *Region
	c      nameCounters
	scope  *nameScope
}

// nameValues names the values of root and of every region inside it as
// MLIR's SSANameState does. A stack of regions: root's regions are queued
// with the counters as they are before root's own results are numbered;
// each region popped restarts from the counters it was queued with (its
// parent's, after the whole parent region was numbered) and names in a
// scope inside its parent's, so sibling regions reuse numbers and names.
// In generic form the counters are not restored (MLIR prints unique SSA
// IDs there), so the order regions are popped in, last queued first,
// shows in the numbers.
func (p *OpPrinter) nameValues(root *Operation) {
	unique := p.cfg.Generic
	var c nameCounters
	top := p.newNameScope(nil)
	cur := top
	stack := make([]namingContext, 0, 8)
	for _, r := range root.regions {
		stack = append(stack, namingContext{r, c, top})
	}
	p.numberOp(root, &c, top)
	for len(stack) > 0 {
		ctx := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !unique {
			c = ctx.c
		}
		// Leave the scopes of the subtree named last, up to this
		// region's parent scope.
		for cur != ctx.scope {
			done := cur
			cur = cur.parent
			p.freeNameScope(done)
		}
		cur = p.newNameScope(cur)
		p.numberRegion(ctx.region, &c, cur)
		for _, b := range ctx.region.Blocks {
			for o := b.first; o != nil; o = o.next {
				for _, r := range o.regions {
					stack = append(stack, namingContext{r, c, cur})
				}
			}
		}
	}
	for cur != nil {
		done := cur
		cur = cur.parent
		p.freeNameScope(done)
	}
}

// uniq returns name, or name_N with the next conflict number N that makes
// it unused in scope sc, and marks the result used.
func (p *OpPrinter) uniq(name string, c *nameCounters, sc *nameScope) string {
	if !sc.isUsed(name) {
		sc.used[name] = true
		return name
	}
	for {
		cand := name + "_" + strconv.Itoa(c.nextConflict)
		c.nextConflict++
		if !sc.isUsed(cand) {
			sc.used[cand] = true
			return cand
		}
	}
}

// valueName is SSANameState::setValueName: a number for an empty name, else
// the sanitized name made unique.
func (p *OpPrinter) valueName(name string, c *nameCounters, sc *nameScope) ssaName {
	if name == "" {
		n := ssaName{num: int32(c.nextValue), idx: -1}
		c.nextValue++
		return n
	}
	return ssaName{base: p.uniq(sanitizeIdentifier(name), c, sc), idx: -1}
}

// numberRegion is numberValuesInRegion: blocks are ^bb0, ^bb1, ... in
// order, and each block's arguments and ops are numbered in turn.
func (p *OpPrinter) numberRegion(r *Region, c *nameCounters, sc *nameScope) {
	for i, b := range r.Blocks {
		p.blockNames[b] = "^bb" + strconv.Itoa(i)
		p.numberBlock(b, i == 0, c, sc)
	}
}

// numberBlock is numberValuesInBlock: an entry block's arguments are argN
// (every one takes an argument number, whatever it ends up named), the
// others' are numbered like results; -mlir-use-nameloc-as-prefix names
// an argument after the NameLoc of its location, and KeepNames after the
// name it was written with.
func (p *OpPrinter) numberBlock(b *Block, entry bool, c *nameCounters, sc *nameScope) {
	for _, a := range b.args {
		name := ""
		if entry {
			name = argName(c.nextArg)
			c.nextArg++
		}
		if p.cfg.NameLocAsPrefix {
			if n, ok := nameFromLoc(a.Loc); ok {
				name = n
			}
		}
		if p.cfg.KeepNames && !isAutoName(a.NameHint) {
			name = a.NameHint
		}
		p.setName(a, p.valueName(name, c, sc))
	}
	for o := b.first; o != nil; o = o.next {
		p.numberOp(o, c, sc)
	}
}

// argNames holds "arg0" … "arg63", the entry block argument names most
// printed modules use, so that naming them allocates nothing.
var argNames = func() []string {
	ns := make([]string, 64)
	for i := range ns {
		ns[i] = "arg" + strconv.Itoa(i)
	}
	return ns
}()

func argName(i int) string {
	if i < len(argNames) {
		return argNames[i]
	}
	return "arg" + strconv.Itoa(i)
}

// numberOp is numberValuesInOp. In custom form the op names its results
// (OpDef.AsmResultNames or ResultNames: MLIR's getAsmResultNames, whose
// names a NameLoc replaces under -mlir-use-nameloc-as-prefix); KeepNames
// names a result after the name it was written with. A result named at an
// index other than 0 starts a result group of its own. Result 0, if still
// unnamed, takes its op's NameLoc under -mlir-use-nameloc-as-prefix, else
// the next number; the results of a group print as %name#k.
func (p *OpPrinter) numberOp(o *Operation, c *nameCounters, sc *nameScope) {
	n := len(o.results)
	if n == 0 {
		return
	}
	// The names the op gives its results, in p.asmNames (reused: most ops
	// name nothing, and a closure over a local slice would allocate for
	// every op).
	names := p.asmNames[:0]
	for range n {
		names = append(names, "")
	}
	p.asmNames, p.asmOp, p.asmAny = names, o, false
	if d := o.def; d != nil && !p.cfg.Generic && (d.AsmResultNames != nil || len(d.ResultNames) > 0) {
		if p.setAsm == nil {
			p.setAsm = p.setAsmName
		}
		if d.AsmResultNames != nil {
			d.AsmResultNames(o, p.setAsm)
		} else {
			for i, name := range d.ResultNames {
				p.setAsm(i, name)
			}
		}
	}
	if p.cfg.KeepNames {
		for i := range o.results {
			if h := o.results[i].NameHint; !isAutoName(h) {
				names[i], p.asmAny = h, true
			}
		}
	}
	if !p.asmAny && n == 1 {
		// The common case: one result, no name of the op's own.
		name := ""
		if p.cfg.NameLocAsPrefix {
			name, _ = nameFromLoc(o.Loc)
		}
		p.setName(&o.results[0], p.valueName(name, c, sc))
		return
	}
	heads := p.heads[:0]
	for _, name := range names {
		h := ssaName{idx: -1}
		if name != "" {
			h = p.valueName(name, c, sc)
		}
		heads = append(heads, h)
	}
	p.heads = heads
	if names[0] == "" {
		name := ""
		if p.cfg.NameLocAsPrefix {
			name, _ = nameFromLoc(o.Loc)
		}
		heads[0] = p.valueName(name, c, sc)
		names[0] = "0" // a group starts here
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && names[j] == "" {
			j++
		}
		for k := i; k < j; k++ {
			h := heads[i]
			if j-i > 1 {
				h.idx = int32(k - i)
			}
			p.setName(&o.results[k], h)
		}
		i = j
	}
}

// setAsmName is the set function OpDef.AsmResultNames and ResultNames name
// results through (MLIR's setResultNameFn): under
// -mlir-use-nameloc-as-prefix the op's NameLoc replaces the name.
func (p *OpPrinter) setAsmName(i int, name string) {
	if i < 0 || i >= len(p.asmNames) || name == "" {
		return
	}
	if p.cfg.NameLocAsPrefix {
		if l, ok := nameFromLoc(p.asmOp.Loc); ok {
			name = l
		}
	}
	p.asmNames[i], p.asmAny = name, true
}

// nameFromLoc is MLIR's maybeGetValueNameFromLoc: the name of the first
// NameLoc found walking l in pre-order (through aliases, call sites and
// fused locations).
func nameFromLoc(l Location) (string, bool) {
	for depth := 0; depth < 64 && l != nil; depth++ {
		switch x := l.(type) {
		case NameLoc:
			return x.Name, true
		case LocRef:
			if x.Alias == nil {
				return "", false
			}
			l = x.Alias.Loc
			continue
		case CallSiteLoc:
			if n, ok := nameFromLoc(x.Callee); ok {
				return n, true
			}
			l = x.Caller
			continue
		case FusedLoc:
			for _, s := range x.Locs {
				if n, ok := nameFromLoc(s); ok {
					return n, true
				}
			}
		}
		return "", false
	}
	return "", false
}

// sanitizeIdentifier is MLIR's sanitizeIdentifier for SSA names: letters,
// digits and $._- are kept, a space becomes '_', any other byte its hex
// digits; a name that starts with a digit or such a byte gets a '_' in
// front, so it cannot clash with a generated number.
func sanitizeIdentifier(name string) string {
	valid := func(ch byte) bool {
		return isDigit(ch) || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || strings.IndexByte("$._-", ch) >= 0
	}
	clean := true
	for i := 0; i < len(name); i++ {
		if !valid(name[i]) {
			clean = false
			break
		}
	}
	if clean && !isDigit(name[0]) {
		return name
	}
	var b strings.Builder
	if isDigit(name[0]) || !valid(name[0]) && name[0] != ' ' {
		b.WriteByte('_')
	}
	for i := 0; i < len(name); i++ {
		switch ch := name[i]; {
		case valid(ch):
			b.WriteByte(ch)
		case ch == ' ':
			b.WriteByte('_')
		default:
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(ch), 16)))
		}
	}
	return b.String()
}

// ---- op printing ----

func (p *OpPrinter) writeIndent() {
	for i := 0; i < p.indent; i++ {
		p.buf = append(p.buf, ' ')
	}
}

func (p *OpPrinter) printOp(op *Operation) {
	p.writeIndent()
	p.printResultsLHS(op)
	if op.def != nil && op.def.Print != nil && !p.cfg.Generic {
		name := op.name
		if name == "builtin.module" {
			name = "module"
		}
		p.buf = append(p.buf, name...)
		op.def.Print(p, op)
	} else {
		p.printGeneric(op)
	}
	if p.cfg.DebugInfo {
		p.buf = appendLocation(append(p.buf, ' '), op.Loc, p.cfg.LocalScope)
	}
}

func (p *OpPrinter) printResultsLHS(op *Operation) {
	n := len(op.results)
	if n == 0 {
		return
	}
	// A result group starts at a result whose name is not #k of the
	// group before (numberOp records it).
	for i := 0; i < n; {
		head, ok := p.lookupName(&op.results[i])
		if !ok {
			head = ssaName{base: op.results[i].NameHint}
		}
		j := i + 1
		for ; j < n; j++ {
			if nm, ok := p.lookupName(&op.results[j]); !ok || nm.idx <= 0 {
				break
			}
		}
		if i > 0 {
			p.buf = append(p.buf, ", "...)
		}
		head.idx = -1
		p.buf = head.appendTo(p.buf)
		if j-i > 1 {
			p.buf = append(p.buf, ':')
			p.buf = strconv.AppendInt(p.buf, int64(j-i), 10)
		}
		i = j
	}
	p.buf = append(p.buf, " = "...)
}

// appendValue appends the printed name of v.
func (p *OpPrinter) appendValue(b []byte, v *Value) []byte {
	if v == nil {
		return append(b, "<<NULL VALUE>>"...)
	}
	if n, ok := p.lookupName(v); ok {
		return n.appendTo(b)
	}
	if v.NameHint != "" {
		return append(append(b, '%'), v.NameHint...)
	}
	return append(b, "<<UNKNOWN SSA VALUE>>"...)
}

// sortedView returns attrs sorted by name for reading only: attrs itself
// when it is sorted already (the common case), else a sorted copy.
func sortedView(attrs []NamedAttr) []NamedAttr {
	if slices.IsSortedFunc(attrs, compareAttrNames) {
		return attrs
	}
	return sortedAttrs(attrs)
}

func compareAttrNames(a, b NamedAttr) int {
	return strings.Compare(a.Name, b.Name)
}

func sortedAttrs(lists ...[]NamedAttr) []NamedAttr {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]NamedAttr, 0, n)
	for _, l := range lists {
		out = append(out, l...)
	}
	if !sort.SliceIsSorted(out, func(i, j int) bool { return out[i].Name < out[j].Name }) {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	}
	return out
}

func (p *OpPrinter) printGeneric(op *Operation) {
	p.buf = appendQuoted(p.buf, op.name)
	p.buf = append(p.buf, '(')
	for i := range op.operands {
		if i > 0 {
			p.buf = append(p.buf, ", "...)
		}
		p.buf = p.appendValue(p.buf, op.operands[i].value)
	}
	p.buf = append(p.buf, ')')
	if len(op.Successors) > 0 {
		p.buf = append(p.buf, '[')
		for i, s := range op.Successors {
			if i > 0 {
				p.buf = append(p.buf, ", "...)
			}
			p.buf = append(p.buf, p.blockName(s.Block)...)
		}
		p.buf = append(p.buf, ']')
	}
	attrs := op.Attrs
	if p.cfg.PropsAsAttrs {
		if len(attrs) == 0 {
			attrs = op.Props
		} else if len(op.Props) > 0 {
			attrs = append(op.Props[:len(op.Props):len(op.Props)], op.Attrs...)
		}
	} else if len(op.Props) > 0 {
		p.buf = append(p.buf, " <"...)
		p.buf = appendAttrDict(p.buf, sortedView(op.Props), p.ref)
		p.buf = append(p.buf, '>')
	}
	if len(op.regions) > 0 {
		p.buf = append(p.buf, " ("...)
		for i, r := range op.regions {
			if i > 0 {
				p.buf = append(p.buf, ", "...)
			}
			p.Region(r, true, true)
		}
		p.buf = append(p.buf, ')')
	}
	if len(attrs) > 0 {
		p.buf = append(p.buf, ' ')
		p.buf = appendAttrDict(p.buf, sortedView(attrs), p.ref)
	}
	p.buf = append(p.buf, " : ("...)
	for i := range op.operands {
		if i > 0 {
			p.buf = append(p.buf, ", "...)
		}
		var t Type
		if v := op.operands[i].value; v != nil {
			t = v.typ
		}
		p.buf = p.appendType(p.buf, t)
	}
	p.buf = append(p.buf, ") -> "...)
	if len(op.results) == 1 {
		p.buf = p.appendResultTypes(p.buf, op.ResultTypes())
	} else {
		p.buf = append(p.buf, '(')
		p.buf = p.appendTypes(p.buf, op.ResultTypes())
		p.buf = append(p.buf, ')')
	}
}

func (p *OpPrinter) blockName(b *Block) string {
	if n, ok := p.blockNames[b]; ok {
		return n
	}
	return "^" + b.Label
}

// Region prints `{`, the blocks, and `}`. printEntryArgs prints the entry
// block's header (label and arguments) when it has arguments;
// printEmptyBlock prints a header for an empty entry block too.
func (p *OpPrinter) Region(r *Region, printEntryArgs, printEmptyBlock bool) {
	p.region(r, printEntryArgs, printEmptyBlock, nil)
}

// region prints r, leaving out the op skip (an implicit terminator).
func (p *OpPrinter) region(r *Region, printEntryArgs, printEmptyBlock bool, skip *Operation) {
	p.buf = append(p.buf, '{')
	p.buf = append(p.buf, '\n')
	p.indent += 2
	for i, b := range r.Blocks {
		header := i > 0 || printEntryArgs && len(b.args) > 0 || printEmptyBlock && b.first == nil && i == 0 && len(r.Blocks) > 1
		if header {
			p.indent -= 2
			p.writeIndent()
			p.indent += 2
			p.buf = append(p.buf, p.blockName(b)...)
			if len(b.args) > 0 {
				p.buf = append(p.buf, '(')
				for k, a := range b.args {
					if k > 0 {
						p.buf = append(p.buf, ", "...)
					}
					p.ArgDecl(a)
				}
				p.buf = append(p.buf, ')')
			}
			p.buf = append(p.buf, ":\n"...)
		}
		for o := b.first; o != nil; o = o.next {
			if o == skip {
				continue
			}
			p.printOp(o)
			p.buf = append(p.buf, '\n')
			p.flush(false)
		}
	}
	p.indent -= 2
	p.writeIndent()
	p.buf = append(p.buf, '}')
}

// ---- helpers for custom printers ----

// Raw writes s as is.
func (p *OpPrinter) Raw(s string) { p.buf = append(p.buf, s...) }

// Operand writes a value's name.
func (p *OpPrinter) Operand(v *Value) { p.buf = p.appendValue(p.buf, v) }

// Operands writes values separated by ", ".
func (p *OpPrinter) Operands(vs []*Value) {
	for i, v := range vs {
		if i > 0 {
			p.buf = append(p.buf, ", "...)
		}
		p.Operand(v)
	}
}

// OperandRange writes operands [lo, hi) of op separated by ", ".
func (p *OpPrinter) OperandRange(op *Operation, lo, hi int) {
	for i := lo; i < hi; i++ {
		if i > lo {
			p.buf = append(p.buf, ", "...)
		}
		p.Operand(op.operands[i].value)
	}
}

// Type writes a type (through aliases).
func (p *OpPrinter) Type(t Type) { p.buf = p.appendType(p.buf, t) }

// Types writes types separated by ", ".
func (p *OpPrinter) Types(ts []Type) { p.buf = p.appendTypes(p.buf, ts) }

// ResultTypes writes `T` for one non-function type, `(T1, T2)` otherwise.
func (p *OpPrinter) ResultTypes(ts []Type) { p.buf = p.appendResultTypes(p.buf, ts) }

// FunctionalType writes `(INS) -> OUTS`.
func (p *OpPrinter) FunctionalType(ins, outs []Type) {
	p.buf = append(p.buf, '(')
	p.Types(ins)
	p.buf = append(p.buf, ") -> "...)
	p.ResultTypes(outs)
}

// MemDescBody writes a memdesc type without its `!ttg.memdesc` keyword.
func (p *OpPrinter) MemDescBody(t *MemDescType) { p.buf = t.appendBody(p.buf, p.ref) }

// Attr writes an attribute (through aliases).
func (p *OpPrinter) Attr(a Attribute) { p.buf = appendAttr(p.buf, a, p.ref) }

// AttrDict writes ` {...}` with op's properties and attributes sorted by
// name, leaving out the elided names; nothing when empty.
func (p *OpPrinter) AttrDict(op *Operation, elided ...string) {
	p.attrDict(op, "", elided)
}

// AttrDictWithKeyword is AttrDict with ` attributes` before the dictionary.
func (p *OpPrinter) AttrDictWithKeyword(op *Operation, elided ...string) {
	p.attrDict(op, " attributes", elided)
}

func (p *OpPrinter) attrDict(op *Operation, kw string, elided []string) {
	all := sortedAttrs(op.Props, op.Attrs)
	kept := all[:0]
outer:
	for _, a := range all {
		for _, e := range elided {
			if a.Name == e {
				continue outer
			}
		}
		kept = append(kept, a)
	}
	if len(kept) == 0 {
		return
	}
	p.buf = append(p.buf, kw...)
	p.buf = append(p.buf, ' ')
	p.buf = appendAttrDict(p.buf, kept, p.ref)
}

// Dict writes `{...}` for entries (not sorted).
func (p *OpPrinter) Dict(entries []NamedAttr) { p.buf = appendAttrDict(p.buf, entries, p.ref) }

// ArgDecl writes `%name: type` and, with DebugInfo, the argument location.
func (p *OpPrinter) ArgDecl(v *Value) {
	p.Operand(v)
	p.buf = append(p.buf, ": "...)
	p.Type(v.typ)
	p.ArgLoc(v)
}

// ArgLoc writes ` loc(...)` for a block argument when printing debug info
// (`loc(unknown)` for one without a location, as MLIR).
func (p *OpPrinter) ArgLoc(v *Value) {
	if p.cfg.DebugInfo {
		p.buf = appendLocation(append(p.buf, ' '), v.Loc, p.cfg.LocalScope)
	}
}

// Successor writes `^bbN` and, if it takes operands, `(%a, %b : T1, T2)`.
func (p *OpPrinter) Successor(op *Operation, i int) {
	start := len(op.operands)
	for k := len(op.Successors) - 1; k >= i; k-- {
		start -= op.Successors[k].NumOperands
	}
	s := op.Successors[i]
	p.buf = append(p.buf, p.blockName(s.Block)...)
	if s.NumOperands > 0 {
		p.buf = append(p.buf, '(')
		p.OperandRange(op, start, start+s.NumOperands)
		p.buf = append(p.buf, " : "...)
		var ts []Type
		for k := start; k < start+s.NumOperands; k++ {
			ts = append(ts, op.operands[k].value.typ)
		}
		p.Types(ts)
		p.buf = append(p.buf, ')')
	}
}

// Symbol writes @name.
func (p *OpPrinter) Symbol(name string) { p.buf = appendSymbol(p.buf, name) }

// String writes a quoted string literal.
func (p *OpPrinter) String(s string) { p.buf = appendQuoted(p.buf, s) }
