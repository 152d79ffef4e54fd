package passes

import (
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/axisinfo"
	"github.com/layoutopt/layoutopt/ir"
)

// CoalescePass is coalesce (alias tritongpu-coalesce), Triton 3.6's pass
// that gives every global memory access the layout that reads or writes
// memory in the widest, coalesced pieces. See its Doc.
var CoalescePass = &Pass{
	Name:    "coalesce",
	Summary: "Give global loads, stores and atomics the #ttg.blocked layout that makes their accesses coalesced and as wide as the pointers' alignment allows (Triton's pass)",
	Anchor:  "builtin.module",
	Aliases: []string{"tritongpu-coalesce"},
	Doc: `Triton 3.6's tritongpu-coalesce (Coalesce.cpp, CoalesceUtils.cpp). For every
tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas and ttg.async_copy_global_to_local
whose pointer is a tensor of pointers, the axis analysis (package axisinfo, which reads
the arguments' tt.divisibility, tt.contiguity and tt.constancy) of the pointer gives

  order     = the dims by decreasing contiguity (ties: in dim order)
  perThread = min(divisibility[order[0]] / element bytes, contiguity[order[0]],
                  shape per CTA[order[0]], 128 bits / element bits)

raised to the largest perThread of the other memory ops connected to it through
def-use chains (mlir::getSlice) whose pointers have the same shape and order, then
capped at the elements per thread (elements / (warps * lanes), at least 1) and, for
anything but a load, at the op's own perThread again (a store wider than one vector
would leave gaps in the warp's writes). The layout is the #ttg.blocked with
sizePerThread[order[0]] = perThread (1 elsewhere) built by
BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, threadsPerWarp, CGA)
(attr.NewBlocked). tt.descriptor_load, tt.descriptor_store and tt.descriptor_reduce
get a row-major #ttg.blocked with min(elements per thread, 128 bits) per thread along
the last dim.

Each op then takes that layout: every tensor operand is converted to it (a
ttg.convert_layout even where the layout is already the one, as Triton does; the
canonicalizer or remove-redundant-conversions removes those) and every tensor result
is converted back to its old layout for the users. tt.descriptor_gather and
tt.descriptor_scatter, whose offsets have another rank than their data, are left
alone; so are accesses through block pointers (!tt.ptr<tensor<...>>) and
tensors without a layout. Run remove-redundant-conversions afterwards to propagate
the new layouts.`,
	Run: runCoalesce,
}

func init() { MustRegister(CoalescePass) }

func runCoalesce(ctx *Context, mod *ir.Operation) error {
	type access struct {
		op  *ir.Operation
		enc attr.Encoding
	}
	var plan []access
	threadsPerWarp := 32
	if n, ok := mod.IntAttr("ttg.threads-per-warp"); ok {
		threadsPerWarp = int(n)
	}
	var err error
	mod.Walk(func(fn *ir.Operation) ir.WalkResult {
		if fn.Name() != "tt.func" {
			return ir.Advance
		}
		c := &coalescer{axis: axisinfo.Analyze(fn), threadsPerWarp: threadsPerWarp}
		fn.Walk(func(op *ir.Operation) ir.WalkResult {
			if err != nil {
				return ir.Interrupt
			}
			var enc attr.Encoding
			switch {
			case memAccessPtr(op) != nil:
				enc, err = c.encoding(ctx, op)
			case op.Name() == "tt.descriptor_load" || op.Name() == "tt.descriptor_store" || op.Name() == "tt.descriptor_reduce":
				enc, err = descriptorEncoding(ctx, op, threadsPerWarp)
			}
			if enc != nil {
				plan = append(plan, access{op, enc})
			}
			return ir.Advance
		})
		return ir.Skip
	})
	if err != nil {
		return err
	}
	for _, a := range plan {
		convertOpEncoding(a.op, a.enc)
	}
	if len(plan) > 0 {
		regenerateAttrAliases(ctx.Module)
		ctx.MarkChanged()
	}
	return nil
}

