package llvmemit

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// Elementwise ops: arith, math and Triton's elementwise ops, one LLVM
// instruction (or a short sequence) per register. bf16 values are their
// bits (i16); arithmetic on them goes through f32 and rounds back to
// nearest even with cvt.rn.bf16.f32, as Triton does on sm_80+, but addf,
// subf and mulf, which are one fma.rn.bf16x2 for two registers there
// (pairs.go).

// elementwise defines op's result as fn applied register by register;
// a scalar operand is used for every register.
func elementwise(l *Lowerer, op *ir.Operation, fn func(args []value.Value) value.Value) error {
	return elementwiseRegs(l, op, func(_ int, args []value.Value) value.Value { return fn(args) })
}

// elementwiseRegs is elementwise with the register's index. Each call of
// fn gets its own args, which it may keep (an llir call keeps the slice of
// its arguments).
func elementwiseRegs(l *Lowerer, op *ir.Operation, fn func(r int, args []value.Value) value.Value) error {
	if err := checkFP8(op); err != nil {
		return err
	}
	n := numRegs(op.Result(0).Type())
	ins := make([][]value.Value, op.NumOperands())
	for i, v := range op.Operands() {
		ins[i] = l.Values(v)
	}
	out := make([]value.Value, n)
	for r := 0; r < n; r++ {
		args := make([]value.Value, len(ins))
		for i := range ins {
			args[i] = regOf(ins[i], r)
		}
		out[r] = fn(r, args)
	}
	l.Define(op.Result(0), out)
	return nil
}

// regOf is register r of an operand's registers v: a scalar (one
// register) is every register.
func regOf(v []value.Value, r int) value.Value { return v[min(r, len(v)-1)] }

// bf16ToF32 widens bf16 bits to float.
func (l *Lowerer) bf16ToF32(v value.Value) value.Value {
	w := l.cur.NewZExt(v, types.I32)
	return l.cur.NewBitCast(l.cur.NewShl(w, i32(16)), types.Float)
}

// f32ToBF16 rounds a float to bf16 bits (round to nearest even).
func (l *Lowerer) f32ToBF16(v value.Value) value.Value {
	return l.cur.NewCall(pureAsm(types.I16, "cvt.rn.bf16.f32 $0, $1;", "=h,f", types.Float), v)
}

// floatOp applies fn to float operands of element type t, widening bf16
// to f32 and rounding the result back.
func floatOp(l *Lowerer, op *ir.Operation, fn func(args []value.Value) value.Value) error {
	bf := isBF16(op.Result(0).Type())
	return elementwise(l, op, func(args []value.Value) value.Value {
		if !bf {
			return fn(args)
		}
		w := make([]value.Value, len(args))
		for i, a := range args {
			if isBF16(op.Operand(i).Type()) {
				w[i] = l.bf16ToF32(a)
			} else {
				w[i] = a
			}
		}
		return l.f32ToBF16(fn(w))
	})
}

func binInt(name string, mk func(b *lir.Block, x, y value.Value) value.Value) {
	Register(name, func(l *Lowerer, op *ir.Operation) error {
		return elementwise(l, op, func(a []value.Value) value.Value { return mk(l.cur, a[0], a[1]) })
	})
}

func binFloat(name string, mk func(b *lir.Block, x, y value.Value) value.Value) {
	Register(name, func(l *Lowerer, op *ir.Operation) error {
		if l.bf16Pairs(op) {
			return nil
		}
		return floatOp(l, op, func(a []value.Value) value.Value { return mk(l.cur, a[0], a[1]) })
	})
}

