package ir

import (
	"fmt"

	"github.com/layoutopt/layoutopt/attr"
)

// Verify checks m: no op is an unregistered op of a dialect that has
// registered ops, every operand dominates its use (earlier in the block,
// or in a block that dominates the user's in the CFG of their region, or in
// an enclosing region; uses in unreachable blocks are not checked) and is
// not defined across an isolated-from-above boundary, blocks end with a terminator, the trait constraints of registered ops
// hold (same shape, encoding, type), every op verifier passes, and every
// layout encoding in use verifies against the module's ttg.num-warps,
// ttg.threads-per-warp and ttg.num-ctas. It returns all problems found.
func Verify(m *Module) Diagnostics {
	v := &verifier{
		encDone: map[encKey]bool{},
		info: attr.ModuleInfo{
			NumWarps:       int(m.IntAttr("ttg.num-warps", 0)),
			ThreadsPerWarp: int(m.IntAttr("ttg.threads-per-warp", 0)),
			NumCTAs:        int(m.IntAttr("ttg.num-ctas", 0)),
		},
	}
	v.reg = m.Registry
	if v.reg == nil {
		v.reg = defaultRegistry
	}
	v.verifyOp(m.Op)
	v.diags.Sort()
	return v.diags
}

type verifier struct {
	diags Diagnostics
	// blocks holds, for each block whose ops are being verified (from
	// the module's down to the innermost), the position of each of its
	// ops; the maps are reused between blocks at the same depth, so they
	// stay as small as a block instead of growing to the whole module.
	blocks  []blockIndex
	depth   int
	encDone map[encKey]bool
	info    attr.ModuleInfo
	loaded  map[string]bool // dialectLoaded, cached
	reg     *Registry
	trees   map[*Region]*domTree
}

// dialectLoaded reports whether dialect d has registered ops.
func (v *verifier) dialectLoaded(d string) bool {
	known, ok := v.loaded[d]
	if !ok {
		known = dialectLoaded(v.reg, d)
		if v.loaded == nil {
			v.loaded = map[string]bool{}
		}
		v.loaded[d] = known
	}
	return known
}

// opError reports an error about op, prefixed with "'name' op " (MLIR's
// emitOpError).
func (v *verifier) opError(op *Operation, format string, args ...any) {
	v.emitError(op, fmt.Sprintf("'%s' op ", op.name)+fmt.Sprintf(format, args...))
}

// emitError reports msg at op with the note that shows the op (MLIR's
// Operation::emitError) and returns the diagnostic, for more notes.
func (v *verifier) emitError(op *Operation, msg string) *Diagnostic {
	d := Diagnostic{Pos: op.Pos(), Severity: Error, Msg: msg}
	d.Notes = append(d.Notes, Diagnostic{Pos: op.Pos(), Severity: Note,
		Msg: "see current operation: " + printOpString(op, PrintConfig{Generic: true})})
	v.diags = append(v.diags, d)
	return &v.diags[len(v.diags)-1]
}

// report reports err, returned by op's verifier: each error of a joined
// error (errors.Join) is one diagnostic, and an *OpError is reported at its
// own op.
func (v *verifier) report(op *Operation, err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			v.report(op, e)
		}
		return
	}
	if e, ok := err.(*OpError); ok && e.Op != nil {
		op, err = e.Op, e.Err
	}
	v.opError(op, "%s", err.Error())
}

// OpError is a verifier error about another op than the one verified (an
// op of its regions, as MLIR's op->emitOpError in a parent's verifier); it
// is reported at Op with Op's name.
type OpError struct {
	Op  *Operation
	Err error
}

func (e *OpError) Error() string { return e.Err.Error() }

// blockIndex is the position of each op of block b.
type blockIndex struct {
	b   *Block
	pos map[*Operation]int32
}

// enterBlock numbers the ops of b, for the dominance checks of the ops
// verified until the matching leaveBlock.
func (v *verifier) enterBlock(b *Block) {
	if v.depth == len(v.blocks) {
		v.blocks = append(v.blocks, blockIndex{pos: map[*Operation]int32{}})
	}
	bi := &v.blocks[v.depth]
	v.depth++
	bi.b = b
	clear(bi.pos)
	var i int32
	for o := b.first; o != nil; o = o.next {
		bi.pos[o] = i
		i++
	}
}

