package passes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/smem"
)

// Helpers shared by the shared-memory passes (insert-shared-round-trips,
// tritongpu-reduce-data-duplication, bank-conflicts).

// moduleTarget returns the ttg.target of the nearest enclosing op that has
// one ("cuda:90", "hip:gfx942", ...), or "".
func moduleTarget(op *ir.Operation) string {
	for o := op; o != nil; o = o.ParentOp() {
		if s, ok := o.Attr("ttg.target").(*ir.StringAttr); ok {
			return s.Value
		}
	}
	return ""
}

// targetCC returns the compute capability of a "cuda:NN" target and true,
// or 0 and false for any other target (or none).
func targetCC(target string) (int, bool) {
	rest, ok := strings.CutPrefix(target, "cuda:")
	if !ok {
		return 0, false
	}
	cc, err := strconv.Atoi(strings.TrimRight(rest, "af"))
	if err != nil {
		return 0, false
	}
	return cc, true
}

// smemTarget picks the swizzling variant for op from a compute-capability
// option (0: from the module's ttg.target, cuda:NN → NN, another target
// such as hip:… → Triton's generic path, no target → 80) and the generic
// flag.
func smemTarget(op *ir.Operation, ccOpt int, generic bool) smem.Target {
	if generic {
		return smem.Target{}
	}
	if ccOpt > 0 {
		return smem.Target{ComputeCapability: ccOpt}
	}
	t := moduleTarget(op)
	if cc, ok := targetCC(t); ok {
		return smem.Target{ComputeCapability: cc}
	}
	if t != "" {
		return smem.Target{}
	}
	return smem.Target{ComputeCapability: 80}
}

// elemBits returns the bit width of a tensor's element as Triton's
// getBitwidth has it: 64 for pointers, the type's width otherwise (0 when
// unknown).
func elemBits(t ir.Type) int {
	switch e := ir.ElementType(t).(type) {
	case *ir.PointerType:
		return 64
	case *ir.IntegerType:
		return e.Width
	case *ir.FloatType:
		return e.FloatBits()
	case *ir.IndexType:
		return 64
	}
	return 0
}

// accessBits is the element width a shared-memory access moves: sub-byte
// elements travel as bytes.
func accessBits(t ir.Type) int { return max(elemBits(t), 8) }

// cvtPlan is a ttg.convert_layout with its layouts and, when it needs
// shared memory, Triton's plan for it.
type cvtPlan struct {
	op       *ir.Operation
	src, dst attr.Encoding
	shape    []int
	srcLL    linear.Layout
	dstLL    linear.Layout
	plan     *smem.Plan
}

// planConvert classifies (and plans) a ttg.convert_layout of distributed
// layouts. It returns nil without an error for a conversion it does not
// apply to (not tensors of distributed layouts, or shared-memory layouts).
func planConvert(op *ir.Operation, t smem.Target) (*cvtPlan, error) {
	if op.NumOperands() != 1 || op.NumResults() != 1 {
		return nil, nil
	}
	_, se, shape := tensorInfo(op.Operand(0).Type())
	_, de, _ := tensorInfo(op.Result(0).Type())
	if !isDistributed(se) || !isDistributed(de) {
		return nil, nil
	}
	bw := elemBits(op.Operand(0).Type())
	if bw == 0 {
		return nil, nil
	}
	sl, err := attr.Linear(se, shape)
	if err != nil {
		return nil, err
	}
	dl, err := attr.Linear(de, shape)
	if err != nil {
		return nil, err
	}
	p, err := smem.PlanConversion(sl, dl, bw, t)
	if err != nil {
		return nil, err
	}
	return &cvtPlan{op: op, src: se, dst: de, shape: shape, srcLL: sl, dstLL: dl, plan: p}, nil
}

func isDistributed(e attr.Encoding) bool {
	_, ok := e.(attr.Distributed)
	return ok
}

// withinCTA reports whether the plan is a shared-memory round trip inside
// one CTA with a scratch layout (not cross-CTA, one CTA per layout).
func (c *cvtPlan) withinCTA() bool {
	return c.plan.Kind == smem.SharedMemory && !c.plan.CrossCTA &&
		c.srcLL.InDimSize("block") <= 1 && c.dstLL.InDimSize("block") <= 1
}

// orderPerDim is Triton's orderPerDim: the tensor dims in the order in
// which the bases of in-dim in first move them, then the dims of def not
// yet listed.
func orderPerDim(l linear.Layout, in string, def []int) []int {
	var order []int
	if l.HasInDim(in) {
		for _, b := range l.Bases(in) {
			for d, x := range b {
				if x != 0 {
					if !slices.Contains(order, d) {
						order = append(order, d)
					}
					break
				}
			}
		}
	}
	for _, d := range def {
		if !slices.Contains(order, d) {
			order = append(order, d)
		}
	}
	return order
}

