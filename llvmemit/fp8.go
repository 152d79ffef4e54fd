package llvmemit

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// fp8 element types (f8E4M3FN, f8E5M2) travel as their bits (i8), like
// bf16. They only move (loads, stores, layout conversions, shared memory,
// select, bitcast) and convert: tt.fp_to_fp, arith.extf and arith.truncf
// to and from f16, bf16 and f32, in software that is valid on sm_80 with
// PTX 7.0 (Triton's cvt.rn.satfinite.e4m3x2 needs sm_89), but upcasts on
// sm_90+, which use the hardware's cvt.rn.f16x2.e4m3x2 (fp8Upcasts in
// pairs.go). Upcasts are exact; downcasts round once from the source value (to nearest even, or
// toward zero with rounding = rtz) and saturate to the largest finite
// value, as Triton's conversions do (NaN stays NaN). Arithmetic on fp8
// values is refused: Triton converts them first.

// fp8Format describes an fp8 kind.
type fp8Format struct {
	exp, man, bias int
	maxCode        int64 // the largest finite value's code (without sign)
	nan            int64 // the canonical NaN's code
	fn             bool  // no infinities: all-ones exponent and mantissa is NaN
}

var fp8Formats = map[string]fp8Format{
	"f8E4M3FN": {exp: 4, man: 3, bias: 7, maxCode: 0x7e, nan: 0x7f, fn: true},
	"f8E5M2":   {exp: 5, man: 2, bias: 15, maxCode: 0x7b, nan: 0x7e},
}

// fp8Kind returns the fp8 format of t's element type.
func fp8Kind(t ir.Type) (fp8Format, bool) {
	f, ok := ir.ElementType(t).(*ir.FloatType)
	if !ok {
		return fp8Format{}, false
	}
	k, ok := fp8Formats[f.Kind]
	return k, ok
}

// isFP8 reports whether t's element type is an fp8 kind.
func isFP8(t ir.Type) bool { _, ok := fp8Kind(t); return ok }

// fp8Neutral are the ops that may see fp8 values in elementwise: they do
// no arithmetic on them.
var fp8Neutral = map[string]bool{"arith.select": true, "arith.bitcast": true, "tt.bitcast": true,
	"arith.extf": true, "arith.truncf": true, "tt.fp_to_fp": true}

// checkFP8 refuses arithmetic on fp8 values.
func checkFP8(op *ir.Operation) error {
	if fp8Neutral[op.Name()] {
		return nil
	}
	for _, v := range op.Operands() {
		if isFP8(v.Type()) {
			return errorf(op, "arithmetic on %s is not supported (convert it with tt.fp_to_fp first)", ir.TypeString(ir.ElementType(v.Type())))
		}
	}
	for _, v := range op.Results() {
		if isFP8(v.Type()) {
			return errorf(op, "arithmetic on %s is not supported (convert it with tt.fp_to_fp first)", ir.TypeString(ir.ElementType(v.Type())))
		}
	}
	return nil
}

// fp8ToF32 converts fp8 bits (i8) to an f32, exactly: the exponent and
// mantissa bits go to the top of an f32 (bias 127), a multiplication by
// 2^(127-bias) rebiases them, subnormals included; the sign is or-ed back;
// the NaN codes (and E5M2's infinities) are selected.
func (l *Lowerer) fp8ToF32(f fp8Format, v value.Value) value.Value {
	b := l.cur
	w := b.NewZExt(v, types.I32)
	em := b.NewAnd(w, i32(0x7f))
	x := b.NewBitCast(b.NewShl(em, i32(int64(23-f.man))), types.Float)
	scale := constant.NewFloat(types.Float, math.Ldexp(1, 127-f.bias))
	y := b.NewBitCast(b.NewFMul(x, scale), types.I32)
	sign := b.NewShl(b.NewAnd(w, i32(0x80)), i32(24))
	r := b.NewBitCast(b.NewOr(y, sign), types.Float)
	special := b.NewICmp(enum.IPredEQ, em, i32(0x7f))
	var spec value.Value = constant.NewFloat(types.Float, math.NaN())
	if !f.fn {
		// E5M2: exponent all ones is an infinity (mantissa 0) or NaN.
		special = b.NewICmp(enum.IPredUGE, em, i32(0x7c))
		inf := b.NewBitCast(b.NewOr(sign, i32(0x7f800000)), types.Float)
		spec = b.NewSelect(b.NewICmp(enum.IPredEQ, em, i32(0x7c)), inf, spec)
	}
	return b.NewSelect(special, spec, r)
}