func init() {
	binInt("arith.addi", func(b *lir.Block, x, y value.Value) value.Value { return b.NewAdd(x, y) })
	binInt("arith.subi", func(b *lir.Block, x, y value.Value) value.Value { return b.NewSub(x, y) })
	Register("arith.muli", lowerMulI)
	binInt("arith.divsi", func(b *lir.Block, x, y value.Value) value.Value { return b.NewSDiv(x, y) })
	binInt("arith.divui", func(b *lir.Block, x, y value.Value) value.Value { return b.NewUDiv(x, y) })
	binInt("arith.remsi", func(b *lir.Block, x, y value.Value) value.Value { return b.NewSRem(x, y) })
	binInt("arith.remui", func(b *lir.Block, x, y value.Value) value.Value { return b.NewURem(x, y) })
	binInt("arith.andi", func(b *lir.Block, x, y value.Value) value.Value { return b.NewAnd(x, y) })
	binInt("arith.ori", func(b *lir.Block, x, y value.Value) value.Value { return b.NewOr(x, y) })
	binInt("arith.xori", func(b *lir.Block, x, y value.Value) value.Value { return b.NewXor(x, y) })
	binInt("arith.shli", func(b *lir.Block, x, y value.Value) value.Value { return b.NewShl(x, y) })
	binInt("arith.shrsi", func(b *lir.Block, x, y value.Value) value.Value { return b.NewAShr(x, y) })
	binInt("arith.shrui", func(b *lir.Block, x, y value.Value) value.Value { return b.NewLShr(x, y) })
	minmax := func(name string, pred enum.IPred) {
		binInt(name, func(b *lir.Block, x, y value.Value) value.Value {
			return b.NewSelect(b.NewICmp(pred, x, y), x, y)
		})
	}
	minmax("arith.maxsi", enum.IPredSGT)
	minmax("arith.minsi", enum.IPredSLT)
	minmax("arith.maxui", enum.IPredUGT)
	minmax("arith.minui", enum.IPredULT)
	for _, name := range []string{"arith.mulhiui", "tt.mulhiui"} {
		Register(name, lowerMulHiUI)
	}
	Register("arith.ceildivsi", func(l *Lowerer, op *ir.Operation) error {
		return elementwise(l, op, func(a []value.Value) value.Value {
			// q = x/y; q + (x%y != 0 && (x<0) == (y<0))
			b := l.cur
			z := zeroOf(a[0].Type())
			q, r := b.NewSDiv(a[0], a[1]), b.NewSRem(a[0], a[1])
			same := b.NewICmp(enum.IPredEQ, b.NewICmp(enum.IPredSLT, a[0], z), b.NewICmp(enum.IPredSLT, a[1], z))
			bump := b.NewAnd(b.NewICmp(enum.IPredNE, r, z), same)
			return b.NewAdd(q, b.NewZExt(bump, a[0].Type()))
		})
	})
	Register("arith.ceildivui", func(l *Lowerer, op *ir.Operation) error {
		return elementwise(l, op, func(a []value.Value) value.Value {
			b := l.cur
			z := zeroOf(a[0].Type())
			q, r := b.NewUDiv(a[0], a[1]), b.NewURem(a[0], a[1])
			return b.NewAdd(q, b.NewZExt(b.NewICmp(enum.IPredNE, r, z), a[0].Type()))
		})
	})
	Register("arith.floordivsi", func(l *Lowerer, op *ir.Operation) error {
		return elementwise(l, op, func(a []value.Value) value.Value {
			b := l.cur
			z := zeroOf(a[0].Type())
			q, r := b.NewSDiv(a[0], a[1]), b.NewSRem(a[0], a[1])
			diff := b.NewICmp(enum.IPredNE, b.NewICmp(enum.IPredSLT, a[0], z), b.NewICmp(enum.IPredSLT, a[1], z))
			bump := b.NewAnd(b.NewICmp(enum.IPredNE, r, z), diff)
			return b.NewSub(q, b.NewZExt(bump, a[0].Type()))
		})
	})

	binFloat("arith.addf", func(b *lir.Block, x, y value.Value) value.Value { return b.NewFAdd(x, y) })
	binFloat("arith.subf", func(b *lir.Block, x, y value.Value) value.Value { return b.NewFSub(x, y) })
	binFloat("arith.mulf", func(b *lir.Block, x, y value.Value) value.Value { return b.NewFMul(x, y) })
	// arith.divf on f32 is PTX div.full.f32 (2 ulp, no subnormal slow
	// path), as Triton's FDivOpConversion emits it; LLVM's fdiv would be
	// the IEEE div.rn.f32 subroutine. tt.precise_divf stays IEEE, and so
	// do f16 (computed by LLVM in f32 with rounding) and f64 (div.rn.f64).
	binFloat("arith.divf", func(b *lir.Block, x, y value.Value) value.Value {
		if x.Type().Equal(types.Float) {
			return b.NewCall(pureAsm(types.Float, "div.full.f32 $0, $1, $2;", "=f,f,f", types.Float, types.Float), x, y)
		}
		return b.NewFDiv(x, y)
	})
	binFloat("tt.precise_divf", func(b *lir.Block, x, y value.Value) value.Value { return b.NewFDiv(x, y) })
	binFloat("arith.remf", func(b *lir.Block, x, y value.Value) value.Value { return b.NewFRem(x, y) })
	Register("arith.negf", func(l *Lowerer, op *ir.Operation) error {
		return floatOp(l, op, func(a []value.Value) value.Value { return l.cur.NewFNeg(a[0]) })
	})
	for _, c := range []struct {
		name string
		max  bool
		nan  bool
	}{{"arith.maxnumf", true, false}, {"arith.minnumf", false, false}, {"arith.maximumf", true, true}, {"arith.minimumf", false, true}} {
		Register(c.name, func(l *Lowerer, op *ir.Operation) error {
			return floatOp(l, op, func(a []value.Value) value.Value { return l.fminmax(a[0], a[1], c.max, c.nan) })
		})
	}

	Register("arith.cmpi", func(l *Lowerer, op *ir.Operation) error {
		preds := []enum.IPred{enum.IPredEQ, enum.IPredNE, enum.IPredSLT, enum.IPredSLE, enum.IPredSGT,
			enum.IPredSGE, enum.IPredULT, enum.IPredULE, enum.IPredUGT, enum.IPredUGE}
		p := ir.AttrIntValue(op.Attr("predicate"))
		if p < 0 || int(p) >= len(preds) {
			return errorf(op, "unknown predicate %d", p)
		}
		return elementwise(l, op, func(a []value.Value) value.Value { return l.cur.NewICmp(preds[p], a[0], a[1]) })
	})
	Register("arith.cmpf", func(l *Lowerer, op *ir.Operation) error {
		preds := []enum.FPred{enum.FPredFalse, enum.FPredOEQ, enum.FPredOGT, enum.FPredOGE, enum.FPredOLT,
			enum.FPredOLE, enum.FPredONE, enum.FPredORD, enum.FPredUEQ, enum.FPredUGT, enum.FPredUGE,
			enum.FPredULT, enum.FPredULE, enum.FPredUNE, enum.FPredUNO, enum.FPredTrue}
		p := ir.AttrIntValue(op.Attr("predicate"))
		if p < 0 || int(p) >= len(preds) {
			return errorf(op, "unknown predicate %d", p)
		}
		bf := isBF16(op.Operand(0).Type())
		return elementwise(l, op, func(a []value.Value) value.Value {
			x, y := a[0], a[1]
			if bf {
				x, y = l.bf16ToF32(x), l.bf16ToF32(y)
			}
			return l.cur.NewFCmp(preds[p], x, y)
		})
	})
	Register("arith.select", func(l *Lowerer, op *ir.Operation) error {
		if l.selectPairs(op) {
			return nil
		}
		return elementwise(l, op, func(a []value.Value) value.Value { return l.cur.NewSelect(a[0], a[1], a[2]) })
	})
	Register("arith.constant", lowerConstant)
	// ub.poison of a scalar or a tensor in registers: every register is
	// LLVM's poison. Of a memdesc, tensor descriptor or other type it is an
	// error.
	Register("ub.poison", func(l *Lowerer, op *ir.Operation) error {
		t := op.Result(0).Type()
		switch t.(type) {
		case *ir.IntegerType, *ir.FloatType, *ir.IndexType, *ir.PointerType, *ir.RankedTensorType:
		default:
			return errorf(op, "ub.poison of %s is not supported (only scalars and tensors in registers)", ir.TypeString(t))
		}
		p := constant.NewPoison(mustType(ir.ElementType(t)))
		out := make([]value.Value, numRegs(t))
		for i := range out {
			out[i] = p
		}
		l.Define(op.Result(0), out)
		return nil
	})
	// llvm.intr.assume %c : i1 is LLVM's llvm.assume (no code; a fact for
	// LLVM's optimizations).
	Register("llvm.intr.assume", func(l *Lowerer, op *ir.Operation) error {
		if op.NumOperands() != 1 {
			return errorf(op, "want one i1 operand")
		}
		if it, ok := op.Operand(0).Type().(*ir.IntegerType); !ok || it.Width != 1 {
			return errorf(op, "want one i1 operand")
		}
		c := l.Values(op.Operand(0))[0]
		l.cur.NewCall(l.e.nv.get("llvm.assume", types.Void, []lir.FuncAttribute{enum.FuncAttrNoUnwind}, types.I1), c)
		return nil
	})
	registerCasts()
}

