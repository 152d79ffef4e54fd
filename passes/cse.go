package passes

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/layoutopt/layoutopt/ir"
)

// CSEPass is -cse, MLIR's common-subexpression elimination.
var CSEPass = &Pass{
	Name:    "cse",
	Summary: "Eliminate common sub-expressions",
	Anchor:  AnyOp,
	Doc: `MLIR's CSE pass (mlir/lib/Transforms/CSE.cpp), on the op it is nested under and
everything inside it. An op is replaced by an earlier equivalent op that dominates it:
same name, operands, result types, properties and discardable attributes (in any order;
locations are ignored) and equivalent regions. The walk follows the dominator tree of
each region, so a value computed in one block is reused in the blocks it dominates,
and the ops of a region nested in a non-isolated op (scf.for, scf.if, ...) reuse those
of the enclosing blocks; an op isolated from above (tt.func, and any unregistered op
with regions) starts afresh. Never merged: terminators, ops with a multi-block region,
ops with side effects. An op that only reads memory (tt.load, ttg.local_load, ...) is
merged with an equivalent one of the same block when no op between them may write
memory (an op of unknown effects counts as a writer). As in MLIR, an op that is
already trivially dead when the walk reaches it (unused, and only reading memory or
allocating its own result) is erased too; the ops it was the last user of stay.

Effects come from the op's traits (ir.Pure, ir.MemoryRead, ir.MemoryWrite), with
Triton's special cases: a volatile tt.load writes, ttg.local_alloc and ttng.tmem_alloc
allocate (and write when given a value), and scf.for/if/while, scf.execute_region and
ttg.warp_specialize have the effects of their bodies. Differences from MLIR: an op
registered without any of those traits, and every unregistered op, is assumed to have
any effect; builtin.module's body is treated as an ordinary region (MLIR treats it as a
graph region, which makes no difference for its usual contents, functions).`,
	Run: runCSE,
}

func init() { MustRegister(CSEPass) }

func runCSE(ctx *Context, op *ir.Operation) error {
	c := &cse{}
	t := newCSETable()
	for _, r := range op.Regions() {
		c.simplifyRegion(t, r)
	}
	for _, o := range c.erase {
		for _, v := range o.Results() {
			if !v.UseEmpty() {
				return ctx.Errorf(o, "cse: internal error: erasing %s whose results are used", o.Name())
			}
		}
		_ = o.Erase()
	}
	if len(c.erase) > 0 {
		ctx.MarkChanged()
	}
	return nil
}

type cse struct {
	erase []*ir.Operation
	// noWriteUpTo caches, per read-only op, the op up to which the ops
	// after it are known not to write (MLIR's memEffectsCache); reset
	// per block.
	noWriteUpTo map[*ir.Operation]*ir.Operation
}

func (c *cse) simplifyRegion(t *cseTable, r *ir.Region) {
	switch len(r.Blocks) {
	case 0:
		return
	case 1:
		mark := t.mark()
		c.simplifyBlock(t, r.Blocks[0])
		t.pop(mark)
		return
	}
	dom := ir.NewDomTree(r)
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		mark := t.mark()
		c.simplifyBlock(t, b)
		for _, ch := range dom.Children(b) {
			walk(ch)
		}
		t.pop(mark)
	}
	walk(dom.Root())
}

func (c *cse) simplifyBlock(t *cseTable, b *ir.Block) {
	c.noWriteUpTo = map[*ir.Operation]*ir.Operation{}
	for op := b.First(); op != nil; op = op.Next() {
		if op.NumRegions() > 0 {
			if op.HasTrait(ir.IsolatedFromAbove) || op.Def() == nil {
				nested := newCSETable()
				for _, r := range op.Regions() {
					c.simplifyRegion(nested, r)
				}
			} else {
				for _, r := range op.Regions() {
					c.simplifyRegion(t, r)
				}
				c.noWriteUpTo = map[*ir.Operation]*ir.Operation{}
			}
		}
		c.simplifyOp(t, op)
	}
}

func (c *cse) simplifyOp(t *cseTable, op *ir.Operation) {
	if op.HasTrait(ir.Terminator) {
		return
	}
	if triviallyDead(op) {
		c.erase = append(c.erase, op)
		return
	}
	for _, r := range op.Regions() {
		if len(r.Blocks) > 1 {
			return
		}
	}
	if !memoryEffectFree(op) {
		if !onlyReads(op) {
			return
		}
		if prev := t.lookup(op); prev != nil && prev.Block() == op.Block() && !c.writesBetween(prev, op) {
			c.replace(op, prev)
			return
		}
		t.insert(op)
		return
	}
	if prev := t.lookup(op); prev != nil {
		c.replace(op, prev)
		return
	}
	t.insert(op)
}

func (c *cse) replace(op, prev *ir.Operation) {
	for i, v := range op.Results() {
		v.ReplaceAllUsesWith(prev.Result(i))
	}
	c.erase = append(c.erase, op)
	if prev.Loc == nil && op.Loc != nil {
		prev.Loc = op.Loc
	}
}

// writesBetween reports whether an op strictly between from and to (same
// block, from first) may write memory.
func (c *cse) writesBetween(from, to *ir.Operation) bool {
	start := from.Next()
	if upto, ok := c.noWriteUpTo[from]; ok {
		if upto == nil {
			return true
		}
		start = upto
	}
	for o := start; o != nil && o != to; o = o.Next() {
		if mayWrite(o) {
			c.noWriteUpTo[from] = nil
			return true
		}
	}
	c.noWriteUpTo[from] = to
	return false
}

// cseTable is a scoped table of the ops seen so far, by key (MLIR's
// ScopedHashTable): mark and pop open and close a scope.
type cseTable struct {
	byKey map[string][]*ir.Operation
	log   []string
}

