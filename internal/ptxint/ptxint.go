// Package ptxint runs straight-line PTX, the subset that inline asm over
// packed values is usually made of, as the PTX ISA defines it:
//
//   - 32-bit integers: and, or, xor, not, shl, shr, add, sub, mul.lo,
//     mul.hi, mad.lo, min, max, neg, abs, popc, clz, brev, bfe, bfi, lop3,
//     shf (funnel shifts), prmt (its default mode), mov;
//   - 16-bit integers: mov, and, or, xor, and cvt to and from 32 bits;
//   - 64-bit integers ("l" registers): and, or, xor, not, shl, shr, add,
//     sub, mul.lo, mul.hi, mad.lo, min, max, neg, abs, popc, clz, brev,
//     mov, selp, setp, cvt to and from 32 bits, mul.wide and mad.wide of
//     32-bit operands, and mov.b64 packing two 32-bit registers;
//   - f64 ("d" registers): add, sub, mul, fma.rn, div.rn, sqrt.rn, rcp.rn,
//     neg, abs, min, max, setp, cvt to and from f32 and 32- and 64-bit
//     integers; immediates 0dXXXXXXXXXXXXXXXX or decimal;
//   - f32: add, sub, mul (.rn, the default), fma.rn, neg, abs, min, max,
//     mov, and cvt to and from 32-bit integers (cvt.rn.f32.s32/u32,
//     cvt.rzi.s32/u32.f32); div (.rn, .full, .approx), sqrt and rcp (.rn,
//     .approx), rsqrt, ex2, lg2, sin, cos and tanh (.approx; .ftz too):
//     approximate ones computed exactly and rounded (see their table);
//   - f16 and bf16, one to a 16-bit register or two to a 32-bit one (x2):
//     add, sub, mul, fma.rn, neg, abs, min, max; cvt between them and f32
//     (cvt.f32.f16, cvt.rn.f16.f32, cvt.rn.f16x2.f32, the bf16 ones);
//   - fp8 pairs (e4m3x2, e5m2x2) from two f32 or an f16x2
//     (cvt.rn.satfinite.e4m3x2.f32, ….f16x2) and to an f16x2
//     (cvt.rn.f16x2.e4m3x2);
//   - mov.b32 packing two 16-bit registers ({lo, hi}) or unpacking one;
//   - predicates: setp (eq, ne, lt, le, gt, ge on u32, s32 and f32, eq and
//     ne on b32; the unordered equ … geu, num and nan on f32), selp, and,
//     or, xor and not on .pred registers, and guards (@p, @!p).
//
// Operands are $k (the asm's operands, in constraint order), registers the
// asm declares (.reg), and immediates (integers, 0fXXXXXXXX f32 bits,
// decimal floats). Every float result is rounded once, to nearest even;
// subnormals are kept but by the .ftz instructions. NaNs are what an H100
// makes (testdata/gpu_nans.jsonl, checked by TestGPUNaNs): a 32- or 16-bit
// result is the canonical NaN (0x7fffffff, 0x7fff in f16 and bf16, 0x7f in
// e4m3), neg and abs of an f32 NaN too (of an f16 or bf16 one they flip and
// clear the sign: not measured); an f64 instruction passes a NaN operand on,
// quieted, and makes 0xfff8000000000000 of an invalid operation (see the f64
// instructions); min and max return the operand that is not NaN and order
// -0 below +0. The interpreter runs
// tt.elementwise_inline_asm with it, and llvmemit's simulator the inline
// PTX the lowering emits.
package ptxint

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/floatfmt"
)

// Program is parsed inline PTX with its constraints: outputs $0..$(Outs-1),
// then inputs.
type Program struct {
	Outs, Ins int
	tied      map[int]int // input index -> the output whose register it starts in
	// Regs is each operand's constraint letter (r, f, h, l, d or b),
	// outputs then inputs; 0 for an input tied to an output.
	Regs   []byte
	instrs []instr
}

type instr struct {
	op    string
	def   opDef
	args  []string // destination first; a vector operand is "{a,b}"
	guard string   // a predicate register (@p), or ""
	neg   bool     // @!p: run where the predicate is false
	line  int
}

// opDef is an instruction: its operand count (destination included), the
// width of its destination (1, 16, 32 or 64 bits) and its evaluation on
// the operands' values (v[0] is the destination's old value): f on their
// low 32 bits, or wide on all 64 (f64imm: a decimal float immediate is an
// f64, not an f32).
type opDef struct {
	n, dst int
	f      func(v []uint32) uint32
	wide   func(v []uint64) uint64
	f64imm bool
}

var ops = map[string]opDef{}

func def(dst, n int, f func(v []uint32) uint32, names ...string) {
	for _, name := range names {
		ops[name] = opDef{n: n, dst: dst, f: f}
	}
}

// def64 defines instructions on 64-bit operands (or producing 64 bits).
func def64(dst, n int, f func(v []uint64) uint64, names ...string) {
	for _, name := range names {
		ops[name] = opDef{n: n, dst: dst, wide: f, f64imm: strings.HasSuffix(name, "f64")}
	}
}

