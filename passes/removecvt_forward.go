package passes

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// Rule 3: forward propagation of anchor layouts.
//
// Values whose types must change together form a class: an scf.for
// iteration argument and the loop result of the same slot, an scf.if
// result, an scf.while "after" argument and the loop result of its slot
// (the "before" arguments are classes of their own). Every class starts
// with no candidate layout; anchors (function arguments and the tensor
// results of fixed ops) seed their own layout, and candidates flow to users
// through the ops that can take any layout. Each class then keeps one
// candidate, values are re-typed, and conversions are inserted where an
// operand's layout differs from what its user needs.

// maxCandidates bounds the layouts a class collects.
const maxCandidates = 4

type propagation struct {
	r       *rewriter
	rep     map[*ir.Value]*ir.Value       // value -> class representative
	members map[*ir.Value][]*ir.Value     // representative -> values
	cands   map[*ir.Value][]attr.Encoding // representative -> candidates
	orig    map[*ir.Value]attr.Encoding   // layout of every tensor value before the rewrite
	// origOrder lists the values of orig in program order.
	origOrder []*ir.Value
}

func (r *rewriter) forwardPropagate() {
	p := &propagation{
		r:       r,
		rep:     map[*ir.Value]*ir.Value{},
		members: map[*ir.Value][]*ir.Value{},
		cands:   map[*ir.Value][]attr.Encoding{},
		orig:    map[*ir.Value]attr.Encoding{},
	}
	ops := r.ops()
	p.buildClasses(ops)
	p.propagate(ops)
	if p.rewrite() {
		r.changed = true
		p.legalize()
	}
}

func (p *propagation) class(v *ir.Value) *ir.Value {
	if c, ok := p.rep[v]; ok {
		return c
	}
	p.rep[v] = v
	p.members[v] = []*ir.Value{v}
	return v
}

func (p *propagation) tie(a, b *ir.Value) {
	ca, cb := p.class(a), p.class(b)
	if ca == cb {
		return
	}
	for _, v := range p.members[cb] {
		p.rep[v] = ca
	}
	p.members[ca] = append(p.members[ca], p.members[cb]...)
	delete(p.members, cb)
}

func (p *propagation) buildClasses(ops []*ir.Operation) {
	record := func(v *ir.Value) {
		if e := encodingOf(v); e != nil {
			p.orig[v] = e
			p.origOrder = append(p.origOrder, v)
		}
	}
	if body := entryBlock(p.r.fn); body != nil {
		for _, a := range body.Args() {
			record(a)
		}
	}
	for _, op := range ops {
		for _, v := range op.Results() {
			record(v)
		}
		for _, rg := range op.Regions() {
			for _, b := range rg.Blocks {
				for _, a := range b.Args() {
					record(a)
				}
			}
		}
		if op.Name() == opFor {
			if body := entryBlock(op); body != nil {
				for k := range op.NumResults() {
					if k+1 < body.NumArgs() {
						p.tie(body.Arg(k+1), op.Result(k))
					}
				}
			}
		}
		if after := whileAfter(op); after != nil {
			for k := range min(op.NumResults(), after.NumArgs()) {
				p.tie(after.Arg(k), op.Result(k))
			}
		}
	}
}

// whileBefore and whileAfter return the blocks of a well-formed scf.while
// (nil for any other op).
func whileBefore(op *ir.Operation) *ir.Block {
	if op.Name() != opWhile || len(op.Regions()) != 2 || op.Region(1).Entry() == nil {
		return nil
	}
	return op.Region(0).Entry()
}

func whileAfter(op *ir.Operation) *ir.Block {
	if whileBefore(op) == nil {
		return nil
	}
	return op.Region(1).Entry()
}

func entryBlock(op *ir.Operation) *ir.Block {
	if len(op.Regions()) == 0 {
		return nil
	}
	return op.Region(0).Entry()
}

// add adds candidate e to v's class and reports whether it is new.
func (p *propagation) add(v *ir.Value, e attr.Encoding) bool {
	if e == nil || encodingOf(v) == nil {
		return false
	}
	c := p.class(v)
	for _, x := range p.cands[c] {
		if attr.Equal(x, e) {
			return false
		}
	}
	if len(p.cands[c]) >= maxCandidates {
		return false
	}
	p.cands[c] = append(p.cands[c], e)
	return true
}

