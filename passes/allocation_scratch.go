package passes

import (
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/smem"
)

// The scratch bytes of the ops that need shared memory while they run,
// as Triton 3.6's defaultAllocationAnalysisScratchSizeFn and
// getNvidiaAllocationAnalysisScratchSizeFn compute them (lib/Analysis/
// Allocation.cpp, lib/Analysis/Utility.cpp, third_party/nvidia/lib/
// TritonNVIDIAGPUToLLVM/Allocation.cpp).

// DefaultScratchSize is Triton's target-independent scratch-size function
// (the one -allocate-shared-memory and -test-print-allocation use): a
// ttg.convert_layout through shared memory takes its tile of the generic
// st/ld.shared swizzle (package smem, Target{}).
func DefaultScratchSize(op *ir.Operation) (int, error) {
	return scratchSize(op, smem.Target{})
}

// NvidiaScratchSize is Triton's NVIDIA scratch-size function for a compute
// capability (allocate-shared-memory-nv, the real compile): conversions
// use the instruction-aware swizzle (stmatrix/ldmatrix where they apply).
func NvidiaScratchSize(computeCapability int) ScratchSizeFunc {
	t := smem.Target{ComputeCapability: computeCapability}
	return func(op *ir.Operation) (int, error) { return scratchSize(op, t) }
}

func scratchSize(op *ir.Operation, t smem.Target) (int, error) {
	switch op.Name() {
	case "ttg.convert_layout":
		return convertScratch(op, t)
	case "tt.reduce":
		return reduceScratch(op)
	case "tt.scan":
		return scanScratch(op)
	case "tt.gather":
		return gatherScratch(op)
	case "tt.histogram":
		return histogramScratch(op)
	case "tt.atomic_rmw", "tt.atomic_cas":
		return atomicScratch(op)
	case "ttng.tensormap_create":
		return 128, nil
	}
	return 0, nil
}

// convertScratch: 0 unless the conversion goes through shared memory, then
// the swizzled tile (numel / reps elements of max(bits, 8)).
func convertScratch(op *ir.Operation, t smem.Target) (int, error) {
	c, err := planConvert(op, t)
	if err != nil || c == nil {
		return 0, err
	}
	if c.plan.Kind != smem.SharedMemory {
		return 0, nil
	}
	if !c.withinCTA() {
		return 0, fmt.Errorf("conversions across CTAs (distributed shared memory) are not supported")
	}
	return c.plan.ScratchBytes, nil
}

// warpsPerDim is Triton's getWarpsPerCTA(encoding, shape): per tensor dim,
// the number of warps along it (basesPerDim of the warp in-dim, broadcast
// bases skipped).
func warpsPerDim(l linear.Layout, rank int) []int {
	out := make([]int, rank)
	for i := range out {
		out[i] = 1
	}
	if !l.HasInDim("warp") {
		return out
	}
	for _, b := range l.Bases("warp") {
		for d, x := range b {
			if x != 0 {
				out[d] *= 2
				break
			}
		}
	}
	return out
}

// tensorLayout returns the linear layout and shape of a distributed tensor
// value.
func tensorLayout(v *ir.Value) (linear.Layout, []int, error) {
	_, enc, shape := tensorInfo(v.Type())
	if enc == nil {
		return linear.Layout{}, nil, fmt.Errorf("expected a tensor with a layout encoding, got %s", ir.TypeString(v.Type()))
	}
	l, err := attr.Linear(enc, shape)
	return l, shape, err
}

// bytesPerElem sums ceil(bits/8) over the element types of vs.
func bytesPerElem(vs []*ir.Value) int {
	n := 0
	for _, v := range vs {
		n += (elemBits(v.Type()) + 7) / 8
	}
	return n
}

func axisOf(op *ir.Operation) int {
	a, _ := op.IntAttr("axis")
	return int(a)
}

// reduceScratch is ReduceOpHelper::getScratchSizeInBytes: nothing when the
// reduced axis stays within a warp, else the source shape with the axis
// shrunk to its number of warps, times the bytes of all operands.
func reduceScratch(op *ir.Operation) (int, error) {
	if op.NumOperands() == 0 {
		return 0, nil
	}
	l, shape, err := tensorLayout(op.Operand(0))
	if err != nil {
		return 0, err
	}
	axis := axisOf(op)
	if axis < 0 || axis >= len(shape) {
		return 0, fmt.Errorf("reduction axis %d out of range", axis)
	}
	w := warpsPerDim(l, len(shape))[axis]
	if w == 1 {
		return 0, nil
	}
	return numElements(shape) / shape[axis] * w * bytesPerElem(op.Operands()), nil
}