func init() {
	// 32-bit integers.
	def(32, 3, func(v []uint32) uint32 { return v[1] & v[2] }, "and.b32")
	def(32, 3, func(v []uint32) uint32 { return v[1] | v[2] }, "or.b32")
	def(32, 3, func(v []uint32) uint32 { return v[1] ^ v[2] }, "xor.b32")
	def(32, 2, func(v []uint32) uint32 { return ^v[1] }, "not.b32")
	def(32, 3, func(v []uint32) uint32 { return v[1] << min(v[2], 32) }, "shl.b32")
	def(32, 3, func(v []uint32) uint32 { return v[1] >> min(v[2], 32) }, "shr.u32", "shr.b32")
	def(32, 3, func(v []uint32) uint32 { return uint32(int32(v[1]) >> min(v[2], 31)) }, "shr.s32")
	def(32, 3, func(v []uint32) uint32 { return v[1] + v[2] }, "add.u32", "add.s32")
	def(32, 3, func(v []uint32) uint32 { return v[1] - v[2] }, "sub.u32", "sub.s32")
	def(32, 3, func(v []uint32) uint32 { return v[1] * v[2] }, "mul.lo.u32", "mul.lo.s32")
	def(32, 3, func(v []uint32) uint32 { return uint32(uint64(v[1]) * uint64(v[2]) >> 32) }, "mul.hi.u32")
	def(32, 3, func(v []uint32) uint32 { return uint32(int64(int32(v[1])) * int64(int32(v[2])) >> 32) }, "mul.hi.s32")
	def(32, 4, func(v []uint32) uint32 { return v[1]*v[2] + v[3] }, "mad.lo.u32", "mad.lo.s32")
	def(32, 3, func(v []uint32) uint32 { return min(v[1], v[2]) }, "min.u32")
	def(32, 3, func(v []uint32) uint32 { return max(v[1], v[2]) }, "max.u32")
	def(32, 3, func(v []uint32) uint32 { return uint32(min(int32(v[1]), int32(v[2]))) }, "min.s32")
	def(32, 3, func(v []uint32) uint32 { return uint32(max(int32(v[1]), int32(v[2]))) }, "max.s32")
	def(32, 2, func(v []uint32) uint32 { return -v[1] }, "neg.s32")
	def(32, 2, func(v []uint32) uint32 {
		if int32(v[1]) < 0 {
			return -v[1] // abs of the most negative value is itself
		}
		return v[1]
	}, "abs.s32")
	def(32, 2, func(v []uint32) uint32 { return uint32(bits.OnesCount32(v[1])) }, "popc.b32")
	def(32, 2, func(v []uint32) uint32 { return uint32(bits.LeadingZeros32(v[1])) }, "clz.b32")
	def(32, 2, func(v []uint32) uint32 { return bits.Reverse32(v[1]) }, "brev.b32")
	def(32, 4, func(v []uint32) uint32 { return bfe(v[1], v[2], v[3], false) }, "bfe.u32")
	def(32, 4, func(v []uint32) uint32 { return bfe(v[1], v[2], v[3], true) }, "bfe.s32")
	def(32, 5, func(v []uint32) uint32 { return bfi(v[1], v[2], v[3], v[4]) }, "bfi.b32")
	def(32, 5, func(v []uint32) uint32 { return lop3(v[1], v[2], v[3], v[4]) }, "lop3.b32")
	for _, dir := range []string{"l", "r"} {
		for _, mode := range []string{"wrap", "clamp"} {
			left, wrap := dir == "l", mode == "wrap"
			def(32, 4, func(v []uint32) uint32 { return shf(v[1], v[2], v[3], left, wrap) },
				"shf."+dir+"."+mode+".b32")
		}
	}
	def(32, 4, func(v []uint32) uint32 { return Prmt(v[1], v[2], v[3]) }, "prmt.b32")
	def(32, 2, func(v []uint32) uint32 { return v[1] }, "mov.b32", "mov.u32", "mov.s32", "mov.f32")

	// 64-bit integers, and the 32 x 32 -> 64 products.
	def64(64, 3, func(v []uint64) uint64 { return v[1] & v[2] }, "and.b64")
	def64(64, 3, func(v []uint64) uint64 { return v[1] | v[2] }, "or.b64")
	def64(64, 3, func(v []uint64) uint64 { return v[1] ^ v[2] }, "xor.b64")
	def64(64, 2, func(v []uint64) uint64 { return ^v[1] }, "not.b64")
	def64(64, 3, func(v []uint64) uint64 { return v[1] << min(uint32(v[2]), 64) }, "shl.b64")
	def64(64, 3, func(v []uint64) uint64 { return v[1] >> min(uint32(v[2]), 64) }, "shr.u64", "shr.b64")
	def64(64, 3, func(v []uint64) uint64 { return uint64(int64(v[1]) >> min(uint32(v[2]), 63)) }, "shr.s64")
	def64(64, 3, func(v []uint64) uint64 { return v[1] + v[2] }, "add.u64", "add.s64")
	def64(64, 3, func(v []uint64) uint64 { return v[1] - v[2] }, "sub.u64", "sub.s64")
	def64(64, 3, func(v []uint64) uint64 { return v[1] * v[2] }, "mul.lo.u64", "mul.lo.s64")
	def64(64, 3, func(v []uint64) uint64 { hi, _ := bits.Mul64(v[1], v[2]); return hi }, "mul.hi.u64")
	def64(64, 3, func(v []uint64) uint64 { return mulHiS64(int64(v[1]), int64(v[2])) }, "mul.hi.s64")
	def64(64, 4, func(v []uint64) uint64 { return v[1]*v[2] + v[3] }, "mad.lo.u64", "mad.lo.s64")
	def64(64, 3, func(v []uint64) uint64 { return uint64(uint32(v[1])) * uint64(uint32(v[2])) }, "mul.wide.u32")
	def64(64, 3, func(v []uint64) uint64 { return uint64(int64(int32(v[1])) * int64(int32(v[2]))) }, "mul.wide.s32")
	def64(64, 4, func(v []uint64) uint64 { return uint64(uint32(v[1]))*uint64(uint32(v[2])) + v[3] }, "mad.wide.u32")
	def64(64, 4, func(v []uint64) uint64 { return uint64(int64(int32(v[1]))*int64(int32(v[2]))) + v[3] }, "mad.wide.s32")
	def64(64, 3, func(v []uint64) uint64 { return min(v[1], v[2]) }, "min.u64")
	def64(64, 3, func(v []uint64) uint64 { return max(v[1], v[2]) }, "max.u64")
	def64(64, 3, func(v []uint64) uint64 { return uint64(min(int64(v[1]), int64(v[2]))) }, "min.s64")
	def64(64, 3, func(v []uint64) uint64 { return uint64(max(int64(v[1]), int64(v[2]))) }, "max.s64")
	def64(64, 2, func(v []uint64) uint64 { return -v[1] }, "neg.s64")
	def64(64, 2, func(v []uint64) uint64 {
		if int64(v[1]) < 0 {
			return -v[1]
		}
		return v[1]
	}, "abs.s64")
	def64(32, 2, func(v []uint64) uint64 { return uint64(bits.OnesCount64(v[1])) }, "popc.b64")
	def64(32, 2, func(v []uint64) uint64 { return uint64(bits.LeadingZeros64(v[1])) }, "clz.b64")
	def64(64, 2, func(v []uint64) uint64 { return bits.Reverse64(v[1]) }, "brev.b64")
	def64(64, 2, func(v []uint64) uint64 { return v[1] }, "mov.b64", "mov.u64", "mov.s64", "mov.f64")
	def64(64, 2, func(v []uint64) uint64 { return uint64(uint32(v[1])) }, "cvt.u64.u32")
	def64(64, 2, func(v []uint64) uint64 { return uint64(int64(int32(v[1]))) }, "cvt.s64.s32", "cvt.u64.s32")
	def64(32, 2, func(v []uint64) uint64 { return v[1] }, "cvt.u32.u64", "cvt.s32.s64", "cvt.u32.s64", "cvt.s32.u64")

	// Predicates (1 or 0 in a register): setp compares, selp selects, and
	// an instruction guarded by @p (@!p) runs where p is true (false).
	cmps := map[string]func(c int) bool{
		"eq": func(c int) bool { return c == 0 }, "ne": func(c int) bool { return c != 0 },
		"lt": func(c int) bool { return c < 0 }, "le": func(c int) bool { return c <= 0 },
		"gt": func(c int) bool { return c > 0 }, "ge": func(c int) bool { return c >= 0 },
	}
	for name, ok := range cmps {
		for _, ty := range []string{"u32", "s32", "b32", "f32", "u64", "s64", "b64", "f64"} {
			if (ty == "b32" || ty == "b64") && name != "eq" && name != "ne" {
				continue
			}
			def64(1, 3, func(v []uint64) uint64 {
				c, ordered := compare(ty, v[1], v[2])
				return b2u(ordered && ok(c)) // an ordered float comparison with a NaN is false
			}, "setp."+name+"."+ty)
		}
		for _, ty := range []string{"f32", "f64"} {
			// The unordered float comparisons: true with a NaN operand.
			def64(1, 3, func(v []uint64) uint64 {
				c, ordered := compare(ty, v[1], v[2])
				return b2u(!ordered || ok(c))
			}, "setp."+name+"u."+ty)
		}
	}
	for _, ty := range []string{"f32", "f64"} {
		def64(1, 3, func(v []uint64) uint64 { _, ordered := compare(ty, v[1], v[2]); return b2u(ordered) }, "setp.num."+ty)
		def64(1, 3, func(v []uint64) uint64 { _, ordered := compare(ty, v[1], v[2]); return b2u(!ordered) }, "setp.nan."+ty)
	}
	for _, w := range []string{"32", "64"} {
		dst := 32
		if w == "64" {
			dst = 64
		}
		def64(dst, 4, func(v []uint64) uint64 {
			if v[3] != 0 {
				return v[1]
			}
			return v[2]
		}, "selp.b"+w, "selp.u"+w, "selp.s"+w, "selp.f"+w)
	}
	def(1, 3, func(v []uint32) uint32 { return v[1] & v[2] & 1 }, "and.pred")
	def(1, 3, func(v []uint32) uint32 { return (v[1] | v[2]) & 1 }, "or.pred")
	def(1, 3, func(v []uint32) uint32 { return (v[1] ^ v[2]) & 1 }, "xor.pred")
	def(1, 2, func(v []uint32) uint32 { return ^v[1] & 1 }, "not.pred")

	// 16-bit integers and the conversions to and from 32 bits.
	def(16, 2, func(v []uint32) uint32 { return v[1] }, "mov.b16", "mov.u16", "mov.s16", "cvt.u16.u32", "cvt.s16.s32")
	def(16, 3, func(v []uint32) uint32 { return v[1] & v[2] }, "and.b16")
	def(16, 3, func(v []uint32) uint32 { return v[1] | v[2] }, "or.b16")
	def(16, 3, func(v []uint32) uint32 { return v[1] ^ v[2] }, "xor.b16")
	def(32, 2, func(v []uint32) uint32 { return v[1] & 0xffff }, "cvt.u32.u16")
	def(32, 2, func(v []uint32) uint32 { return uint32(int32(int16(v[1]))) }, "cvt.s32.s16")

	// f32.
	f32, f16, bf16 := fmtOf("f32"), fmtOf("f16"), fmtOf("bf16")
	for _, x := range []struct {
		suffix string
		lanes  *lanes
	}{{"f32", &lanes{f32, 32, 1}}, {"f16", &lanes{f16, 16, 1}}, {"f16x2", &lanes{f16, 16, 2}},
		{"bf16", &lanes{bf16, 16, 1}}, {"bf16x2", &lanes{bf16, 16, 2}}} {
		l, dst := x.lanes, x.lanes.bits*x.lanes.n
		def(dst, 3, l.arith(func(a []float64) float64 { return a[0] + a[1] }), "add."+x.suffix, "add.rn."+x.suffix)
		def(dst, 3, l.arith(func(a []float64) float64 { return a[0] - a[1] }), "sub."+x.suffix, "sub.rn."+x.suffix)
		def(dst, 3, l.arith(func(a []float64) float64 { return a[0] * a[1] }), "mul."+x.suffix, "mul.rn."+x.suffix)
		def(dst, 4, l.fma, "fma.rn."+x.suffix)
		def(dst, 2, l.lanewise(func(b, sign uint32) uint32 { return l.signOp(b, b^sign) }), "neg."+x.suffix)
		def(dst, 2, l.lanewise(func(b, sign uint32) uint32 { return l.signOp(b, b&^sign) }), "abs."+x.suffix)
		def(dst, 3, l.minMax(true), "min."+x.suffix)
		def(dst, 3, l.minMax(false), "max."+x.suffix)
	}
	// f32 division and square roots, correctly rounded (float64 then one
	// rounding is exact: 53 >= 2·24+2 covers / and sqrt too), and the
	// approximate instructions, computed as the exact function rounded to
	// nearest: the GPU's differ within the PTX ISA's bounds (ex2 and rsqrt
	// 2 ulp, rcp and sqrt 1 ulp .approx, lg2 2^-22.6, sin and cos 2^-20.9
	// absolute on [-π, π], tanh 2^-10.987 relative), which checks against
	// it must allow. .ftz flushes subnormal inputs and results to zero of
	// their sign.
	fl := &lanes{f32, 32, 1}
	for _, x := range []struct {
		names []string
		op    func(a []float64) float64
	}{
		{[]string{"div.rn.f32", "div.full.f32", "div.approx.f32"}, func(a []float64) float64 { return a[0] / a[1] }},
		{[]string{"sqrt.rn.f32", "sqrt.approx.f32"}, func(a []float64) float64 { return math.Sqrt(a[0]) }},
		{[]string{"rcp.rn.f32", "rcp.approx.f32"}, func(a []float64) float64 { return 1 / a[0] }},
		{[]string{"rsqrt.approx.f32"}, func(a []float64) float64 { return 1 / math.Sqrt(a[0]) }},
		{[]string{"ex2.approx.f32"}, func(a []float64) float64 { return math.Exp2(a[0]) }},
		{[]string{"lg2.approx.f32"}, func(a []float64) float64 { return math.Log2(a[0]) }},
		{[]string{"sin.approx.f32"}, func(a []float64) float64 { return math.Sin(a[0]) }},
		{[]string{"cos.approx.f32"}, func(a []float64) float64 { return math.Cos(a[0]) }},
		{[]string{"tanh.approx.f32"}, func(a []float64) float64 { return math.Tanh(a[0]) }},
	} {
		n := 3
		if !strings.HasPrefix(x.names[0], "div") {
			n = 2
		}
		for _, name := range x.names {
			def(32, n, fl.arith(x.op), name)
			if strings.Contains(name, ".approx.") || name == "div.full.f32" {
				ftz := strings.Replace(name, ".f32", ".ftz.f32", 1)
				def(32, n, fl.flushed(x.op), ftz)
			}
		}
	}
	// f64: float64 itself, correctly rounded (fma through big.Float). NaNs
	// as an H100 makes them (testdata/gpu_nans.jsonl): unlike f32's, an f64
	// instruction passes a NaN operand on, quieted (its payload and sign
	// kept), the second of add, sub, mul and min/max where both are NaN, the
	// first of div, of an fma the first NaN of b, c, a (signaling or not);
	// an invalid operation (inf-inf, 0*inf, 0/0, sqrt(-1)) gives the
	// default NaN 0xfff8000000000000.
	f64op := func(nanOrder []int, op func(a []float64) float64) func(v []uint64) uint64 {
		return func(v []uint64) uint64 {
			for _, i := range nanOrder {
				if x := v[1+i]; isNaN64(x) {
					return x | quiet64
				}
			}
			xs := make([]float64, len(v)-1)
			for i := range xs {
				xs[i] = math.Float64frombits(v[i+1])
			}
			return f64bits(op(xs))
		}
	}
	second, first, only := []int{1, 0}, []int{0, 1}, []int{0}
	def64(64, 3, f64op(second, func(a []float64) float64 { return a[0] + a[1] }), "add.f64", "add.rn.f64")
	def64(64, 3, f64op(second, func(a []float64) float64 { return a[0] - a[1] }), "sub.f64", "sub.rn.f64")
	def64(64, 3, f64op(second, func(a []float64) float64 { return a[0] * a[1] }), "mul.f64", "mul.rn.f64")
	def64(64, 3, f64op(first, func(a []float64) float64 { return a[0] / a[1] }), "div.rn.f64")
	def64(64, 2, f64op(only, func(a []float64) float64 { return math.Sqrt(a[0]) }), "sqrt.rn.f64")
	def64(64, 2, f64op(only, func(a []float64) float64 { return 1 / a[0] }), "rcp.rn.f64")
	def64(64, 4, f64op([]int{1, 2, 0}, func(a []float64) float64 { return fma64(a[0], a[1], a[2]) }), "fma.rn.f64")
	// neg and abs leave a NaN as it is (quieted), sign and all.
	def64(64, 2, f64op(only, func(a []float64) float64 { return -a[0] }), "neg.f64")
	def64(64, 2, f64op(only, func(a []float64) float64 { return math.Abs(a[0]) }), "abs.f64")
	for name, isMin := range map[string]bool{"min.f64": true, "max.f64": false} {
		def64(64, 3, func(v []uint64) uint64 {
			if pick, ok := minMaxPick(math.Float64frombits(v[1]), math.Float64frombits(v[2]), isMin); ok {
				return v[1+pick]
			}
			return v[2] | quiet64
		}, name)
	}
	// A NaN converted keeps its sign: to f32 without its payload, to f64
	// with it (quieted).
	def64(64, 2, func(v []uint64) uint64 {
		if x := uint32(v[1]); isNaN32(x) {
			return uint64(x>>31)<<63 | quiet64 | uint64(x&0x7fffff)<<29 | 0x7ff<<52
		}
		return f64bits(float64(math.Float32frombits(uint32(v[1]))))
	}, "cvt.f64.f32")
	def64(32, 2, func(v []uint64) uint64 {
		if isNaN64(v[1]) {
			return v[1]>>63<<31 | 0x7fc00000
		}
		return uint64(fbits(f32, f32.Round(math.Float64frombits(v[1]), floatfmt.NearestEven, false)))
	}, "cvt.rn.f32.f64")
	def64(64, 2, func(v []uint64) uint64 { return f64bits(float64(int32(v[1]))) }, "cvt.rn.f64.s32")
	def64(64, 2, func(v []uint64) uint64 { return f64bits(float64(uint32(v[1]))) }, "cvt.rn.f64.u32")
	def64(64, 2, func(v []uint64) uint64 { return f64bits(float64(int64(v[1]))) }, "cvt.rn.f64.s64")
	def64(64, 2, func(v []uint64) uint64 { return f64bits(float64(v[1])) }, "cvt.rn.f64.u64")
	def64(64, 2, func(v []uint64) uint64 { return cvtInt(math.Float64frombits(v[1]), true, 64) }, "cvt.rzi.s64.f64")
	def64(64, 2, func(v []uint64) uint64 { return cvtInt(math.Float64frombits(v[1]), false, 64) }, "cvt.rzi.u64.f64")
	def(32, 2, func(v []uint32) uint32 { return fbits(f32, float64(int32(v[1]))) }, "cvt.rn.f32.s32")
	def(32, 2, func(v []uint32) uint32 { return fbits(f32, float64(v[1])) }, "cvt.rn.f32.u32")
	def(32, 2, func(v []uint32) uint32 { return uint32(cvtInt(float64(math.Float32frombits(v[1])), true, 32)) }, "cvt.rzi.s32.f32")
	def(32, 2, func(v []uint32) uint32 { return uint32(cvtInt(float64(math.Float32frombits(v[1])), false, 32)) }, "cvt.rzi.u32.f32")

	// Conversions between f32, f16, bf16 and fp8. A pair from two sources
	// puts the first in the high half (PTX's cvt.rn.f16x2.f32 d, a, b).
	e4m3, e5m2 := fmtOf("f8E4M3FN"), fmtOf("f8E5M2")
	// Widening: an f16 NaN becomes the canonical one; a bf16 is the top half
	// of an f32, and the GPU widens its bits, a NaN's too.
	def(32, 2, func(v []uint32) uint32 { return convert(f16, f32, v[1], false) }, "cvt.f32.f16")
	def(32, 2, func(v []uint32) uint32 { return v[1] & 0xffff << 16 }, "cvt.f32.bf16")
	for _, h := range []*floatfmt.Format{f16, bf16} {
		def(16, 2, func(v []uint32) uint32 { return convert(f32, h, v[1], false) }, "cvt.rn."+h.Name+".f32")
		def(32, 3, func(v []uint32) uint32 { return pair(f32, h, 16, v[1], v[2], false) }, "cvt.rn."+h.Name+"x2.f32")
	}
	for _, e := range []*floatfmt.Format{e4m3, e5m2} {
		name := map[string]string{"f8E4M3FN": "e4m3x2", "f8E5M2": "e5m2x2"}[e.Name]
		def(16, 3, func(v []uint32) uint32 { return pair(f32, e, 8, v[1], v[2], true) }, "cvt.rn.satfinite."+name+".f32")
		def(16, 2, func(v []uint32) uint32 {
			return pair(f16, e, 8, v[1]>>16, v[1]&0xffff, true)
		}, "cvt.rn.satfinite."+name+".f16x2")
		def(32, 2, func(v []uint32) uint32 {
			return pair(e, f16, 16, v[1]>>8&0xff, v[1]&0xff, false)
		}, "cvt.rn.f16x2."+name)
	}
}