// fminmax is max/min of two floats: maxnum/minnum semantics (a NaN
// operand loses), or with nan the IEEE maximum/minimum (a NaN wins).
// maxnum/minnum of f32 and f64 are llvm.maxnum/minnum, which llc-14 makes
// one PTX max/min (whose NaN rule is maxnum's), as Triton's
// MinMaxFOpConversion does; f16 and the NaN-propagating forms are
// compare-and-select (LLVM 14 has no max.NaN).
func (l *Lowerer) fminmax(x, y value.Value, isMax, nan bool) value.Value {
	if !nan && (x.Type().Equal(types.Float) || x.Type().Equal(types.Double)) {
		if isMax {
			return l.llvmMath("maxnum", x, y)
		}
		return l.llvmMath("minnum", x, y)
	}
	b := l.cur
	pred := enum.FPredOLT
	if isMax {
		pred = enum.FPredOGT
	}
	// maxnum: x > y ? x : (y is NaN ? x : y)
	r := b.NewSelect(b.NewFCmp(pred, x, y), x, b.NewSelect(b.NewFCmp(enum.FPredUNO, y, y), x, y))
	if nan {
		return b.NewSelect(b.NewFCmp(enum.FPredUNO, x, y), b.NewFAdd(x, y), r)
	}
	return r
}