// seed reports whether v is an anchor: a function argument or the result
// of an op whose layout propagation must not change.
func (p *propagation) seed(v *ir.Value) bool {
	if d := v.DefiningOp(); d != nil {
		switch d.Name() {
		case opFor, opIf:
			return false
		case opWhile:
			return whileBefore(d) == nil
		}
		return p.r.classify(d) == classFixed
	}
	owner := v.OwnerBlock().ParentOp()
	if owner != nil && owner.Name() == opWhile {
		return whileBefore(owner) == nil
	}
	return owner != nil && owner.Name() != opFor
}

func (p *propagation) propagate(ops []*ir.Operation) {
	var work []*ir.Value
	// Seeds in program order, so the result does not depend on map order.
	var seeds []*ir.Value
	if body := entryBlock(p.r.fn); body != nil {
		seeds = append(seeds, body.Args()...)
	}
	for _, op := range ops {
		for _, rg := range op.Regions() {
			for _, b := range rg.Blocks {
				seeds = append(seeds, b.Args()...)
			}
		}
		seeds = append(seeds, op.Results()...)
	}
	for _, v := range seeds {
		if e := p.orig[v]; e != nil && p.seed(v) && p.add(v, e) {
			work = append(work, v)
		}
	}
	// Last in, first out, as Triton's propagateLayout pops its queue:
	// the order decides which candidate a value meets first.
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range p.cands[p.class(v)] {
			for _, u := range v.Uses() {
				for _, t := range p.targets(u, e) {
					if p.add(t.v, t.e) {
						work = append(work, p.members[p.class(t.v)]...)
					}
				}
			}
		}
	}
}

// flowsInto returns the value that operand i of a structured control-flow
// op is passed to, which must have the operand's layout: for scf.for, the
// loop result of an init operand's slot; for scf.yield, the result of the
// enclosing scf.for or scf.if, or the "before" argument of the enclosing
// scf.while; for scf.while, a "before" argument; for scf.condition, the
// scf.while result. It returns nil for any other op or operand.
func flowsInto(op *ir.Operation, i int) *ir.Value {
	switch op.Name() {
	case opFor:
		if k := i - 3; k >= 0 && k < op.NumResults() {
			return op.Result(k)
		}
	case opYield:
		parent := op.ParentOp()
		if parent != nil && (parent.Name() == opFor || parent.Name() == opIf) && i < parent.NumResults() {
			return parent.Result(i)
		}
		if before := whileBefore(parent); before != nil && i < before.NumArgs() {
			return before.Arg(i)
		}
	case opWhile:
		if before := whileBefore(op); before != nil && i < before.NumArgs() {
			return before.Arg(i)
		}
	case opCondition:
		if parent := op.ParentOp(); whileBefore(parent) != nil && i >= 1 && i-1 < parent.NumResults() {
			return parent.Result(i - 1)
		}
	}
	return nil
}

type target struct {
	v *ir.Value
	e attr.Encoding
}

// targets returns the values that take layout e when operand u has it.
func (p *propagation) targets(u ir.Use, e attr.Encoding) []target {
	op := u.Op
	switch op.Name() {
	case opFor, opYield, opWhile, opCondition:
		if to := flowsInto(op, u.Index); to != nil {
			return []target{{to, e}}
		}
		return nil
	}
	c := p.r.classify(op)
	switch c {
	case classPassThrough:
		if u.Index < op.NumResults() && encodingOf(op.Result(u.Index)) != nil {
			return []target{{op.Result(u.Index), e}}
		}
	case classElementwise, classConvert, classMapped:
		var out []target
		if re := p.r.inferResult(op, c, u.Index, e); re != nil {
			if c == classMapped {
				re = p.spelling(re, op.Result(0))
			}
			for _, res := range op.Results() {
				out = append(out, target{res, re})
			}
		}
		return out
	}
	return nil
}

// choose picks one candidate for class c: loads and stores prefer
// #blocked, other values an MMA layout, otherwise the first found.
func (p *propagation) choose(c *ir.Value) attr.Encoding {
	cands := p.cands[c]
	if len(cands) == 0 {
		return nil
	}
	memory := false
	if d := c.DefiningOp(); d != nil {
		memory = accessesGlobalMemory(d)
	}
	for _, e := range cands {
		if _, ok := e.(*attr.Blocked); ok && memory {
			return e
		}
		if isMMALike(e) && !memory {
			return e
		}
	}
	return cands[0]
}

