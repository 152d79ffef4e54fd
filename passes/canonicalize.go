package passes

import (
	"slices"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// CanonicalizeLayoutsPass is canonicalize-layouts: it rewrites the layout
// attributes of a module into one canonical spelling per layout, without
// changing any tensor's linear layout.
var CanonicalizeLayoutsPass = &Pass{
	Name:    "canonicalize-layouts",
	Summary: "Rewrite layout attributes canonically (named or #ttg.linear form) without changing any tensor's layout",
	Doc: `Turns layout attributes into a canonical form, so that later passes and users
compare layouts as functions. Every tensor keeps exactly the LinearLayout it had
(checked for every type the pass rewrites); the result verifies.

form=linear: every distributed encoding on every tensor type becomes the equivalent
#ttg.linear, and every shared encoding with a linear form (swizzled_shared,
nvmma_shared, amd_rotating_shared) on a memdesc becomes #ttg.shared_linear
(alignment 16). Memdescs whose allocation shape differs from their shape, and
padded_shared layouts, keep their encoding.

form=named (default): attributes that are the same layout for every shape the
module uses them with are merged into the first one seen (only attributes of the
same kind merge, so an MMA accumulator never becomes a #blocked; slice and dot_op
parents are merged with them), and a #ttg.linear that equals a named encoding —
one used in the module, or a #ttg.blocked built to match — for every shape it is
used with is printed as that named encoding.

In both forms the attribute aliases are regenerated from scratch in first-use
order (#blocked, #blocked1, ..., #linear, #mma, ...).`,
	Options: []Option{{
		Name:    "form",
		Doc:     "named: merge equal layouts and prefer named encodings; linear: write every layout as #ttg.linear / #ttg.shared_linear",
		Default: "named",
		Values:  []string{"named", "linear"},
	}},
	Run: runCanonicalize,
}

func init() {
	MustRegister(CanonicalizeLayoutsPass)
}

func runCanonicalize(ctx *Context, op *ir.Operation) error {
	m := ctx.Module
	if m == nil || m.Op != op {
		m = &ir.Module{Op: op}
	}
	c := &canonicalizer{hopper: targetsHopper(op)}
	var f func(ir.Type) ir.Type
	if ctx.Option("form") == "linear" {
		f = c.linearForm(op)
	} else {
		f = c.namedForm(op)
	}
	changed := mapModuleTypes(op, m, f)
	if regenerateAttrAliases(m) {
		changed = true
	}
	if changed {
		ctx.MarkChanged()
	}
	return nil
}

type canonicalizer struct {
	hopper bool // the module targets cuda:90 or later
}

// targetsHopper reports whether the module's ttg.target is cuda:90 or
// later.
func targetsHopper(op *ir.Operation) bool {
	t, ok := op.Attr("ttg.target").(*ir.StringAttr)
	if !ok {
		return false
	}
	sm, ok := strings.CutPrefix(t.Value, "cuda:")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(sm)
	return err == nil && n >= 90
}

// layoutShape returns the shape a type's encoding is evaluated on: the
// tensor shape, or a memdesc's allocation shape. ok is false for types
// without a layout encoding.
func layoutShape(t ir.Type) (attr.Layout, []int, bool) {
	switch x := t.(type) {
	case *ir.RankedTensorType:
		if l, ok := ir.Encoding(x).(attr.Layout); ok {
			return l, intShape(x.Shape), true
		}
	case *ir.MemDescType:
		if l, ok := ir.Encoding(x).(attr.Layout); ok && x.AllocShape == nil {
			return l, intShape(x.Shape), true
		}
	}
	return nil, nil, false
}

// withLayout returns tensor or memdesc type t with encoding e.
func withLayout(t ir.Type, e attr.Encoding) ir.Type {
	switch x := t.(type) {
	case *ir.RankedTensorType:
		return x.WithEncoding(&ir.EncodingAttr{Enc: e})
	case *ir.MemDescType:
		y := *x
		y.Encoding = &ir.EncodingAttr{Enc: e}
		return &y
	}
	return t
}

// linearFormOf returns the #ttg.linear or #ttg.shared_linear form of
// layout l evaluated on shape, or nil when l has none (or already is one).
func (c *canonicalizer) linearFormOf(l attr.Layout, shape []int) attr.Layout {
	switch l.(type) {
	case *attr.LinearEncoding, *attr.SharedLinear, *attr.PaddedShared:
		return nil
	}
	_, dist := l.(attr.Distributed)
	_, shared := l.(attr.Shared)
	if !dist && !shared {
		return nil
	}
	ll, err := attr.Linear(l, shape)
	if err != nil {
		return nil
	}
	le, err := attr.FromLinear(ll)
	if err != nil {
		return nil
	}
	return le
}

// linearForm plans form=linear. Each attribute is replaced as a whole, so
// that ops whose tensors share one attribute (tt.broadcast, element-wise
// ops) still do: the linear form is built on one of the shapes the
// attribute is used with (the largest that works) and kept only if it is
// the same layout as the original on every shape the attribute is used
// with. An attribute with no such form (a #blocked broadcast from a shape
// where its registers repeat fewer times) keeps its named spelling.
func (c *canonicalizer) linearForm(op *ir.Operation) func(ir.Type) ir.Type {
	uses := collectUses(op)
	byEnc := map[string][]use{}
	var order []string
	for _, u := range uses {
		k := encKey(u.enc)
		if _, ok := byEnc[k]; !ok {
			order = append(order, k)
		}
		byEnc[k] = append(byEnc[k], u)
	}
	mapping := map[string]attr.Layout{}
	for _, k := range order {
		us := byEnc[k]
		// Candidates: the linear form on each shape used, largest first.
		cands := slices.Clone(us)
		slices.SortStableFunc(cands, func(a, b use) int { return numElements(b.shape) - numElements(a.shape) })
	candidates:
		for _, u := range cands {
			le := c.linearFormOf(u.enc, u.shape)
			if le == nil {
				continue
			}
			for _, v := range us {
				if !attr.SameLayout(v.enc, le, v.shape) {
					continue candidates
				}
			}
			mapping[k] = le
			break
		}
	}
	return func(t ir.Type) ir.Type {
		if l, _, ok := layoutShape(t); ok {
			if le, ok := mapping[encKey(l)]; ok {
				return withLayout(t, le)
			}
		}
		return t
	}
}

// collectUses lists the (encoding, shape) pairs of every type under op.
func collectUses(op *ir.Operation) []use {
	var uses []use
	_ = mapModuleTypes(op, nil, func(t ir.Type) ir.Type {
		if l, shape, ok := layoutShape(t); ok {
			uses = append(uses, use{l, shape})
		}
		return t
	})
	return uses
}

// use is one (encoding, shape) pair a module's types evaluate.
type use struct {
	enc   attr.Layout
	shape []int
}

// namedForm plans form=named for the module under op and returns the type
// rewrite that applies the plan.
func (c *canonicalizer) namedForm(op *ir.Operation) func(ir.Type) ir.Type {
	uses := collectUses(op)
	var encs []attr.Encoding // distinct encodings (top-level and nested), first use first
	seen := map[string]bool{}
	var note func(e attr.Encoding)
	note = func(e attr.Encoding) {
		if e == nil {
			return
		}
		if !seen[encKey(e)] {
			seen[encKey(e)] = true
			encs = append(encs, e)
		}
		switch x := e.(type) {
		case *attr.Slice:
			note(x.Parent)
		case *attr.DotOperand:
			note(x.Parent)
		}
	}
	for _, u := range uses {
		note(u.enc)
	}
	p := &plan{c: c, uses: uses, mapping: map[string]attr.Encoding{}}
	// Merge attributes of the same kind (composites follow their parents).
	var canon []attr.Encoding
	for _, e := range encs {
		if composite(e) {
			continue
		}
		merged := false
		for _, b := range canon {
			if b.Name() == e.Name() && p.try(e, b) {
				merged = true
				break
			}
		}
		if !merged {
			canon = append(canon, e)
		}
	}
	// A #ttg.linear becomes a named encoding when one matches everywhere;
	// higher ranks first, so that their named forms can serve as slice
	// parents for lower ranks.
	slices.SortStableFunc(canon, func(a, b attr.Encoding) int {
		return rankOf(b) - rankOf(a)
	})
	for _, e := range canon {
		le, ok := e.(*attr.LinearEncoding)
		if !ok {
			continue
		}
		for _, n := range p.namedCandidates(le, encs) {
			if p.try(le, n) {
				break
			}
		}
	}
	return func(t ir.Type) ir.Type {
		l, _, ok := layoutShape(t)
		if !ok {
			return t
		}
		if n := p.subst(l); n != nil && encKey(n) != encKey(l) {
			return withLayout(t, n)
		}
		return t
	}
}

func rankOf(e attr.Encoding) int {
	if l, ok := e.(attr.Layout); ok {
		return l.Rank()
	}
	return 0
}

func composite(e attr.Encoding) bool {
	switch e.(type) {
	case *attr.Slice, *attr.DotOperand:
		return true
	}
	return false
}

// plan is a set of attribute substitutions for form=named.
type plan struct {
	c       *canonicalizer
	uses    []use
	mapping map[string]attr.Encoding
}

// subst applies the mapping to e and to the parents inside it.
func (p *plan) subst(e attr.Encoding) attr.Encoding {
	if e == nil {
		return nil
	}
	if n, ok := p.mapping[encKey(e)]; ok {
		// Targets may be mapped again (a merged #ttg.linear whose
		// representative later became a named encoding): follow them.
		for range len(p.mapping) {
			m, ok := p.mapping[encKey(n)]
			if !ok {
				break
			}
			n = m
		}
		return n
	}
	switch x := e.(type) {
	case *attr.Slice:
		if d, ok := p.subst(x.Parent).(attr.Distributed); ok && d != x.Parent {
			return &attr.Slice{Dim: x.Dim, Parent: d}
		}
	case *attr.DotOperand:
		if d, ok := p.subst(x.Parent).(attr.Distributed); ok && d != x.Parent {
			return &attr.DotOperand{OpIdx: x.OpIdx, Parent: d, KWidth: x.KWidth}
		}
	}
	return e
}

// try adds the substitution a -> b when every use keeps its linear layout
// under the substitutions so far, and reports whether it did.
func (p *plan) try(a attr.Encoding, b attr.Encoding) bool {
	k := encKey(a)
	if k == encKey(b) {
		return false
	}
	p.mapping[k] = b
	for _, u := range p.uses {
		n, ok := p.subst(u.enc).(attr.Layout)
		if ok && encKey(n) == encKey(u.enc) {
			continue // not affected
		}
		if !ok || !attr.SameLayout(u.enc, n, u.shape) {
			delete(p.mapping, k)
			return false
		}
		if _, err := attr.Linear(n, u.shape); err != nil {
			delete(p.mapping, k)
			return false
		}
	}
	return true
}

// namedCandidates lists the named encodings a linear one may become: the
// module's named distributed encodings (after the merges), slices of those
// one rank up, then a #ttg.blocked or #ttg.nvidia_mma built to match its
// first use.
func (p *plan) namedCandidates(le *attr.LinearEncoding, encs []attr.Encoding) []attr.Encoding {
	var out, slices []attr.Encoding
	for _, e := range encs {
		n, ok := p.subst(e).(attr.Distributed)
		if !ok {
			continue
		}
		if _, ok := n.(*attr.LinearEncoding); ok {
			continue
		}
		switch n.Rank() {
		case le.Rank():
			out = append(out, n)
		case le.Rank() + 1:
			if !composite(n) {
				for dim := range n.Rank() {
					slices = append(slices, &attr.Slice{Dim: dim, Parent: n})
				}
			}
		}
	}
	out = append(out, slices...)
	// Operands of the module's MMA layouts.
	if le.Rank() == 2 {
		for _, e := range encs {
			if m, ok := p.subst(e).(*attr.NvidiaMma); ok && m.Rank() == 2 {
				for opIdx := range 2 {
					for k := 1; k <= 16; k *= 2 {
						d := &attr.DotOperand{OpIdx: opIdx, Parent: m, KWidth: k}
						if d.Verify(attr.ModuleInfo{}) == nil {
							out = append(out, d)
						}
					}
				}
			}
		}
	}
	for _, u := range p.uses {
		if encKey(u.enc) == encKey(le) {
			if b := p.c.blockedFor(le, u.shape); b != nil {
				out = append(out, b)
			}
			if m := p.c.mmaFor(le, u.shape); m != nil {
				out = append(out, m)
			}
			break
		}
	}
	return out
}

// blockedFor searches the #ttg.blocked layouts of rank 1 or 2 (one CTA,
// the warp and lane counts of le) for one equal to le on shape.
func (c *canonicalizer) blockedFor(le *attr.LinearEncoding, shape []int) *attr.Blocked {
	rank := len(shape)
	// Real layouts have at most 64 lanes, 32 warps and 2^16 registers; the
	// bound keeps the search small on anything else.
	if rank < 1 || rank > 2 || len(le.Block) > 0 || len(le.Lane) > 6 || len(le.Warp) > 5 || len(le.Register) > 16 {
		return nil
	}
	lanes, warps := 1<<len(le.Lane), 1<<len(le.Warp)
	orders := [][]int{{0}}
	if rank == 2 {
		orders = [][]int{{1, 0}, {0, 1}}
	}
	for _, order := range orders {
		regs := make([]int, rank)
		for d := range regs {
			regs[d] = 1 << len(le.Register)
		}
		for _, spt := range splits(rank, 0, regs) {
			for _, tpw := range fitting(splits(rank, lanes, nil), le.Lane) {
				for _, wpc := range fitting(splits(rank, warps, nil), le.Warp) {
					b := &attr.Blocked{SizePerThread: spt, ThreadsPerWarp: tpw, WarpsPerCTA: wpc, Order: order}
					if b.Verify(attr.ModuleInfo{}) != nil {
						continue
					}
					if attr.SameLayout(le, b, shape) {
						return b
					}
				}
			}
		}
	}
	return nil
}

// mmaFor searches the 2-D one-CTA #ttg.nvidia_mma layouts (Ampere
// instrShape [16, 8], Hopper [16, N, 16] with N a multiple of 8 up to 256)
// with le's warp count for one equal to le on shape, Hopper's first when
// the module targets sm_90 or later.
func (c *canonicalizer) mmaFor(le *attr.LinearEncoding, shape []int) *attr.NvidiaMma {
	if len(shape) != 2 || len(le.Block) > 0 || len(le.Lane) != 5 || len(le.Warp) > 5 {
		return nil
	}
	warps := 1 << len(le.Warp)
	var cands []*attr.NvidiaMma
	var ampere, hopper []*attr.NvidiaMma
	for _, w := range splits(2, warps, nil) {
		ampere = append(ampere, &attr.NvidiaMma{VersionMajor: 2, WarpsPerCTA: w, InstrShape: []int{16, 8}})
		if w[0] < 4 {
			continue // a Hopper warp group spans 4 warps along M
		}
		// Largest N first, as Triton picks the widest instruction that fits.
		for n := min(256, shape[1]) / 8 * 8; n >= 8; n -= 8 {
			hopper = append(hopper, &attr.NvidiaMma{VersionMajor: 3, WarpsPerCTA: w, InstrShape: []int{16, n, 16}})
		}
	}
	// Both may denote the same function; prefer the module's target.
	if c.hopper {
		cands = append(hopper, ampere...)
	} else {
		cands = append(ampere, hopper...)
	}
	for _, m := range cands {
		if m.Verify(attr.ModuleInfo{}) == nil && attr.SameLayout(le, m, shape) {
			return m
		}
	}
	return nil
}

// fitting keeps the splits that give every dim at least as many bases as
// the non-zero bases of le along it (zero bases are broadcasts that may sit
// in any dim), which prunes the search to a handful of candidates.
func fitting(cands [][]int, bases [][]int) [][]int {
	var out [][]int
next:
	for _, c := range cands {
		for d := range c {
			n := 0
			for _, b := range bases {
				if d < len(b) && b[d] != 0 {
					n++
				}
			}
			if 1<<n > c[d] {
				continue next
			}
		}
		out = append(out, c)
	}
	return out
}

// splits lists rank-long vectors of powers of two: with total > 0, those
// whose product is total; otherwise each entry up to limit[d] (and 64).
func splits(rank, total int, limit []int) [][]int {
	var out [][]int
	var rec func(d int, cur []int, prod int)
	rec = func(d int, cur []int, prod int) {
		if d == rank {
			if total == 0 || prod == total {
				out = append(out, append([]int(nil), cur...))
			}
			return
		}
		hi := 64
		if total > 0 {
			hi = total / prod
		} else if limit != nil {
			hi = min(hi, max(limit[d], 1))
		}
		for v := 1; v <= hi; v *= 2 {
			rec(d+1, append(cur, v), prod*v)
		}
	}
	rec(0, nil, 1)
	return out
}

// mapModuleTypes replaces every type in the IR under op — value types,
// block arguments, types inside attributes (function types, dense
// constants) and, when m is given, type aliases — by f applied to the
// tensor and memdesc types inside it. It reports whether any type changed.
func mapModuleTypes(op *ir.Operation, m *ir.Module, f func(ir.Type) ir.Type) bool {
	changed := false
	setType := func(v *ir.Value) {
		if t := mapType(v.Type(), f); !ir.TypesEqual(t, v.Type()) {
			v.SetType(t)
			changed = true
		}
	}
	op.Walk(func(o *ir.Operation) ir.WalkResult {
		for _, v := range o.Results() {
			setType(v)
		}
		for _, r := range o.Regions() {
			for _, b := range r.Blocks {
				for _, a := range b.Args() {
					setType(a)
				}
			}
		}
		for i := range o.Props {
			o.Props[i].Value = mapAttr(o.Props[i].Value, f)
		}
		for i := range o.Attrs {
			o.Attrs[i].Value = mapAttr(o.Attrs[i].Value, f)
		}
		return ir.Advance
	})
	if m != nil {
		for i := range m.Aliases {
			if m.Aliases[i].Type != nil {
				m.Aliases[i].Type = mapType(m.Aliases[i].Type, f)
			}
		}
	}
	return changed
}

// mapType applies f to the tensor and memdesc types in t. It returns t
// itself when nothing inside it changed.
func mapType(t ir.Type, f func(ir.Type) ir.Type) ir.Type {
	switch x := t.(type) {
	case *ir.RankedTensorType, *ir.MemDescType:
		return f(x)
	case *ir.FunctionType:
		ins, c1 := mapSlice(x.Inputs, func(t ir.Type) ir.Type { return mapType(t, f) })
		outs, c2 := mapSlice(x.Results, func(t ir.Type) ir.Type { return mapType(t, f) })
		if c1 || c2 {
			return &ir.FunctionType{Inputs: ins, Results: outs}
		}
	case *ir.PointerType:
		if p := mapType(x.Pointee, f); p != x.Pointee {
			return &ir.PointerType{Pointee: p, AddrSpace: x.AddrSpace}
		}
	case *ir.TensorDescType:
		if b, ok := mapType(x.Block, f).(*ir.RankedTensorType); ok && b != x.Block {
			return &ir.TensorDescType{Block: b}
		}
	}
	return t
}

// mapAttr applies f to the types inside attribute a (type attributes,
// dense constants, arrays and dictionaries of them). It returns a itself
// when nothing inside it changed, so that a walk that changes nothing
// allocates nothing.
func mapAttr(a ir.Attribute, f func(ir.Type) ir.Type) ir.Attribute {
	switch x := a.(type) {
	case *ir.TypeAttr:
		if t := mapType(x.Type, f); t != x.Type {
			return &ir.TypeAttr{Type: t}
		}
	case *ir.DenseElementsAttr:
		if t := mapType(x.Type, f); t != x.Type {
			y := *x
			y.Type = t
			return &y
		}
	case *ir.ArrayAttr:
		if elems, ok := mapSlice(x.Elems, func(e ir.Attribute) ir.Attribute { return mapAttr(e, f) }); ok {
			return &ir.ArrayAttr{Elems: elems}
		}
	case *ir.DictionaryAttr:
		entries, ok := mapSlice(x.Entries, func(e ir.NamedAttr) ir.NamedAttr {
			return ir.NamedAttr{Name: e.Name, Value: mapAttr(e.Value, f)}
		})
		if ok {
			return &ir.DictionaryAttr{Entries: entries}
		}
	}
	return a
}

// mapSlice returns f applied to every element of s (each once, in order)
// and whether any element changed; when none did, it returns s itself.
func mapSlice[T comparable](s []T, f func(T) T) ([]T, bool) {
	for i, x := range s {
		if y := f(x); y != x {
			out := slices.Clone(s)
			out[i] = y
			for j := i + 1; j < len(s); j++ {
				out[j] = f(s[j])
			}
			return out, true
		}
	}
	return s, false
}