func (v *verifier) leaveBlock() {
	v.depth--
	v.blocks[v.depth].b = nil
}

// opPos returns the positions of a and b in their block, being verified;
// ok is false when the block is not.
func (v *verifier) opPos(blk *Block, a, b *Operation) (ia, ib int32, ok bool) {
	for d := v.depth - 1; d >= 0; d-- {
		if bi := &v.blocks[d]; bi.b == blk {
			ia, ok1 := bi.pos[a]
			ib, ok2 := bi.pos[b]
			return ia, ib, ok1 && ok2
		}
	}
	return 0, 0, false
}

func (v *verifier) verifyOp(op *Operation) {
	for i := range op.operands {
		val := op.operands[i].value
		if val == nil {
			v.opError(op, "operand #%d is null", i)
			continue
		}
		v.checkOperand(op, i, val)
	}
	nEnc := len(v.diags)
	v.checkTypes(op)
	if op.def == nil {
		if d := DialectOf(op.name); v.dialectLoaded(d) {
			v.diags = append(v.diags, Diagnostic{Pos: op.Pos(), Severity: Error,
				Msg: fmt.Sprintf("unregistered operation '%s' found in dialect ('%s') that does not allow unknown operations", op.name, d)})
		}
	}
	if op.def != nil && len(v.diags) == nEnc {
		n := len(v.diags)
		v.checkTraits(op)
		if len(v.diags) > n {
			// MLIR verifies the traits before the op's own verifier
			// and stops at the first failure.
		} else if err := op.def.verifyDeclared(op); err != nil {
			v.opError(op, "%s", err.Error())
		} else if op.def.Verify != nil {
			if err := op.def.Verify(op); err != nil {
				v.report(op, err)
			}
		}
	}
	warps := v.info.NumWarps
	for i, r := range op.regions {
		v.info.NumWarps = regionNumWarps(op, i, warps)
		for _, b := range r.Blocks {
			v.enterBlock(b)
			n := len(v.diags)
			for o := b.first; o != nil; o = o.next {
				if o.HasTrait(Terminator) && o.next != nil {
					v.opError(o, "must be the last operation in the parent block")
				}
				v.verifyOp(o)
			}
			v.leaveBlock()
			// MLIR's OperationVerifier::verifyOnEntrance(Block&).
			if op.def != nil && op.def.Traits&NoTerminator == 0 {
				if b.last == nil {
					v.diags = append(v.diags, Diagnostic{Pos: op.Pos(), Severity: Error, Msg: "empty block: expect at least a terminator"})
				} else if b.last.def != nil && !b.last.HasTrait(Terminator) && len(v.diags) == n {
					// MLIR checks the terminator on leaving the block, which
					// it does not reach past an error in it.
					v.emitError(b.last, "block with no terminator, has "+printOpString(b.last, PrintConfig{Generic: true}))
				}
			}
		}
	}
	v.info.NumWarps = warps
}

// encKey is an encoding verified under a number of warps.
type encKey struct {
	e     *EncodingAttr
	warps int
}

// regionNumWarps is the number of warps of region i of op, as Triton's
// lookupNumWarps finds it: a partition of ttg.warp_specialize has its
// partitionNumWarps entry, an op with a "ttg.num-warps" attribute (a
// function, a module) that number; otherwise outer, the enclosing one.
func regionNumWarps(op *Operation, i, outer int) int {
	if op.name == "ttg.warp_specialize.partitions" {
		if ws := op.ParentOp(); ws != nil {
			if d, ok := ws.Attr("partitionNumWarps").(*DenseArrayAttr); ok && i < len(d.Ints) {
				return int(d.Ints[i])
			}
		}
		return outer
	}
	if n, ok := op.IntAttr("ttg.num-warps"); ok {
		return int(n)
	}
	return outer
}

