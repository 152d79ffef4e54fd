package passes

import (
	"fmt"

	"github.com/layoutopt/layoutopt/ir"
)

// RewriteTensorDescriptorToPointerPass is Triton's
// -triton-rewrite-tensor-descriptor-to-pointer: tensor descriptors become
// their parts, and their loads and stores tensors of pointers with masks.
var RewriteTensorDescriptorToPointerPass = &Pass{
	Name:    "triton-rewrite-tensor-descriptor-to-pointer",
	Summary: "Rewrite tensor descriptors (tt.make_tensor_descriptor, tt.descriptor_load/store) into pointers, shapes and strides, and their accesses into tensors of pointers with masks (Triton 3.6's RewriteTensorDescriptorToPointer)",
	Doc: `Triton 3.6's RewriteTensorDescriptorToPointer, for targets without TMA (and
for running a descriptor kernel anywhere). A !tt.tensordesc<tensor<B0x..xT>>
of rank r stands for 2r+2 values: the base pointer !tt.ptr<T>, the r sizes
(i64), the r strides (i64) and an i1 that is true where out-of-bounds
elements read as NaN (padding = 2) rather than 0.

- tt.make_tensor_descriptor %p, [sizes : i32], [strides : i64] is those
  values: the sizes sign-extended (arith.extsi), the flag an arith.constant.
- A function's descriptor arguments and results become their parts, in
  place (its function_type, entry block and arg_attrs follow; a part has no
  attributes); a tt.call passes and returns the parts, a tt.return returns
  them.
- tt.descriptor_load %d[%i...] is a tt.load of the tensor of pointers
  splat(base) + Σ_d broadcast(expand_dims(splat(extsi(%i_d)) +
  extsi(make_range(0, B_d))) * splat(stride_d)), masked to 0 <= index_d <
  size_d in every dimension, the other value 0 (arith.select with the flag
  between NaN and 0 for floats, unless the flag is a constant). It keeps
  its cache and evict attributes. tt.descriptor_store is the masked
  tt.store.

Triton runs it on Triton IR; this one also takes TritonGPU IR, where the
loaded (stored) tensor's layout is that of the pointers, the mask and the
other value, and its slices those of the ranges and partly expanded
offsets (the descriptor's shared encoding, for TMA, is dropped with it):
what layout-translate needs to lower a kernel with descriptors without
TMA. A descriptor used by any other op (scf.for, scf.if or scf.while
results and arguments, descriptor gathers, scatters, reductions and
prefetches, TMA ops), a loaded tensor whose encoding is not a distributed
layout or whose rank is not the descriptor's (a rank-reducing access), or
an access with other than one index per dimension, is a located error
that leaves the module unchanged.`,
	Run: runRewriteTensorDescriptor,
}

func init() { MustRegister(RewriteTensorDescriptorToPointerPass) }

// descParts are the values a tensor descriptor stands for.
type descParts struct {
	ptr            *ir.Value
	shape, strides []*ir.Value // i64
	nan            *ir.Value   // i1: pad with NaN
	block          *ir.RankedTensorType
}

// newDescParts splits vs, the values of descTypes(d), into a descriptor's
// parts.
func newDescParts(d *ir.TensorDescType, vs []*ir.Value) *descParts {
	rank := len(d.Block.Shape)
	return &descParts{ptr: vs[0], shape: vs[1 : 1+rank], strides: vs[1+rank : 1+2*rank], nan: vs[1+2*rank], block: d.Block}
}

// descAccess is a tt.descriptor_load's loaded tensor type or a
// tt.descriptor_store's stored one, and its indices.
func descAccess(op *ir.Operation) (ir.Type, []*ir.Value) {
	if op.Name() == "tt.descriptor_load" {
		return op.Result(0).Type(), op.Operands()[1:]
	}
	return op.Operand(1).Type(), op.Operands()[2:]
}

func (p *descParts) values() []*ir.Value {
	return append(append(append([]*ir.Value{p.ptr}, p.shape...), p.strides...), p.nan)
}

