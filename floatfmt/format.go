// Package floatfmt holds the binary floating-point formats Triton's types
// name (IEEE f16, bf16, f32, f64, tf32 and the 8-bit ones): rounding a
// float64 to a format as PTX's conversions do (nearest-even, toward zero,
// nearest-away; saturating or not) and encoding and decoding their bits.
// The interpreter holds its floats with it, and the inline-PTX evaluator
// (internal/ptxint) rounds f16, bf16 and fp8 results with it.
package floatfmt

import (
	"math"
	"math/big"
)

// Format describes a binary floating-point format narrower than or
// equal to IEEE double: its exponent and mantissa widths, its exponent bias
// and how it encodes infinities and NaNs. Every value of such a format is
// exactly a float64: a computation in the format is one in float64,
// rounded to the format after every operation.
type Format struct {
	Name      string
	ExpBits   int
	ManBits   int
	Bias      int
	Special   Special
	StoreBits int // width in memory (tf32 is stored in 32 bits)
}

// Special says how a float format encodes infinities and NaNs.
type Special uint8

const (
	// IEEE: an all-ones exponent encodes infinities (mantissa 0) and NaNs.
	IEEE Special = iota
	// FN ("finite, NaN"): no infinities; only the all-ones exponent with an
	// all-ones mantissa is NaN (f8E4M3FN).
	FN
	// FNUZ ("finite, NaN, unsigned zero"): no infinities, no negative zero;
	// the one NaN is the bit pattern of negative zero (f8E4M3FNUZ,
	// f8E5M2FNUZ, f8E4M3B11FNUZ).
	FNUZ
)

// The float formats, by MLIR spelling.
var formats = map[string]*Format{
	"f16":           {"f16", 5, 10, 15, IEEE, 16},
	"bf16":          {"bf16", 8, 7, 127, IEEE, 16},
	"f32":           {"f32", 8, 23, 127, IEEE, 32},
	"f64":           {"f64", 11, 52, 1023, IEEE, 64},
	"tf32":          {"tf32", 8, 10, 127, IEEE, 32},
	"f8E5M2":        {"f8E5M2", 5, 2, 15, IEEE, 8},
	"f8E4M3FN":      {"f8E4M3FN", 4, 3, 7, FN, 8},
	"f8E4M3":        {"f8E4M3", 4, 3, 7, IEEE, 8},
	"f8E4M3FNUZ":    {"f8E4M3FNUZ", 4, 3, 8, FNUZ, 8},
	"f8E5M2FNUZ":    {"f8E5M2FNUZ", 5, 2, 16, FNUZ, 8},
	"f8E4M3B11FNUZ": {"f8E4M3B11FNUZ", 4, 3, 11, FNUZ, 8},
}

// Lookup returns the format of an MLIR float type spelling
// (f16, bf16, f32, f64, tf32, f8E5M2, f8E4M3FN, ...), or nil.
func Lookup(kind string) *Format { return formats[kind] }

// MaxFinite is the largest finite value of the format.
func (f *Format) MaxFinite() float64 {
	emax := (1 << f.ExpBits) - 1 - f.Bias // all-ones exponent
	man := 1 - math.Ldexp(1, -f.ManBits)  // 1.11...1 - 1
	switch f.Special {
	case IEEE:
		emax-- // the all-ones exponent holds infinities and NaNs
	case FN:
		man -= math.Ldexp(1, -f.ManBits) // S.1111.111 is NaN
	}
	return math.Ldexp(1+man, emax)
}

// Unit is the unit roundoff of the format: 2^-(mantissa bits + 1).
func (f *Format) Unit() float64 { return math.Ldexp(1, -(f.ManBits + 1)) }

// Rounding is a rounding mode of a float conversion.
type Rounding uint8

const (
	// NearestEven rounds to the nearest value, ties to the even mantissa.
	NearestEven Rounding = iota
	// TowardZero truncates.
	TowardZero
	// NearestAway rounds to the nearest value, ties away from zero (PTX's
	// cvt.rna, which Triton uses to round f32 to tf32).
	NearestAway
)

// Round rounds x to the format. Overflow gives an infinity where the format
// has them (the largest finite value under TowardZero); in a format without
// infinities it gives NaN, or the largest finite value of x's sign when
// saturate is set (PTX's .satfinite, which Triton's fp8 conversions use).
// NaN stays NaN.
func (f *Format) Round(x float64, mode Rounding, saturate bool) float64 {
	if f.ExpBits == 11 && f.ManBits == 52 {
		return x
	}
	if f.ExpBits == 8 && f.ManBits == 23 && mode == NearestEven {
		return float64(float32(x))
	}
	if math.IsNaN(x) {
		return x
	}
	maxf := f.MaxFinite()
	if math.IsInf(x, 0) {
		if f.Special == IEEE && !saturate {
			return x
		}
		if saturate {
			return math.Copysign(maxf, x)
		}
		return math.NaN()
	}
	a := math.Abs(x)
	if a == 0 {
		if f.Special == FNUZ {
			return 0
		}
		return x
	}
	_, e := math.Frexp(a) // a = fr * 2^e, fr in [0.5, 1)
	e--                   // a in [2^e, 2^(e+1))
	if minE := 1 - f.Bias; e < minE {
		e = minE
	}
	q := math.Ldexp(1, e-f.ManBits) // the spacing of values around a
	r := a / q
	var n float64
	switch mode {
	case TowardZero:
		n = math.Trunc(r)
	case NearestAway:
		n = math.Floor(r + 0.5)
	default:
		n = math.RoundToEven(r)
	}
	v := n * q
	if v > maxf {
		switch {
		case saturate || mode == TowardZero:
			v = maxf
		case f.Special == IEEE:
			v = math.Inf(1)
		default:
			return math.NaN()
		}
	}
	if v == 0 && f.Special == FNUZ {
		return 0
	}
	return math.Copysign(v, x)
}

