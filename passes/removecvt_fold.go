package passes

import (
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// Rule 1: identity conversions and chains.

// foldConversions folds cvt(cvt(x)) into cvt(x) and removes conversions
// between equal linear layouts, then erases what became dead.
func (r *rewriter) foldConversions() {
	for _, op := range r.ops() {
		if isConversion(op) {
			r.foldConversion(op)
		}
	}
	r.removeDeadCode()
}

func (r *rewriter) foldConversion(c *ir.Operation) {
	// Chains: convert the original value directly.
	for {
		inner := c.Operand(0).DefiningOp()
		if inner == nil || inner.Name() != opConvert || inner.NumOperands() != 1 {
			break
		}
		if _, e, _ := tensorInfo(inner.Operand(0).Type()); e == nil {
			break
		}
		c.SetOperand(0, inner.Operand(0))
		r.changed = true
		if inner.Result(0).UseEmpty() {
			_ = inner.Erase()
		}
	}
	src, res := c.Operand(0), c.Result(0)
	_, se, shape := tensorInfo(src.Type())
	_, de, dshape := tensorInfo(res.Type())
	if se == nil || de == nil || !slices.Equal(shape, dshape) ||
		!ir.TypesEqual(ir.ElementType(src.Type()), ir.ElementType(res.Type())) {
		return
	}
	if !attr.SameLayout(se, de, shape) || r.hoisted[c] && !attr.Equal(se, de) {
		// A conversion hoisted above a widening op stays even between
		// two spellings of one layout: Triton hoists after its last
		// rematerialization, and its canonicalizer drops only
		// conversions to the identical type.
		return
	}
	// Replace each use whose user still verifies with the source's spelling.
	for _, u := range res.Uses() {
		if u.Op.Operand(u.Index) != res {
			continue // replaced with another use of the same op
		}
		if r.acceptsOperand(u.Op, u.Index, src) {
			u.Op.SetOperand(u.Index, src)
			r.changed = true
		} else if r.replaceAllIfValid(u.Op, res, src) {
			r.changed = true
		}
	}
	if !res.UseEmpty() && r.respell(src, res.Type()) {
		res.ReplaceAllUsesWith(src)
	}
	if res.UseEmpty() {
		_ = c.Erase()
		r.changed = true
	}
}

// respell gives src, whose only user is an identity conversion to type t
// (the same layout spelled otherwise), the type t when src is a
// #ttg.linear and its producer stays valid: Triton's layout inference spells the layouts of reshapes and
// views as #ttg.blocked where one fits, ours may give a #ttg.linear, and a
// user such as tt.return needs the exact spelling.
func (r *rewriter) respell(src *ir.Value, t ir.Type) bool {
	d := src.DefiningOp()
	if d == nil || !src.HasOneUse() || d.NumResults() != 1 {
		return false
	}
	if _, ok := encodingOf(src).(*attr.LinearEncoding); !ok {
		return false
	}
	switch r.classify(d) {
	case classMapped, classElementwise:
	default:
		return false
	}
	if d.Layout().ExactSpelling {
		return false
	}
	def := d.Def()
	if def == nil {
		return false
	}
	old := src.Type()
	src.SetType(t)
	ok := r.encodingsConsistent(d) && (def.Verify == nil || def.Verify(d) == nil)
	if !ok {
		src.SetType(old)
	}
	return ok
}

// acceptsOperand reports whether op stays valid with operand i replaced by
// v. Replacing a value by one of an identical type always is; otherwise only
// ops that merely need equal layouts on their tensors (element-wise ops,
// loads, stores) may take another spelling, tried with v and checked by their
// traits and verifier.
func (r *rewriter) acceptsOperand(op *ir.Operation, i int, v *ir.Value) bool {
	old := op.Operand(i)
	if ir.TypesEqual(old.Type(), v.Type()) {
		return true
	}
	def := op.Def()
	if def == nil || !op.HasTrait(ir.SameOperandsAndResultEncoding) && !op.HasTrait(ir.Elementwise) {
		// Unregistered ops, and ops whose operand layouts are tied to
		// other types by structure (expand_dims, reduce, dot, yield, ...),
		// keep the exact spelling.
		return false
	}
	op.SetOperand(i, v)
	ok := r.encodingsConsistent(op)
	if ok && def.Verify != nil {
		ok = def.Verify(op) == nil
	}
	op.SetOperand(i, old)
	return ok
}

// replaceAllIfValid replaces every operand old of op by v when op maps
// layouts by a declared rule and its verifier accepts the new spelling
// (tt.join %x, %x needs both operands changed at once), and reports
// whether it did.
func (r *rewriter) replaceAllIfValid(op *ir.Operation, old, v *ir.Value) bool {
	def := op.Def()
	if def == nil || def.Verify == nil || op.Layout().Kind != ir.LayoutMapped || op.Layout().ExactSpelling {
		return false
	}
	var idx []int
	for i, o := range op.Operands() {
		if o == old {
			idx = append(idx, i)
		}
	}
	for _, i := range idx {
		op.SetOperand(i, v)
	}
	if def.Verify(op) == nil {
		return true
	}
	for _, i := range idx {
		op.SetOperand(i, old)
	}
	return false
}

// encodingsConsistent checks the layout traits of op: operands and results
// of SameOperandsAndResultEncoding ops, and the same-shape tensors of
// element-wise ops, must carry the same attribute.
func (r *rewriter) encodingsConsistent(op *ir.Operation) bool {
	same := op.HasTrait(ir.SameOperandsAndResultEncoding)
	elem := op.HasTrait(ir.Elementwise)
	if !same && !elem {
		return true
	}
	var first attr.Encoding
	vals := append(op.Operands(), op.Results()...)
	for _, v := range vals {
		_, e, _ := tensorInfo(v.Type())
		if e == nil {
			continue
		}
		if first == nil {
			first = e
			continue
		}
		if !attr.Equal(first, e) {
			return false
		}
	}
	return true
}
