package passes

import (
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/dialect/ttg"
	"github.com/layoutopt/layoutopt/ir"
)

// OptimizeDescriptorEncodingPass is Triton's
// -triton-nvidia-optimize-descriptor-encoding. See its Doc.
var OptimizeDescriptorEncodingPass = &Pass{
	Name:    "triton-nvidia-optimize-descriptor-encoding",
	Summary: "Give every tensor descriptor's block a shared encoding the TMA can write: the one its loads are stored to in shared memory, else Triton's default nvmma_shared (Triton 3.6's OptimizeDescriptorEncoding)",
	Doc: `Triton 3.6's OptimizeDescriptorEncoding, which make_ttgir runs before the TMA
lowering (that lowering needs each !tt.tensordesc block type to carry a shared
encoding). In each tt.func:

  - every use of a descriptor says what it wants: a tt.descriptor_load or
    tt.descriptor_gather whose result is stored to shared memory (a user
    ttg.local_alloc, or ttg.local_store, with a non-transposed
    #ttg.nvmma_shared) wants that encoding, so that the TMA writes the buffer
    itself; any load, gather, store or scatter contributes the shape it moves
    (the gathered rows for a gather, not the descriptor's one-row block);
  - a descriptor passed to or returned from a call, returned, or made by
    ttng.reinterpret_tensor_descriptor, and a descriptor parameter of a
    function that is not public (not a kernel), is forced to the default;
  - the wishes flow through scf.for, scf.while and scf.if (iteration
    arguments, results, yields, initial values) to a fixed point: two
    different wanted encodings force the default, shapes meet at their
    element-wise minimum;
  - each descriptor's type then takes its wanted encoding, or the default:
    Triton's NVMMASharedEncodingAttr::get for the shape (the used one unless
    forced), row-major: a 128-, 64- or 32-byte swizzle, the widest that the
    contiguous dimension's bytes are a multiple of, none when the other
    dimensions hold fewer than 8 rows or the rank is 1. The function's
    signature follows its arguments; a descriptor result takes the default.

As in Triton, the encodings a module's descriptors already carry are replaced.
Within an scf.while, the arguments of the "do" region are tied to the "before"
region's arguments, results and initial values as those are to each other (the
lit test of Triton 3.6 expects a descriptor carried through a while loop to
have one encoding in both regions). Modules over several CTAs are refused.`,
	Run: runOptimizeDescriptorEncoding,
}

func init() { MustRegister(OptimizeDescriptorEncodingPass) }

func runOptimizeDescriptorEncoding(ctx *Context, module *ir.Operation) error {
	if n, ok := module.IntAttr("ttg.num-ctas"); ok && n > 1 {
		return ctx.Errorf(module, "triton-nvidia-optimize-descriptor-encoding: modules over several CTAs (ttg.num-ctas = %d) are not supported", n)
	}
	body := entryBlock(module)
	if body == nil {
		return nil
	}
	for _, op := range body.Ops() {
		if op.Name() != "tt.func" {
			continue
		}
		if err := assignDescriptorEncodings(ctx, op); err != nil {
			return err
		}
	}
	return nil
}

// descInfo is what a descriptor's uses ask of its encoding (Triton's
// EncodingInfo, less the CTA layout: one CTA only).
type descInfo struct {
	desired *attr.NVMMAShared // the encoding a use stores its block in, or nil
	shape   []int64           // the block shape the uses move, or nil
	forced  bool              // the default encoding of the block's own shape
}

func (a descInfo) equal(b descInfo) bool {
	return a.forced == b.forced && slices.Equal(a.shape, b.shape) &&
		(a.desired == nil) == (b.desired == nil) && (a.desired == nil || attr.Equal(a.desired, b.desired))
}

// combine is Triton's combineEncodings.
func (a descInfo) combine(b descInfo) descInfo {
	if a.forced || b.forced {
		return descInfo{forced: true}
	}
	var r descInfo
	switch {
	case a.shape == nil || slices.Equal(a.shape, b.shape):
		r.shape = b.shape
	case b.shape == nil:
		r.shape = a.shape
	default:
		r.shape = make([]int64, len(a.shape))
		for i := range r.shape {
			r.shape[i] = min(a.shape[i], b.shape[i])
		}
	}
	switch {
	case a.desired != nil && b.desired != nil && !attr.Equal(a.desired, b.desired):
		r.forced = true
	case a.desired != nil:
		r.desired = a.desired
	default:
		r.desired = b.desired
	}
	return r
}

// descriptorUse returns the descriptor op uses and what the use asks of it
// (Triton's getUseInfo), or nil.
func descriptorUse(op *ir.Operation) (*ir.Value, descInfo) {
	var desc, moved *ir.Value
	load := false
	if l, ok := tt.AsDescriptorLoad(op); ok {
		desc, moved, load = l.Desc(), l.ResultValue(), true
	} else if g, ok := tt.AsDescriptorGather(op); ok {
		desc, moved, load = g.Desc(), g.ResultValue(), true
	} else if s, ok := tt.AsDescriptorStore(op); ok {
		desc, moved = s.Desc(), s.Src()
	} else if s, ok := tt.AsDescriptorScatter(op); ok {
		desc, moved = s.Desc(), s.Src()
	}
	if desc == nil {
		return nil, descInfo{}
	}
	dt, ok := desc.Type().(*ir.TensorDescType)
	if !ok || dt.Block == nil {
		return nil, descInfo{}
	}
	var info descInfo
	if load {
		info.desired = sharedEncodingOfUsers(moved)
	}
	if t, ok := moved.Type().(*ir.RankedTensorType); ok {
		info.shape = expandToRank(t.Shape, len(dt.Block.Shape))
	}
	return desc, info
}

