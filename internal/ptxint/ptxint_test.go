package ptxint

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/floatfmt"
)

func run(t *testing.T, asm, cons string, ins ...uint32) []uint32 {
	t.Helper()
	wide := make([]uint64, len(ins))
	for i, v := range ins {
		wide[i] = uint64(v)
	}
	out := run64(t, asm, cons, wide...)
	narrow := make([]uint32, len(out))
	for i, v := range out {
		narrow[i] = uint32(v)
	}
	return narrow
}

func run64(t *testing.T, asm, cons string, ins ...uint64) []uint64 {
	t.Helper()
	p, err := Parse(asm, cons)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Run(ins)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestInstructions(t *testing.T) {
	for _, c := range []struct {
		asm  string
		ins  []uint32
		want uint32
	}{
		{"and.b32 $0, $1, 0x0f0f0f0f;", []uint32{0x12345678}, 0x02040608},
		{"or.b32 $0, $1, 0b1;", []uint32{0x10}, 0x11},
		{"xor.b32 $0, $1, -1;", []uint32{0xf0}, 0xffffff0f},
		{"not.b32 $0, $1;", []uint32{0}, 0xffffffff},
		{"shl.b32 $0, $1, 4;", []uint32{0x8000000f}, 0xf0},
		{"shl.b32 $0, $1, 40;", []uint32{1}, 0},
		{"shr.u32 $0, $1, 4;", []uint32{0x80000000}, 0x08000000},
		{"shr.b32 $0, $1, 31;", []uint32{0x80000000}, 1},
		{"shr.s32 $0, $1, 4;", []uint32{0x80000000}, 0xf8000000},
		{"shr.s32 $0, $1, 40;", []uint32{0x80000000}, 0xffffffff},
		{"add.u32 $0, $1, 0x7E7E7E7EU;", []uint32{0x02020202}, 0x80808080},
		{"sub.s32 $0, $1, 1;", []uint32{0}, 0xffffffff},
		{"mul.lo.u32 $0, $1, 3;", []uint32{0x80000001}, 0x80000003},
		{"mov.b32 $0, 4294967295;", []uint32{0}, 0xffffffff},
		// prmt: bytes of {b, a}; 0x5140 interleaves the low halves.
		{"prmt.b32 $0, $1, 0x44332211, 0x5140;", []uint32{0xddccbbaa}, 0x22bb11aa},
		{"prmt.b32 $0, $1, 0, 0x1032;", []uint32{0x11223344}, 0x33441122},
		// Selector bit 3 replicates the sign of the byte picked.
		{"prmt.b32 $0, $1, 0, 0x0089;", []uint32{0x0000807f}, 0x7f7f00ff},
	} {
		if got := run(t, c.asm, "=r,r", c.ins...); got[0] != c.want {
			t.Errorf("%s on %#x: got %#x, want %#x", c.asm, c.ins, got[0], c.want)
		}
	}
}

// TestFloat: the f32 instructions, with the cases that tell IEEE round to
// nearest even, subnormals, NaN and signed zeros apart.
func TestFloat(t *testing.T) {
	b := math.Float32bits
	nan := uint32(0x7fc00001) // a NaN with a payload: results are canonical
	for _, c := range []struct {
		asm  string
		ins  []uint32
		want uint32
	}{
		{"add.f32 $0, $1, $2;", []uint32{b(1.5), b(2.25)}, b(3.75)},
		{"add.rn.f32 $0, $1, 0f3F800000;", []uint32{b(1), 0}, b(2)},
		{"sub.f32 $0, $1, $2;", []uint32{b(1), b(1)}, 0},
		// Round to nearest even: 1 + 2^-24 is a tie, kept at 1.
		{"add.f32 $0, $1, $2;", []uint32{b(1), b(0x1p-24)}, b(1)},
		{"mul.f32 $0, $1, $2;", []uint32{b(0x1p-126), b(0.5)}, b(0x1p-127)}, // subnormal kept (no .ftz)
		{"mul.rn.f32 $0, $1, 2.5;", []uint32{b(2), 0}, b(5)},
		{"add.f32 $0, $1, $2;", []uint32{nan, b(1)}, 0x7fffffff},
		{"mul.f32 $0, $1, $2;", []uint32{b(float32(math.Inf(1))), 0}, 0x7fffffff},
		// fma rounds once: (1+2^-12)^2 + 2^-80 is just above a tie, rounded up; rounding
		// the sum to f64 first would lose 2^-80 and round the tie to even.
		{"fma.rn.f32 $0, $1, $2, $3;", []uint32{b(1 + 0x1p-12), b(1 + 0x1p-12), b(0x1p-80)}, 0x3f801001},
		{"fma.rn.f32 $0, $1, $2, $3;", []uint32{b(2), b(3), b(-6)}, 0},
		{"fma.rn.f32 $0, $1, $2, $3;", []uint32{b(float32(math.Copysign(0, -1))), b(1), b(float32(math.Copysign(0, -1)))}, 1 << 31},
		{"fma.rn.f32 $0, $1, $2, $3;", []uint32{b(float32(math.Inf(1))), b(1), b(1)}, b(float32(math.Inf(1)))},
		{"neg.f32 $0, $1;", []uint32{b(1.5)}, b(-1.5)},
		{"abs.f32 $0, $1;", []uint32{1 << 31}, 0}, // -0
		{"min.f32 $0, $1, $2;", []uint32{b(2), b(-3)}, b(-3)},
		{"max.f32 $0, $1, $2;", []uint32{nan, b(-3)}, b(-3)},
		{"min.f32 $0, $1, $2;", []uint32{nan, nan}, 0x7fffffff},
		{"min.f32 $0, $1, $2;", []uint32{0, 1 << 31}, 1 << 31},
		{"max.f32 $0, $1, $2;", []uint32{1 << 31, 0}, 0},
		{"mov.f32 $0, -1.5;", []uint32{0}, b(-1.5)},
		{"mov.f32 $0, -0f3F800000;", []uint32{0}, b(-1)},
		{"cvt.rn.f32.s32 $0, $1;", []uint32{0xffffffff}, b(-1)},
		{"cvt.rn.f32.u32 $0, $1;", []uint32{16777217}, b(16777216)}, // 2^24+1: to even
		{"cvt.rzi.s32.f32 $0, $1;", []uint32{b(-2.75)}, 0xfffffffe},
		{"cvt.rzi.s32.f32 $0, $1;", []uint32{b(3e9)}, 0x7fffffff},
		{"cvt.rzi.s32.f32 $0, $1;", []uint32{nan}, 0},
		{"cvt.rzi.u32.f32 $0, $1;", []uint32{b(-5)}, 0},
		{"cvt.rzi.u32.f32 $0, $1;", []uint32{b(5e9)}, 0xffffffff},
	} {
		ins := append(c.ins, make([]uint32, 3-len(c.ins))...) // three f inputs each
		if got := run(t, c.asm, "=f,f,f,f", ins...); got[0] != c.want {
			t.Errorf("%s on %#x: got %#x, want %#x", c.asm, c.ins, got[0], c.want)
		}
	}
}

// TestDivSqrtApprox: div, sqrt and rcp correctly rounded; the approximate
// instructions as the exact function rounded, their special cases, and
// .ftz flushing subnormal operands and results.
func TestDivSqrtApprox(t *testing.T) {
	b := math.Float32bits
	inf := float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	for _, c := range []struct {
		asm  string
		ins  []uint32
		want uint32
	}{
		{"div.rn.f32 $0, $1, $2;", []uint32{b(1), b(3)}, b(float32(1.0 / 3.0))},
		{"div.full.f32 $0, $1, $2;", []uint32{b(1), b(0)}, b(inf)},
		{"div.approx.f32 $0, $1, $2;", []uint32{b(0), b(0)}, 0x7fffffff},
		{"sqrt.rn.f32 $0, $1;", []uint32{b(2)}, b(float32(math.Sqrt(2)))},
		{"sqrt.approx.f32 $0, $1;", []uint32{b(-1)}, 0x7fffffff},
		{"rcp.rn.f32 $0, $1;", []uint32{b(0x1p127)}, b(0x1p-127)}, // subnormal kept
		{"rcp.approx.ftz.f32 $0, $1;", []uint32{b(0x1p127)}, 0},   // flushed
		{"rcp.approx.ftz.f32 $0, $1;", []uint32{b(-0x1p-130)}, b(float32(math.Inf(-1)))},
		{"rsqrt.approx.f32 $0, $1;", []uint32{b(4)}, b(0.5)},
		{"rsqrt.approx.f32 $0, $1;", []uint32{b(negZero)}, b(float32(math.Inf(-1)))},
		{"ex2.approx.f32 $0, $1;", []uint32{b(10)}, b(1024)},
		{"ex2.approx.ftz.f32 $0, $1;", []uint32{b(-130)}, 0},
		{"ex2.approx.f32 $0, $1;", []uint32{b(-130)}, b(0x1p-130)},
		{"ex2.approx.f32 $0, $1;", []uint32{b(float32(math.Inf(-1)))}, 0},
		{"lg2.approx.f32 $0, $1;", []uint32{b(8)}, b(3)},
		{"lg2.approx.f32 $0, $1;", []uint32{b(0)}, b(float32(math.Inf(-1)))},
		{"lg2.approx.f32 $0, $1;", []uint32{b(-1)}, 0x7fffffff},
		{"sin.approx.f32 $0, $1;", []uint32{b(negZero)}, b(negZero)},
		{"cos.approx.ftz.f32 $0, $1;", []uint32{b(0)}, b(1)},
		{"tanh.approx.f32 $0, $1;", []uint32{b(0.5)}, b(float32(math.Tanh(0.5)))},
		{"tanh.approx.f32 $0, $1;", []uint32{b(inf)}, b(1)},
	} {
		ins := append(c.ins, make([]uint32, 3-len(c.ins))...)
		if got := run(t, c.asm, "=f,f,f,f", ins...); got[0] != c.want {
			t.Errorf("%s on %#x: got %#x, want %#x", c.asm, c.ins, got[0], c.want)
		}
	}
}

func TestIntegerMore(t *testing.T) {
	for _, c := range []struct {
		asm  string
		ins  []uint32
		want uint32
	}{
		{"mul.hi.u32 $0, $1, $2;", []uint32{0xffffffff, 0xffffffff}, 0xfffffffe},
		{"mul.hi.s32 $0, $1, $2;", []uint32{0xffffffff, 0xffffffff}, 0},
		{"mul.hi.s32 $0, $1, $2;", []uint32{0x80000000, 2}, 0xffffffff},
		{"mad.lo.u32 $0, $1, 3, $2;", []uint32{7, 5}, 26},
		{"min.s32 $0, $1, $2;", []uint32{0xffffffff, 1}, 0xffffffff},
		{"min.u32 $0, $1, $2;", []uint32{0xffffffff, 1}, 1},
		{"max.s32 $0, $1, $2;", []uint32{0xffffffff, 1}, 1},
		{"max.u32 $0, $1, $2;", []uint32{0xffffffff, 1}, 0xffffffff},
		{"neg.s32 $0, $1;", []uint32{1}, 0xffffffff},
		{"abs.s32 $0, $1;", []uint32{0xfffffffb}, 5},
		{"abs.s32 $0, $1;", []uint32{0x80000000}, 0x80000000},
		{"popc.b32 $0, $1;", []uint32{0xff00ff00}, 16},
		{"clz.b32 $0, $1;", []uint32{0x00010000}, 15},
		{"clz.b32 $0, $1;", []uint32{0}, 32},
		{"brev.b32 $0, $1;", []uint32{1}, 0x80000000},
		{"bfe.u32 $0, $1, 4, 8;", []uint32{0x12345678}, 0x67},
		{"bfe.s32 $0, $1, 8, 4;", []uint32{0x00000f00}, 0xffffffff},
		{"bfe.s32 $0, $1, 8, 4;", []uint32{0x00000700}, 7},
		// A field past bit 31: the bits it lacks are the sign, a[31].
		{"bfe.s32 $0, $1, 28, 8;", []uint32{0x80000000}, 0xfffffff8},
		{"bfe.u32 $0, $1, 28, 8;", []uint32{0x80000000}, 0x8},
		{"bfe.s32 $0, $1, 40, 4;", []uint32{0x80000000}, 0xffffffff},
		{"bfe.u32 $0, $1, 4, 0;", []uint32{0xff}, 0},
		{"bfi.b32 $0, $1, $2, 8, 4;", []uint32{0xab, 0xffffffff}, 0xfffffbff},
		{"bfi.b32 $0, $1, $2, 30, 8;", []uint32{0xff, 0}, 0xc0000000},
		{"bfi.b32 $0, $1, $2, 32, 8;", []uint32{0xff, 5}, 5},
		// lop3 on the canonical inputs a=0xF0, b=0xCC, c=0xAA gives its table back.
		{"lop3.b32 $0, $1, $2, 0xaaaaaaaa, 0x96;", []uint32{0xf0f0f0f0, 0xcccccccc}, 0x96969696},
		{"lop3.b32 $0, $1, $2, 0xaaaaaaaa, 0xe8;", []uint32{0xf0f0f0f0, 0xcccccccc}, 0xe8e8e8e8},
		{"shf.l.wrap.b32 $0, $1, $2, 4;", []uint32{0xf0000000, 0xf}, 0xff},
		{"shf.l.wrap.b32 $0, $1, $2, 36;", []uint32{0xf0000000, 0xf}, 0xff},
		{"shf.r.wrap.b32 $0, $1, $2, 36;", []uint32{0xf0000000, 0xf}, 0xff000000},
		{"shf.r.clamp.b32 $0, $1, $2, 40;", []uint32{0xf0000000, 0xf}, 0xf},
		{"shf.l.clamp.b32 $0, $1, $2, 40;", []uint32{0xf0000000, 0xf}, 0xf0000000},
		{"cvt.s32.s16 $0, $1;", []uint32{0x18000}, 0xffff8000},
		{"cvt.u32.u16 $0, $1;", []uint32{0x18000}, 0x8000},
	} {
		if got := run(t, c.asm, "=r,r,r", append(c.ins, make([]uint32, 2-len(c.ins))...)...); got[0] != c.want {
			t.Errorf("%s on %#x: got %#x, want %#x", c.asm, c.ins, got[0], c.want)
		}
	}
}

// TestHalf: f16 and bf16 arithmetic on 16-bit registers ("h") and in
// pairs, the conversions between f32, f16, bf16 and fp8, and mov.b32's
// packing, against values worked out by hand from the formats.
func TestHalf(t *testing.T) {
	b := math.Float32bits
	for _, c := range []struct {
		asm, cons string
		ins       []uint32
		want      uint32
	}{
		// f16: 1 + 2^-11 is a tie (to 1), 1 + 3·2^-11 one to the even 1 + 2^-9.
		{"add.f16 $0, $1, $2;", "=h,h,h", []uint32{0x3c00, 0x1000}, 0x3c00},
		{"add.rn.f16 $0, $1, $2;", "=h,h,h", []uint32{0x3c00, 0x1600}, 0x3c02},
		{"sub.f16 $0, $1, $2;", "=h,h,h", []uint32{0x3c00, 0x3c00}, 0},
		{"sub.f16 $0, $1, $2;", "=h,h,h", []uint32{0x8000, 0x0000}, 0x8000}, // -0 - +0
		// Subnormals kept: 2^-24 · 0.5 is a tie (to 0), 2^-24 · 1.5 one to 2·2^-24.
		{"mul.f16 $0, $1, $2;", "=h,h,h", []uint32{0x0001, 0x3800}, 0},
		{"mul.f16 $0, $1, $2;", "=h,h,h", []uint32{0x0001, 0x3e00}, 0x0002},
		{"mul.f16 $0, $1, $2;", "=h,h,h", []uint32{0x8001, 0x3800}, 0x8000},
		{"add.f16 $0, $1, $2;", "=h,h,h", []uint32{0x7bff, 0x5000}, 0x7c00}, // 65504 + 32: inf
		{"mul.f16 $0, $1, $2;", "=h,h,h", []uint32{0x7c00, 0}, 0x7fff},      // inf · 0: canonical NaN
		{"add.f16x2 $0, $1, $2;", "=r,r,r", []uint32{0x40003c00, 0xc0003c00}, 0x00004000},
		{"neg.f16x2 $0, $1;", "=r,r", []uint32{0x3c00bc00}, 0xbc003c00},
		{"abs.bf16 $0, $1;", "=h,h", []uint32{0xbf80}, 0x3f80},
		{"min.f16 $0, $1, $2;", "=h,h,h", []uint32{0x7e01, 0x3c00}, 0x3c00},
		{"max.f16x2 $0, $1, $2;", "=r,r,r", []uint32{0x7e013c00, 0x7e01bc00}, 0x7fff3c00},
		// bf16: 1 + 2^-8 is a tie (to 1).
		{"add.bf16 $0, $1, $2;", "=h,h,h", []uint32{0x3f80, 0x3b80}, 0x3f80},
		// fma rounds once: 1.0625² = 1.125 + 2^-8 is a tie of bf16; + 2^-100 is just above it.
		// Rounding through f64 first would lose 2^-100 and round the tie to the even 1.125.
		{"fma.rn.bf16 $0, $1, $2, $3;", "=h,h,h,h", []uint32{0x3f88, 0x3f88, 0x0d80}, 0x3f91},
		{"fma.rn.bf16 $0, $1, $2, $3;", "=h,h,h,h", []uint32{0x3f88, 0x3f88, 0}, 0x3f90},
		{"fma.rn.bf16x2 $0, $1, $2, $3;", "=r,r,r,r", []uint32{0x3f883f88, 0x3f883f88, 0x00000d80}, 0x3f903f91},
		{"cvt.f32.f16 $0, $1;", "=f,h", []uint32{0x3555}, b(0.333251953125)},
		{"cvt.f32.f16 $0, $1;", "=f,h", []uint32{0x7c01}, 0x7fffffff},
		{"cvt.f32.bf16 $0, $1;", "=f,h", []uint32{0xc0a0}, b(-5)},
		{"cvt.rn.f16.f32 $0, $1;", "=h,f", []uint32{b(1 + 0x1p-11)}, 0x3c00},
		{"cvt.rn.f16.f32 $0, $1;", "=h,f", []uint32{b(1 + 0x1p-11 + 0x1p-20)}, 0x3c01},
		{"cvt.rn.f16.f32 $0, $1;", "=h,f", []uint32{b(1e6)}, 0x7c00},
		{"cvt.rn.bf16.f32 $0, $1;", "=h,f", []uint32{0x3f818000}, 0x3f82},
		{"cvt.rn.f16x2.f32 $0, $1, $2;", "=r,f,f", []uint32{b(1), b(2)}, 0x3c004000},
		{"cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f", []uint32{b(1), b(-2)}, 0x3f80c000},
		// fp8, saturating: 1000 to e4m3's 448, 1e6 to e5m2's 57344; NaN to 0x7f.
		{"cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f", []uint32{b(1000), 0x7fc00000}, 0x7e7f},
		{"cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f", []uint32{b(1), b(-0.0625)}, 0x3898},
		{"cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f", []uint32{b(1), b(1e6)}, 0x3c7b},
		{"cvt.rn.satfinite.e4m3x2.f16x2 $0, $1;", "=h,r", []uint32{0x3c00ac00}, 0x3898},
		{"cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h", []uint32{0x3898}, 0x3c00ac00},
		{"cvt.rn.f16x2.e5m2x2 $0, $1;", "=r,h", []uint32{0x3cbc}, 0x3c00bc00},
		// mov.b32 unpacks into and packs from 16-bit registers: the halves swapped.
		{"{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $1; mov.b32 $0, {hi, lo}; }", "=r,r", []uint32{0x12345678}, 0x56781234},
		{"mov.b32 {$0, $1}, $2;", "=h,=h,r", []uint32{0x12345678}, 0x5678},
		{"mov.b16 $0, $1;", "=h,r", []uint32{0x12345678}, 0x5678},
	} {
		if got := run(t, c.asm, c.cons, c.ins...); got[0] != c.want {
			t.Errorf("%s on %#x: got %#x, want %#x", c.asm, c.ins, got[0], c.want)
		}
	}
}

// TestPredicates: setp, selp, predicate logic and guarded instructions.
func TestPredicates(t *testing.T) {
	b := math.Float32bits
	nan := uint32(0x7fc00000)
	sel := func(cmp string) string {
		return "{ .reg .pred p; setp." + cmp + " p, $1, $2; selp.b32 $0, 1, 0, p; }"
	}
	for _, c := range []struct {
		asm  string
		ins  []uint32
		want uint32
	}{
		{sel("lt.s32"), []uint32{0xffffffff, 1}, 1},
		{sel("lt.u32"), []uint32{0xffffffff, 1}, 0},
		{sel("ge.u32"), []uint32{5, 5}, 1},
		{sel("ne.b32"), []uint32{5, 5}, 0},
		{sel("gt.f32"), []uint32{b(2), b(-3)}, 1},
		{sel("eq.f32"), []uint32{0, 1 << 31}, 1}, // +0 == -0
		// Ordered comparisons with a NaN are false, ne too; the unordered ones true.
		{sel("ne.f32"), []uint32{nan, b(1)}, 0},
		{sel("neu.f32"), []uint32{nan, b(1)}, 1},
		{sel("ltu.f32"), []uint32{b(2), b(1)}, 0},
		{sel("nan.f32"), []uint32{b(1), nan}, 1},
		{sel("num.f32"), []uint32{b(1), nan}, 0},
		// Guards: @p runs where p holds, @!p where it does not.
		{"{ .reg .pred p; mov.b32 $0, 7; setp.eq.u32 p, $1, $2; @p add.u32 $0, $0, 1; @!p sub.u32 $0, $0, 1; }", []uint32{3, 3}, 8},
		{"{ .reg .pred p; mov.b32 $0, 7; setp.eq.u32 p, $1, $2; @p add.u32 $0, $0, 1; @!p sub.u32 $0, $0, 1; }", []uint32{3, 4}, 6},
		{"{ .reg .pred p, q, r; setp.lt.s32 p, $1, 0; setp.lt.s32 q, $2, 0; xor.pred r, p, q; not.pred r, r; selp.u32 $0, $1, $2, r; }", []uint32{0xffffffff, 0xfffffffe}, 0xffffffff},
		{"{ .reg .pred p, q, r; setp.lt.s32 p, $1, 0; setp.lt.s32 q, $2, 0; and.pred r, p, q; @r mov.b32 $0, 9; }", []uint32{0xffffffff, 1}, 0},
	} {
		if got := run(t, c.asm, "=r,r,r", c.ins...); got[0] != c.want {
			t.Errorf("%s on %#x: got %#x, want %#x", c.asm, c.ins, got[0], c.want)
		}
	}
}

// TestBlock: braces, .reg lines, comments, several outputs and a tied
// input, as inline asm blocks have them (Triton's mxfp4 upcast shape).
func TestBlock(t *testing.T) {
	asm := "\n{\n  .reg .b32 b, c;  // scratch\n  and.b32 $0, $3, 0xff; shl.b32 b, $3, 8;\n  and.b32 $1, b, 0xff00;\n  add.u32 $2, $2, $5;\n}\n"
	got := run(t, asm, "=r,=r,=r,r,2,r", 0x1234, 5, 7)
	if got[0] != 0x34 || got[1] != 0x3400 || got[2] != 12 {
		t.Errorf("got %#x", got)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ asm, cons, want string }{
		{"cvt.rn.f64.f32 $0, $1;", "=r,r", `"cvt.rn.f64.f32 $0, $1" is not an instruction this evaluator runs`},
		{"@ and.b32 $0, $1, 1;", "=r,r", "guard @ is not a predicate register"},
		{"@1 and.b32 $0, $1, 1;", "=r,r", "guard @1 is not a predicate register"},
		{"@p and.b32 $0, $1;", "=r,r", "and.b32 takes 3 operands"},
		{"add.ftz.f32 $0, $1, $2;", "=f,f,f", "is not an instruction this evaluator runs"},
		{"add.f32 $0, $1, 0f3F80;", "=f,f", `immediate "0f3F80"`},
		{"and.b32 $0, $1;", "=r,r", "and.b32 takes 3 operands"},
		{"and.b32 $0, $5, 1;", "=r,r", "operand $5 names none of the 2 operands"},
		{"and.b32 3, $1, 1;", "=r,r", "writes an immediate"},
		{"and.b32 $0, $1, 0xzz;", "=r,r", `immediate "0xzz"`},
		{"mov.b32 $0, $1;", "=q,r", "only predicates and 16-, 32- and 64-bit registers"},
		{"mov.b32 $0, $1;", "=r,x", "only predicates and 16-, 32- and 64-bit registers"},
		{"add.u32 {$0, $1}, $2, 1;", "=h,=h,r", "a vector operand only packs or unpacks a mov.b32"},
		{"mov.b32 $0, {$1, $1, $1};", "=r,h", "mov.b32 packs two halves"},
		{"mov.b32 {1, $0}, $1;", "=h,r", "writes an immediate"},
		{"mov.b32 $0, {$1, {$1}};", "=r,h", "unbalanced braces"},
		{"mov.b32 $0, $1;", "=r,3", "ties to no output"},
	} {
		_, err := Parse(c.asm, c.cons)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q: got %v, want %q", c.asm, c.cons, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("{\n.reg .b32 t;\nshl.b32 t, $1, 1;\nand.b32 $0, t, 0xfefefefe;\n}", "=r,r")
	f.Add("prmt.b32 $0, $1, 0, 0x5140; add.u32 $1, $1, $2;", "=r,=r,r,1")
	f.Add("{ .reg .b16 l, h; mov.b32 {l, h}, $1; fma.rn.f16 l, l, h, l; mov.b32 $0, {h, l}; }", "=r,r")
	f.Add("cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2; lop3.b32 $0, $0, 1, 2, 0x96;", "=h,f,f")
	f.Fuzz(func(t *testing.T, asm, cons string) {
		p, err := Parse(asm, cons)
		if err != nil {
			return
		}
		if _, err := p.Run(make([]uint64, p.Ins)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestArithRoundsOnce: add, sub and mul computed in float64 and rounded
// again give the exact result rounded once, in f32, f16 and bf16 (random
// bit patterns of finite values, subnormals and cancellations included).
func TestArithRoundsOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		suffix, cons string
		f            *floatfmt.Format
		bits         int
	}{{"f32", "=f,f,f", floatfmt.Lookup("f32"), 32}, {"f16", "=h,h,h", floatfmt.Lookup("f16"), 16}, {"bf16", "=h,h,h", floatfmt.Lookup("bf16"), 16}} {
		for _, op := range []string{"add", "sub", "mul"} {
			p, err := Parse(op+"."+c.suffix+" $0, $1, $2;", c.cons)
			if err != nil {
				t.Fatal(err)
			}
			mask := uint64(1)<<c.bits - 1
			for range 20000 {
				a, b := r.Uint64()&mask, r.Uint64()&mask
				if r.IntN(4) == 0 { // near cancellation: b close to ±a
					b = (a ^ uint64(r.IntN(2))<<(c.bits-1)) + uint64(r.IntN(3))
				}
				x, y := c.f.FromBits(a&mask), c.f.FromBits(b&mask)
				if math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) {
					continue
				}
				e := new(big.Float).SetPrec(1024)
				switch op {
				case "add":
					e.Add(big.NewFloat(x), big.NewFloat(y))
				case "sub":
					e.Sub(big.NewFloat(x), big.NewFloat(y))
				case "mul":
					e.Mul(big.NewFloat(x), big.NewFloat(y))
				}
				if e.Sign() == 0 {
					continue // signed zeros: TestFloat, TestHalf
				}
				want := c.f.Bits(c.f.RoundBig(e, floatfmt.NearestEven, false))
				got, err := p.Run([]uint64{a & mask, b & mask})
				if err != nil {
					t.Fatal(err)
				}
				if uint64(got[0]) != want {
					t.Fatalf("%s.%s %#x %#x: got %#x, want %#x", op, c.suffix, a&mask, b&mask, got[0], want)
				}
			}
		}
	}
}

// Test64: 64-bit integer and f64 instructions, the 32 x 32 -> 64 products,
// conversions between the widths, mov.b64 packing 32-bit halves, and f64
// immediates.
func Test64(t *testing.T) {
	d := math.Float64bits
	tenth, fifth := 0.1, 0.2 // added at run time, not as exact constants
	for _, c := range []struct {
		asm  string
		ins  []uint64
		want uint64
	}{
		{"add.u64 $0, $1, $2;", []uint64{0xffffffff, 1}, 1 << 32},
		{"sub.s64 $0, $1, $2;", []uint64{0, 1}, 1<<64 - 1},
		{"mul.lo.u64 $0, $1, $2;", []uint64{1 << 40, 1<<30 + 1}, 1 << 40}, // 2^70 wraps away
		{"mul.hi.u64 $0, $1, $2;", []uint64{1<<64 - 1, 1<<64 - 1}, 1<<64 - 2},
		{"mul.hi.s64 $0, $1, $2;", []uint64{1<<64 - 1, 1<<64 - 1}, 0}, // (-1)·(-1) = 1
		{"mul.hi.s64 $0, $1, $2;", []uint64{1 << 63, 2}, 1<<64 - 1},   // -2^63·2 = -2^64
		{"mul.wide.s32 $0, $1, $2;", []uint64{0xffffffff, 0x7fffffff}, 1<<64 - 0x7fffffff},
		{"mul.wide.u32 $0, $1, $2;", []uint64{0xffffffff, 0xffffffff}, 0xfffffffe00000001},
		{"mad.wide.u32 $0, $1, 2, $2;", []uint64{0x80000000, 5}, 1<<32 + 5},
		{"shr.s64 $0, $1, 4;", []uint64{1 << 63}, 0xf8 << 56},
		{"shl.b64 $0, $1, 64;", []uint64{1}, 0},
		{"clz.b64 $0, $1;", []uint64{1 << 40}, 23},
		{"popc.b64 $0, $1;", []uint64{1<<64 - 1}, 64},
		{"brev.b64 $0, $1;", []uint64{1}, 1 << 63},
		{"min.s64 $0, $1, $2;", []uint64{1<<64 - 1, 1}, 1<<64 - 1},
		{"abs.s64 $0, $1;", []uint64{1<<64 - 5}, 5},
		{"cvt.s64.s32 $0, $1;", []uint64{0xfffffffe}, 1<<64 - 2},
		{"cvt.u64.u32 $0, $1;", []uint64{0xfffffffe}, 0xfffffffe},
		{"cvt.u32.u64 $0, $1;", []uint64{0x123456789}, 0x23456789},
		{"mov.b64 $0, 0x123456789abcdef0;", []uint64{0}, 0x123456789abcdef0},
		{"{ .reg .b32 lo, hi; mov.b64 {lo, hi}, $1; mov.b64 $0, {hi, lo}; }", []uint64{0x0000000100000002}, 0x0000000200000001},
		{"{ .reg .pred p; setp.lt.s64 p, $1, 0; selp.b64 $0, 7, 9, p; }", []uint64{1 << 63}, 7},
		{"{ .reg .pred p; setp.lt.u64 p, $1, 0; selp.b64 $0, 7, 9, p; }", []uint64{1 << 63}, 9},
		{"add.f64 $0, $1, $2;", []uint64{d(tenth), d(fifth)}, d(tenth + fifth)},
		{"mul.rn.f64 $0, $1, 1.5;", []uint64{d(2)}, d(3)},
		{"add.f64 $0, $1, 0d3FF0000000000000;", []uint64{d(1)}, d(2)},
		{"sub.f64 $0, $1, -0d3FF0000000000000;", []uint64{d(1)}, d(2)},
		{"div.rn.f64 $0, $1, $2;", []uint64{d(1), d(3)}, d(1.0 / 3)},
		{"sqrt.rn.f64 $0, $1;", []uint64{d(2)}, d(math.Sqrt(2))},
		{"sqrt.rn.f64 $0, $1;", []uint64{d(-2)}, 0xfff8 << 48}, // the default NaN (testdata/gpu_nans.jsonl)
		// fma rounds once: (1+2^-26)(1+2^-27) is a tie, which + 2^-100 tips up; the
		// product rounded first would lose it to even.
		{"fma.rn.f64 $0, $1, $2, 0d39B0000000000000;", []uint64{d(1 + 0x1p-26), d(1 + 0x1p-27)}, d(1 + 0x1p-26 + 0x1p-27 + 0x1p-52)},
		{"neg.f64 $0, $1;", []uint64{d(1)}, d(-1)},
		{"abs.f64 $0, $1;", []uint64{1 << 63}, 0}, // -0
		{"min.f64 $0, $1, $2;", []uint64{d(math.NaN()), d(-3)}, d(-3)},
		{"max.f64 $0, $1, $2;", []uint64{1 << 63, 0}, 0},
		{"cvt.f64.f32 $0, $1;", []uint64{uint64(math.Float32bits(0.1))}, d(float64(float32(0.1)))},
		{"cvt.rn.f32.f64 $0, $1;", []uint64{d(0.1)}, uint64(math.Float32bits(0.1))},
		{"cvt.rn.f64.s64 $0, $1;", []uint64{1<<64 - 3}, d(-3)},
		{"cvt.rzi.s64.f64 $0, $1;", []uint64{d(-2.75)}, 1<<64 - 2},
		{"cvt.rzi.s64.f64 $0, $1;", []uint64{d(1e30)}, 1<<63 - 1},
		{"cvt.rzi.u64.f64 $0, $1;", []uint64{d(-1)}, 0},
		{"{ .reg .pred p; setp.nan.f64 p, $1, $1; selp.b64 $0, 1, 0, p; }", []uint64{d(math.NaN())}, 1},
	} {
		if got := run64(t, c.asm, "=l,l,l", append(c.ins, make([]uint64, 2-len(c.ins))...)...); got[0] != c.want {
			t.Errorf("%s on %#x: got %#x, want %#x", c.asm, c.ins, got[0], c.want)
		}
	}
	if _, err := Parse("add.f64 $0, $1, $1;", "=d,d"); err != nil {
		t.Errorf(`"d" constraints: %v`, err)
	}
	if _, err := Parse("add.f64 $0, $1, $1;", "=x,d"); err == nil || !strings.Contains(err.Error(), "64-bit") {
		t.Errorf(`an "x" constraint: %v`, err)
	}
}