// memAccessPtr is Triton's getMemAccessPtr restricted to tensors of
// pointers with a layout: the pointers op reads or writes global memory
// through, or nil.
func memAccessPtr(op *ir.Operation) *ir.Value {
	switch op.Name() {
	case "tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "ttg.async_copy_global_to_local":
	default:
		return nil
	}
	if op.NumOperands() == 0 {
		return nil
	}
	p := op.Operand(0)
	rt, enc, _ := tensorInfo(p.Type())
	if rt == nil || !isDistributed(enc) {
		return nil
	}
	if _, ok := rt.Elem.(*ir.PointerType); !ok {
		return nil
	}
	return p
}

type coalescer struct {
	axis           *axisinfo.Analysis
	threadsPerWarp int
}

// encoding is buildCoalescedEncoding: the #ttg.blocked layout for the
// memory op op.
func (c *coalescer) encoding(ctx *Context, op *ir.Operation) (attr.Encoding, error) {
	ptr := memAccessPtr(op)
	_, enc, shape := tensorInfo(ptr.Type())
	numWarps, cga, perCTA, err := ctaShape(ctx, op, enc, shape)
	if err != nil {
		return nil, err
	}
	order := orderFromContiguity(c.axis.Get(ptr).Contiguity)

	perThread := c.elemsPerThread(ptr, order, perCTA)
	if ptr.DefiningOp() != nil {
		for _, other := range defUseComponent(op) {
			q := memAccessPtr(other)
			if other == op || q == nil || !slices.Equal(ir.IntShape(q.Type()), shape) ||
				!slices.Equal(orderFromContiguity(c.axis.Get(q).Contiguity), order) {
				continue
			}
			perThread = max(perThread, c.elemsPerThread(q, order, perCTA))
		}
	}
	perThread = min(perThread, max(numElements(perCTA)/(numWarps*c.threadsPerWarp), 1))
	if op.Name() != "tt.load" {
		perThread = min(perThread, c.elemsPerThread(ptr, order, perCTA))
	}
	size := make([]int, len(shape))
	for i := range size {
		size[i] = 1
	}
	size[order[0]] = perThread
	return attr.NewBlocked(shape, size, order, numWarps, c.threadsPerWarp, cga), nil
}

// elemsPerThread is getNumElementsPerThread: how many elements along dim
// order[0] one access through ptr may cover, from the pointers' alignment
// and contiguity, at most 128 bits. Triton reads the divisibility into an
// unsigned, so a "divisible by anything" (2^62) counts as 0, then 1 element.
func (c *coalescer) elemsPerThread(ptr *ir.Value, order, perCTA []int) int {
	info := c.axis.Get(ptr)
	pointee, _ := ir.PointeeLike(ptr.Type())
	bits := elemBits(pointee)
	bytes := max(bits/8, 1)
	d := order[0]
	maxMultiple := max(int(uint32(info.Divisibility[d]))/bytes, 1)
	maxContig := int(min(info.Contiguity[d], int64(perCTA[d])))
	return min(maxMultiple, maxContig, 128/bits)
}

// orderFromContiguity is getOrderFromContiguity: the dims by decreasing
// contiguity, ties in dim order (a stable sort of 0, 1, ...; Triton 3.6
// gives the 4x16x32 pointers of a[i]*512 + b[j]*32 + c[k], contiguity
// [1, 1, 32], the order [2, 0, 1] — testdata/prepost/sum3d_axis0_*).
func orderFromContiguity(contig []int64) []int {
	order := make([]int, len(contig))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		switch {
		case contig[x] > contig[y]:
			return -1
		case contig[x] < contig[y]:
			return 1
		}
		return 0
	})
	return order
}