// descTypes are the types of the parts of a descriptor of type t.
func descTypes(t *ir.TensorDescType) []ir.Type {
	r := len(t.Block.Shape)
	ts := []ir.Type{&ir.PointerType{Pointee: t.Block.Elem, AddrSpace: 1}}
	for range 2 * r {
		ts = append(ts, ir.I64)
	}
	return append(ts, ir.I1)
}

// expandTypes replaces each descriptor type of ts by its parts' types.
func expandTypes(ts []ir.Type) []ir.Type {
	var out []ir.Type
	for _, t := range ts {
		if d, ok := t.(*ir.TensorDescType); ok {
			out = append(out, descTypes(d)...)
		} else {
			out = append(out, t)
		}
	}
	return out
}

func runRewriteTensorDescriptor(ctx *Context, module *ir.Operation) error {
	if op, err := checkTensorDescriptors(module); err != nil {
		return ctx.Errorf(op, "triton-rewrite-tensor-descriptor-to-pointer: %v", err)
	}
	r := &descRewriter{parts: map[*ir.Value]*descParts{}}
	for _, reg := range module.Regions() {
		for _, b := range reg.Blocks {
			for _, fn := range b.Ops() {
				if fn.Name() == "tt.func" {
					r.function(fn)
				}
			}
		}
	}
	if !r.changed {
		return nil
	}
	for i := len(r.erase) - 1; i >= 0; i-- {
		if err := r.erase[i].Erase(); err != nil {
			return ctx.Errorf(r.erase[i], "triton-rewrite-tensor-descriptor-to-pointer: %v", err)
		}
	}
	for _, o := range r.oldArgs {
		for range o.n {
			if err := o.entry.EraseArg(0); err != nil {
				return ctx.Errorf(o.fn, "triton-rewrite-tensor-descriptor-to-pointer: %v", err)
			}
		}
	}
	ctx.MarkChanged()
	return nil
}

// checkTensorDescriptors finds what the pass cannot rewrite: a descriptor
// made or used by an op other than those the pass rewrites (or carried in
// a block argument but a function's), a loaded or stored tensor whose
// encoding is not a distributed layout or whose rank is not the
// descriptor's (Triton's rank-reducing loads), indices not one per
// dimension.
func checkTensorDescriptors(module *ir.Operation) (*ir.Operation, error) {
	var bad *ir.Operation
	var err error
	isDesc := func(v *ir.Value) bool { _, ok := v.Type().(*ir.TensorDescType); return ok }
	module.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "tt.descriptor_load" || op.Name() == "tt.descriptor_store" {
			t, idx := descAccess(op)
			if d, ok := op.Operand(0).Type().(*ir.TensorDescType); ok {
				rank := len(d.Block.Shape)
				if len(idx) != rank {
					bad, err = op, fmt.Errorf("%d indices for a descriptor of rank %d", len(idx), rank)
					return ir.Interrupt
				}
				if len(ir.ShapeOrScalar(t)) != rank {
					bad, err = op, fmt.Errorf("a tensor of rank %d through a descriptor of rank %d (a rank-reducing access) is not supported", len(ir.ShapeOrScalar(t)), rank)
					return ir.Interrupt
				}
			}
			if rt, ok := t.(*ir.RankedTensorType); ok && rt.Encoding != nil {
				if e, ok := rt.Encoding.(*ir.EncodingAttr); !ok || !isDistributed(e.Enc) {
					bad, err = op, fmt.Errorf("the tensor has the encoding %s, not a distributed layout", ir.AttrString(rt.Encoding))
					return ir.Interrupt
				}
			}
		}
		for _, reg := range op.Regions() {
			for _, b := range reg.Blocks {
				for _, a := range b.Args() {
					if isDesc(a) && (op.Name() != "tt.func" || b != reg.Entry()) {
						bad, err = op, fmt.Errorf("%s carries a tensor descriptor in a block argument", op.Name())
						return ir.Interrupt
					}
				}
			}
		}
		uses := false
		for _, v := range op.Operands() {
			uses = uses || isDesc(v)
		}
		makes := false
		for _, v := range op.Results() {
			makes = makes || isDesc(v)
		}
		switch op.Name() {
		case "tt.make_tensor_descriptor", "tt.call", "tt.descriptor_load", "tt.descriptor_store", "tt.return":
			// tt.descriptor_load and tt.descriptor_store make none.
		default:
			if uses || makes {
				bad, err = op, fmt.Errorf("%s takes or makes a tensor descriptor, which the pass does not rewrite", op.Name())
				return ir.Interrupt
			}
		}
		return ir.Advance
	})
	return bad, err
}

