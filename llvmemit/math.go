package llvmemit

import (
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// The math dialect. f16 and bf16 operands are computed in f32, as Triton
// does for these functions. Transcendentals and f32 sqrt use PTX
// approximations (ex2.approx[.ftz], lg2.approx, sqrt.approx.ftz,
// rsqrt.approx.ftz, sin/cos/tanh.approx); exp is rescaled from base 2 as
// in Triton's ExpOpConversionApprox, log likewise. Triton 3.6 computes
// math.log on f32 with libdevice's __nv_logf instead (a polynomial of
// ftz fmas in its PTX of cross_entropy, h100-r17): lg2.approx is fewer
// instructions, within 2^-22 absolute of log2 (the interpreter's
// tolerance for approximations covers it). f64 is
// supported where PTX has the instruction (sqrt, rsqrt, fma, abs, floor,
// ceil); the others are refused.

// mathF32 lowers a unary-or-more float op computing in f32 (or f64 when
// f64ok and the type is f64).
func mathF32(name string, f64ok bool, fn func(l *Lowerer, args []value.Value) value.Value) {
	Register(name, func(l *Lowerer, op *ir.Operation) error {
		t := op.Result(0).Type()
		k := ir.ElementType(t).(*ir.FloatType).Kind
		if k == "f64" && !f64ok {
			return errorf(op, "f64 is not supported (PTX has no f64 approximation of it; Triton calls libdevice)")
		}
		return elementwise(l, op, func(a []value.Value) value.Value {
			w := make([]value.Value, len(a))
			for i, x := range a {
				w[i] = l.widen(op.Operand(i).Type(), x)
			}
			return l.narrow(t, fn(l, w))
		})
	})
}

// widen returns a float register as f32 (f64 stays f64).
func (l *Lowerer) widen(t ir.Type, v value.Value) value.Value {
	switch ir.ElementType(t).(*ir.FloatType).Kind {
	case "bf16":
		return l.bf16ToF32(v)
	case "f16":
		return l.cur.NewFPExt(v, types.Float)
	}
	return v
}

// narrow rounds an f32 result back to t's element type.
func (l *Lowerer) narrow(t ir.Type, v value.Value) value.Value {
	switch ir.ElementType(t).(*ir.FloatType).Kind {
	case "bf16":
		return l.f32ToBF16(v)
	case "f16":
		return l.cur.NewFPTrunc(v, types.Half)
	}
	return v
}

func (l *Lowerer) call(name string, ret types.Type, args ...value.Value) value.Value {
	ps := make([]types.Type, len(args))
	for i, a := range args {
		ps[i] = a.Type()
	}
	return l.cur.NewCall(l.e.nv.get(name, ret, attrsPure, ps...), args...)
}

// llvmMath calls a generic llvm.NAME.f32/f64 intrinsic.
func (l *Lowerer) llvmMath(name string, args ...value.Value) value.Value {
	t := args[0].Type()
	suffix := ".f32"
	if t.Equal(types.Double) {
		suffix = ".f64"
	}
	return l.call("llvm."+name+suffix, t, args...)
}

func (l *Lowerer) approx(text string, v value.Value) value.Value {
	return l.cur.NewCall(pureAsm(types.Float, text+" $0, $1;", "=f,f", types.Float), v)
}

func init() {
	log2e := constant.NewFloat(types.Float, float64(float32(math.Log2E)))
	ln2 := constant.NewFloat(types.Float, float64(float32(math.Ln2)))
	// math.exp2 is Triton's ex2.approx.ftz.f32 (one MUFU.EX2; without .ftz
	// ptxas wraps it in a subnormal rescaling), math.exp its non-ftz
	// ex2.approx.f32 of x·log2(e), as in Triton 3.6's PTX.
	mathF32("math.exp2", false, func(l *Lowerer, a []value.Value) value.Value {
		return l.call("llvm.nvvm.ex2.approx.ftz.f", types.Float, a[0])
	})
	mathF32("math.exp", false, func(l *Lowerer, a []value.Value) value.Value {
		return l.call("llvm.nvvm.ex2.approx.f", types.Float, l.cur.NewFMul(a[0], log2e))
	})
	mathF32("math.log2", false, func(l *Lowerer, a []value.Value) value.Value {
		return l.call("llvm.nvvm.lg2.approx.f", types.Float, a[0])
	})
	mathF32("math.log", false, func(l *Lowerer, a []value.Value) value.Value {
		return l.cur.NewFMul(l.call("llvm.nvvm.lg2.approx.f", types.Float, a[0]), ln2)
	})
	// math.sqrt on f32 is Triton's sqrt.approx.ftz.f32 (one MUFU op; max
	// relative error 2^-23); tt.precise_sqrt and f64 round correctly.
	preciseSqrt := func(l *Lowerer, a []value.Value) value.Value {
		if a[0].Type().Equal(types.Double) {
			return l.call("llvm.nvvm.sqrt.rn.d", types.Double, a[0])
		}
		return l.call("llvm.nvvm.sqrt.rn.f", types.Float, a[0])
	}
	mathF32("math.sqrt", true, func(l *Lowerer, a []value.Value) value.Value {
		if a[0].Type().Equal(types.Double) {
			return preciseSqrt(l, a)
		}
		return l.call("llvm.nvvm.sqrt.approx.ftz.f", types.Float, a[0])
	})
	mathF32("tt.precise_sqrt", true, preciseSqrt)
	// math.rsqrt on f32 is Triton's rsqrt.approx.ftz.f32 (one MUFU.RSQ;
	// without .ftz ptxas wraps it in a subnormal rescaling: two compares
	// and four predicated ops more); f64 rsqrt.approx.f64.
	mathF32("math.rsqrt", true, func(l *Lowerer, a []value.Value) value.Value {
		if a[0].Type().Equal(types.Double) {
			return l.call("llvm.nvvm.rsqrt.approx.d", types.Double, a[0])
		}
		return l.call("llvm.nvvm.rsqrt.approx.ftz.f", types.Float, a[0])
	})
	mathF32("math.absf", true, func(l *Lowerer, a []value.Value) value.Value { return l.llvmMath("fabs", a[0]) })
	mathF32("math.floor", true, func(l *Lowerer, a []value.Value) value.Value { return l.llvmMath("floor", a[0]) })
	mathF32("math.ceil", true, func(l *Lowerer, a []value.Value) value.Value { return l.llvmMath("ceil", a[0]) })
	mathF32("math.fma", true, func(l *Lowerer, a []value.Value) value.Value { return l.llvmMath("fma", a[0], a[1], a[2]) })
	mathF32("math.sin", false, func(l *Lowerer, a []value.Value) value.Value { return l.approx("sin.approx.f32", a[0]) })
	mathF32("math.cos", false, func(l *Lowerer, a []value.Value) value.Value { return l.approx("cos.approx.f32", a[0]) })
	mathF32("math.tanh", false, func(l *Lowerer, a []value.Value) value.Value { return l.approx("tanh.approx.f32", a[0]) })
	Register("math.absi", func(l *Lowerer, op *ir.Operation) error {
		return elementwise(l, op, func(a []value.Value) value.Value {
			z := zeroOf(a[0].Type())
			return l.cur.NewSelect(l.cur.NewICmp(enum.IPredSLT, a[0], z), l.cur.NewSub(z, a[0]), a[0])
		})
	})
	Register("tt.clampf", func(l *Lowerer, op *ir.Operation) error {
		nan := false
		if a := op.Attr("propagateNan"); a != nil {
			nan = ir.AttrIntValue(a) != 0
		}
		return floatOp(l, op, func(a []value.Value) value.Value {
			return l.fminmax(l.fminmax(a[0], a[1], true, nan), a[2], false, nan)
		})
	})
}

func init() {
	// erf has no PTX instruction; Triton calls libdevice's __nv_erff. Here:
	// the Taylor series to x^11 for |x| < 0.5 (truncation error < 1e-8),
	// else Abramowitz–Stegun 7.1.26 (absolute error < 1.5e-7), so within a
	// few ulp of libdevice but not bit-identical.
	mathF32("math.erf", false, func(l *Lowerer, a []value.Value) value.Value {
		b := l.cur
		f := func(v float64) value.Value { return constant.NewFloat(types.Float, float64(float32(v))) }
		x := a[0]
		ax := l.llvmMath("fabs", x)
		x2 := b.NewFMul(x, x)
		// Small |x|: x·(2/√π)·(1 − x²/3 + x⁴/10 − x⁶/42 + x⁸/216 − x¹⁰/1320).
		var p value.Value = f(-1.0 / 1320)
		for _, c := range []float64{1.0 / 216, -1.0 / 42, 1.0 / 10, -1.0 / 3, 1} {
			p = b.NewFAdd(b.NewFMul(p, x2), f(c))
		}
		small := b.NewFMul(b.NewFMul(x, p), f(2/math.Sqrt(math.Pi)))
		// Large |x|: 1 − t·(a1 + t·(a2 + …))·e^(−x²), t = 1/(1 + 0.3275911|x|).
		t := b.NewFDiv(f(1), b.NewFAdd(f(1), b.NewFMul(f(0.3275911), ax)))
		var q value.Value = f(1.061405429)
		for _, c := range []float64{-1.453152027, 1.421413741, -0.284496736, 0.254829592} {
			q = b.NewFAdd(b.NewFMul(q, t), f(c))
		}
		q = b.NewFMul(q, t)
		e := l.call("llvm.nvvm.ex2.approx.f", types.Float, b.NewFMul(b.NewFNeg(x2), f(math.Log2E)))
		var large value.Value = b.NewFSub(f(1), b.NewFMul(q, e))
		neg := b.NewFCmp(enum.FPredOLT, x, f(0))
		large = b.NewSelect(neg, b.NewFNeg(large), large)
		return b.NewSelect(b.NewFCmp(enum.FPredOLT, ax, f(0.5)), small, large)
	})
}