func newCSETable() *cseTable { return &cseTable{byKey: map[string][]*ir.Operation{}} }

func (t *cseTable) mark() int { return len(t.log) }

func (t *cseTable) pop(mark int) {
	for len(t.log) > mark {
		k := t.log[len(t.log)-1]
		t.log = t.log[:len(t.log)-1]
		s := t.byKey[k]
		if len(s) == 1 {
			delete(t.byKey, k)
		} else {
			t.byKey[k] = s[:len(s)-1]
		}
	}
}

func (t *cseTable) insert(op *ir.Operation) {
	k := opKey(op)
	t.byKey[k] = append(t.byKey[k], op)
	t.log = append(t.log, k)
}

// lookup returns the latest op of the table equivalent to op, or nil.
func (t *cseTable) lookup(op *ir.Operation) *ir.Operation {
	s := t.byKey[opKey(op)]
	for i := len(s) - 1; i >= 0; i-- {
		if op.NumRegions() == 0 || regionsEquivalent(s[i], op) {
			return s[i]
		}
	}
	return nil
}

// opKey identifies an op up to its regions: name, sorted properties and
// attributes, operand identities and result types.
func opKey(op *ir.Operation) string {
	var sb strings.Builder
	sb.WriteString(op.Name())
	writeAttrs := func(sep string, nas []ir.NamedAttr) {
		if len(nas) == 0 {
			return
		}
		s := slices.Clone(nas)
		slices.SortFunc(s, func(a, b ir.NamedAttr) int { return strings.Compare(a.Name, b.Name) })
		sb.WriteString(sep)
		for _, na := range s {
			sb.WriteString(na.Name)
			sb.WriteByte('=')
			sb.WriteString(ir.AttrString(na.Value))
			sb.WriteByte(',')
		}
	}
	writeAttrs(" <", op.Props)
	writeAttrs(" {", op.Attrs)
	sb.WriteString(" (")
	for _, v := range op.Operands() {
		sb.WriteString(valueID(v))
		sb.WriteByte(',')
	}
	sb.WriteString(") -> (")
	for _, t := range op.ResultTypes() {
		sb.WriteString(ir.TypeString(t))
		sb.WriteByte(',')
	}
	sb.WriteString(") r")
	sb.WriteString(strconv.Itoa(op.NumRegions()))
	for _, s := range op.Successors {
		sb.WriteString(" ^")
		sb.WriteString(strconv.FormatUint(uint64(ptrID(s.Block)), 16))
	}
	return sb.String()
}

// regionsEquivalent reports whether the regions of a and b (ops of the
// same key) are structurally equal: block by block, the same argument
// types and equivalent ops, values defined inside corresponding to each
// other and values from outside identical (OperationEquivalence).
func regionsEquivalent(a, b *ir.Operation) bool {
	m := map[*ir.Value]*ir.Value{}
	return regionListEquivalent(a, b, m)
}

func regionListEquivalent(a, b *ir.Operation, m map[*ir.Value]*ir.Value) bool {
	if a.NumRegions() != b.NumRegions() {
		return false
	}
	for i, ra := range a.Regions() {
		rb := b.Region(i)
		if len(ra.Blocks) != len(rb.Blocks) {
			return false
		}
		bm := map[*ir.Block]*ir.Block{}
		for j, ba := range ra.Blocks {
			bm[ba] = rb.Blocks[j]
		}
		for j, ba := range ra.Blocks {
			bb := rb.Blocks[j]
			if ba.NumArgs() != bb.NumArgs() {
				return false
			}
			for k, x := range ba.Args() {
				y := bb.Arg(k)
				if !ir.TypesEqual(x.Type(), y.Type()) {
					return false
				}
				m[x] = y
			}
			oa, ob := ba.First(), bb.First()
			for ; oa != nil && ob != nil; oa, ob = oa.Next(), ob.Next() {
				if !nestedOpEquivalent(oa, ob, m, bm) {
					return false
				}
			}
			if oa != nil || ob != nil {
				return false
			}
		}
	}
	return true
}

func nestedOpEquivalent(a, b *ir.Operation, m map[*ir.Value]*ir.Value, bm map[*ir.Block]*ir.Block) bool {
	if a.Name() != b.Name() || a.NumOperands() != b.NumOperands() || a.NumResults() != b.NumResults() ||
		len(a.Successors) != len(b.Successors) ||
		!sameAttrSet(a.Props, b.Props) || !sameAttrSet(a.Attrs, b.Attrs) {
		return false
	}
	for i := 0; i < a.NumOperands(); i++ {
		x, y := a.Operand(i), b.Operand(i)
		if mx, ok := m[x]; ok {
			x = mx
		}
		if x != y {
			return false
		}
	}
	for i, s := range a.Successors {
		t := b.Successors[i]
		if s.NumOperands != t.NumOperands {
			return false
		}
		if mb, ok := bm[s.Block]; ok {
			if mb != t.Block {
				return false
			}
		} else if s.Block != t.Block {
			return false
		}
	}
	for i, x := range a.Results() {
		y := b.Result(i)
		if !ir.TypesEqual(x.Type(), y.Type()) {
			return false
		}
		m[x] = y
	}
	return regionListEquivalent(a, b, m)
}

// sameAttrSet compares two attribute lists as dictionaries.
func sameAttrSet(a, b []ir.NamedAttr) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			if x.Name == y.Name {
				found = ir.AttrsEqual(x.Value, y.Value)
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// valueID names a value by its identity (the address stays fixed while
// the value lives, which covers one pass).
func valueID(v *ir.Value) string {
	if v == nil {
		return "nil"
	}
	return strconv.FormatUint(uint64(ptrID(v)), 16)
}

func ptrID[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }
