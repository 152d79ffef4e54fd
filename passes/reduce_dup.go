package passes

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/smem"
)

// ReduceDataDuplicationPass is Triton 3.6's
// tritongpu-reduce-data-duplication. See its Doc.
var ReduceDataDuplicationPass = &Pass{
	Name:    "tritongpu-reduce-data-duplication",
	Summary: "Route conversions to #ttg.dot_op layouts that need shared memory through a #ttg.swizzled_shared local_alloc + local_load (Triton's pass)",
	Anchor:  "builtin.module",
	Doc: `Triton 3.6's ReduceDataDuplication: every ttg.convert_layout from a distributed
(non-shared) layout to a #ttg.dot_op layout that Triton lowers through shared
memory (cvtNeedsSharedMemory: not a register permutation, not a warp shuffle)
becomes

  %a = ttg.local_alloc %x : (tensor<..., #src>) -> !ttg.memdesc<..., #shared, #smem>
  %y = ttg.local_load %a : !ttg.memdesc<..., #shared, #smem> -> tensor<..., #dot_op>

with #shared = SwizzledSharedEncodingAttr::get(dotOp, shape, order, CTALayout, elemTy):
order is getOrderForMemory(src) (the register order of the source, or its lane
order when that differs and the lane order's fastest dim has one element per
thread); for a #ttg.nvidia_mma (Ampere or Hopper) parent, with bitwidth the
element width and K = shapePerCTA[order[0]],

  perPhase = max(1024 / (bitwidth * K), 1)
  vec = 4 * kWidth, mmaStride = 8, swapped when order[0] is not the K dim
  maxPhase = max(max(min(mmaStride, 1024 / (vec * bitwidth)), 1) / perPhase, 1)

and vec = perPhase = maxPhase = 1 for any other parent (a #ttg.blocked one).
AMD MFMA/WMMA parents, which Triton swizzles with composeSharedLayoutForOperand,
are not implemented: such conversions are left in place with a warning.`,
	Run: runReduceDataDuplication,
}

func init() { MustRegister(ReduceDataDuplicationPass) }

func runReduceDataDuplication(ctx *Context, mod *ir.Operation) error {
	changed := false
	for _, op := range conversions(mod) {
		dot, ok := encodingOf(op.Result(0)).(*attr.DotOperand)
		if !ok || op.NumOperands() != 1 {
			continue
		}
		_, se, shape := tensorInfo(op.Operand(0).Type())
		if !isDistributed(se) {
			continue
		}
		sl, err := attr.Linear(se, shape)
		if err != nil {
			return ctx.Errorf(op, "%v", err)
		}
		dl, err := attr.Linear(dot, shape)
		if err != nil {
			return ctx.Errorf(op, "%v", err)
		}
		c, err := smem.Classify(sl, dl)
		if err != nil {
			return ctx.Errorf(op, "%v", err)
		}
		if c.Kind != smem.SharedMemory {
			continue
		}
		enc, ok := swizzledForDot(dot, shape, orderForMemory(sl), cgaOf(sl), elemBits(op.Operand(0).Type()))
		if !ok {
			ctx.Warningf(op, "tritongpu-reduce-data-duplication: the shared layout of a %s operand is not implemented; conversion left in place", dot.Parent.Name())
			continue
		}
		replaceWithRoundTrip(op, enc)
		changed = true
	}
	if changed {
		regenerateAttrAliases(ctx.Module)
		ctx.MarkChanged()
	}
	return nil
}

// swizzledForDot is SwizzledSharedEncodingAttr::get for a dot operand (with
// needTrans false); false for the AMD parents it does not implement.
func swizzledForDot(dot *attr.DotOperand, shape, order []int, cga attr.CGALayout, bitwidth int) (*attr.SwizzledShared, bool) {
	unswizzled := &attr.SwizzledShared{Vec: 1, PerPhase: 1, MaxPhase: 1, Order: order, CGA: cga}
	switch p := dot.Parent.(type) {
	case *attr.AMDMfma, *attr.AMDWmma:
		return nil, false
	case *attr.NvidiaMma:
		if p.VersionMajor != 2 && p.VersionMajor != 3 {
			return unswizzled, true
		}
	default:
		return unswizzled, true
	}
	rank := len(shape)
	k := shapePerCTA(cga, shape)[order[0]]
	perPhase := max(1024/(bitwidth*k), 1)
	vec, mmaStride := 4*dot.KWidth, 8
	kDim := rank - 1
	if dot.OpIdx == 1 {
		kDim = rank - 2
	}
	if order[0] != kDim {
		vec, mmaStride = mmaStride, vec
	}
	maxPhase := 1
	if vec > 0 {
		maxPhase = max(min(mmaStride, 1024/(vec*bitwidth)), 1)
	}
	maxPhase = max(maxPhase/perPhase, 1)
	return &attr.SwizzledShared{Vec: vec, PerPhase: perPhase, MaxPhase: maxPhase, Order: order, CGA: cga}, true
}

// shapePerCTA divides each dim of shape by the number of CTAs that split it
// (the CGA's block bases that move along it).
func shapePerCTA(cga attr.CGALayout, shape []int) []int {
	per := append([]int(nil), shape...)
	for _, b := range cga.Bases {
		for d, x := range b {
			if x != 0 && per[d] > 1 {
				per[d] /= 2
				break
			}
		}
	}
	return per
}
