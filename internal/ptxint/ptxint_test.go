package ptxint

import (
	"math"
	"strings"
	"testing"
)

func run(t *testing.T, asm, cons string, ins ...uint32) []uint32 {
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
		{"cvt.rn.f16x2.f32 $0, $1, $2;", "=r,r,r", `"cvt.rn.f16x2.f32 $0, $1, $2" is not an instruction this evaluator runs`},
		{"@p and.b32 $0, $1, 1;", "=r,r", "is not an instruction this evaluator runs"},
		{"add.ftz.f32 $0, $1, $2;", "=f,f,f", "is not an instruction this evaluator runs"},
		{"add.f32 $0, $1, 0f3F80;", "=f,f", `immediate "0f3F80"`},
		{"and.b32 $0, $1;", "=r,r", "and.b32 takes 3 operands"},
		{"and.b32 $0, $5, 1;", "=r,r", "operand $5 names none of the 2 operands"},
		{"and.b32 3, $1, 1;", "=r,r", "writes an immediate"},
		{"and.b32 $0, $1, 0xzz;", "=r,r", `immediate "0xzz"`},
		{"mov.b32 $0, $1;", "=h,h", "only 32-bit registers"},
		{"mov.b32 $0, $1;", "=r,l", "only 32-bit registers"},
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
	f.Fuzz(func(t *testing.T, asm, cons string) {
		p, err := Parse(asm, cons)
		if err != nil {
			return
		}
		if _, err := p.Run(make([]uint32, p.Ins)); err != nil {
			t.Fatal(err)
		}
	})
}