// defUseComponent is mlir::getSlice(op): the ops connected to op through
// def-use edges in either direction — the producers of operands (the op
// owning a block argument's block, short of an op isolated from above such
// as tt.func), the users of results and the ops nested in regions.
func defUseComponent(op *ir.Operation) []*ir.Operation {
	seen := map[*ir.Operation]bool{op: true}
	list := []*ir.Operation{op}
	add := func(o *ir.Operation) {
		if o != nil && !seen[o] {
			seen[o] = true
			list = append(list, o)
		}
	}
	for i := 0; i < len(list); i++ {
		o := list[i]
		for _, v := range o.Operands() {
			if d := v.DefiningOp(); d != nil {
				add(d)
			} else if b := v.OwnerBlock(); b != nil {
				if p := b.ParentOp(); p != nil && !p.HasTrait(ir.IsolatedFromAbove) {
					add(p)
				}
			}
		}
		for _, r := range o.Results() {
			for _, u := range r.Users() {
				add(u)
			}
		}
		for _, rg := range o.Regions() {
			for _, b := range rg.Blocks {
				for _, n := range b.Ops() {
					add(n)
				}
			}
		}
	}
	return list
}

// descriptorEncoding is pickDescriptorLoadStoreLayout: a row-major
// #ttg.blocked with up to 128 bits per thread along the last dim, for the
// data of a tensor descriptor load or store (nil when it has no layout).
func descriptorEncoding(ctx *Context, op *ir.Operation, threadsPerWarp int) (attr.Encoding, error) {
	data := op.Operand(1)
	if op.Name() == "tt.descriptor_load" {
		data = op.Result(0)
	}
	_, enc, shape := tensorInfo(data.Type())
	if !isDistributed(enc) {
		return nil, nil
	}
	numWarps, cga, perCTA, err := ctaShape(ctx, op, enc, shape)
	if err != nil {
		return nil, err
	}
	rank := len(shape)
	size := make([]int, rank)
	order := make([]int, rank)
	for i := range size {
		size[i] = 1
		order[i] = rank - 1 - i
	}
	size[rank-1] = min(max(numElements(perCTA)/(numWarps*threadsPerWarp), 1), 128/max(elemBits(data.Type()), 1))
	return attr.NewBlocked(shape, size, order, numWarps, threadsPerWarp, cga), nil
}

// ctaShape is what both layout builders need of memory op op whose tensor
// has layout enc and the given shape: the warps op runs with, the layout's
// CGA and the shape per CTA.
func ctaShape(ctx *Context, op *ir.Operation, enc attr.Encoding, shape []int) (int, attr.CGALayout, []int, error) {
	numWarps, ok := lookupNumWarps(op)
	if !ok {
		return 0, attr.CGALayout{}, nil, ctx.Errorf(op, "coalesce: no ttg.num-warps on the module or function")
	}
	if numWarps < 1 || numWarps&(numWarps-1) != 0 {
		return 0, attr.CGALayout{}, nil, ctx.Errorf(op, "coalesce: %d warps (ttg.num-warps): want a power of two", numWarps)
	}
	l, err := attr.Linear(enc, shape)
	if err != nil {
		return 0, attr.CGALayout{}, nil, ctx.Errorf(op, "%v", err)
	}
	cga := cgaOf(l)
	return numWarps, cga, shapePerCTA(cga, shape), nil
}

// convertOpEncoding is convertDistributedOpEncoding: op takes layout enc —
// each tensor operand converted to it, each tensor result converted back
// to its old layout for the users.
func convertOpEncoding(op *ir.Operation, enc attr.Encoding) {
	for i, v := range op.Operands() {
		if _, ok := v.Type().(*ir.RankedTensorType); !ok {
			continue
		}
		c := newConvert(v, enc, op.Loc)
		op.Block().InsertBefore(op, c)
		op.SetOperand(i, c.Result(0))
	}
	after := op
	for _, r := range op.Results() {
		old := r.Type()
		if _, ok := old.(*ir.RankedTensorType); !ok {
			continue
		}
		nt := withEncoding(old, enc)
		if ir.TypesEqual(nt, old) {
			continue
		}
		r.SetType(nt)
		c := ir.NewOperation(opConvert, []*ir.Value{r}, []ir.Type{old}, nil, 0)
		c.Loc = op.Loc
		op.Block().InsertAfter(after, c)
		after = c
		r.ReplaceUsesIf(c.Result(0), func(u ir.Use) bool { return u.Op != c })
	}
}
