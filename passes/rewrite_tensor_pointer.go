package passes

import (
	"fmt"
	"math"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// RewriteTensorPointerPass is Triton's -triton-rewrite-tensor-pointer:
// block pointers become tensors of pointers and masks. See its Doc.
var RewriteTensorPointerPass = &Pass{
	Name:    "triton-rewrite-tensor-pointer",
	Summary: "Rewrite block pointers (tt.make_tensor_ptr, tt.advance) into tensors of pointers with masks (Triton 3.6's RewriteTensorPointer)",
	Doc: `Triton 3.6's RewriteTensorPointer. A tt.make_tensor_ptr is dropped: its
base, shape and strides are remembered, and its i32 offsets are sign-extended
to i64 (arith.extsi, before it). A tt.advance is dropped too: each of its
deltas is sign-extended and added (arith.addi, i64) to the remembered
offsets. A tt.load or tt.store of a block pointer becomes one of the tensor of
pointers

  splat(base) + Σ_d broadcast(expand_dims(splat(offset_d) + extsi(make_range(0, block_d))) * splat(stride_d))

(a tt.addptr per dimension; the stride is splat to the expanded shape, as
Triton does to keep its divisibility), with, for the dimensions in
boundaryCheck, the mask ∧_d broadcast(offset_d + i_d >= 0 && offset_d + i_d <
shape_d), and for a load with a padding attribute the other value
splat(arith.constant 0) (padding = 1) or splat(arith.constant NaN) (padding =
2). The load keeps its cache, evict and isVolatile attributes.

An scf.for whose iteration arguments include block pointers is rebuilt to
carry their i64 offsets instead (one per dimension, in place of the pointer),
its body moved into the new loop and its scf.yield rewritten alike; an scf.if
yielding block pointers is rebuilt to yield their offsets. Ops are created
where Triton's pass creates them, in its order, and nothing is folded.

One deviation: a load with a padding attribute but an empty boundaryCheck has
no mask, and Triton makes it a load with an other value but no mask, which
prints as 'tt.load %ptr, %other' and reads back with %other as the mask; the
pass gives such a load no other value (without a mask it is never read).

Where Triton's pass asserts or miscompiles, this one stops with a located
error and leaves the module unchanged: a block pointer that is not made by
tt.make_tensor_ptr, tt.advance, scf.for or scf.if (a function argument, a
call's result, scf.while), one used by any other op (tt.call, tt.return,
scf.while, cf branches, ...), a block pointer load or store that already has
a mask or other, a NaN padding of integers, a boundaryCheck dimension out of
range, an scf.if whose branches yield block pointers made by different
tt.make_tensor_ptr ops, or an scf.for that yields a block pointer made by
another tt.make_tensor_ptr than its initial value (Triton would keep the
first one's base, shape and strides), and block pointers to tensors with a
layout encoding (TritonGPU IR): Triton runs the pass on Triton IR, and the
ranges and expand_dims it builds would need slice encodings.`,
	Run: runRewriteTensorPointer,
}

func init() { MustRegister(RewriteTensorPointerPass) }

func runRewriteTensorPointer(ctx *Context, module *ir.Operation) error {
	if op, err := checkTensorPointers(module); err != nil {
		return ctx.Errorf(op, "triton-rewrite-tensor-pointer: %v", err)
	}
	r := &tensorPtrRewriter{info: map[*ir.Value]*blockPtrInfo{}}
	r.visit(module)
	if len(r.erase) == 0 {
		return nil
	}
	for i := len(r.erase) - 1; i >= 0; i-- {
		if err := r.erase[i].Erase(); err != nil {
			return ctx.Errorf(r.erase[i], "triton-rewrite-tensor-pointer: %v", err)
		}
	}
	ctx.MarkChanged()
	return nil
}

// isBlockPtr reports whether t is a block pointer type,
// !tt.ptr<tensor<...>> (Triton's isTensorPointerType).
func isBlockPtr(t ir.Type) bool {
	p, ok := t.(*ir.PointerType)
	if !ok {
		return false
	}
	_, ok = p.Pointee.(*ir.RankedTensorType)
	return ok
}

// blockPtrInfo is what a block pointer stands for (Triton's RewritedInfo):
// the make_tensor_ptr's base, shape and strides, and the current i64
// offsets.
type blockPtrInfo struct {
	base           *ir.Value
	shape, strides []*ir.Value
	offsets        []*ir.Value
	block          []int64 // the block's shape
}

func (in *blockPtrInfo) withOffsets(offs []*ir.Value) *blockPtrInfo {
	c := *in
	c.offsets = offs
	return &c
}

// tensorPtrRewriter rewrites as Triton's RewriteTensorPointerPass: ops in
// order, recursing into regions, erasing the replaced ops at the end (in
// reverse order).
type tensorPtrRewriter struct {
	info  map[*ir.Value]*blockPtrInfo
	erase []*ir.Operation
}

func (r *tensorPtrRewriter) visit(op *ir.Operation) {
	for _, reg := range op.Regions() {
		for _, b := range reg.Blocks {
			for o := b.First(); o != nil; {
				next := o.Next()
				if n := r.rewrite(o); n != nil {
					r.visit(n)
				}
				o = next
			}
		}
	}
}

// rewrite rewrites op and returns the op whose regions are to be visited,
// or nil.
func (r *tensorPtrRewriter) rewrite(op *ir.Operation) *ir.Operation {
	switch op.Name() {
	case "tt.make_tensor_ptr":
		r.makeTensorPtr(op)
		return nil
	case "tt.advance":
		r.advance(op)
		return nil
	case "tt.load", "tt.store":
		r.loadStore(op)
		return nil
	case "scf.if":
		return r.ifOp(op)
	case "scf.for":
		if hasBlockPtrOperand(op) {
			return r.forOp(op)
		}
	case "scf.yield":
		if hasBlockPtrOperand(op) {
			op.SetOperands(r.expandOperands(op.Operands()))
		}
		return nil
	}
	return op
}

func hasBlockPtrOperand(op *ir.Operation) bool {
	for _, v := range op.Operands() {
		if isBlockPtr(v.Type()) {
			return true
		}
	}
	return false
}

// makeTensorPtrParts splits a tt.make_tensor_ptr's operands.
func makeTensorPtrParts(op *ir.Operation) (base *ir.Value, shape, strides, offsets []*ir.Value) {
	ops := op.Operands()
	n := (len(ops) - 1) / 3
	return ops[0], ops[1 : 1+n], ops[1+n : 1+2*n], ops[1+2*n : 1+3*n]
}

func (r *tensorPtrRewriter) makeTensorPtr(op *ir.Operation) {
	b := opBuilder{at: op}
	base, shape, strides, offsets := makeTensorPtrParts(op)
	in := &blockPtrInfo{base: base, shape: shape, strides: strides,
		block: op.Result(0).Type().(*ir.PointerType).Pointee.(*ir.RankedTensorType).Shape}
	for _, o := range offsets {
		in.offsets = append(in.offsets, b.create("arith.extsi", []*ir.Value{o}, []ir.Type{ir.I64}).Result(0))
	}
	r.info[op.Result(0)] = in
	r.erase = append(r.erase, op)
}

func (r *tensorPtrRewriter) advance(op *ir.Operation) {
	b := opBuilder{at: op}
	in := r.info[op.Operand(0)]
	offs := make([]*ir.Value, len(in.offsets))
	for i, d := range op.Operands()[1:] {
		e := b.create("arith.extsi", []*ir.Value{d}, []ir.Type{ir.I64}).Result(0)
		offs[i] = b.create("arith.addi", []*ir.Value{in.offsets[i], e}, []ir.Type{ir.I64}).Result(0)
	}
	r.info[op.Result(0)] = in.withOffsets(offs)
	r.erase = append(r.erase, op)
}

// ptrGen builds one load's or store's pointers and mask; expanded caches
// the expanded offsets with ranges per dimension (Triton's
// cachedOffsetWithRange, which lives as long as one access's rewrite).
type ptrGen struct {
	b        opBuilder
	in       *blockPtrInfo
	expanded map[int]*ir.Value
	// enc is the layout encoding of the block's tensors (TritonGPU IR),
	// nil in Triton IR; the ranges and partly expanded offsets take its
	// slices.
	enc ir.Attribute
}

func tensorOf(shape []int64, elem ir.Type) *ir.RankedTensorType {
	return &ir.RankedTensorType{Shape: append([]int64(nil), shape...), Elem: elem}
}

// tensor is a block-shaped tensor of elem, in the block's encoding.
func (g *ptrGen) tensor(elem ir.Type) *ir.RankedTensorType {
	t := tensorOf(g.in.block, elem)
	t.Encoding = g.enc
	return t
}

// partial is a tensor of elem over the block's dimensions in present (in
// order; the others absent), in the block's encoding sliced along the
// absent ones, highest first.
func (g *ptrGen) partial(present []int, shape []int64, elem ir.Type) *ir.RankedTensorType {
	t := tensorOf(shape, elem)
	if g.enc == nil {
		return t
	}
	enc := g.enc.(*ir.EncodingAttr).Enc
	for d := len(g.in.block) - 1; d >= 0; d-- {
		if !slices.Contains(present, d) {
			enc = &attr.Slice{Dim: d, Parent: enc.(attr.Distributed)}
		}
	}
	t.Encoding = &ir.EncodingAttr{Enc: enc}
	return t
}

func (g *ptrGen) expandedOffset(i int) *ir.Value {
	if v, ok := g.expanded[i]; ok {
		return v
	}
	b, n := g.b, g.in.block[i]
	present := []int{i}
	row := g.partial(present, []int64{n}, ir.I64)
	splat := b.create("tt.splat", []*ir.Value{g.in.offsets[i]}, []ir.Type{row}).Result(0)
	rng := b.create("tt.make_range", nil, []ir.Type{g.partial(present, []int64{n}, ir.I32)},
		ir.NamedAttr{Name: "end", Value: ir.Int(n, ir.I32)}, ir.NamedAttr{Name: "start", Value: ir.Int(0, ir.I32)}).Result(0)
	ext := b.create("arith.extsi", []*ir.Value{rng}, []ir.Type{row}).Result(0)
	v := b.create("arith.addi", []*ir.Value{splat, ext}, []ir.Type{row}).Result(0)
	shape := []int64{n}
	for j := range g.in.block {
		if j == i {
			continue
		}
		shape = append(shape[:j:j], append([]int64{1}, shape[j:]...)...)
		present = append(present, j)
		slices.Sort(present)
		v = b.create("tt.expand_dims", []*ir.Value{v}, []ir.Type{g.partial(present, shape, ir.I64)},
			ir.NamedAttr{Name: "axis", Value: ir.Int(int64(j), ir.I32)}).Result(0)
	}
	g.expanded[i] = v
	return v
}

func (g *ptrGen) ptr() *ir.Value {
	b := g.b
	ptrTensor := g.tensor(g.in.base.Type())
	idx := g.tensor(ir.I64)
	p := b.create("tt.splat", []*ir.Value{g.in.base}, []ir.Type{ptrTensor}).Result(0)
	for i := range g.in.block {
		off := g.expandedOffset(i)
		stride := b.create("tt.splat", []*ir.Value{g.in.strides[i]}, []ir.Type{off.Type()}).Result(0)
		mul := b.create("arith.muli", []*ir.Value{off, stride}, []ir.Type{off.Type()}).Result(0)
		bc := b.create("tt.broadcast", []*ir.Value{mul}, []ir.Type{idx}).Result(0)
		p = b.create("tt.addptr", []*ir.Value{p, bc}, []ir.Type{ptrTensor}).Result(0)
	}
	return p
}

// Predicates of arith.cmpi.
const (
	cmpSLT = 2
	cmpSGE = 5
)

func (g *ptrGen) mask(dims []int64) *ir.Value {
	b := g.b
	var mask *ir.Value
	maskTy := g.tensor(ir.I1)
	for _, d := range dims {
		off := g.expandedOffset(int(d))
		cmp := func(pred int64, bound *ir.Value) *ir.Value {
			s := b.create("tt.splat", []*ir.Value{bound}, []ir.Type{off.Type()}).Result(0)
			return b.create("arith.cmpi", []*ir.Value{off, s}, []ir.Type{ir.WithElem(off.Type(), ir.I1)},
				ir.NamedAttr{Name: "predicate", Value: ir.Int(pred, ir.I64)}).Result(0)
		}
		zero := b.constInt(0, ir.I64)
		lo := cmp(cmpSGE, zero)
		hi := cmp(cmpSLT, g.in.shape[d])
		and := b.create("arith.andi", []*ir.Value{lo, hi}, []ir.Type{lo.Type()}).Result(0)
		bc := b.create("tt.broadcast", []*ir.Value{and}, []ir.Type{maskTy}).Result(0)
		if mask == nil {
			mask = bc
		} else {
			mask = b.create("arith.andi", []*ir.Value{mask, bc}, []ir.Type{maskTy}).Result(0)
		}
	}
	return mask
}

func (g *ptrGen) other(padding int64) *ir.Value {
	elem := g.in.base.Type().(*ir.PointerType).Pointee
	var a ir.Attribute = ir.Int(0, elem)
	if _, ok := elem.(*ir.FloatType); ok {
		v := 0.0
		if padding == 2 { // PAD_NAN
			v = math.NaN()
		}
		a = &ir.FloatAttr{Value: v, Type: elem}
	}
	c := g.b.create("arith.constant", nil, []ir.Type{elem}, ir.NamedAttr{Name: "value", Value: a}).Result(0)
	return g.b.create("tt.splat", []*ir.Value{c}, []ir.Type{g.tensor(elem)}).Result(0)
}

func (r *tensorPtrRewriter) loadStore(op *ir.Operation) {
	if !isBlockPtr(op.Operand(0).Type()) {
		return
	}
	g := &ptrGen{b: opBuilder{at: op}, in: r.info[op.Operand(0)], expanded: map[int]*ir.Value{}}
	dims := ir.AttrInts(op.AttrOrDefault("boundaryCheck"))
	ptr := g.ptr()
	mask := g.mask(dims)
	var attrs []ir.NamedAttr
	keep := func(names ...string) {
		for _, n := range names {
			if a := op.Attr(n); a != nil {
				attrs = append(attrs, ir.NamedAttr{Name: n, Value: a})
			}
		}
	}
	if op.Name() == "tt.load" {
		var other *ir.Value
		if pad := op.Attr("padding"); pad != nil && mask != nil {
			other = g.other(ir.AttrIntValue(pad))
		}
		operands := []*ir.Value{ptr}
		for _, v := range []*ir.Value{mask, other} {
			if v != nil {
				operands = append(operands, v)
			}
		}
		keep("cache", "evict", "isVolatile")
		attrs = append(attrs, ir.Segments(1, btoi(mask != nil), btoi(other != nil)))
		load := g.b.create("tt.load", operands, []ir.Type{op.Result(0).Type()}, attrs...)
		op.Result(0).ReplaceAllUsesWith(load.Result(0))
	} else {
		operands := []*ir.Value{ptr, op.Operand(1)}
		if mask != nil {
			operands = append(operands, mask)
		}
		keep("cache", "evict")
		g.b.create("tt.store", operands, nil, attrs...)
	}
	r.erase = append(r.erase, op)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// expandOperands replaces every block pointer among vs by its offsets.
func (r *tensorPtrRewriter) expandOperands(vs []*ir.Value) []*ir.Value {
	var out []*ir.Value
	for _, v := range vs {
		if isBlockPtr(v.Type()) {
			out = append(out, r.info[v].offsets...)
		} else {
			out = append(out, v)
		}
	}
	return out
}

// ifOp rebuilds an scf.if that yields block pointers to yield their
// offsets (Triton's rewriteIfOp; the branches are moved, not cloned).
func (r *tensorPtrRewriter) ifOp(op *ir.Operation) *ir.Operation {
	if !hasBlockPtrResult(op) {
		return op
	}
	thenYield := op.Region(0).Entry().Last()
	var types []ir.Type
	rewrite := false
	for _, v := range thenYield.Operands() {
		if !isBlockPtr(v.Type()) {
			types = append(types, v.Type())
			continue
		}
		rewrite = true
		for range blockPtrRank(v.Type()) {
			types = append(types, ir.I64)
		}
	}
	if !rewrite {
		return op
	}
	n := rebuildWithResults(op, types)
	r.remapResults(op, n, thenYield.Operands(), func(v *ir.Value) *blockPtrInfo { return r.info[origin(v).Result(0)] })
	r.erase = append(r.erase, op)
	return n
}

// remapResults points the uses of old's results at the rebuilt op n's: a
// result whose source (srcs[i], the value yielded or carried in its place)
// is not a block pointer at n's next result, a block pointer's at its
// rank's next results, recorded as its offsets (with the base, shape and
// strides of info(srcs[i])).
func (r *tensorPtrRewriter) remapResults(old, n *ir.Operation, srcs []*ir.Value, info func(*ir.Value) *blockPtrInfo) {
	k := 0
	for i, v := range srcs {
		res := old.Result(i)
		if !isBlockPtr(v.Type()) {
			res.ReplaceAllUsesWith(n.Result(k))
			k++
			continue
		}
		in := info(v)
		offs := make([]*ir.Value, len(in.offsets))
		for j := range offs {
			offs[j] = n.Result(k)
			k++
		}
		r.info[res] = in.withOffsets(offs)
	}
}

// forOp rebuilds an scf.for that carries block pointers to carry their
// offsets (Triton's rewriteForOp; the body is moved, not cloned).
func (r *tensorPtrRewriter) forOp(op *ir.Operation) *ir.Operation {
	ops := op.Operands()
	inits := ops[3:]
	newInits := r.expandOperands(inits)
	types := make([]ir.Type, len(newInits))
	for i, v := range newInits {
		types[i] = v.Type()
	}
	n := ir.NewOperation("scf.for", append(append([]*ir.Value(nil), ops[:3]...), newInits...), types, nil, 1)
	n.Props = append(n.Props, op.Props...)
	n.Attrs = append(n.Attrs, op.Attrs...)
	n.Loc = op.Loc
	n.SetPos(op.Pos())
	op.Block().InsertBefore(op, n)
	body := op.Region(0).Entry()
	nb := ir.NewBlock(body.Arg(0).Type())
	n.Region(0).AddBlock(nb)
	iv := nb.Arg(0)
	iv.NameHint, iv.Loc = body.Arg(0).NameHint, body.Arg(0).Loc
	body.Arg(0).ReplaceAllUsesWith(iv)
	for i, init := range inits {
		old := body.Arg(i + 1)
		if !isBlockPtr(init.Type()) {
			a := nb.AddArg(old.Type())
			a.NameHint, a.Loc = old.NameHint, old.Loc
			old.ReplaceAllUsesWith(a)
			continue
		}
		in := r.info[init]
		offs := make([]*ir.Value, len(in.offsets))
		for j := range offs {
			offs[j] = nb.AddArg(ir.I64)
		}
		r.info[old] = in.withOffsets(offs)
	}
	for _, o := range body.Ops() {
		o.Remove()
		nb.Append(o)
	}
	r.remapResults(op, n, inits, func(v *ir.Value) *blockPtrInfo { return r.info[v] })
	r.erase = append(r.erase, op)
	return n
}

func blockPtrRank(t ir.Type) int {
	return len(t.(*ir.PointerType).Pointee.(*ir.RankedTensorType).Shape)
}

// origin returns the tt.make_tensor_ptr a block pointer comes from
// (Triton's getMakeTensorPtrOp), or nil.
func origin(v *ir.Value) *ir.Operation {
	for depth := 0; depth < 10000; depth++ {
		if op := v.DefiningOp(); op != nil {
			switch op.Name() {
			case "tt.make_tensor_ptr":
				return op
			case "tt.advance":
				v = op.Operand(0)
			case "scf.for":
				v = op.Operand(3 + v.ResultIndex())
			case "scf.if":
				y := op.Region(0).Entry().Last()
				if y == nil || v.ResultIndex() >= y.NumOperands() {
					return nil
				}
				v = y.Operand(v.ResultIndex())
			default:
				return nil
			}
			continue
		}
		p := v.OwnerBlock().ParentOp()
		if p == nil || p.Name() != "scf.for" || v.ArgIndex() == 0 || 3+v.ArgIndex()-1 >= p.NumOperands() {
			return nil
		}
		v = p.Operand(3 + v.ArgIndex() - 1)
	}
	return nil
}

// checkTensorPointers checks that every block pointer in module is one the
// rewrite handles; it returns the op to report and why otherwise.
func checkTensorPointers(module *ir.Operation) (*ir.Operation, error) {
	var at *ir.Operation
	var err error
	fail := func(op *ir.Operation, format string, args ...any) ir.WalkResult {
		at, err = op, fmt.Errorf(format, args...)
		return ir.Interrupt
	}
	module.Walk(func(op *ir.Operation) ir.WalkResult {
		// Where block pointers come from.
		for _, reg := range op.Regions() {
			for _, b := range reg.Blocks {
				for i, a := range b.Args() {
					if !isBlockPtr(a.Type()) || op.Name() == "scf.for" && i > 0 {
						continue
					}
					return fail(op, "block argument %d of %s is a block pointer; only those made by tt.make_tensor_ptr, tt.advance, scf.for and scf.if are rewritten", i, op.Name())
				}
			}
		}
		for _, res := range op.Results() {
			if !isBlockPtr(res.Type()) {
				continue
			}
			switch op.Name() {
			case "tt.make_tensor_ptr", "tt.advance", "scf.for", "scf.if":
			default:
				return fail(op, "%s returns a block pointer; only those made by tt.make_tensor_ptr, tt.advance, scf.for and scf.if are rewritten", op.Name())
			}
			if origin(res) == nil {
				return fail(op, "cannot find the tt.make_tensor_ptr of result %d", res.ResultIndex())
			}
		}
		// How they are used.
		for i, v := range op.Operands() {
			if !isBlockPtr(v.Type()) {
				continue
			}
			ok := false
			switch op.Name() {
			case "tt.advance", "tt.load", "tt.store":
				ok = i == 0
			case "scf.for":
				ok = i >= 3
			case "scf.yield":
				p := op.ParentOp()
				ok = p != nil && (p.Name() == "scf.for" || p.Name() == "scf.if")
			}
			if !ok {
				return fail(op, "operand %d of %s is a block pointer; only tt.advance, tt.load, tt.store, scf.for and scf.yield of scf.for and scf.if take them", i, op.Name())
			}
		}
		switch op.Name() {
		case "tt.make_tensor_ptr":
			if op.NumResults() != 1 || !isBlockPtr(op.Result(0).Type()) {
				return fail(op, "expected one block pointer result")
			}
			t := op.Result(0).Type().(*ir.PointerType).Pointee.(*ir.RankedTensorType)
			if t.Encoding != nil {
				return fail(op, "the block's tensor type %s has a layout encoding; the pass rewrites Triton IR (no encodings)", ir.TypeString(t))
			}
			if op.NumOperands() != 1+3*len(t.Shape) {
				return fail(op, "expected %d shape, stride and offset operands for a rank-%d block, got %d", 3*len(t.Shape), len(t.Shape), op.NumOperands()-1)
			}
			if _, ok := op.Operand(0).Type().(*ir.PointerType); !ok {
				return fail(op, "the base is not a pointer")
			}
			_, _, _, offs := makeTensorPtrParts(op)
			for _, o := range offs {
				if !narrowInt(o.Type()) {
					return fail(op, "offset of type %s: expected an integer narrower than i64", ir.TypeString(o.Type()))
				}
			}
		case "tt.advance":
			if op.NumOperands() == 0 || op.NumResults() != 1 || !isBlockPtr(op.Operand(0).Type()) || !isBlockPtr(op.Result(0).Type()) {
				return fail(op, "expected a block pointer operand and result")
			}
			if op.NumOperands()-1 != blockPtrRank(op.Operand(0).Type()) {
				return fail(op, "expected %d offsets, got %d", blockPtrRank(op.Operand(0).Type()), op.NumOperands()-1)
			}
			for _, o := range op.Operands()[1:] {
				if !narrowInt(o.Type()) {
					return fail(op, "offset of type %s: expected an integer narrower than i64", ir.TypeString(o.Type()))
				}
			}
		case "tt.load", "tt.store":
			if op.NumOperands() == 0 || !isBlockPtr(op.Operand(0).Type()) {
				break
			}
			if op.NamedOperand("mask") != nil || op.Name() == "tt.load" && op.NamedOperand("other") != nil {
				return fail(op, "a %s of a block pointer has no mask or other", op.Name())
			}
			rank := blockPtrRank(op.Operand(0).Type())
			for _, d := range ir.AttrInts(op.AttrOrDefault("boundaryCheck")) {
				if d < 0 || d >= int64(rank) {
					return fail(op, "boundaryCheck dimension %d is out of range for a rank-%d block", d, rank)
				}
			}
			if pad := op.Attr("padding"); op.Name() == "tt.load" && pad != nil {
				elem := ir.ElementType(op.Operand(0).Type().(*ir.PointerType).Pointee)
				_, isFloat := elem.(*ir.FloatType)
				_, isInt := elem.(*ir.IntegerType)
				switch {
				case !isFloat && !isInt:
					return fail(op, "padding of %s elements", ir.TypeString(elem))
				case ir.AttrIntValue(pad) == 2 && !isFloat:
					return fail(op, "NaN padding of %s elements", ir.TypeString(elem))
				}
			}
		case "scf.if":
			if !hasBlockPtrResult(op) {
				break
			}
			if op.NumRegions() != 2 || !yieldsAll(op.Region(0), op.NumResults()) || !yieldsAll(op.Region(1), op.NumResults()) {
				return fail(op, "expected both branches to end in an scf.yield of the %d results", op.NumResults())
			}
			y0, y1 := op.Region(0).Entry(), op.Region(1).Entry()
			for i, v := range y0.Last().Operands() {
				if isBlockPtr(v.Type()) && i < y1.Last().NumOperands() && origin(v) != origin(y1.Last().Operand(i)) {
					return fail(op, "result %d is a block pointer made by different tt.make_tensor_ptr ops in the two branches", i)
				}
			}
		case "scf.for":
			if !hasBlockPtrOperand(op) {
				break
			}
			if op.NumOperands() < 3 || op.NumRegions() != 1 || !yieldsAll(op.Region(0), op.NumOperands()-3) ||
				op.Region(0).Entry().NumArgs() != op.NumOperands()-2 || op.NumResults() != op.NumOperands()-3 {
				return fail(op, "expected a loop body with an induction variable and one argument and one result per iteration argument")
			}
			y := op.Region(0).Entry().Last()
			for i, init := range op.Operands()[3:] {
				if isBlockPtr(init.Type()) && y != nil && i < y.NumOperands() && origin(y.Operand(i)) != origin(init) {
					return fail(op, "iteration argument %d is a block pointer the loop replaces by one made by another tt.make_tensor_ptr", i)
				}
			}
		}
		return ir.Advance
	})
	return at, err
}

func hasBlockPtrResult(op *ir.Operation) bool {
	for _, v := range op.Results() {
		if isBlockPtr(v.Type()) {
			return true
		}
	}
	return false
}

// yieldsAll reports whether r is one block ending in an scf.yield of n
// values.
func yieldsAll(r *ir.Region, n int) bool {
	if len(r.Blocks) != 1 {
		return false
	}
	y := r.Entry().Last()
	return y != nil && y.Name() == "scf.yield" && y.NumOperands() == n
}

// narrowInt reports whether t is an integer type narrower than i64 (the
// offsets are sign-extended to i64).
func narrowInt(t ir.Type) bool {
	it, ok := t.(*ir.IntegerType)
	return ok && it.Width < 64
}

// rebuildWithResults makes, just before op, an op like it (name, operands,
// attributes, location) with results of types, and moves the ops of each of
// op's regions' entry block into the new op's (the regions of structured
// control flow have one block; an empty region stays empty). The caller
// replaces op's uses and erases it.
func rebuildWithResults(op *ir.Operation, types []ir.Type) *ir.Operation {
	n := ir.NewOperation(op.Name(), op.Operands(), types, nil, op.NumRegions())
	n.Props = append(n.Props, op.Props...)
	n.Attrs = append(n.Attrs, op.Attrs...)
	n.Loc = op.Loc
	n.SetPos(op.Pos())
	op.Block().InsertBefore(op, n)
	for i, reg := range op.Regions() {
		if reg.Entry() == nil {
			continue
		}
		nb := ir.NewBlock()
		n.Region(i).AddBlock(nb)
		for _, o := range reg.Entry().Ops() {
			o.Remove()
			nb.Append(o)
		}
	}
	return n
}