// checkOperand checks that operand i of user, val, is visible at user: it
// is defined outside every isolated-from-above op around user and, as in
// MLIR's dominance verification, properly dominates user. Ops in blocks
// unreachable from their region's entry are not checked; a result does not
// dominate the op's own regions.
func (v *verifier) checkOperand(user *Operation, i int, val *Value) {
	defBlock := val.OwnerBlock()
	if defBlock == nil {
		v.opError(user, "operand #%d refers to a detached value", i)
		return
	}
	// The only block of a region is its entry, reachable: no tree needed.
	if user.block != nil && user.block.parent != nil && len(user.block.parent.Blocks) > 1 &&
		!v.tree(user.block.parent).reachable(user.block) {
		return
	}
	// Walk up from the user to its ancestor in the definition's region.
	cur := user
	for cur != nil && (cur.block == nil || cur.block.parent != defBlock.parent) {
		p := cur.ParentOp()
		if p != nil && p.HasTrait(IsolatedFromAbove) && !p.IsAncestor(definingAncestor(val)) {
			v.opError(user, "operand #%d uses a value defined outside an isolated-from-above region", i)
			return
		}
		cur = p
	}
	ok := false
	switch {
	case cur == nil || defBlock.parent == nil:
	case cur.block != defBlock:
		ok = v.tree(defBlock.parent).dominates(defBlock, cur.block)
	case val.def == nil:
		ok = true // a block argument of cur's block
	case val.def != cur:
		di, ui, found := v.opPos(defBlock, val.def, cur)
		ok = !found || di < ui
	}
	if !ok {
		v.dominanceError(user, i, val)
	}
}

// tree returns the dominator tree of r, built on first use; a region of
// one block needs none.
func (v *verifier) tree(r *Region) *domTree {
	if t, ok := v.trees[r]; ok {
		return t
	}
	var t *domTree
	if len(r.Blocks) > 1 {
		t = newDomTree(r)
	} else {
		t = &domTree{index: map[*Block]int32{}, pre: []int32{0}, post: []int32{1}}
		if len(r.Blocks) == 1 {
			t.index[r.Blocks[0]] = 0
		}
	}
	if v.trees == nil {
		v.trees = map[*Region]*domTree{}
	}
	v.trees[r] = t
	return t
}

// dominanceError reports that operand i of op does not dominate it, with
// MLIR's note on where the operand is defined.
func (v *verifier) dominanceError(op *Operation, i int, val *Value) {
	d := v.emitError(op, fmt.Sprintf("operand #%d does not dominate this use", i))
	var r1 *Region
	if op.block != nil {
		r1 = op.block.parent
	}
	where := func(r2 *Region, same, parent, child, neither string) string {
		switch {
		case r1 == r2:
			return same
		case regionIsProperAncestor(r2, r1):
			return parent
		case regionIsProperAncestor(r1, r2):
			return child
		}
		return neither
	}
	if def := val.def; def != nil {
		msg := "operand defined here"
		if op.block == def.block {
			msg += " (op in the same block)"
		} else {
			msg += where(def.block.parent, " (op in the same region)", " (op in a parent region)",
				" (op in a child region)", " (op is neither in a parent nor in a child region)")
		}
		d.Notes = append(d.Notes, Diagnostic{Pos: def.Pos(), Severity: Note, Msg: msg})
		return
	}
	b := val.block
	var pos Pos
	if p := b.ParentOp(); p != nil {
		pos = p.Pos()
	}
	if b.parent == nil {
		d.Notes = append(d.Notes, Diagnostic{Pos: pos, Severity: Note, Msg: " (block without parent)"})
		return
	}
	index := 0
	for index < len(b.parent.Blocks) && b.parent.Blocks[index] != b {
		index++
	}
	msg := fmt.Sprintf("operand defined as a block argument (block #%d", index) +
		where(b.parent, " in the same region)", " in a parent region)", " in a child region)", " neither in a parent nor in a child region)")
	d.Notes = append(d.Notes, Diagnostic{Pos: pos, Severity: Note, Msg: msg})
}

// regionIsProperAncestor reports whether region a strictly encloses region b.
func regionIsProperAncestor(a, b *Region) bool {
	if a == nil || b == nil || a == b {
		return false
	}
	for op := b.parent; op != nil && op.block != nil; op = op.block.parent.parent {
		r := op.block.parent
		if r == a {
			return true
		}
		if r == nil {
			break
		}
	}
	return false
}

// definingAncestor returns the op that owns val's block (for a block
// argument) or val's defining op.
func definingAncestor(val *Value) *Operation {
	if val.def != nil {
		return val.def
	}
	return val.block.ParentOp()
}