// scanScratch is ScanLoweringHelper::getScratchSizeInBytes (blocked
// layouts only; others need none here and fail in the lowering).
func scanScratch(op *ir.Operation) (int, error) {
	if op.NumOperands() == 0 {
		return 0, nil
	}
	_, enc, shape := tensorInfo(op.Operand(0).Type())
	b, ok := enc.(*attr.Blocked)
	if !ok {
		return 0, nil
	}
	axis := axisOf(op)
	if axis < 0 || axis >= len(shape) {
		return 0, fmt.Errorf("scan axis %d out of range", axis)
	}
	if b.WarpsPerCTA[axis] == 1 {
		return 0, nil
	}
	numWarps, nonAxisThreads, nonAxisElems := 1, 1, 1
	axisBlocks, nonAxisBlocks := 1, 1
	for d := range shape {
		numWarps *= b.WarpsPerCTA[d]
		tile := b.SizePerThread[d] * b.ThreadsPerWarp[d] * b.WarpsPerCTA[d]
		blocks := (shape[d] + tile - 1) / tile
		if d == axis {
			axisBlocks = blocks
			continue
		}
		nonAxisThreads *= b.ThreadsPerWarp[d]
		nonAxisElems *= b.SizePerThread[d]
		nonAxisBlocks *= blocks
	}
	elems := numWarps * nonAxisThreads * nonAxisElems * axisBlocks * nonAxisBlocks
	return elems * bytesPerElem(op.Operands()), nil
}

// gatherScratch is GatherLoweringHelper::getScratchSizeInBytes: nothing
// for a warp-local gather, else the whole source tensor.
func gatherScratch(op *ir.Operation) (int, error) {
	src, idx := op.NamedOperand("src"), op.NamedOperand("indices")
	if src == nil || idx == nil {
		return 0, nil
	}
	sl, shape, err := tensorLayout(src)
	if err != nil {
		return 0, err
	}
	il, _, err := tensorLayout(idx)
	if err != nil {
		return 0, err
	}
	local, err := gatherWarpLocal(sl, il, axisOf(op), len(shape))
	if err != nil {
		return 0, err
	}
	if local {
		return 0, nil
	}
	return numElements(shape) * ((elemBits(src.Type()) + 7) / 8), nil
}

// gatherWarpLocal is GatherLoweringHelper::isWarpLocal.
func gatherWarpLocal(src, idx linear.Layout, axis, rank int) (bool, error) {
	gd := fmt.Sprintf("dim%d", axis)
	bw := []string{"block", "warp"}
	for _, l := range []linear.Layout{src, idx} {
		z, err := l.SublayoutIsZero(presentIns(l, bw), []string{gd})
		if err != nil || !z {
			return false, err
		}
	}
	var others []string
	for d := range rank {
		if d != axis {
			others = append(others, fmt.Sprintf("dim%d", d))
		}
	}
	same := func(ins []string) (bool, error) {
		a, err := src.Sublayout(presentIns(src, ins), others)
		if err != nil {
			return false, err
		}
		b, err := idx.Sublayout(presentIns(idx, ins), others)
		if err != nil {
			return false, err
		}
		return a.Equal(b), nil
	}
	if ok, err := same(bw); err != nil || !ok {
		return false, err
	}
	return same([]string{"lane"})
}

func presentIns(l linear.Layout, names []string) []string {
	var out []string
	for _, n := range names {
		if l.HasInDim(n) {
			out = append(out, n)
		}
	}
	return out
}

// histogramScratch: max(bins, threads per warp) elements of the result.
func histogramScratch(op *ir.Operation) (int, error) {
	if op.NumResults() != 1 {
		return 0, nil
	}
	_, _, shape := tensorInfo(op.Result(0).Type())
	tpw := 32
	for o := op; o != nil; o = o.ParentOp() {
		if n, ok := o.IntAttr("ttg.threads-per-warp"); ok {
			tpw = int(n)
			break
		}
	}
	return max(numElements(shape), tpw) * accessBits(op.Result(0).Type()) / 8, nil
}

// atomicScratch: an atomic whose result is used broadcasts it through
// shared memory when some threads hold copies of the same element (the
// whole tensor per CTA) or when it is a scalar (one element).
func atomicScratch(op *ir.Operation) (int, error) {
	if op.NumResults() != 1 || op.Result(0).UseEmpty() || op.NumOperands() == 0 {
		return 0, nil
	}
	elems := 1
	if _, ok := op.Result(0).Type().(*ir.RankedTensorType); ok {
		l, shape, err := tensorLayout(op.Result(0))
		if err != nil {
			return 0, err
		}
		if !slices.ContainsFunc(l.FreeVariableMasks(), func(m int) bool { return m != 0 }) {
			return 0, nil
		}
		elems = numElements(shape)
	}
	pointee := ir.ElementType(op.Operand(0).Type())
	if p, ok := pointee.(*ir.PointerType); ok {
		pointee = p.Pointee
	}
	return elems * max(8, elemBits(pointee)) / 8, nil
}
