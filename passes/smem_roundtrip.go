package passes

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// InsertSharedRoundTripsPass is insert-shared-round-trips: every
// ttg.convert_layout that Triton lowers through shared memory becomes an
// explicit ttg.local_alloc + ttg.local_load. See its Doc.
var InsertSharedRoundTripsPass = &Pass{
	Name:    "insert-shared-round-trips",
	Summary: "Turn each ttg.convert_layout that needs shared memory into ttg.local_alloc + ttg.local_load through the optimal swizzled layout",
	Anchor:  "tt.func",
	Options: []Option{
		{Name: "swizzle", Default: "optimal", Values: []string{"optimal", "none"},
			Doc: "shared layout: optimal (Triton's bank-conflict-minimising swizzle) or none (unswizzled, in the source's memory order)"},
		{Name: "compute-capability", Default: "0", Kind: IntOption,
			Doc: "NVIDIA compute capability for the instruction-aware swizzle (0: from the module's ttg.target, cuda:NN; 80 when there is none)"},
		{Name: "generic", Default: "false", Kind: BoolOption,
			Doc: "use Triton's target-independent swizzle (st/ld.shared only), as for non-NVIDIA targets"},
		{Name: "min-bytes", Default: "0", Kind: IntOption,
			Doc: "leave conversions of tensors smaller than this many bytes"},
		{Name: "dot-operands-only", Default: "false", Kind: BoolOption,
			Doc: "only conversions whose result is a #ttg.dot_op layout"},
	},
	Doc: `Materialises the shared-memory round trips that Triton 3.6 would generate inside
the LLVM lowering of ttg.convert_layout. Each conversion is classified as Triton
does (smem.Classify: no-op, register permutation, warp shuffle, shared memory);
those that need shared memory within one CTA become

  %a = ttg.local_alloc %x : (tensor<..., #src>) -> !ttg.memdesc<..., #shared, #smem>
  %y = ttg.local_load %a : !ttg.memdesc<..., #shared, #smem> -> tensor<..., #dst>

and the others stay. With swizzle=optimal, #shared is the layout Triton's
optimal-swizzling algorithm chooses for the conversion (smem.PlanConversion, the
NVIDIA instruction-aware search for compute-capability, or the generic
st/ld.shared variant for generic=true or a non-CUDA target), written as a
#ttg.swizzled_shared when some vec/perPhase/maxPhase/order states it exactly and
as #ttg.shared_linear<{offset = ...}, alignment = 16> otherwise. With swizzle=none
it is the unswizzled #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1}>
in the source's memory order (getOrderForMemory), for comparison.
The bank-conflicts pass reports what each side costs.

A materialised round trip holds the whole tensor. Triton's own lowering may
split a conversion into rounds ("reps": segment bases that are registers on both
sides) that store one tile, synchronise, load it and reuse the same scratch
buffer, so its scratch is numel/reps elements. A ttg.local_alloc is one value
that lives until its last local_load: it has no notion of rounds, so the
segment and reps bases all become offset bits of one buffer of numel elements.
The swizzle, the vector widths and the bank conflicts of each access are those
of Triton's plan; only the footprint is larger (up to 4x for the
stmatrix/ldmatrix plans at cc90).

Prefer it when the round trip should be visible and movable: to schedule the
store and the load apart (the local_alloc can move up to the producer and the
local_load down to the consumer, overlapping the barrier with other work), to
share one buffer between several consumers of a value converted to different
layouts, to let later passes (pipelining, allocation, membar) see and account
for the buffer, or to inspect and measure the chosen swizzle. Keep the
conversion when shared memory is tight (the allocation is larger than Triton's
scratch, and it is live across the ops between the two halves) or when a later
pass such as remove-redundant-conversions should still be free to remove it.

Not handled (left as conversions): cross-CTA conversions and layouts that span
several CTAs, conversions of tensors whose element width is unknown, and those
the planner rejects (a warning says why).`,
	Run: runInsertSharedRoundTrips,
}

func init() { MustRegister(InsertSharedRoundTripsPass) }

func runInsertSharedRoundTrips(ctx *Context, fn *ir.Operation) error {
	t := smemTarget(fn, ctx.IntOption("compute-capability"), ctx.BoolOption("generic"))
	swizzle := ctx.Option("swizzle")
	minBytes := ctx.IntOption("min-bytes")
	dotOnly := ctx.BoolOption("dot-operands-only")
	changed := false
	for _, op := range conversions(fn) {
		if dotOnly {
			if _, ok := encodingOf(op.Result(0)).(*attr.DotOperand); !ok {
				continue
			}
		}
		c, err := planConvert(op, t)
		if err != nil {
			ctx.Warningf(op, "insert-shared-round-trips: conversion left in place: %v", err)
			continue
		}
		if c == nil || !c.withinCTA() {
			continue
		}
		if numElements(c.shape)*accessBits(op.Operand(0).Type())/8 < minBytes {
			continue
		}
		enc, err := roundTripEncoding(c, swizzle)
		if err != nil {
			ctx.Warningf(op, "insert-shared-round-trips: conversion left in place: %v", err)
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

// roundTripEncoding is the shared encoding of a materialised round trip.
func roundTripEncoding(c *cvtPlan, swizzle string) (attr.Layout, error) {
	if swizzle == "none" {
		return &attr.SwizzledShared{Vec: 1, PerPhase: 1, MaxPhase: 1, Order: orderForMemory(c.srcLL), CGA: cgaOf(c.srcLL)}, nil
	}
	return sharedEncodingFor(c.plan.Shared, c.shape)
}
