package llvmemit

import (
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// warpGroupDotMMA is ttng.warp_group_dot lowered with sm_80's mma.sync,
// which sm_90 runs too, for the dots wgmma cannot take (see the package
// doc): the operands are loaded from their shared buffers (ldmatrix where
// it fits) straight into the dot-operand registers of an mma v2 layout
// with the accumulator's warps, the accumulator's registers are renamed
// from the v3 layout to the v2 one (both hold the same 16×8 fragments per
// thread; the lowering checks it, and refuses the op otherwise),
// mma.sync runs, and the result is renamed back. Such a dot is
// synchronous: the wgmma.wait_group of its warp_group_dot_wait has no
// group of it to wait for.
func warpGroupDotMMA(l *Lowerer, op *ir.Operation) error {
	a, b, c := op.Operand(0), op.Operand(1), op.Operand(2)
	ct := c.Type()
	mma3, ok := ir.Encoding(ct).(*attr.NvidiaMma)
	if !ok || mma3.VersionMajor != 3 {
		return errorf(op, "the accumulator must have an nvidia_mma version 3 layout")
	}
	elemIR := ir.ElementType(a.Type())
	if mt, ok := a.Type().(*ir.MemDescType); ok {
		elemIR = mt.Elem
	}
	kind, err := mmaKindOf(op, elemIR, ir.AttrIntValue(op.AttrOrDefault("inputPrecision")))
	if err != nil {
		return err
	}
	if kind.elem == "f16" && ir.TypeString(ir.ElementType(ct)) == "f16" {
		kind.acc = "f16"
	}
	if want := map[string]string{"f32": "f32", "s32": "i32", "f16": "f16"}[kind.acc]; ir.TypeString(ir.ElementType(ct)) != want {
		return errorf(op, "%s operands need an %s accumulator, not %s", kind.elem, want, ir.TypeString(ir.ElementType(ct)))
	}
	cshape := intShape(ir.ShapeOrScalar(ct))
	var K int
	if mt, ok := a.Type().(*ir.MemDescType); ok {
		K = int(mt.Shape[1])
	} else {
		K = int(ir.ShapeOrScalar(a.Type())[1])
	}
	v2 := &attr.NvidiaMma{VersionMajor: 2, WarpsPerCTA: mma3.WarpsPerCTA, CGA: mma3.CGA, InstrShape: []int{16, 8}}
	C2, err := attr.Linear(v2, cshape)
	if err != nil {
		return errorf(op, "%v", err)
	}
	kWidth := 32 / typeBits(mustType(elemIR))
	operand := func(idx int, v *ir.Value, shape []int) (*linear.Layout, []value.Value, error) {
		enc := &attr.DotOperand{OpIdx: idx, Parent: v2, KWidth: kWidth}
		D, err := attr.Linear(enc, shape)
		if err != nil {
			return nil, nil, errorf(op, "%v", err)
		}
		if _, ok := v.Type().(*ir.MemDescType); ok {
			md, err := l.memDesc(op, v)
			if err != nil {
				return nil, nil, err
			}
			l.syncShared()
			vals, err := l.loadShared(op, md, l.Values(v)[0], &D, mustType(elemIR))
			return &D, vals, err
		}
		idx2, err := regRemap(mustLayout(v.Type()), &D, func(c []int) []int { return c })
		if err != nil {
			return nil, nil, errorf(op, "operand %d: %v", idx, err)
		}
		in := l.Values(v)
		vals := make([]value.Value, len(idx2))
		for r, s := range idx2 {
			vals[r] = in[s]
		}
		return &D, vals, nil
	}
	A, av, err := operand(0, a, []int{cshape[0], K})
	if err != nil {
		return err
	}
	B, bv, err := operand(1, b, []int{K, cshape[1]})
	if err != nil {
		return err
	}
	C3 := mustLayout(ct)
	to2, err := regRemap(C3, &C2, func(c []int) []int { return c })
	if err != nil {
		return errorf(op, "accumulator: %v", err)
	}
	cin := l.Values(c)
	var useC value.Value
	if op.NumOperands() > 3 {
		useC = l.Values(op.Operand(3))[0]
	}
	cv := make([]value.Value, len(to2))
	for r, s := range to2 {
		cv[r] = cin[s]
		if useC != nil {
			cv[r] = l.cur.NewSelect(useC, cv[r], zeroOf(cv[r].Type()))
		}
	}
	out2, err := l.mmaV2(op, kind, A, B, &C2, mustType(elemIR), K, av, bv, cv)
	if err != nil {
		return err
	}
	to3, err := regRemap(&C2, C3, func(c []int) []int { return c })
	if err != nil {
		return errorf(op, "accumulator: %v", err)
	}
	out := make([]value.Value, len(to3))
	for r, s := range to3 {
		out[r] = out2[s]
	}
	l.Define(op.Result(0), out)
	return nil
}