func fmtOf(name string) *floatfmt.Format { return floatfmt.Lookup(name) }

// Parse reads asm (instructions separated by newlines or semicolons; scope
// braces, .reg declarations and // comments aside) with its LLVM constraint
// string ("=r" outputs first, then "r" inputs or a digit tying an input to
// an output; "~{…}" clobbers ignored; "f" as "r": 32-bit registers; "h":
// 16-bit registers, the low half of the value; "l" and "d": 64-bit ones;
// "b": predicates, 0 or 1).
func Parse(asm, constraints string) (*Program, error) {
	p := &Program{tied: map[int]int{}}
	for _, c := range strings.Split(constraints, ",") {
		c = strings.TrimSpace(c)
		switch {
		case c == "" || strings.HasPrefix(c, "~"):
		case strings.HasPrefix(c, "="):
			if r := strings.TrimLeft(c, "=&"); !strings.Contains("rfhbld", r) || len(r) != 1 {
				return nil, fmt.Errorf("output constraint %q: only predicates and 16-, 32- and 64-bit registers (b, h, r, f, l, d) are supported", c)
			}
			p.Outs++
			p.Regs = append(p.Regs, c[len(c)-1])
		default:
			if k, err := strconv.Atoi(c); err == nil {
				if k < 0 || k >= p.Outs {
					return nil, fmt.Errorf("input constraint %q ties to no output", c)
				}
				p.tied[p.Ins] = k
				p.Regs = append(p.Regs, 0)
			} else if !strings.Contains("rfhbld", c) || len(c) != 1 {
				return nil, fmt.Errorf("input constraint %q: only predicates and 16-, 32- and 64-bit registers (b, h, r, f, l, d) are supported", c)
			} else {
				p.Regs = append(p.Regs, c[0])
			}
			p.Ins++
		}
	}
	for n, line := range strings.Split(asm, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		for _, stmt := range strings.Split(line, ";") {
			stmt = trimScopes(stmt)
			if stmt == "" || strings.HasPrefix(stmt, ".reg") {
				continue
			}
			in, err := p.parseInstr(stmt)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			in.line = n + 1
			p.instrs = append(p.instrs, in)
		}
	}
	return p, nil
}