// checkTypes verifies the encodings of the op's operand and result types
// against the module, as Triton's VerifyTensorLayoutsTrait does: only for
// the ops of the dialects that carry it (TT_Op, TTG_Op, TTNG_Op), not for
// block arguments, and the first invalid one only.
func (v *verifier) checkTypes(op *Operation) {
	if !layoutVerified(op.name) {
		return
	}
	for i := range op.operands {
		if val := op.operands[i].value; val != nil && !v.checkEncoding(op, val.typ) {
			return
		}
	}
	for i := range op.results {
		if !v.checkEncoding(op, op.results[i].typ) {
			return
		}
	}
}

// layoutVerified reports whether the ops of name's dialect verify their
// tensor layouts (Triton's VerifyTensorLayoutsTrait).
func layoutVerified(name string) bool {
	switch DialectOf(name) {
	case "tt", "ttg", "ttng":
		return true
	}
	return false
}

// checkEncoding verifies the encoding of t, once per encoding; it reports
// false when it found t's encoding invalid now.
func (v *verifier) checkEncoding(op *Operation, t Type) bool {
	e, ok := EncodingOf(t).(*EncodingAttr)
	if _, tensor := t.(*RankedTensorType); ok && tensor {
		// Triton's verifyTensorLayouts: a tensor's layout is distributed.
		if _, shared := e.Enc.(attr.Shared); shared {
			v.opError(op, "Non-distributed layout is not allowed in tensor type.")
			return false
		}
		if l, isLayout := e.Enc.(attr.Layout); isLayout {
			if r, n := l.Rank(), len(t.(*RankedTensorType).Shape); r > 0 && r != n {
				v.opError(op, "Layout has rank %d, but the tensor it's attached to has rank %d.", r, n)
				return false
			}
		}
	}
	k := encKey{e, v.info.NumWarps}
	if !ok || v.encDone[k] {
		return true
	}
	v.encDone[k] = true
	if err := e.Enc.Verify(v.info); err != nil {
		v.opError(op, "invalid encoding %s: %v", e.Enc.Format(nil), err)
		return false
	}
	return true
}

// traitType is the type the shape and encoding traits compare for t: the
// tensor of a block pointer (Triton's SameLoadStoreOperandsShape and
// SameLoadStoreOperandsEncoding), otherwise t.
func traitType(t Type) Type {
	if p, ok := t.(*PointerType); ok {
		if rt, ok := p.Pointee.(*RankedTensorType); ok {
			return rt
		}
	}
	return t
}

func (v *verifier) checkTraits(op *Operation) {
	t := op.def.Traits
	// Most ops have few operands and results: no allocation for them.
	var buf [8]Type
	all := buf[:0]
	for i := range op.operands {
		if val := op.operands[i].value; val != nil {
			all = append(all, val.typ)
		} else {
			all = append(all, nil)
		}
	}
	for i := range op.results {
		all = append(all, op.results[i].typ)
	}
	if len(all) < 2 {
		return
	}
	if t&SameOperandsAndResultType != 0 {
		for _, x := range all[1:] {
			if !TypesEqual(x, all[0]) {
				v.opError(op, "requires the same type for all operands and results")
				return
			}
		}
	}
	if t&SameOperandsAndResultShape != 0 {
		s0, ok0 := ShapeOf(traitType(all[0]))
		for _, x := range all[1:] {
			s, ok := ShapeOf(traitType(x))
			if ok != ok0 || !shapesEqual(s, s0) {
				v.opError(op, "requires the same shape for all operands and results")
				return
			}
		}
	}
	if t&SameOperandsAndResultEncoding != 0 {
		var first Attribute
		seen := false
		for _, x := range all {
			rt, ok := traitType(x).(*RankedTensorType)
			if !ok {
				continue
			}
			if rt.Encoding == nil {
				// Triton's verifySameEncoding: a tensor without an
				// encoding matches any.
				continue
			}
			if !seen {
				first, seen = rt.Encoding, true
			} else if !AttrsEqual(first, rt.Encoding) {
				v.opError(op, "requires the same encoding for all operands and results")
				return
			}
		}
	}
	if t&SameOperandsAndResultElementType != 0 {
		e0 := ElementType(all[0])
		for _, x := range all[1:] {
			if !TypesEqual(ElementType(x), e0) {
				v.opError(op, "requires the same element type for all operands and results")
				return
			}
		}
	}
}

// ---- per-op verifiers ----
