package llvmemit_test

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
)

// inlineAsmKernel is a one-warp kernel over 128 elements, 4 per thread:
// it loads x (X) and y (Y), applies OP (an elementwise_inline_asm line
// defining %r0 and maybe %r1) and stores %r0 (R0) and, when R1 is set,
// %r1 (R1) after the inputs.
func inlineAsmKernel(x, y, r0, r1, opLine string) string {
	src := `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%px: !tt.ptr<X> {tt.divisibility = 16 : i32}, %py: !tt.ptr<Y> {tt.divisibility = 16 : i32}, %p0: !tt.ptr<R0> {tt.divisibility = 16 : i32}, %p1: !tt.ptr<R1> {tt.divisibility = 16 : i32}) {
    %i = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %sx = tt.splat %px : !tt.ptr<X> -> tensor<128x!tt.ptr<X>, #b>
    %ax = tt.addptr %sx, %i : tensor<128x!tt.ptr<X>, #b>, tensor<128xi32, #b>
    %x = tt.load %ax : tensor<128x!tt.ptr<X>, #b>
    %sy = tt.splat %py : !tt.ptr<Y> -> tensor<128x!tt.ptr<Y>, #b>
    %ay = tt.addptr %sy, %i : tensor<128x!tt.ptr<Y>, #b>, tensor<128xi32, #b>
    %y = tt.load %ay : tensor<128x!tt.ptr<Y>, #b>
    OP
    %s0 = tt.splat %p0 : !tt.ptr<R0> -> tensor<128x!tt.ptr<R0>, #b>
    %a0 = tt.addptr %s0, %i : tensor<128x!tt.ptr<R0>, #b>, tensor<128xi32, #b>
    tt.store %a0, %r0 : tensor<128x!tt.ptr<R0>, #b>
`
	if r1 != "" {
		src += `    %s1 = tt.splat %p1 : !tt.ptr<R1> -> tensor<128x!tt.ptr<R1>, #b>
    %a1 = tt.addptr %s1, %i : tensor<128x!tt.ptr<R1>, #b>, tensor<128xi32, #b>
    tt.store %a1, %r1 : tensor<128x!tt.ptr<R1>, #b>
`
	} else {
		r1 = "i32"
	}
	src += "    tt.return\n  }\n}\n"
	return strings.NewReplacer("OP", opLine, "R0", r0, "R1", r1, "X", x, "Y", y).Replace(src)
}

// TestSimInlineAsm runs tt.elementwise_inline_asm on the simulator (which
// executes the PTX from the ISA): four i8 per 32-bit register, f32 and i32
// operands one per register into two results (a struct of outputs), f16
// pairs whose halves the asm swaps (the packing order), and a tied input.
func TestSimInlineAsm(t *testing.T) {
	const n = 128
	for _, c := range []struct {
		name, x, y, r0, r1, op string
		xb, yb, b0, b1         int                                       // element bytes
		want                   func(x, y []byte, i int) (uint64, uint64) // the two results' bits at element i
	}{
		{"i8x4", "i8", "i8", "i8", "", `%r0 = tt.elementwise_inline_asm "{\0A.reg .b32 t;\0Ashl.b32 t, $1, 1;\0Aand.b32 $0, t, 0xfefefefe;\0A}" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<128xi8, #b> -> tensor<128xi8, #b>`,
			1, 1, 1, 0, func(x, _ []byte, i int) (uint64, uint64) { return uint64(x[i] * 2), 0 }},
		{"two_results", "f32", "i32", "f32", "i32", `%r0, %r1 = tt.elementwise_inline_asm "and.b32 $0, $2, 0x7fffffff; or.b32 $1, $3, 1;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = true} %x, %y : tensor<128xf32, #b>, tensor<128xi32, #b> -> tensor<128xf32, #b>, tensor<128xi32, #b>`,
			4, 4, 4, 4, func(x, y []byte, i int) (uint64, uint64) {
				return uint64(binary.LittleEndian.Uint32(x[4*i:]) & 0x7fffffff), uint64(binary.LittleEndian.Uint32(y[4*i:]) | 1)
			}},
		{"f16_pairs", "f16", "f16", "f16", "", `%r0 = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x1032;" {constraints = "=r,r", packed_element = 2 : i32, pure = false} %x : tensor<128xf16, #b> -> tensor<128xf16, #b>`,
			2, 2, 2, 0, func(x, _ []byte, i int) (uint64, uint64) { return uint64(binary.LittleEndian.Uint16(x[2*(i^1):])), 0 }},
		{"tied_i16", "i16", "i16", "i16", "", `%r0 = tt.elementwise_inline_asm "add.u32 $0, $0, $2;" {constraints = "=r,0,r", packed_element = 2 : i32, pure = true} %x, %y : tensor<128xi16, #b>, tensor<128xi16, #b> -> tensor<128xi16, #b>`,
			2, 2, 2, 0, func(x, y []byte, i int) (uint64, uint64) {
				// One 32-bit add of the packed pairs: the low half's carry
				// reaches the high half.
				p := i &^ 1
				s := binary.LittleEndian.Uint32(x[2*p:]) + binary.LittleEndian.Uint32(y[2*p:])
				return uint64(uint16(s >> (16 * (i & 1)))), 0
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := inlineAsmKernel(c.x, c.y, c.r0, c.r1, c.op)
			xs, ys := n*c.xb, n*c.yb
			mem := make([]byte, xs+ys+n*c.b0+n*max(c.b1, 4))
			for i := range xs + ys {
				mem[i] = byte(i*73 + i/7)
			}
			out0 := uint64(xs + ys)
			out1 := out0 + uint64(n*c.b0)
			simKernel(t, src, "asm.mlir", 32, mem, 0, uint64(xs), out0, out1)
			x, y := mem[:xs], mem[xs:xs+ys]
			read := func(off uint64, b, i int) uint64 {
				v := uint64(0)
				for k := b - 1; k >= 0; k-- {
					v = v<<8 | uint64(mem[off+uint64(b*i+k)])
				}
				return v
			}
			for i := range n {
				w0, w1 := c.want(x, y, i)
				if g := read(out0, c.b0, i); g != w0 {
					t.Fatalf("result 0, element %d: got %#x, want %#x", i, g, w0)
				}
				if c.b1 > 0 {
					if g := read(out1, c.b1, i); g != w1 {
						t.Fatalf("result 1, element %d: got %#x, want %#x", i, g, w1)
					}
				}
			}
		})
	}
}