type descRewriter struct {
	parts   map[*ir.Value]*descParts
	erase   []*ir.Operation
	oldArgs []oldArgs
	changed bool
}

// oldArgs are the first n arguments of a function's entry block, replaced.
type oldArgs struct {
	fn    *ir.Operation
	entry *ir.Block
	n     int
}

// function rewrites fn's signature and body.
func (r *descRewriter) function(fn *ir.Operation) {
	ft, ok := fn.Attr("function_type").(*ir.TypeAttr)
	if !ok {
		return
	}
	sig, ok := ft.Type.(*ir.FunctionType)
	if !ok {
		return
	}
	ins, outs := expandTypes(sig.Inputs), expandTypes(sig.Results)
	if len(ins) != len(sig.Inputs) || len(outs) != len(sig.Results) {
		fn.SetAttr("function_type", &ir.TypeAttr{Type: &ir.FunctionType{Inputs: ins, Results: outs}})
		r.changed = true
	}
	entry := entryBlock(fn)
	if entry == nil || len(ins) == len(sig.Inputs) {
		if entry != nil {
			r.block(entry)
		}
		return
	}
	// The new arguments, appended in order; then the old ones go.
	old := entry.Args()
	n := len(old)
	var attrs []ir.Attribute
	oldAttrs, _ := fn.Attr("arg_attrs").(*ir.ArrayAttr)
	for i, a := range old {
		var at ir.Attribute = &ir.DictionaryAttr{}
		if oldAttrs != nil && i < len(oldAttrs.Elems) {
			at = oldAttrs.Elems[i]
		}
		if d, ok := a.Type().(*ir.TensorDescType); ok {
			var vs []*ir.Value
			for _, t := range descTypes(d) {
				vs = append(vs, entry.AddArg(t))
				attrs = append(attrs, &ir.DictionaryAttr{})
			}
			r.parts[a] = newDescParts(d, vs)
			continue
		}
		v := entry.AddArg(a.Type())
		v.NameHint = a.NameHint
		a.ReplaceAllUsesWith(v)
		attrs = append(attrs, at)
	}
	r.block(entry)
	// The old arguments go once the ops using them have (run).
	r.oldArgs = append(r.oldArgs, oldArgs{fn, entry, n})
	if oldAttrs != nil {
		fn.SetAttr("arg_attrs", &ir.ArrayAttr{Elems: attrs})
	}
}

func (r *descRewriter) block(b *ir.Block) {
	for op := b.First(); op != nil; op = op.Next() {
		r.rewrite(op)
		for _, reg := range op.Regions() {
			for _, blk := range reg.Blocks {
				r.block(blk)
			}
		}
	}
}