// floatConst returns the constant v of an ir float type (bf16 as bits).
func floatConst(t ir.Type, v float64) (constant.Constant, error) {
	f, _ := ir.ElementType(t).(*ir.FloatType)
	if f == nil {
		return nil, fmt.Errorf("not a float type")
	}
	switch f.Kind {
	case "bf16":
		b := math.Float32bits(float32(v))
		if v != v {
			return constant.NewInt(types.I16, 0x7fc0), nil
		}
		b += 0x7fff + (b>>16)&1
		return constant.NewInt(types.I16, int64(int16(b>>16))), nil
	case "f16":
		return constant.NewFloat(types.Half, v), nil
	case "f32":
		return constant.NewFloat(types.Float, float64(float32(v))), nil
	case "f64":
		return constant.NewFloat(types.Double, v), nil
	}
	if k, ok := fp8Formats[f.Kind]; ok {
		return fp8Const(k, v), nil
	}
	return nil, fmt.Errorf("float type %s is not supported", f.Kind)
}

func scalarConst(t ir.Type, a ir.Attribute) (constant.Constant, error) {
	switch x := a.(type) {
	case *ir.IntegerAttr:
		lt, err := llvmType(t)
		if err != nil {
			return nil, err
		}
		it, ok := lt.(*types.IntType)
		if !ok {
			return nil, fmt.Errorf("integer attribute for %s", ir.TypeString(t))
		}
		v := x.Value
		if it.BitSize == 1 {
			v &= 1
		}
		return constant.NewInt(it, v), nil
	case *ir.FloatAttr:
		return floatConst(t, x.Value)
	case *ir.BoolAttr:
		if x.Value {
			return constant.NewInt(types.I1, 1), nil
		}
		return constant.NewInt(types.I1, 0), nil
	}
	return nil, fmt.Errorf("constant %s is not supported", ir.AttrString(a))
}

// hexFloatConst is a float constant given by its bits in hex.
func hexFloatConst(t ir.Type, hex string) (constant.Constant, error) {
	bits, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return nil, fmt.Errorf("bad hex constant 0x%s", hex)
	}
	f, _ := t.(*ir.FloatType)
	if f == nil {
		return nil, fmt.Errorf("hex constant of non-float type")
	}
	switch f.Kind {
	case "bf16":
		return constant.NewInt(types.I16, int64(int16(bits))), nil
	case "f16", "f32", "f64":
		// llir prints float constants from a float64; every half, float
		// and double is one.
		return constant.NewFloat(mustType(f).(*types.FloatType), ir.FloatFromBits(bits, f)), nil
	}
	if _, ok := fp8Formats[f.Kind]; ok {
		return constant.NewInt(types.I8, int64(int8(bits))), nil
	}
	return nil, fmt.Errorf("float type %s is not supported", f.Kind)
}