// TestInlineAsmErrors: what the lowering refuses, located at the op.
func TestInlineAsmErrors(t *testing.T) {
	for _, c := range []struct{ op, want string }{
		{`%r0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r,r", packed_element = 4 : i32, pure = true} %x : tensor<128xi8, #b> -> tensor<128xi8, #b>`,
			`constraints "=r,r,r" name 1 outputs and 2 inputs; packed_element 4 of these results and operands makes 1 and 1`},
		{`%r0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,q", packed_element = 4 : i32, pure = true} %x : tensor<128xi8, #b> -> tensor<128xi8, #b>`,
			`constraint "q" is not an NVPTX register constraint`},
		{`%r0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 8 : i32, pure = true} %x : tensor<128xi8, #b> -> tensor<128xi8, #b>`,
			`packed_element 8 does not divide the 4 elements each thread holds`},
		{`%r0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xf64, #b> -> tensor<128xi8, #b>`,
			`does not fit a register of i32`},
	} {
		x := "i8"
		if strings.Contains(c.op, "f64") {
			x = "f64"
		}
		src := inlineAsmKernel(x, "i8", "i8", "", c.op)
		m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "asm.mlir"})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		_, err := llvmemit.Emit(m)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "asm.mlir:") {
			t.Errorf("%s:\n got %v\nwant %q at the op", c.op, err, c.want)
		}
	}
}