// trimScopes strips the scope braces around a statement ("{ .reg …",
// "… }"), keeping a vector operand's.
func trimScopes(stmt string) string {
	stmt = strings.TrimSpace(stmt)
	for strings.HasPrefix(stmt, "{") {
		stmt = strings.TrimSpace(stmt[1:])
	}
	for strings.HasSuffix(stmt, "}") && strings.Count(stmt, "}") > strings.Count(stmt, "{") {
		stmt = strings.TrimSpace(stmt[:len(stmt)-1])
	}
	return stmt
}

func (p *Program) parseInstr(stmt string) (instr, error) {
	var guard string
	if strings.HasPrefix(stmt, "@") {
		guard, stmt, _ = strings.Cut(stmt, " ")
		stmt = strings.TrimSpace(stmt)
		guard = guard[1:]
		if err := p.checkOperand(strings.TrimPrefix(guard, "!")); err != nil || guard == "" || isImmediate(strings.TrimPrefix(guard, "!")) {
			return instr{}, fmt.Errorf("guard @%s is not a predicate register", guard)
		}
	}
	in, err := p.parseOp(stmt)
	in.guard, in.neg = strings.TrimPrefix(guard, "!"), strings.HasPrefix(guard, "!")
	return in, err
}

func (p *Program) parseOp(stmt string) (instr, error) {
	name, rest, _ := strings.Cut(stmt, " ")
	args, err := splitOperands(rest)
	if err != nil {
		return instr{}, err
	}
	in := instr{op: name, args: args}
	var ok bool
	if in.def, ok = ops[name]; !ok {
		return instr{}, fmt.Errorf("%q is not an instruction this evaluator runs (see package ptxint: 16- and 32-bit integer, f32, f16, bf16 and fp8 instructions)", stmt)
	}
	if len(args) != in.def.n || args[0] == "" {
		return instr{}, fmt.Errorf("%s takes %d operands, not %q", name, in.def.n, rest)
	}
	for i, a := range args {
		if strings.HasPrefix(a, "{") {
			// mov.b32 packs two 16-bit registers ({lo, hi}) or unpacks one;
			// mov.b64 two 32-bit ones.
			if name != "mov.b32" && name != "mov.b64" || len(args) != 2 {
				return instr{}, fmt.Errorf("operand %s: a vector operand only packs or unpacks a mov.b32 or mov.b64", a)
			}
			parts := strings.Split(strings.Trim(a, "{}"), ",")
			if len(parts) != 2 {
				return instr{}, fmt.Errorf("operand %s: %s packs two halves", a, name)
			}
			for _, x := range parts {
				if err := p.checkOperand(x); err != nil {
					return instr{}, err
				}
			}
			if i == 0 && isImmediate(parts[0]) || i == 0 && isImmediate(parts[1]) {
				return instr{}, fmt.Errorf("%s writes an immediate", name)
			}
			continue
		}
		if err := p.checkOperand(a); err != nil {
			return instr{}, err
		}
	}
	if isImmediate(args[0]) {
		return instr{}, fmt.Errorf("%s writes an immediate", name)
	}
	return in, nil
}