func (r *descRewriter) rewrite(op *ir.Operation) {
	b := opBuilder{at: op}
	switch op.Name() {
	case "tt.make_tensor_descriptor":
		d := op.Result(0).Type().(*ir.TensorDescType)
		rank := len(d.Block.Shape)
		p := &descParts{ptr: op.Operand(0), block: d.Block}
		for i := range rank {
			p.shape = append(p.shape, b.create("arith.extsi", []*ir.Value{op.Operand(1 + i)}, []ir.Type{ir.I64}).Result(0))
		}
		p.strides = op.Operands()[1+rank : 1+2*rank]
		p.nan = b.constInt(int64(btoi(ir.AttrIntValue(op.Attr("padding")) == 2)), ir.I1)
		r.parts[op.Result(0)] = p
		r.erase = append(r.erase, op)
		r.changed = true
	case "tt.descriptor_load", "tt.descriptor_store":
		p := r.parts[op.Operand(0)]
		tensor, idx := descAccess(op)
		in := &blockPtrInfo{base: p.ptr, shape: p.shape, strides: p.strides, block: p.block.Shape}
		for _, i := range idx {
			in.offsets = append(in.offsets, b.create("arith.extsi", []*ir.Value{i}, []ir.Type{ir.I64}).Result(0))
		}
		g := &ptrGen{b: b, in: in, expanded: map[int]*ir.Value{}}
		if rt, ok := tensor.(*ir.RankedTensorType); ok {
			g.enc = rt.Encoding
		}
		ptr := g.ptr()
		dims := make([]int64, len(p.block.Shape))
		for i := range dims {
			dims[i] = int64(i)
		}
		mask := g.mask(dims)
		var attrs []ir.NamedAttr
		for _, n := range []string{"cache", "evict"} {
			if a := op.Attr(n); a != nil {
				attrs = append(attrs, ir.NamedAttr{Name: n, Value: a})
			}
		}
		if op.Name() == "tt.descriptor_load" {
			other := r.padding(g, p)
			load := b.create("tt.load", []*ir.Value{ptr, mask, other}, []ir.Type{op.Result(0).Type()}, append(attrs, ir.Segments(1, 1, 1))...)
			op.Result(0).ReplaceAllUsesWith(load.Result(0))
		} else {
			b.create("tt.store", []*ir.Value{ptr, op.Operand(1), mask}, nil, attrs...)
		}
		r.erase = append(r.erase, op)
		r.changed = true
	case "tt.call", "tt.return":
		if !hasDescOperand(op) && !hasDescResult(op) {
			return
		}
		var operands []*ir.Value
		for _, v := range op.Operands() {
			if p, ok := r.parts[v]; ok {
				operands = append(operands, p.values()...)
			} else {
				operands = append(operands, v)
			}
		}
		var results []ir.Type
		for _, v := range op.Results() {
			results = append(results, v.Type())
		}
		if !hasDescResult(op) {
			op.SetOperands(operands)
			r.changed = true
			return
		}
		call := b.create(op.Name(), operands, expandTypes(results), append(append([]ir.NamedAttr{}, op.Props...), op.Attrs...)...)
		k := 0
		for _, v := range op.Results() {
			if d, ok := v.Type().(*ir.TensorDescType); ok {
				n := len(descTypes(d))
				r.parts[v] = newDescParts(d, call.Results()[k:k+n])
				k += n
				continue
			}
			call.Result(k).NameHint = v.NameHint
			v.ReplaceAllUsesWith(call.Result(k))
			k++
		}
		r.erase = append(r.erase, op)
		r.changed = true
	}
}

// padding is a load's other value: 0, or for floats NaN where the
// descriptor pads with NaN (a select unless the flag is a constant).
func (r *descRewriter) padding(g *ptrGen, p *descParts) *ir.Value {
	zero := g.other(1)
	if _, ok := p.block.Elem.(*ir.FloatType); !ok {
		return zero
	}
	if c := p.nan.DefiningOp(); c != nil && c.Name() == "arith.constant" {
		if ir.AttrBoolValue(c.Attr("value")) {
			return g.other(2)
		}
		return zero
	}
	nan := g.other(2)
	cond := g.b.create("tt.splat", []*ir.Value{p.nan}, []ir.Type{ir.WithElem(zero.Type(), ir.I1)}).Result(0)
	return g.b.create("arith.select", []*ir.Value{cond, nan, zero}, []ir.Type{zero.Type()}).Result(0)
}

func hasDescOperand(op *ir.Operation) bool {
	for _, v := range op.Operands() {
		if _, ok := v.Type().(*ir.TensorDescType); ok {
			return true
		}
	}
	return false
}

func hasDescResult(op *ir.Operation) bool {
	for _, v := range op.Results() {
		if _, ok := v.Type().(*ir.TensorDescType); ok {
			return true
		}
	}
	return false
}
