package interp_test

import (
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// asmKernel loads a 16x8 tensor x of type T in layout L, applies OP
// (defining %y of the same type) and stores it to out.
func asmKernel(ty, layout, opLine string) string {
	return strings.NewReplacer("T", ty, "LAYOUT", layout, "OP", opLine).Replace(`#L = LAYOUT
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<T>, %out: !tt.ptr<T>) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #L}>>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #L}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #L}>> -> tensor<16x1xi32, #L>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #L}>> -> tensor<1x8xi32, #L>
    %e = arith.constant dense<8> : tensor<16x1xi32, #L>
    %rs = arith.muli %r2, %e : tensor<16x1xi32, #L>
    %rb = tt.broadcast %rs : tensor<16x1xi32, #L> -> tensor<16x8xi32, #L>
    %cb = tt.broadcast %c2 : tensor<1x8xi32, #L> -> tensor<16x8xi32, #L>
    %off = arith.addi %rb, %cb : tensor<16x8xi32, #L>
    %ip = tt.splat %in : !tt.ptr<T> -> tensor<16x8x!tt.ptr<T>, #L>
    %ia = tt.addptr %ip, %off : tensor<16x8x!tt.ptr<T>, #L>, tensor<16x8xi32, #L>
    %x = tt.load %ia : tensor<16x8x!tt.ptr<T>, #L>
    OP
    %op = tt.splat %out : !tt.ptr<T> -> tensor<16x8x!tt.ptr<T>, #L>
    %oa = tt.addptr %op, %off : tensor<16x8x!tt.ptr<T>, #L>, tensor<16x8xi32, #L>
    tt.store %oa, %y : tensor<16x8x!tt.ptr<T>, #L>
    tt.return
  }
}
`)
}

// TestInlineAsm runs tt.elementwise_inline_asm of integer PTX: bytes
// packed four to a register, and f16 pairs whose halves the asm swaps in
// two layouts: the pair is two consecutive registers of a thread, which
// are row neighbours in one layout and column neighbours in the other.
func TestInlineAsm(t *testing.T) {
	rows := `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>`
	cols := `#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>`
	swap := `%y = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x1032;" {constraints = "=r,r", packed_element = 2 : i32, pure = true} %x : tensor<16x8xf16, #L> -> tensor<16x8xf16, #L>`
	for _, c := range []struct {
		name, layout string
		partner      func(i int) int // the element whose value lands at i
	}{
		{"rows", rows, func(i int) int { return i ^ 1 }},
		{"cols", cols, func(i int) int { return i ^ 8 }},
	} {
		m := parseText(t, asmKernel("f16", c.layout, swap))
		in, _ := interp.NewBuffer(&ir.FloatType{Kind: "f16"}, 128)
		for i := range 128 {
			in.SetFloat(i, float64(i))
		}
		out, _ := interp.NewBuffer(&ir.FloatType{Kind: "f16"}, 128)
		if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(in), interp.BufArg(out)}, [3]int{1, 1, 1}); err != nil {
			t.Fatal(err)
		}
		for i := range 128 {
			if got, want := out.Float(i), float64(c.partner(i)); got != want {
				t.Fatalf("%s: element %d = %v, want %v", c.name, i, got, want)
			}
		}
	}
	m := parseText(t, asmKernel("i8", rows, `%y = tt.elementwise_inline_asm "{\0A.reg .b32 t;\0Ashl.b32 t, $1, 1;\0Aand.b32 $0, t, 0xfefefefe;\0A}" {constraints = "=r,r", packed_element = 2 : i32, pure = true} %x : tensor<16x8xi8, #L> -> tensor<16x8xi8, #L>`))
	in, _ := interp.NewBuffer(ir.I8, 128)
	for i := range 128 {
		in.SetInt(i, int64(i*7-300))
	}
	out, _ := interp.NewBuffer(ir.I8, 128)
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(in), interp.BufArg(out)}, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 128 {
		if got, want := out.Int(i), int64(int8(in.Int(i)*2)); got != want {
			t.Fatalf("i8: element %d = %d, want %d", i, got, want)
		}
	}
}