// splitOperands splits at the commas outside braces, spaces removed.
func splitOperands(s string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
		if depth < 0 || depth > 1 {
			return nil, fmt.Errorf("operands %q: unbalanced braces", s)
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("operands %q: unbalanced braces", s)
	}
	out = append(out, s[start:])
	for i := range out {
		out[i] = strings.Join(strings.Fields(out[i]), "")
	}
	return out, nil
}

func isImmediate(a string) bool {
	return a != "" && (a[0] >= '0' && a[0] <= '9' || a[0] == '-')
}

func (p *Program) checkOperand(a string) error {
	switch {
	case strings.HasPrefix(a, "$"):
		k, err := strconv.Atoi(a[1:])
		if err != nil || k < 0 || k >= p.Outs+p.Ins {
			return fmt.Errorf("operand %s names none of the %d operands", a, p.Outs+p.Ins)
		}
	case isImmediate(a):
		if _, err := immediate64(a, false); err != nil {
			return err
		}
	case a == "" || strings.ContainsAny(a, " []{}"):
		return fmt.Errorf("operand %q is not a register or an immediate", a)
	}
	return nil
}

// immediate64 reads a PTX literal: an integer (decimal, 0x hexadecimal,
// 0b binary or 0 octal, maybe negative, maybe with a U suffix; 64 bits,
// of which a 32-bit instruction takes the low ones), an f32 or f64 given
// by its bits (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX), or a decimal float,
// rounded to f64 (f64) or f32, as PTX converts a literal to the
// instruction's type.
func immediate64(a string, f64 bool) (uint64, error) {
	m := strings.TrimPrefix(a, "-")
	if len(m) == 10 && (m[:2] == "0f" || m[:2] == "0F") || len(m) == 18 && (m[:2] == "0d" || m[:2] == "0D") {
		w := 4 * (len(m) - 2)
		b, err := strconv.ParseUint(m[2:], 16, w)
		if err != nil {
			return 0, fmt.Errorf("immediate %q: %v", a, err)
		}
		if m != a {
			b ^= 1 << (w - 1)
		}
		return b, nil
	}
	if !strings.HasPrefix(m, "0x") && !strings.HasPrefix(m, "0X") && strings.ContainsAny(m, ".eE") {
		f, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return 0, fmt.Errorf("immediate %q: %v", a, err)
		}
		if f64 {
			return math.Float64bits(f), nil
		}
		return uint64(math.Float32bits(float32(f))), nil
	}
	v, err := strconv.ParseInt(strings.TrimSuffix(a, "U"), 0, 64)
	if err != nil {
		if u, uerr := strconv.ParseUint(strings.TrimSuffix(a, "U"), 0, 64); uerr == nil {
			return u, nil
		}
		return 0, fmt.Errorf("immediate %q: %v", a, err)
	}
	return uint64(v), nil
}