func lowerConstant(l *Lowerer, op *ir.Operation) error {
	t := op.Result(0).Type()
	a := op.Attr("value")
	var c constant.Constant
	var err error
	if d, ok := a.(*ir.DenseElementsAttr); ok {
		switch {
		case strings.HasPrefix(d.Hex, "0x") || strings.HasPrefix(d.Hex, "0X"):
			// A float splat printed as its bits (inf, NaN).
			c, err = hexFloatConst(ir.ElementType(t), d.Hex[2:])
		case len(d.Elems) == 1:
			c, err = scalarConst(ir.ElementType(t), d.Elems[0])
		case len(d.Elems) > 1:
			return l.denseConstant(op, d.Elems)
		default:
			return errorf(op, "dense constants given as raw bytes are not supported")
		}
	} else {
		c, err = scalarConst(ir.ElementType(t), a)
	}
	if err != nil {
		return errorf(op, "%v", err)
	}
	n := numRegs(t)
	out := make([]value.Value, n)
	for i := range out {
		out[i] = c
	}
	l.Define(op.Result(0), out)
	return nil
}

func intWidth(t ir.Type) int {
	switch x := ir.ElementType(t).(type) {
	case *ir.IntegerType:
		return x.Width
	case *ir.IndexType:
		return 64
	}
	return 0
}

func registerCasts() {
	cast := func(name string, fn func(l *Lowerer, op *ir.Operation, v value.Value, to types.Type) value.Value) {
		Register(name, func(l *Lowerer, op *ir.Operation) error {
			to := mustType(op.Result(0).Type())
			return elementwise(l, op, func(a []value.Value) value.Value { return fn(l, op, a[0], to) })
		})
	}
	cast("arith.extsi", func(l *Lowerer, _ *ir.Operation, v value.Value, to types.Type) value.Value {
		return l.cur.NewSExt(v, to)
	})
	cast("arith.extui", func(l *Lowerer, _ *ir.Operation, v value.Value, to types.Type) value.Value {
		return l.cur.NewZExt(v, to)
	})
	cast("arith.trunci", func(l *Lowerer, _ *ir.Operation, v value.Value, to types.Type) value.Value {
		return l.cur.NewTrunc(v, to)
	})
	for _, n := range []string{"arith.index_cast", "arith.index_castui"} {
		signed := n == "arith.index_cast"
		cast(n, func(l *Lowerer, op *ir.Operation, v value.Value, to types.Type) value.Value {
			from, w := intWidth(op.Operand(0).Type()), intWidth(op.Result(0).Type())
			switch {
			case from > w:
				return l.cur.NewTrunc(v, to)
			case from < w && signed:
				return l.cur.NewSExt(v, to)
			case from < w:
				return l.cur.NewZExt(v, to)
			}
			return v
		})
	}
	fpConvert := func(l *Lowerer, op *ir.Operation, v value.Value) value.Value {
		return l.convertFloat(op.Operand(0).Type(), op.Result(0).Type(), v, op.Attr("rounding"))
	}
	for _, n := range []string{"arith.extf", "arith.truncf", "tt.fp_to_fp"} {
		Register(n, func(l *Lowerer, op *ir.Operation) error {
			if l.truncPairs(op) || l.fp8Upcasts(op) {
				return nil
			}
			return elementwise(l, op, func(a []value.Value) value.Value { return fpConvert(l, op, a[0]) })
		})
	}
	toFloat := func(signed bool) func(l *Lowerer, op *ir.Operation, v value.Value, to types.Type) value.Value {
		return func(l *Lowerer, op *ir.Operation, v value.Value, to types.Type) value.Value {
			dst := to
			if isBF16(op.Result(0).Type()) {
				dst = types.Float
			}
			var r value.Value
			if signed {
				r = l.cur.NewSIToFP(v, dst)
			} else {
				r = l.cur.NewUIToFP(v, dst)
			}
			if isBF16(op.Result(0).Type()) {
				r = l.f32ToBF16(r)
			}
			return r
		}
	}
	cast("arith.sitofp", toFloat(true))
	cast("arith.uitofp", toFloat(false))
	fromFloat := func(signed bool) func(l *Lowerer, op *ir.Operation, v value.Value, to types.Type) value.Value {
		return func(l *Lowerer, op *ir.Operation, v value.Value, to types.Type) value.Value {
			if isBF16(op.Operand(0).Type()) {
				v = l.bf16ToF32(v)
			}
			if signed {
				return l.cur.NewFPToSI(v, to)
			}
			return l.cur.NewFPToUI(v, to)
		}
	}
	cast("arith.fptosi", fromFloat(true))
	cast("arith.fptoui", fromFloat(false))
	bitcast := func(l *Lowerer, _ *ir.Operation, v value.Value, to types.Type) value.Value {
		if v.Type().Equal(to) {
			return v
		}
		return l.cur.NewBitCast(v, to)
	}
	cast("arith.bitcast", bitcast)
	cast("tt.bitcast", bitcast)
	cast("tt.int_to_ptr", func(l *Lowerer, _ *ir.Operation, v value.Value, to types.Type) value.Value {
		return l.cur.NewIntToPtr(v, to)
	})
	cast("tt.ptr_to_int", func(l *Lowerer, _ *ir.Operation, v value.Value, to types.Type) value.Value {
		return l.cur.NewPtrToInt(v, to)
	})
}