// orderForMemory is Triton's getOrderForMemory: the register order of the
// layout, unless it differs from the lane order and the lane order's
// fastest dim holds one element per thread, in which case the lane order.
func orderForMemory(l linear.Layout) []int {
	rank := l.NumOutDims()
	def := make([]int, rank)
	for i := range def {
		def[i] = rank - 1 - i
	}
	order := orderPerDim(l, "register", def)
	thread := orderPerDim(l, "lane", order)
	if slices.Equal(order, thread) {
		return order
	}
	// basesPerDim(register, skipBroadcast = false): a zero basis doubles
	// the dim of the last nonzero one seen (dim 0 before any).
	per := make([]int, rank)
	for i := range per {
		per[i] = 1
	}
	last := 0
	for _, b := range l.Bases("register") {
		if d := slices.IndexFunc(b, func(x int) bool { return x != 0 }); d >= 0 {
			last = d
		}
		per[last] *= 2
	}
	if per[thread[0]] == 1 {
		return thread
	}
	return order
}

// cgaOf returns the CGA layout of a distributed layout: its block bases.
func cgaOf(l linear.Layout) attr.CGALayout {
	if !l.HasInDim("block") || l.InDimSize("block") <= 1 {
		return attr.CGALayout{}
	}
	return attr.CGALayout{Bases: l.Bases("block")}
}

// sharedEncodingFor returns the encoding that states the shared layout l
// (in-dims offset, block) of a tensor of the given shape: the simplest
// #ttg.swizzled_shared whose layout equals l, else a #ttg.shared_linear
// with alignment 16.
func sharedEncodingFor(l linear.Layout, shape []int) (attr.Layout, error) {
	if s := swizzledMatching(l, shape); s != nil {
		return s, nil
	}
	return attr.FromLinear(l)
}

// swizzledMatching searches the #ttg.swizzled_shared encodings that could
// state l: the order is read off l's offset bases (the columns of order[0]
// come first, then the rows); vec, perPhase and maxPhase are tried as powers
// of two, maxPhase first so that an unswizzled layout is 1, 1, 1.
func swizzledMatching(l linear.Layout, shape []int) *attr.SwizzledShared {
	rank := len(shape)
	if !l.HasInDim("offset") || l.InDimSize("block") > 1 {
		return nil
	}
	order := orderPerDim(l, "offset", nil)
	if len(order) != rank {
		for d := rank - 1; d >= 0; d-- {
			if !slices.Contains(order, d) {
				order = append(order, d)
			}
		}
	}
	try := func(vec, perPhase, maxPhase int) *attr.SwizzledShared {
		s := &attr.SwizzledShared{Vec: vec, PerPhase: perPhase, MaxPhase: maxPhase, Order: order}
		sl, err := s.ToLinear(shape)
		if err != nil || !sl.Equal(l) {
			return nil
		}
		return s
	}
	if rank < 2 {
		return try(1, 1, 1)
	}
	cols, rows := shape[order[0]], shape[order[1]]
	if s := try(1, 1, 1); s != nil {
		return s
	}
	for maxPhase := 2; maxPhase <= cols; maxPhase *= 2 {
		for vec := 1; vec*maxPhase <= cols; vec *= 2 {
			for perPhase := 1; perPhase < rows; perPhase *= 2 {
				if s := try(vec, perPhase, maxPhase); s != nil {
					return s
				}
			}
		}
	}
	return nil
}

// memDesc returns !ttg.memdesc<shape x elem, enc, #ttg.shared_memory>.
func memDesc(shape []int64, elem ir.Type, enc attr.Encoding) *ir.MemDescType {
	return &ir.MemDescType{
		Shape:       slices.Clone(shape),
		Elem:        elem,
		Encoding:    &ir.EncodingAttr{Enc: enc},
		MemorySpace: &ir.EncodingAttr{Enc: attr.SharedMemory{}},
	}
}

// replaceWithRoundTrip replaces the conversion op by local_alloc of its
// source into a memdesc of encoding enc and local_load to its result type.
// Both take the conversion's location and source position, so that
// diagnostics about them point at the conversion they replace.
func replaceWithRoundTrip(op *ir.Operation, enc attr.Encoding) {
	src := op.Operand(0)
	rt := src.Type().(*ir.RankedTensorType)
	alloc := ir.NewOperation("ttg.local_alloc", []*ir.Value{src}, []ir.Type{memDesc(rt.Shape, rt.Elem, enc)}, nil, 0)
	alloc.Loc = op.Loc
	alloc.SetPos(op.Pos())
	load := ir.NewOperation("ttg.local_load", []*ir.Value{alloc.Result(0)}, []ir.Type{op.Result(0).Type()}, nil, 0)
	load.Loc = op.Loc
	load.SetPos(op.Pos())
	op.Block().InsertBefore(op, alloc)
	op.Block().InsertBefore(op, load)
	op.Result(0).ReplaceAllUsesWith(load.Result(0))
	if err := op.Erase(); err != nil {
		panic(fmt.Sprintf("passes: erasing a replaced conversion: %v", err))
	}
}

// conversions lists the ttg.convert_layout ops under op, in program order.
func conversions(op *ir.Operation) []*ir.Operation {
	var cvts []*ir.Operation
	op.Walk(func(o *ir.Operation) ir.WalkResult {
		if o.Name() == opConvert {
			cvts = append(cvts, o)
		}
		return ir.Advance
	})
	return cvts
}