// Run executes the program on one thread's inputs and returns its outputs
// (an output never written is 0, unless an input is tied to it). A 16-bit
// register ("h") holds its value in the low half, a 32-bit one in the low
// 32 bits.
func (p *Program) Run(ins []uint64) ([]uint64, error) {
	if len(ins) != p.Ins {
		return nil, fmt.Errorf("%d inputs for %d", len(ins), p.Ins)
	}
	regs := map[string]uint64{}
	for i, v := range ins {
		regs["$"+strconv.Itoa(p.Outs+i)] = v
		if k, ok := p.tied[i]; ok {
			regs["$"+strconv.Itoa(k)] = v
		}
	}
	val := func(a string, f64 bool) uint64 {
		if isImmediate(a) {
			v, _ := immediate64(a, f64)
			return v
		}
		return regs[a]
	}
	v32 := make([]uint32, 0, 8)
	v64 := make([]uint64, 0, 8)
	for _, in := range p.instrs {
		if in.guard != "" && (regs[in.guard] != 0) == in.neg {
			continue
		}
		a := in.args
		half := 16 // mov.b32 {lo, hi}: 16-bit halves; mov.b64: 32-bit ones
		if in.op == "mov.b64" {
			half = 32
		}
		mask := uint64(1)<<half - 1
		switch {
		case strings.HasPrefix(a[0], "{"): // mov {lo, hi}, x
			lo, hi, _ := strings.Cut(strings.Trim(a[0], "{}"), ",")
			x := val(a[1], false)
			regs[lo], regs[hi] = x&mask, x>>half&mask
			continue
		case strings.HasPrefix(a[1], "{"): // mov d, {lo, hi}
			lo, hi, _ := strings.Cut(strings.Trim(a[1], "{}"), ",")
			regs[a[0]] = val(lo, false)&mask | (val(hi, false)&mask)<<half
			continue
		}
		var r uint64
		if in.def.wide != nil {
			v64 = v64[:0]
			for _, x := range a {
				v64 = append(v64, val(x, in.def.f64imm))
			}
			r = in.def.wide(v64)
		} else {
			v32 = v32[:0]
			for _, x := range a {
				v32 = append(v32, uint32(val(x, false)))
			}
			r = uint64(in.def.f(v32))
		}
		if in.def.dst < 64 {
			r &= 1<<in.def.dst - 1
		}
		regs[a[0]] = r
	}
	out := make([]uint64, p.Outs)
	for i := range out {
		out[i] = regs["$"+strconv.Itoa(i)]
	}
	return out, nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// compare orders a and b as ty (u32, s32, b32, f32 on their low 32 bits;
// u64, s64, b64, f64): -1, 0 or 1, and whether they are ordered (no NaN).
func compare(ty string, a, b uint64) (int, bool) {
	switch ty {
	case "u32", "b32":
		return cmp.Compare(uint32(a), uint32(b)), true
	case "s32":
		return cmp.Compare(int32(a), int32(b)), true
	case "s64":
		return cmp.Compare(int64(a), int64(b)), true
	case "f32", "f64":
		var x, y float64
		if ty == "f32" {
			x, y = float64(math.Float32frombits(uint32(a))), float64(math.Float32frombits(uint32(b)))
		} else {
			x, y = math.Float64frombits(a), math.Float64frombits(b)
		}
		if x != x || y != y {
			return 0, false
		}
		return cmp.Compare(x, y), true
	}
	return cmp.Compare(a, b), true
}

// bfe extracts len bits at pos (each the low 8 bits of its operand); the
// bits the field has past bit 31, and those above it, are 0 (.u32) or the
// sign bit, a[min(pos+len-1, 31)] (.s32), as the PTX ISA defines bfe.
func bfe(a, pos, length uint32, signed bool) uint32 {
	p, l := pos&0xff, length&0xff
	if l == 0 {
		return 0
	}
	var avail uint32 // the field's bits inside a
	if p < 32 {
		avail = min(l, 32-p)
	}
	var r uint32
	if avail > 0 {
		r = a >> p
		if avail < 32 {
			r &= 1<<avail - 1
		}
	}
	if signed && a>>min(p+l-1, 31)&1 != 0 && avail < 32 {
		r |= ^uint32(0) << avail
	}
	return r
}

// bfi inserts the low len bits of f into b at pos (each the low 8 bits of
// its operand); bits past 31 are dropped.
func bfi(f, b, pos, length uint32) uint32 {
	p, l := pos&0xff, length&0xff
	if l == 0 || p > 31 {
		return b
	}
	mask := uint32(math.MaxUint32)
	if l < 32 {
		mask = 1<<l - 1
	}
	mask <<= p
	return b&^mask | f<<p&mask
}

// lop3 is the three-input logic op whose truth table is lut: bit
// (a<<2 | b<<1 | c) of lut, per bit.
func lop3(a, b, c, lut uint32) uint32 {
	var r uint32
	for i := range 8 {
		if lut>>i&1 == 0 {
			continue
		}
		x := a
		if i&4 == 0 {
			x = ^a
		}
		y := b
		if i&2 == 0 {
			y = ^b
		}
		z := c
		if i&1 == 0 {
			z = ^c
		}
		r |= x & y & z
	}
	return r
}

// shf is the funnel shift of {b, a} (b the high word) by n: .wrap takes n
// mod 32, .clamp min(n, 32); shf.l returns the high word, shf.r the low.
func shf(a, b, n uint32, left, wrap bool) uint32 {
	if wrap {
		n &= 31
	} else {
		n = min(n, 32)
	}
	x := uint64(b)<<32 | uint64(a)
	if left {
		return uint32(x << n >> 32)
	}
	return uint32(x >> n)
}

// Prmt is prmt.b32's default mode: the bytes of {b, a} (a's are 0-3, b's
// 4-7); nibble i of sel picks byte i of the result, its bit 3 replicating
// the picked byte's sign bit instead. (llvmemit's simulator runs
// llvm.nvvm.prmt with it.)
func Prmt(a, b, sel uint32) uint32 {
	src := uint64(b)<<32 | uint64(a)
	var r uint32
	for i := range 4 {
		k := sel >> (4 * i) & 15
		byt := uint32(src >> (8 * (k & 7)) & 0xff)
		if k&8 != 0 {
			byt = 0
			if src>>(8*(k&7)+7)&1 != 0 {
				byt = 0xff
			}
		}
		r |= byt << (8 * i)
	}
	return r
}

// fbits encodes x in f, a NaN as the canonical NaN NVIDIA GPUs make: all
// ones but the sign (0x7fffffff, 0x7fff; e4m3 has one NaN, 0x7f).
func fbits(f *floatfmt.Format, x float64) uint32 {
	if x != x {
		return uint32(1)<<(f.ExpBits+f.ManBits) - 1
	}
	return uint32(f.Bits(x))
}

// lanes is a float type of a register: n values of bits bits each (two
// f16 in an f16x2, value k at bit k·bits).
type lanes struct {
	f       *floatfmt.Format
	bits, n int
}

func (l *lanes) get(v uint32, k int) float64 {
	return l.f.FromBits(uint64(v >> (k * l.bits) & (1<<l.bits - 1)))
}

// arith is add, sub or mul on every lane: computed in float64 and rounded
// once to the format. The float64 result is that of the exact one rounded
// to 53 bits, and rounding it again to a format of p ≤ 24 bits gives the
// exact result's rounding, as 53 ≥ 2p + 2 (Figueroa: double rounding is
// innocuous then for +, - and ×); IEEE's special cases and signed zeros
// are float64's.
func (l *lanes) arith(op func([]float64) float64) func(v []uint32) uint32 {
	return func(v []uint32) uint32 {
		var r uint32
		xs := make([]float64, len(v)-1)
		for k := range l.n {
			for i := range xs {
				xs[i] = l.get(v[i+1], k)
			}
			r |= fbits(l.f, l.f.Round(op(xs), floatfmt.NearestEven, false)) << (k * l.bits)
		}
		return r
	}
}

// flushed is arith on f32 with .ftz: subnormal operands and results
// become zero of their sign.
func (l *lanes) flushed(op func([]float64) float64) func(v []uint32) uint32 {
	flush := func(x float64) float64 {
		if x != 0 && math.Abs(x) < 0x1p-126 {
			return math.Copysign(0, x)
		}
		return x
	}
	round := l.arith(func(a []float64) float64 {
		for i := range a {
			a[i] = flush(a[i])
		}
		return op(a)
	})
	return func(v []uint32) uint32 {
		r := round(v)
		if r&0x7f800000 == 0 { // subnormal (or zero)
			r &= 1 << 31
		}
		return r
	}
}

// fma is fma.rn on every lane: x·y + z of finite operands held exactly
// (a big.Float wide enough for f32's exponents) and rounded once, where
// float64 would round twice; IEEE's special cases, and an exact zero's
// sign, through float64, where they are exact.
func (l *lanes) fma(v []uint32) uint32 {
	var r uint32
	for k := range l.n {
		x, y, z := l.get(v[1], k), l.get(v[2], k), l.get(v[3], k)
		w := x*y + z // IEEE's special cases, and an exact zero's sign, are exact in float64
		if finite(x) && finite(y) && finite(z) {
			e := new(big.Float).SetPrec(1024).Mul(big.NewFloat(x), big.NewFloat(y))
			if e.Add(e, big.NewFloat(z)); e.Sign() != 0 {
				w = l.f.RoundBig(e, floatfmt.NearestEven, false)
			}
		}
		r |= fbits(l.f, l.f.Round(w, floatfmt.NearestEven, false)) << (k * l.bits)
	}
	return r
}

func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// signOp is r, neg's or abs's result on a lane's bits b, but for a NaN,
// which the GPU makes the canonical NaN of the format (0x7fffffff,
// 0x7fff; f32, f16 and bf16 measured on an H100, testdata/gpu_nans.jsonl;
// the f16x2 and bf16x2 lanes are taken to do the same, not measured).
func (l *lanes) signOp(b, r uint32) uint32 {
	if math.IsNaN(l.f.FromBits(uint64(b))) {
		return fbits(l.f, math.NaN())
	}
	return r
}

// lanewise applies f to every lane's bits with the lane's sign bit.
func (l *lanes) lanewise(f func(b, sign uint32) uint32) func(v []uint32) uint32 {
	return func(v []uint32) uint32 {
		var r uint32
		mask := uint32(1)<<l.bits - 1
		for k := range l.n {
			b := v[1] >> (k * l.bits) & mask
			r |= f(b, 1<<(l.bits-1)) << (k * l.bits)
		}
		return r
	}
}

// minMax is min or max on every lane: the operand that is not NaN, the
// canonical NaN for two, -0 below +0.
func (l *lanes) minMax(isMin bool) func(v []uint32) uint32 {
	return func(v []uint32) uint32 {
		var r uint32
		mask := uint32(1)<<l.bits - 1
		for k := range l.n {
			x, y := l.get(v[1], k), l.get(v[2], k)
			bx, by := v[1]>>(k*l.bits)&mask, v[2]>>(k*l.bits)&mask
			b := fbits(l.f, math.NaN())
			if pick, ok := minMaxPick(x, y, isMin); ok {
				b = bx
				if pick == 1 {
					b = by
				}
			}
			r |= b << (k * l.bits)
		}
		return r
	}
}

// convert converts the bits of a value of from to the bits of to, rounded
// to nearest even (saturating to the largest finite value when satfinite).
func convert(from, to *floatfmt.Format, b uint32, satfinite bool) uint32 {
	return fbits(to, to.Round(from.FromBits(uint64(b)), floatfmt.NearestEven, satfinite))
}

// pair converts hi and lo (bits of from) into one register of two values
// of to, each width bits: hi in the high half.
func pair(from, to *floatfmt.Format, width int, hi, lo uint32, satfinite bool) uint32 {
	return convert(from, to, hi, satfinite)<<width | convert(from, to, lo, satfinite)
}

// cvtInt is cvt.rzi to an integer of bits bits (32 or 64), signed or
// not: truncated, saturated to the integer's range, NaN to 0.
func cvtInt(x float64, signed bool, bits int) uint64 {
	if signed {
		lim := math.Ldexp(1, bits-1)
		switch {
		case x != x:
			return 0
		case x >= lim:
			return 1<<(bits-1) - 1
		case x <= -lim:
			return uint64(1) << (bits - 1) // the most negative value, in bits bits
		}
		return uint64(int64(math.Trunc(x))) & (1<<bits - 1)
	}
	switch {
	case x != x || x <= 0:
		return 0
	case x >= math.Ldexp(1, bits):
		return 1<<bits - 1
	}
	return uint64(math.Trunc(x))
}

// quiet64 is the quiet bit of an f64 NaN.
const quiet64 = 1 << 51

func isNaN64(b uint64) bool { return b&^(1<<63) > 0x7ff<<52 }

func isNaN32(b uint32) bool { return b&^(1<<31) > 0xff<<23 }

// f64bits is x's bits, a NaN (an invalid operation's) the default NaN the
// GPU makes, 0xfff8000000000000 (see the f64 instructions).
func f64bits(x float64) uint64 {
	if x != x {
		return 0xfff8 << 48
	}
	return math.Float64bits(x)
}

// mulHiS64 is the high 64 bits of the 128-bit signed product.
func mulHiS64(a, b int64) uint64 {
	hi, _ := bits.Mul64(uint64(a), uint64(b))
	// The unsigned product's high half, corrected for negative operands.
	if a < 0 {
		hi -= uint64(b)
	}
	if b < 0 {
		hi -= uint64(a)
	}
	return hi
}

// fma64 is x·y + z rounded once (through a big.Float for finite
// operands).
func fma64(x, y, z float64) float64 {
	w := x*y + z
	if finite(x) && finite(y) && finite(z) {
		e := new(big.Float).SetPrec(2200).Mul(big.NewFloat(x), big.NewFloat(y))
		if e.Add(e, big.NewFloat(z)); e.Sign() != 0 {
			r, _ := e.Float64()
			return r
		}
	}
	return w
}

// minMaxPick is which of x (0) and y (1) min (isMin) or max returns: the
// one that is not NaN, -0 below +0; not ok when both are NaN (the result
// is then the canonical NaN).
func minMaxPick(x, y float64, isMin bool) (pick int, ok bool) {
	switch {
	case x != x && y != y:
		return 0, false
	case x != x:
		return 1, true
	case y != y:
		return 0, true
	}
	if less := x < y || x == y && math.Signbit(x) && !math.Signbit(y); less != isMin {
		return 1, true
	}
	return 0, true
}