// sharedEncodingOfUsers is Triton's findLoadEncodingFromUsers: the first
// TMA-compatible encoding (a non-transposed nvmma_shared) of a
// ttg.local_alloc or ttg.local_store of v.
func sharedEncodingOfUsers(v *ir.Value) *attr.NVMMAShared {
	for _, u := range v.Users() {
		var t ir.Type
		if a, ok := ttg.AsLocalAlloc(u); ok {
			t = a.ResultValue().Type()
		} else if s, ok := ttg.AsLocalStore(u); ok && s.Src() == v {
			t = s.Dst().Type()
		}
		md, ok := t.(*ir.MemDescType)
		if !ok {
			continue
		}
		if e, ok := md.Encoding.(*ir.EncodingAttr); ok {
			if n, ok := e.Enc.(*attr.NVMMAShared); ok && !n.Transposed {
				return n
			}
		}
	}
	return nil
}

// expandToRank pads shape with leading 1s to rank.
func expandToRank(shape []int64, rank int) []int64 {
	if len(shape) >= rank {
		return slices.Clone(shape)
	}
	r := make([]int64, rank)
	for i := range rank - len(shape) {
		r[i] = 1
	}
	copy(r[rank-len(shape):], shape)
	return r
}

// tiedDescValues is Triton's getTiedArgs for the descriptor values of
// structured control flow tied to op's result (or iteration argument) i.
func tiedDescValues(op *ir.Operation, i int) []*ir.Value {
	if op == nil || i < 0 {
		return nil
	}
	var vals []*ir.Value
	add := func(v *ir.Value) {
		if _, ok := v.Type().(*ir.TensorDescType); ok && !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	yieldOperand := func(r *ir.Region) {
		if r == nil || len(r.Blocks) == 0 {
			return
		}
		if y := r.Entry().Last(); y != nil && y.Name() == "scf.yield" && i < y.NumOperands() {
			add(y.Operand(i))
		}
	}
	region := func(k int) *ir.Region {
		if k < op.NumRegions() {
			return op.Region(k)
		}
		return nil
	}
	inRange := func(b *ir.Block, j int) bool { return b != nil && j < b.NumArgs() }
	switch op.Name() {
	case "scf.for":
		body := entryBlock(op)
		if !inRange(body, i+1) || i >= op.NumResults() || 3+i >= op.NumOperands() {
			return nil
		}
		add(body.Arg(i + 1))
		add(op.Result(i))
		yieldOperand(op.Region(0))
		add(op.Operand(3 + i))
	case "scf.while":
		before, after := region(0), region(1)
		if before == nil || !inRange(before.Entry(), i) || i >= op.NumResults() || i >= op.NumOperands() {
			return nil
		}
		add(before.Entry().Arg(i))
		add(op.Result(i))
		add(op.Operand(i))
		if after != nil && inRange(after.Entry(), i) {
			add(after.Entry().Arg(i))
		}
	case "scf.if":
		if i >= op.NumResults() {
			return nil
		}
		yieldOperand(region(0))
		yieldOperand(region(1))
		add(op.Result(i))
	}
	return vals
}

// assignDescriptorEncodings is Triton's assignMemoryLayouts for one
// function.
func assignDescriptorEncodings(ctx *Context, fn *ir.Operation) error {
	entry := entryBlock(fn)
	if entry == nil {
		return nil
	}
	infos := map[*ir.Value]descInfo{}
	var order []*ir.Value // insertion order, as Triton's MapVector
	var work []*ir.Value  // LIFO, a value at most once (PriorityWorklist)
	push := func(v *ir.Value) {
		if i := slices.Index(work, v); i >= 0 {
			work = slices.Delete(work, i, i+1)
		}
		work = append(work, v)
	}
	set := func(v *ir.Value, info descInfo) {
		if _, ok := infos[v]; !ok {
			order = append(order, v)
		}
		infos[v] = info
	}
	update := func(vals []*ir.Value, info descInfo) {
		for _, v := range vals {
			if old, ok := infos[v]; ok {
				info = old.combine(info)
			}
		}
		for _, v := range vals {
			if old, ok := infos[v]; !ok || !old.equal(info) {
				set(v, info)
				push(v)
			}
		}
	}
	isDesc := func(v *ir.Value) bool { _, ok := v.Type().(*ir.TensorDescType); return ok }

	// 1. Seeds: the uses, and the boundaries that force the default.
	kernel := true
	if v, ok := fn.Attr("sym_visibility").(*ir.StringAttr); ok && v.Value != "public" {
		kernel = false
	}
	for _, a := range entry.Args() {
		if isDesc(a) {
			update([]*ir.Value{a}, descInfo{forced: !kernel})
		}
	}
	fn.WalkPost(func(op *ir.Operation) ir.WalkResult {
		if op == fn {
			return ir.Advance
		}
		if desc, info := descriptorUse(op); desc != nil {
			update([]*ir.Value{desc}, info)
			return ir.Advance
		}
		forced := false
		switch op.Name() {
		case "tt.call", "tt.return", "ttng.reinterpret_tensor_descriptor":
			forced = true
		}
		for _, v := range append(op.Results(), op.Operands()...) {
			if !isDesc(v) {
				continue
			}
			if _, ok := infos[v]; !ok {
				set(v, descInfo{forced: forced})
			}
			if forced {
				push(v)
			}
		}
		return ir.Advance
	})

	// 2. Propagation through structured control flow to a fixed point.
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range v.Uses() {
			owner := u.Op
			switch owner.Name() {
			case "scf.for":
				update(tiedDescValues(owner, u.Index-3), descInfo{})
			case "scf.while":
				update(tiedDescValues(owner, u.Index), descInfo{})
			case "scf.yield":
				update(tiedDescValues(owner.ParentOp(), u.Index), descInfo{})
			}
		}
		if def := v.DefiningOp(); def != nil {
			switch def.Name() {
			case "scf.for", "scf.while", "scf.if":
				update(tiedDescValues(def, v.ResultIndex()), descInfo{})
			}
		} else if b := v.OwnerBlock(); b != nil {
			switch p := b.ParentOp(); {
			case p == nil:
			case p.Name() == "scf.for":
				update(tiedDescValues(p, v.ArgIndex()-1), descInfo{})
			case p.Name() == "scf.while":
				update(tiedDescValues(p, v.ArgIndex()), descInfo{})
			}
		}
	}

	// 3. The types.
	for _, v := range order {
		dt := v.Type().(*ir.TensorDescType)
		info := infos[v]
		var enc *attr.NVMMAShared
		switch {
		case info.desired != nil:
			e := *info.desired
			e.LayoutRank = len(dt.Block.Shape) // updateEncodingForShape
			enc = &e
		case info.forced:
			enc = defaultNVMMAShared(dt.Block.Shape, dt.Block.Elem)
		default:
			shape := info.shape
			if shape == nil {
				shape = dt.Block.Shape
			}
			enc = defaultNVMMAShared(shape, dt.Block.Elem)
		}
		if enc == nil {
			return ctx.Errorf(fn, "triton-nvidia-optimize-descriptor-encoding: no shared encoding for a descriptor of %s elements", ir.TypeString(dt.Block.Elem))
		}
		v.SetType(descWithEncoding(dt, enc))
	}
	ft, ok := fn.Attr("function_type").(*ir.TypeAttr)
	if !ok {
		return nil
	}
	sig, ok := ft.Type.(*ir.FunctionType)
	if !ok {
		return nil
	}
	ins := make([]ir.Type, len(entry.Args()))
	for i, a := range entry.Args() {
		ins[i] = a.Type()
	}
	outs := slices.Clone(sig.Results)
	for i, t := range outs {
		if dt, ok := t.(*ir.TensorDescType); ok && dt.Block != nil {
			if enc := defaultNVMMAShared(dt.Block.Shape, dt.Block.Elem); enc != nil {
				outs[i] = descWithEncoding(dt, enc)
			}
		}
	}
	fn.SetAttr("function_type", &ir.TypeAttr{Type: &ir.FunctionType{Inputs: ins, Results: outs}})
	return nil
}