// convertFloat converts between f16, bf16, f32 and f64 with
// round-to-nearest-even (Triton's rtne; rtz truncates toward zero).
func (l *Lowerer) convertFloat(from, to ir.Type, v value.Value, rounding ir.Attribute) value.Value {
	fk := ir.ElementType(from).(*ir.FloatType).Kind
	tk := ir.ElementType(to).(*ir.FloatType).Kind
	if fk == tk {
		return v
	}
	if isFP8(from) || isFP8(to) {
		return l.convertFP8(from, to, v, rounding)
	}
	for _, k := range []string{fk, tk} {
		if k != "f16" && k != "bf16" && k != "f32" && k != "f64" {
			panic("llvmemit: conversion from " + fk + " to " + tk + " is not supported")
		}
	}
	rtz := rounding != nil && ir.AttrIntValue(rounding) == 0 // tt.RoundingMode: rtz, rtne
	if fk == "bf16" {
		v, fk = l.bf16ToF32(v), "f32"
		if tk == "f32" {
			return v
		}
	}
	if tk == "bf16" {
		if fk == "f64" {
			v = l.cur.NewFPTrunc(v, types.Float)
		} else if fk == "f16" {
			v = l.cur.NewFPExt(v, types.Float)
		}
		if rtz {
			return l.cur.NewCall(pureAsm(types.I16, "cvt.rz.bf16.f32 $0, $1;", "=h,f", types.Float), v)
		}
		return l.f32ToBF16(v)
	}
	lt := mustType(to)
	if bitsOfKind(fk) < bitsOfKind(tk) {
		return l.cur.NewFPExt(v, lt)
	}
	if rtz && fk == "f32" && tk == "f16" {
		return l.cur.NewCall(pureAsm(types.Half, "cvt.rz.f16.f32 $0, $1;", "=h,f", types.Float), v)
	}
	return l.cur.NewFPTrunc(v, lt)
}

func bitsOfKind(k string) int {
	switch k {
	case "f16", "bf16":
		return 16
	case "f32":
		return 32
	}
	return 64
}

// truncPairs lowers a round-to-nearest-even conversion of an f32 tensor to
// f16 or bf16 on sm_80+ as Triton does: one cvt.rn.f16x2.f32 (or
// .bf16x2) per pair of registers, where LLVM 14 would emit a cvt per
// element. It reports whether it applied.
func (l *Lowerer) truncPairs(op *ir.Operation) bool {
	from, to := op.Operand(0).Type(), op.Result(0).Type()
	fk, ok1 := ir.ElementType(from).(*ir.FloatType)
	tk, ok2 := ir.ElementType(to).(*ir.FloatType)
	if l.e.cc < 80 || !ok1 || !ok2 || fk.Kind != "f32" || tk.Kind != "f16" && tk.Kind != "bf16" || mustLayout(to) == nil {
		return false
	}
	if r := op.Attr("rounding"); r != nil && ir.AttrIntValue(r) == 0 { // rtz
		return false
	}
	in := l.Values(op.Operand(0))
	if len(in)%2 != 0 {
		return false
	}
	cvt := pureAsm(types.I32, "cvt.rn."+tk.Kind+"x2.f32 $0, $1, $2;", "=r,f,f", types.Float, types.Float)
	et := types.Type(types.Half)
	if tk.Kind == "bf16" { // bf16 values are their bits (i16)
		et = types.I16
	}
	out := make([]value.Value, len(in))
	for r := 0; r < len(in); r += 2 {
		// The first source goes to the upper half.
		out[r], out[r+1] = l.unpack16(l.cur.NewCall(cvt, in[r+1], in[r]), et)
	}
	l.Define(op.Result(0), out)
	return true
}

