package ptxint

import (
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
		{"cvt.rn.f16x2.f32 $0, $1, $2;", "=r,r,r", `"cvt.rn.f16x2.f32 $0, $1, $2" is not a 32-bit integer instruction`},
		{"@p and.b32 $0, $1, 1;", "=r,r", "is not a 32-bit integer instruction"},
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