// descWithEncoding returns dt with its block in encoding enc.
func descWithEncoding(dt *ir.TensorDescType, enc attr.Encoding) *ir.TensorDescType {
	return &ir.TensorDescType{Block: &ir.RankedTensorType{Shape: dt.Block.Shape, Elem: dt.Block.Elem, Encoding: &ir.EncodingAttr{Enc: enc}}}
}

// defaultNVMMAShared is Triton's NVMMASharedEncodingAttr::get for a
// row-major block of shape (one CTA, not fp4-padded): the widest of a
// 128-, 64- and 32-byte swizzle that the contiguous dimension's bytes are a
// multiple of, none below 8 rows or at rank 1. It returns nil for an
// element type without a bit width.
func defaultNVMMAShared(shape []int64, elem ir.Type) *attr.NVMMAShared {
	bits := elemBits(elem)
	if bits == 0 || len(shape) == 0 {
		return nil
	}
	rank := len(shape)
	contigBytes := shape[rank-1] * int64(bits) / 8
	swizzle := 0
	for _, w := range []int64{128, 64, 32} {
		if contigBytes >= w && contigBytes%w == 0 {
			swizzle = int(w)
			break
		}
	}
	outer := int64(1)
	for _, d := range shape[:rank-1] {
		outer *= d
	}
	if rank < 2 || outer < 8 {
		swizzle = 0
	}
	return &attr.NVMMAShared{SwizzlingByteWidth: swizzle, ElementBitWidth: bits, LayoutRank: rank}
}