// The high and low halves of one product. Philox (tl.rand, dropout) takes
// both halves of each 32-bit product: tt.mulhiui a, b beside arith.muli a,
// b. LLVM lowers the two to mul.hi.u32 and mul.lo.u32, which ptxas keeps
// as two IMADs; Triton's PTX does the same. Where both multiply the same
// i32 operands in one block, they are lowered to one mul.wide.u32 whose
// halves are the two results (inline PTX, so that LLVM's DAG does not
// split it into mulhu and mul again): one IMAD.WIDE.U32 instead of
// IMAD.HI.U32 and IMAD.

// mulPair is the operands of a multiplication.
type mulPair struct{ a, b *ir.Value }

// wideKey is one register's product in Lowerer.wide.
type wideKey struct {
	blk *ir.Block
	mulPair
	reg int
}

// pairedMul reports whether op, a multiplication of i32 values giving the
// high half (high) or the low half of the product, has a partner giving
// the other half of the same operands' product in its block.
func (l *Lowerer) pairedMul(op *ir.Operation, high bool) bool {
	if it, ok := ir.ElementType(op.Result(0).Type()).(*ir.IntegerType); !ok || it.Width != 32 || op.NumOperands() != 2 {
		return false
	}
	blk := op.Block()
	if l.muls == nil {
		l.muls = map[*ir.Block]map[mulPair][2]bool{}
	}
	halves, ok := l.muls[blk]
	if !ok { // the block's products by operands: [low, high] half taken
		halves = map[mulPair][2]bool{}
		for _, o := range blk.Ops() {
			if hi := isMulHigh(o.Name()); (hi || o.Name() == "arith.muli") && o.NumOperands() == 2 {
				for _, k := range []mulPair{{o.Operand(0), o.Operand(1)}, {o.Operand(1), o.Operand(0)}} {
					h := halves[k]
					h[btoi(hi)] = true
					halves[k] = h
				}
			}
		}
		l.muls[blk] = halves
	}
	return halves[mulPair{op.Operand(0), op.Operand(1)}][btoi(!high)]
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isMulHigh(name string) bool { return name == "tt.mulhiui" || name == "arith.mulhiui" }

// wideProduct is register r's product of x and y (the registers of op's
// operands), {low half, high half}, made once per block and operand pair.
func (l *Lowerer) wideProduct(op *ir.Operation, r int, x, y value.Value) value.Value {
	a, b := op.Operand(0), op.Operand(1)
	k := wideKey{op.Block(), mulPair{a, b}, r}
	if p, ok := l.wide[k]; ok {
		return p
	}
	p := l.cur.NewCall(pureAsm(types.NewStruct(types.I32, types.I32),
		"{\n\t.reg .b64 w;\n\tmul.wide.u32 w, $2, $3;\n\tmov.b64 {$0, $1}, w;\n\t}", "=r,=r,r,r", types.I32, types.I32), x, y)
	if l.wide == nil {
		l.wide = map[wideKey]value.Value{}
	}
	l.wide[k] = p
	l.wide[wideKey{op.Block(), mulPair{b, a}, r}] = p
	return p
}

func lowerMulHiUI(l *Lowerer, op *ir.Operation) error {
	paired := l.pairedMul(op, true)
	return elementwiseRegs(l, op, func(r int, a []value.Value) value.Value {
		if paired {
			return l.cur.NewExtractValue(l.wideProduct(op, r, a[0], a[1]), 1)
		}
		t := a[0].Type().(*types.IntType)
		w := types.NewInt(2 * t.BitSize)
		p := l.cur.NewMul(l.cur.NewZExt(a[0], w), l.cur.NewZExt(a[1], w))
		return l.cur.NewTrunc(l.cur.NewLShr(p, constant.NewInt(w, int64(t.BitSize))), t)
	})
}

func lowerMulI(l *Lowerer, op *ir.Operation) error {
	paired := l.pairedMul(op, false)
	return elementwiseRegs(l, op, func(r int, a []value.Value) value.Value {
		if paired {
			return l.cur.NewExtractValue(l.wideProduct(op, r, a[0], a[1]), 0)
		}
		return l.cur.NewMul(a[0], a[1])
	})
}
