package llvmemit

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// tt.dot on a distributed accumulator that is not an mma layout (a
// #ttg.blocked one, its operands #ttg.dot_op of it), of rank 2 or 3
// (batched): Triton's FMA dot (DotOpToLLVM/FMA.cpp,
// FMADotUtility.cpp). Every thread holds the whole K extent of the rows
// of A and the columns of B its accumulator registers need, so each
// accumulator register is a chain acc = fma(a[k], b[k], acc) for
// k = 0 … K-1 (llvm.fmuladd, which llc makes fma.rn; mul and add for
// integers), in the order of the reference interpreter's dot. Which
// register holds which operand element is read from the linear layouts,
// after checking that the operands' lane and warp bases are the
// accumulator's with N (A) or M (B) dropped and K held in registers.

// fmaDot lowers op with the FMA chain.
func (l *Lowerer) fmaDot(op *ir.Operation) error {
	at, bt, ct := op.Operand(0).Type(), op.Operand(1).Type(), op.Operand(2).Type()
	rank := len(ir.ShapeOrScalar(ct))
	if rank != 2 && rank != 3 {
		return errorf(op, "dots of rank %d are not supported", rank)
	}
	K := int(ir.ShapeOrScalar(at)[rank-1])
	accT := mustType(ir.ElementType(ct))
	conv, err := l.fmaOperand(op, ir.ElementType(at), ir.ElementType(ct))
	if err != nil {
		return err
	}
	convB, err := l.fmaOperand(op, ir.ElementType(bt), ir.ElementType(ct))
	if err != nil {
		return err
	}
	A, B, C := mustLayout(at), mustLayout(bt), mustLayout(ct)
	mDim, nDim := rank-2, rank-1
	for _, d := range []string{dimLane, dimWarp} {
		for k := 0; k < C.InDimSizeLog2(d); k++ {
			c := C.Basis(d, k)
			wantA, wantB := slices.Clone(c), slices.Clone(c)
			wantA[nDim], wantB[mDim] = 0, 0
			if a := A.Basis(d, k); !slices.Equal(a, wantA) {
				return errorf(op, "operand A: %s basis %d is %v, the FMA dot needs %v", d, k, a, wantA)
			}
			if b := B.Basis(d, k); !slices.Equal(b, wantB) {
				return errorf(op, "operand B: %s basis %d is %v, the FMA dot needs %v", d, k, b, wantB)
			}
		}
	}
	prec := ir.AttrIntValue(op.AttrOrDefault("inputPrecision"))
	tf32 := prec == 0 && accT.Equal(types.Float) && isF32(ir.ElementType(at))
	am, bm, cm := regIndex(A), regIndex(B), regIndex(C)
	av, bv := l.Values(op.Operand(0)), l.Values(op.Operand(1))
	// Operands are converted once per register, when first used.
	aConv, bConv := map[int]value.Value{}, map[int]value.Value{}
	operand := func(vals []value.Value, cache map[int]value.Value, r int, cv func(value.Value) value.Value) value.Value {
		if v, ok := cache[r]; ok {
			return v
		}
		v := cv(vals[r])
		if tf32 {
			v = l.roundTF32(v)
		}
		cache[r] = v
		return v
	}
	out := slices.Clone(l.Values(op.Operand(2)))
	for r := range out {
		c := C.Apply(r)
		if s := cm[fmt.Sprint(c)]; s != r {
			continue // a copy of register s (broadcast), set below
		}
		acc := out[r]
		for k := 0; k < K; k++ {
			ac, bc := slices.Clone(c), slices.Clone(c)
			ac[nDim], bc[mDim] = k, k
			ra, ok := am[fmt.Sprint(ac)]
			if !ok {
				return errorf(op, "operand A: no register holds element %v of the thread's rows", ac)
			}
			rb, ok := bm[fmt.Sprint(bc)]
			if !ok {
				return errorf(op, "operand B: no register holds element %v of the thread's columns", bc)
			}
			x, y := operand(av, aConv, ra, conv), operand(bv, bConv, rb, convB)
			if _, isInt := accT.(*types.IntType); isInt {
				acc = l.cur.NewAdd(l.cur.NewMul(x, y), acc)
			} else {
				acc = l.call("llvm.fmuladd."+floatSuffix(accT), accT, x, y, acc)
			}
		}
		out[r] = acc
	}
	for r := range out {
		out[r] = out[cm[fmt.Sprint(C.Apply(r))]]
	}
	l.Define(op.Result(0), out)
	return nil
}

// regIndex maps each element a thread's registers hold (register-constant
// coordinates) to the first register holding it.
func regIndex(ll *linear.Layout) map[string]int {
	m := map[string]int{}
	for r := ll.InDimSize(dimReg) - 1; r >= 0; r-- {
		m[fmt.Sprint(ll.Apply(r))] = r
	}
	return m
}

// fmaOperand returns the conversion of an operand register of element
// type from to the accumulator's type acc: exact widenings only (fp8 to
// f16 or f32, f16 and bf16 to f32 or f64, f32 to f64, narrower integers
// sign-extended, as Triton's dots treat integers as signed).
func (l *Lowerer) fmaOperand(op *ir.Operation, from, acc ir.Type) (func(value.Value) value.Value, error) {
	accT, err := llvmType(acc)
	if err != nil {
		return nil, errorf(op, "%v", err)
	}
	switch a := acc.(type) {
	case *ir.IntegerType:
		f, ok := from.(*ir.IntegerType)
		if !ok || f.Width > a.Width {
			return nil, errorf(op, "%s operands with an %s accumulator are not supported", ir.TypeString(from), ir.TypeString(acc))
		}
		if f.Width == a.Width {
			return func(v value.Value) value.Value { return v }, nil
		}
		return func(v value.Value) value.Value { return l.cur.NewSExt(v, accT) }, nil
	case *ir.FloatType:
		if isFP8(from) && (a.Kind == "f32" || a.Kind == "f16") {
			// Exact: every fp8 value is an f16 value.
			return func(v value.Value) value.Value { return l.convertFP8(from, acc, v, nil) }, nil
		}
		f, ok := from.(*ir.FloatType)
		if !ok || a.Kind == "bf16" || f.Kind != a.Kind && bitsOfKind(f.Kind) >= bitsOfKind(a.Kind) {
			return nil, errorf(op, "%s operands with an %s accumulator are not supported by the FMA dot", ir.TypeString(from), ir.TypeString(acc))
		}
		if f.Kind == a.Kind {
			return func(v value.Value) value.Value { return v }, nil
		}
		return func(v value.Value) value.Value { return l.convertFloat(from, acc, v, nil) }, nil
	}
	return nil, errorf(op, "accumulators of type %s are not supported", ir.TypeString(acc))
}

// roundTF32 rounds an f32 to tf32 (to nearest, ties away from zero), as
// PTX's cvt.rna.tf32.f32 does; the result is an f32 again.
func (l *Lowerer) roundTF32(v value.Value) value.Value {
	r := l.cur.NewCall(pureAsm(types.I32, "cvt.rna.tf32.f32 $0, $1;", "=r,f", types.Float), v)
	return l.cur.NewBitCast(r, types.Float)
}

func isF32(t ir.Type) bool {
	f, ok := t.(*ir.FloatType)
	return ok && f.Kind == "f32"
}

// floatSuffix is the overload suffix of an LLVM float type (f16, f32, f64).
func floatSuffix(t types.Type) string {
	switch {
	case t.Equal(types.Half):
		return "f16"
	case t.Equal(types.Double):
		return "f64"
	}
	return "f32"
}