// TestSimInlineAsmMatchesInterp runs inline asm whose blocks span two
// registers that are column neighbours (a layout of order [0, 1]) on the
// simulator and the interpreter: both pack a block's registers alike.
func TestSimInlineAsmMatchesInterp(t *testing.T) {
	for _, c := range []struct{ ty, op string }{
		{"f16", `%y = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x1032;" {constraints = "=r,r", packed_element = 2 : i32, pure = true} %x : tensor<16x8xf16, #L> -> tensor<16x8xf16, #L>`},
		{"i8", `%y = tt.elementwise_inline_asm "{\0A.reg .b32 t;\0Aprmt.b32 t, $1, 0, 0x0123;\0Axor.b32 $0, t, 0x01010101;\0A}" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<16x8xi8, #L> -> tensor<16x8xi8, #L>`},
		// Two bytes in a register: they fill its low 16 bits, not one half each.
		{"i8", `%y = tt.elementwise_inline_asm "shr.u32 $0, $1, 4;" {constraints = "=r,r", packed_element = 2 : i32, pure = true} %x : tensor<16x8xi8, #L> -> tensor<16x8xi8, #L>`},
		// f32 registers ("f"): x·x + 1 rounded once, and a min with a NaN-free constant.
		{"f32", `%y = tt.elementwise_inline_asm "{\0A.reg .f32 t;\0Afma.rn.f32 t, $1, $1, 0f3F800000;\0Amin.f32 $0, t, 1.0e30;\0A}" {constraints = "=f,f", packed_element = 1 : i32, pure = true} %x : tensor<16x8xf32, #L> -> tensor<16x8xf32, #L>`},
		// f16 pairs in a register (f16x2 arithmetic), and one f16 to a 16-bit register ("h").
		{"f16", `%y = tt.elementwise_inline_asm "{\0A.reg .b32 t;\0Afma.rn.f16x2 t, $1, $1, $1;\0Amul.f16x2 $0, t, 0x3C003800;\0A}" {constraints = "=r,r", packed_element = 2 : i32, pure = true} %x : tensor<16x8xf16, #L> -> tensor<16x8xf16, #L>`},
		{"f16", `%y = tt.elementwise_inline_asm "{\0A.reg .f32 t;\0Acvt.f32.f16 t, $1;\0Amul.f32 t, t, 0f3DCCCCCD;\0Acvt.rn.f16.f32 $0, t;\0A}" {constraints = "=h,h", packed_element = 1 : i32, pure = true} %x : tensor<16x8xf16, #L> -> tensor<16x8xf16, #L>`},
		// 64-bit registers: i64 halves swapped and incremented ("l"), an f64 fma ("d").
		{"i64", `%y = tt.elementwise_inline_asm "{\0A.reg .b32 lo, hi;\0Amov.b64 {lo, hi}, $1;\0Amov.b64 $0, {hi, lo};\0Aadd.u64 $0, $0, 1;\0A}" {constraints = "=l,l", packed_element = 1 : i32, pure = true} %x : tensor<16x8xi64, #L> -> tensor<16x8xi64, #L>`},
		{"f64", `%y = tt.elementwise_inline_asm "fma.rn.f64 $0, $1, $1, 0d3FE0000000000000;" {constraints = "=d,d", packed_element = 1 : i32, pure = true} %x : tensor<16x8xf64, #L> -> tensor<16x8xf64, #L>`},
	} {
		t.Run(c.ty, func(t *testing.T) {
			src := strings.NewReplacer("ELT", c.ty, "OP", c.op).Replace(`#L = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<ELT>, %out: !tt.ptr<ELT>) {` + offsets2D("a", "#L", 16, 8) + `
    %ip = tt.splat %in : !tt.ptr<ELT> -> tensor<16x8x!tt.ptr<ELT>, #L>
    %ia = tt.addptr %ip, %a_off : tensor<16x8x!tt.ptr<ELT>, #L>, tensor<16x8xi32, #L>
    %x = tt.load %ia : tensor<16x8x!tt.ptr<ELT>, #L>
    OP
    %op = tt.splat %out : !tt.ptr<ELT> -> tensor<16x8x!tt.ptr<ELT>, #L>
    %oa = tt.addptr %op, %a_off : tensor<16x8x!tt.ptr<ELT>, #L>, tensor<16x8xi32, #L>
    tt.store %oa, %y : tensor<16x8x!tt.ptr<ELT>, #L>
    tt.return
  }
}
`)
			et := map[string]ir.Type{"f16": &ir.FloatType{Kind: "f16"}, "i8": ir.I8, "f32": ir.F32, "i64": ir.I64, "f64": ir.F64}[c.ty]
			in, _ := interp.NewBuffer(et, 128)
			for i := range in.Data {
				in.Data[i] = byte(i*29 + 3)
			}
			if c.ty == "f16" { // finite halves: no NaN patterns
				for i := 1; i < len(in.Data); i += 2 {
					in.Data[i] &= 0x3f
				}
			}
			if c.ty == "f64" { // finite values with full mantissas
				for i := range 128 {
					in.SetFloat(i, float64(i-64)/3)
				}
			}
			if c.ty == "f32" { // finite values with full mantissas
				for i := range 128 {
					in.SetFloat(i, float64(float32(i-64)*1.1e-3+0.5))
				}
			}
			out, _ := interp.NewBuffer(et, 128)
			res := crossCheck(t, src, 1, []*interp.Buffer{in, out})
			if bytes.Equal(res[1].Data, make([]byte, len(res[1].Data))) {
				t.Fatal("nothing stored")
			}
		})
	}
}