// RoundBig rounds a finite x, held exactly, to the format in one step (no
// double rounding through float64): Round's result for the exact value of
// x. The sign of a zero x is kept.
func (f *Format) RoundBig(x *big.Float, mode Rounding, saturate bool) float64 {
	if x.Sign() == 0 {
		if x.Signbit() {
			return math.Copysign(0, -1)
		}
		return 0
	}
	if x.IsInf() {
		v, _ := x.Float64()
		return f.Round(v, mode, saturate)
	}
	e := x.MantExp(nil) - 1 // |x| in [2^e, 2^(e+1))
	prec := f.ManBits + 1   // significant bits of a normal value
	if minE := 1 - f.Bias; e < minE {
		prec -= minE - e // a subnormal: the spacing stays 2^(minE-ManBits)
	}
	bm := big.ToNearestEven
	switch mode {
	case TowardZero:
		bm = big.ToZero
	case NearestAway:
		bm = big.ToNearestAway
	}
	var v float64
	if prec >= 1 {
		v, _ = new(big.Float).SetMode(bm).SetPrec(uint(prec)).Set(x).Float64()
	} else {
		// |x| is below the smallest subnormal q: 0 or ±q.
		q := math.Ldexp(1, 1-f.Bias-f.ManBits)
		half := new(big.Float).SetFloat64(q / 2)
		switch c := new(big.Float).Abs(x).Cmp(half); {
		case mode == TowardZero, c < 0, c == 0 && mode == NearestEven:
			v = 0
		default:
			v = q
		}
		v = math.Copysign(v, float64(x.Sign()))
	}
	// v is on the format's grid (or beyond its largest value): Round keeps
	// it, or settles an overflow.
	return f.Round(v, mode, saturate)
}

// Bits encodes x, a value of the format (as Round returns), as its bit
// pattern. NaNs encode as the format's canonical quiet NaN.
func (f *Format) Bits(x float64) uint64 {
	switch f.Name {
	case "f64":
		return math.Float64bits(x)
	case "f32":
		return uint64(math.Float32bits(float32(x)))
	}
	width := 1 + f.ExpBits + f.ManBits
	sign := uint64(0)
	if math.Signbit(x) {
		sign = 1 << (width - 1)
	}
	expMask := uint64(1)<<f.ExpBits - 1
	switch {
	case math.IsNaN(x):
		switch f.Special {
		case FNUZ:
			return 1 << (width - 1)
		case FN:
			return expMask<<f.ManBits | (1<<f.ManBits - 1)
		}
		return expMask<<f.ManBits | 1<<(f.ManBits-1)
	case math.IsInf(x, 0):
		return sign | expMask<<f.ManBits
	case x == 0:
		if f.Special == FNUZ {
			return 0
		}
		return sign
	}
	a := math.Abs(x)
	_, e := math.Frexp(a)
	e--
	var bits uint64
	if e < 1-f.Bias { // subnormal
		bits = uint64(math.Ldexp(a, f.Bias-1+f.ManBits))
	} else {
		man := uint64(math.Ldexp(a, f.ManBits-e)) - 1<<f.ManBits
		bits = uint64(e+f.Bias)<<f.ManBits | man
	}
	b := sign | bits
	if f.Name == "tf32" { // stored as the f32 with the same value
		return uint64(math.Float32bits(float32(x)))
	}
	return b
}

// FromBits decodes a bit pattern of the format.
func (f *Format) FromBits(b uint64) float64 {
	switch f.Name {
	case "f64":
		return math.Float64frombits(b)
	case "f32", "tf32":
		return float64(math.Float32frombits(uint32(b)))
	}
	width := 1 + f.ExpBits + f.ManBits
	b &= 1<<width - 1
	neg := b>>(width-1) != 0
	exp := int(b>>f.ManBits) & (1<<f.ExpBits - 1)
	man := b & (1<<f.ManBits - 1)
	allOnes := 1<<f.ExpBits - 1
	switch f.Special {
	case IEEE:
		if exp == allOnes {
			if man != 0 {
				return math.NaN()
			}
			if neg {
				return math.Inf(-1)
			}
			return math.Inf(1)
		}
	case FN:
		if exp == allOnes && man == 1<<f.ManBits-1 {
			return math.NaN()
		}
	case FNUZ:
		if neg && exp == 0 && man == 0 {
			return math.NaN()
		}
	}
	var v float64
	if exp == 0 {
		v = math.Ldexp(float64(man), 1-f.Bias-f.ManBits)
	} else {
		v = math.Ldexp(float64(man|1<<f.ManBits), exp-f.Bias-f.ManBits)
	}
	if neg {
		v = -v
	}
	return v
}