// f32ToFP8 rounds an f32 to fp8 bits (i8): in the normal range by
// rebiasing the exponent and rounding the mantissa in integer arithmetic,
// below it by an addition that puts the rounding point at the format's
// subnormal spacing (add.rz.f32 for rtz); values above the largest finite
// one saturate to it; NaN gives the canonical NaN.
func (l *Lowerer) f32ToFP8(f fp8Format, v value.Value, rtz bool) value.Value {
	b := l.cur
	u := b.NewBitCast(v, types.I32)
	a := b.NewAnd(u, i32(0x7fffffff))
	sign := b.NewTrunc(b.NewLShr(b.NewAnd(u, i32(-0x80000000)), i32(24)), types.I8)
	shift := int64(23 - f.man)
	// Normal: rebias, round the dropped bits.
	reb := b.NewSub(a, i32(int64(127-f.bias)<<23))
	var rounded value.Value = reb
	if !rtz {
		odd := b.NewAnd(b.NewLShr(reb, i32(shift)), i32(1))
		rounded = b.NewAdd(b.NewAdd(reb, i32(1<<(shift-1)-1)), odd)
	}
	normal := b.NewLShr(rounded, i32(shift))
	// Subnormal: a + 2^(1-bias-man+23) rounds a at the subnormal spacing;
	// the low bits of the sum are the code.
	magic := math.Ldexp(1, 1-f.bias-f.man+23)
	af := b.NewBitCast(a, types.Float)
	var sum value.Value
	mc := constant.NewFloat(types.Float, magic)
	if rtz {
		sum = b.NewCall(pureAsm(types.Float, "add.rz.f32 $0, $1, $2;", "=f,f,f", types.Float, types.Float), af, mc)
	} else {
		sum = b.NewFAdd(af, mc)
	}
	sub := b.NewSub(b.NewBitCast(sum, types.I32), i32(int64(math.Float32bits(float32(magic)))))
	minNormal := int64(127-f.bias+1) << 23 // the f32 bits of 2^(1-bias)
	code := b.NewSelect(b.NewICmp(enum.IPredULT, a, i32(minNormal)), sub, normal)
	code = b.NewSelect(b.NewICmp(enum.IPredUGT, code, i32(f.maxCode)), i32(f.maxCode), code)
	code = b.NewSelect(b.NewICmp(enum.IPredUGT, a, i32(0x7f800000)), i32(f.nan), code)
	c8 := b.NewTrunc(code, types.I8)
	return b.NewSelect(b.NewICmp(enum.IPredUGT, a, i32(0x7f800000)), c8, b.NewOr(c8, sign))
}

// fp8Const encodes v in the fp8 format: rounded to nearest even,
// saturating (NaN as the canonical NaN).
func fp8Const(f fp8Format, v float64) *constant.Int {
	if math.IsNaN(v) {
		return constant.NewInt(types.I8, f.nan)
	}
	var sign int64
	if math.Signbit(v) {
		sign, v = 0x80, -v
	}
	minNormal := math.Ldexp(1, 1-f.bias)
	var code int64
	if v < minNormal {
		code = int64(math.RoundToEven(v / math.Ldexp(1, 1-f.bias-f.man)))
	} else {
		fr, e := math.Frexp(v) // v = fr·2^e, fr in [0.5, 1)
		m := math.RoundToEven((fr*2 - 1) * float64(int64(1)<<f.man))
		code = int64(e-1+f.bias)<<f.man + int64(m) // a carry of m bumps the exponent
		if math.IsInf(v, 0) || e-1+f.bias >= 1<<f.exp {
			code = f.maxCode
		}
	}
	code = min(code, f.maxCode)
	return constant.NewInt(types.I8, int64(int8(uint8(code|sign))))
}

// convertFP8 converts a register between an fp8 kind and f16, bf16 or f32
// (one side fp8). rounding is tt.fp_to_fp's attribute (nil: rtne).
func (l *Lowerer) convertFP8(from, to ir.Type, v value.Value, rounding ir.Attribute) value.Value {
	ff, fromFP8 := fp8Kind(from)
	tf, toFP8 := fp8Kind(to)
	fk := ir.ElementType(from).(*ir.FloatType).Kind
	tk := ir.ElementType(to).(*ir.FloatType).Kind
	if fromFP8 && toFP8 {
		if fk == tk {
			return v
		}
		panic(fmt.Sprintf("llvmemit: conversion from %s to %s is not supported", fk, tk))
	}
	if fromFP8 {
		x := l.fp8ToF32(ff, v)
		if tk == "f32" {
			return x
		}
		return l.convertFloat(ir.F32, to, x, nil) // exact: fp8 values are f16 and bf16 values
	}
	rtz := rounding != nil && ir.AttrIntValue(rounding) == 0
	switch fk {
	case "f16", "bf16":
		v = l.convertFloat(from, ir.F32, v, nil) // exact
	case "f32":
	default:
		// From f64 the value would be rounded twice (to f32, then fp8).
		panic(fmt.Sprintf("llvmemit: conversion from %s to %s is not supported", fk, tk))
	}
	return l.f32ToFP8(tf, v, rtz)
}