// rewrite re-types every class whose chosen layout differs from its own.
func (p *propagation) rewrite() bool {
	changed := false
	for c, vals := range p.members {
		e := p.choose(c)
		if e == nil {
			continue
		}
		for _, v := range vals {
			if cur := encodingOf(v); cur != nil && !attr.Equal(cur, e) {
				retype(v, e)
				changed = true
			}
		}
	}
	return changed
}

// legalize inserts the conversions that make every operand carry the
// layout its user needs after the rewrite.
func (p *propagation) legalize() {
	// One conversion per (value, layout), shared by the users that need it.
	type conversion struct {
		v   *ir.Value
		enc string // encKey of the target layout
	}
	cache := map[conversion]*ir.Value{}
	for _, op := range p.r.ops() {
		for i, v := range op.Operands() {
			cur := encodingOf(v)
			if cur == nil {
				continue
			}
			want := p.required(op, i)
			if want == nil || attr.Equal(cur, want) {
				continue
			}
			k := conversion{v, encKey(want)}
			w := cache[k]
			if w == nil {
				c := newConvert(v, want, locOf(v))
				c.SetPos(OpPos(op)) // where the layout is needed (remarks point there)
				insertAfterDef(v, c)
				w = c.Result(0)
				cache[k] = w
			}
			op.SetOperand(i, w)
		}
	}
}

// required returns the layout operand i of op must have, or nil for any.
func (p *propagation) required(op *ir.Operation, i int) attr.Encoding {
	r := p.r
	switch op.Name() {
	case opConvert:
		return nil
	case opFor, opYield, opWhile, opCondition:
		if to := flowsInto(op, i); to != nil {
			return encodingOf(to)
		}
		// Other operands: an scf.for's bounds take any layout, an
		// scf.yield's keep theirs; scf.while and scf.condition go on below.
		switch op.Name() {
		case opFor:
			return nil
		case opYield:
			return p.orig[op.Operand(i)]
		}
	}
	c := r.classify(op)
	if c == classFixed && op.Layout().AnyOperandLayoutIfScalar {
		// A reduction to scalars takes any layout, the same for all operands.
		return encodingOf(op.Operand(0))
	}
	switch c {
	case classPassThrough:
		if i < op.NumResults() {
			return encodingOf(op.Result(i))
		}
		return nil
	case classMapped:
		// The layout the operand has already does when the op maps it to
		// its result's layout: an inverse inference may spell another
		// layout that maps there too (tt.join's register order).
		res := encodingOf(op.Result(0))
		cur := encodingOf(op.Operand(i))
		want := r.inferOperand(op, c, i, res)
		if cur != nil && want != nil && !attr.Equal(cur, want) {
			if f := r.inferResult(op, c, i, cur); f != nil {
				if _, _, shape := tensorInfo(op.Result(0).Type()); attr.SameLayout(f, res, shape) {
					return cur
				}
			}
		}
		return want
	case classElementwise:
		return r.inferOperand(op, c, i, encodingOf(op.Result(0)))
	case classCheap:
		return nil
	}
	if e, ok := p.orig[op.Operand(i)]; ok {
		return e
	}
	return encodingOf(op.Operand(i))
}

// accessesGlobalMemory reports whether op reads or writes global memory
// through a tensor of pointers (tt.load, tt.store, the atomics).
func accessesGlobalMemory(op *ir.Operation) bool {
	if !op.HasTrait(ir.MemoryRead) && !op.HasTrait(ir.MemoryWrite) || op.NumOperands() == 0 {
		return false
	}
	_, isPtr := ir.ElementType(op.Operand(0).Type()).(*ir.PointerType)
	_, isTensor := op.Operand(0).Type().(*ir.RankedTensorType)
	return isPtr && isTensor
}

// spelling returns, for a #ttg.linear inferred for value v, a layout
// already written in the function that places v's elements identically
// (a #ttg.blocked, say): Triton's inference spells such layouts by name,
// and anchors and users compare spellings.
func (p *propagation) spelling(e attr.Encoding, v *ir.Value) attr.Encoding {
	if _, ok := e.(*attr.LinearEncoding); !ok {
		return e
	}
	_, _, shape := tensorInfo(v.Type())
	if shape == nil {
		return e
	}
	seen := map[string]bool{}
	for _, w := range p.origOrder {
		o := p.orig[w]
		k := encKey(o)
		if seen[k] {
			continue
		}
		seen[k] = true
		if _, ok := o.(*attr.LinearEncoding); ok {
			continue
		}
		if _, _, ws := tensorInfo(w.Type()); len(ws) == len(shape) && attr.SameLayout(o, e, shape) {
			return o
		}
	}
	return e
}