// TestInlineAsm64: asm on 64-bit registers: i64 and f64 elements one to
// an "l" or "d" register.
func TestInlineAsm64(t *testing.T) {
	rows := `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>`
	m := parseText(t, asmKernel("i64", rows, `%y = tt.elementwise_inline_asm "{\0A.reg .b32 lo, hi;\0Amov.b64 {lo, hi}, $1;\0Amov.b64 $0, {hi, lo};\0Aadd.u64 $0, $0, 1;\0A}" {constraints = "=l,l", packed_element = 1 : i32, pure = true} %x : tensor<16x8xi64, #L> -> tensor<16x8xi64, #L>`))
	in, _ := interp.NewBuffer(ir.I64, 128)
	for i := range 128 {
		in.SetInt(i, int64(i)<<32|int64(i*3))
	}
	out, _ := interp.NewBuffer(ir.I64, 128)
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(in), interp.BufArg(out)}, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 128 {
		if got, want := out.Int(i), int64(i*3)<<32|int64(i)+1; got != want {
			t.Fatalf("i64: element %d = %#x, want %#x", i, got, want)
		}
	}
	m = parseText(t, asmKernel("f64", rows, `%y = tt.elementwise_inline_asm "fma.rn.f64 $0, $1, $1, 0.5;" {constraints = "=d,d", packed_element = 1 : i32, pure = true} %x : tensor<16x8xf64, #L> -> tensor<16x8xf64, #L>`))
	fin, _ := interp.NewBuffer(ir.F64, 128)
	for i := range 128 {
		fin.SetFloat(i, float64(i)/3)
	}
	fout, _ := interp.NewBuffer(ir.F64, 128)
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(fin), interp.BufArg(fout)}, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 128 {
		x := float64(i) / 3
		if got, want := fout.Float(i), math.FMA(x, x, 0.5); got != want {
			t.Fatalf("f64: element %d = %v, want %v", i, got, want)
		}
	}
}

// TestInlineAsmErrors: asm the interpreter cannot run is a located error.
func TestInlineAsmErrors(t *testing.T) {
	rows := `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>`
	for _, c := range []struct{ ty, op, want string }{
		{"f16", `%y = tt.elementwise_inline_asm "mov.b64 $0, $1;" {constraints = "=q,q", packed_element = 2 : i32, pure = true} %x : tensor<16x8xf16, #L> -> tensor<16x8xf16, #L>`,
			"only predicates and 16-, 32- and 64-bit registers"},
		{"f16", `%y = tt.elementwise_inline_asm "mov.b64 $0, $1;" {constraints = "=l,l", packed_element = 2 : i32, pure = true} %x : tensor<16x8xf16, #L> -> tensor<16x8xf16, #L>`,
			"does not fit its 16-bit elements"},
		{"f32", `%y = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16x8xf32, #L> -> tensor<16x8xf32, #L>`,
			"is not an instruction this evaluator runs"},
		{"i64", `%y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16x8xi64, #L> -> tensor<16x8xi64, #L>`,
			"does not fit its 64-bit elements"},
		{"i8", `%y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r,r", packed_element = 2 : i32, pure = true} %x : tensor<16x8xi8, #L> -> tensor<16x8xi8, #L>`,
			"name 1 outputs and 2 inputs"},
		{"i8", `%y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,=r,r,r", packed_element = 8 : i32, pure = true} %x : tensor<16x8xi8, #L> -> tensor<16x8xi8, #L>`,
			"packed_element 8 does not divide the 4 elements each thread holds"},
	} {
		m := parseText(t, asmKernel(c.ty, rows, c.op))
		elem := map[string]ir.Type{"f16": &ir.FloatType{Kind: "f16"}, "f32": ir.F32, "i64": ir.I64, "i8": ir.I8}[c.ty]
		in, _ := interp.NewBuffer(elem, 128)
		out, _ := interp.NewBuffer(elem, 128)
		err := interp.Run(m, "k", []interp.Arg{interp.BufArg(in), interp.BufArg(out)}, [3]int{1, 1, 1})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "test.mlir:") {
			t.Errorf("%s: %v, want a located error with %q", c.op, err, c.want)
		}
	}
}
