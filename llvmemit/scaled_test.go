package llvmemit_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// scaledOperand is one operand of a generated tt.dot_scaled kernel: its
// stored type and shape, and its scale's (scaleTy "" for none).
type scaledOperand struct {
	ty, scaleTy          string
	rows, cols           int
	scaleRows, scaleCols int
	layout, scaleLayout  string
	fill, fillScale      func(b *interp.Buffer, i int)
}

// scaledKernel is a TTGIR kernel computing D = dot_scaled(A, B) + C (16x16
// f32, in layout #r) from buffers loaded in the operands' layouts.
func scaledKernel(a, b scaledOperand, lhs, rhs, attrs string) string {
	var params, body strings.Builder
	load := func(name, ty string, rows, cols int, layout string) {
		fmt.Fprintf(&params, "%%p%s: !tt.ptr<%s> {tt.divisibility = 16 : i32}, ", name, ty)
		fmt.Fprintf(&body, `    %%%[1]s_r = tt.make_range {end = %[3]d : i32, start = 0 : i32} : tensor<%[3]dxi32, #ttg.slice<{dim = 1, parent = %[5]s}>>
    %%%[1]s_c = tt.make_range {end = %[4]d : i32, start = 0 : i32} : tensor<%[4]dxi32, #ttg.slice<{dim = 0, parent = %[5]s}>>
    %%%[1]s_re = tt.expand_dims %%%[1]s_r {axis = 1 : i32} : tensor<%[3]dxi32, #ttg.slice<{dim = 1, parent = %[5]s}>> -> tensor<%[3]dx1xi32, %[5]s>
    %%%[1]s_ce = tt.expand_dims %%%[1]s_c {axis = 0 : i32} : tensor<%[4]dxi32, #ttg.slice<{dim = 0, parent = %[5]s}>> -> tensor<1x%[4]dxi32, %[5]s>
    %%%[1]s_w = arith.constant dense<%[4]d> : tensor<%[3]dx1xi32, %[5]s>
    %%%[1]s_rw = arith.muli %%%[1]s_re, %%%[1]s_w : tensor<%[3]dx1xi32, %[5]s>
    %%%[1]s_rb = tt.broadcast %%%[1]s_rw : tensor<%[3]dx1xi32, %[5]s> -> tensor<%[3]dx%[4]dxi32, %[5]s>
    %%%[1]s_cb = tt.broadcast %%%[1]s_ce : tensor<1x%[4]dxi32, %[5]s> -> tensor<%[3]dx%[4]dxi32, %[5]s>
    %%%[1]s_o = arith.addi %%%[1]s_rb, %%%[1]s_cb : tensor<%[3]dx%[4]dxi32, %[5]s>
    %%%[1]s_s = tt.splat %%p%[1]s : !tt.ptr<%[2]s> -> tensor<%[3]dx%[4]dx!tt.ptr<%[2]s>, %[5]s>
    %%%[1]s_p = tt.addptr %%%[1]s_s, %%%[1]s_o : tensor<%[3]dx%[4]dx!tt.ptr<%[2]s>, %[5]s>, tensor<%[3]dx%[4]dxi32, %[5]s>
`, name, ty, rows, cols, layout)
	}
	operand := func(x scaledOperand, name string) (use, ty string) {
		load(name, x.ty, x.rows, x.cols, x.layout)
		fmt.Fprintf(&body, "    %%%s = tt.load %%%s_p : tensor<%dx%dx!tt.ptr<%s>, %s>\n", name, name, x.rows, x.cols, x.ty, x.layout)
		use, ty = "%"+name, fmt.Sprintf("tensor<%dx%dx%s, %s>", x.rows, x.cols, x.ty, x.layout)
		if x.scaleTy != "" {
			load(name+"s", x.scaleTy, x.scaleRows, x.scaleCols, x.scaleLayout)
			fmt.Fprintf(&body, "    %%%ss = tt.load %%%ss_p : tensor<%dx%dx!tt.ptr<%s>, %s>\n", name, name, x.scaleRows, x.scaleCols, x.scaleTy, x.scaleLayout)
			use += " scale %" + name + "s"
			ty += fmt.Sprintf(", tensor<%dx%dx%s, %s>", x.scaleRows, x.scaleCols, x.scaleTy, x.scaleLayout)
		}
		return use, ty
	}
	au, at := operand(a, "a")
	bu, bt := operand(b, "b")
	load("c", "f32", 16, 16, "#r")
	body.WriteString("    %c = tt.load %c_p : tensor<16x16x!tt.ptr<f32>, #r>\n")
	fmt.Fprintf(&body, "    %%d = tt.dot_scaled %s, %s, %%c lhs = %s rhs = %s %s : %s * %s -> tensor<16x16xf32, #r>\n", au, bu, lhs, rhs, attrs, at, bt)
	load("d", "f32", 16, 16, "#r")
	body.WriteString("    tt.store %d_p, %d : tensor<16x16x!tt.ptr<f32>, #r>\n")
	return `#r = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#sc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(` + params.String() + `%pdummy: !tt.ptr<f32>) attributes {noinline = false} {
` + body.String() + `    tt.return
  }
}
`
}

// e8m0 scales near 1 (2^-4 .. 2^3): products stay finite.
func nearOne(b *interp.Buffer, i int) { b.SetInt(i, int64(123+(i*5)%8)) }

// TestDotScaledDecomposed: tt.dot_scaled without an MMA layout, which
// tritongpu-decompose-scaled-blocked rewrites (as layout-translate runs it)
// into upcasts, scale multiplications and an FMA tt.dot, lowered and
// simulated, equals the interpreter's tt.dot_scaled on the original
// kernel, bit for bit: e2m1 A (packed along K) × e4m3 B held as i8 with
// e8m0 scales on both; bf16 A × e2m1 B packed along N (rhs_k_pack = false)
// with fastMath; fp16 A (an f16 compute type: scales through f32) × e5m2
// B with a scale on B only.
func TestDotScaledDecomposed(t *testing.T) {
	i8 := func(b *interp.Buffer, i int) { b.SetInt(i, int64((i*37+11)%256-128)) }
	// e4m3 bits without NaN (0x7f, 0xff) or huge values: |x| < 2^4.
	e4m3 := func(b *interp.Buffer, i int) { b.SetInt(i, int64((i*29+3)%0x58)|int64(i%2)<<7) }
	small := func(b *interp.Buffer, i int) { b.SetFloat(i, float64((i*37+5)%9-4)/4) }
	for _, c := range []struct {
		name, lhs, rhs, attrs string
		a, b                  scaledOperand
	}{
		{"e2m1 x e4m3 (i8), both scaled", "e2m1", "e4m3", "{fastMath = false}",
			scaledOperand{ty: "i8", rows: 16, cols: 32, layout: "#rows", fill: i8,
				scaleTy: "i8", scaleRows: 16, scaleCols: 2, scaleLayout: "#sc", fillScale: nearOne},
			scaledOperand{ty: "i8", rows: 64, cols: 16, layout: "#cols", fill: e4m3,
				scaleTy: "i8", scaleRows: 16, scaleCols: 2, scaleLayout: "#sc", fillScale: nearOne}},
		{"bf16 x e2m1 along N, fastMath", "bf16", "e2m1", "{fastMath = true, rhs_k_pack = false}",
			scaledOperand{ty: "bf16", rows: 16, cols: 64, layout: "#rows", fill: small},
			scaledOperand{ty: "i8", rows: 64, cols: 8, layout: "#rows", fill: i8,
				scaleTy: "i8", scaleRows: 16, scaleCols: 2, scaleLayout: "#sc", fillScale: nearOne}},
		{"fp16 x e5m2, B scaled", "fp16", "e5m2", "{fastMath = false}",
			scaledOperand{ty: "f16", rows: 16, cols: 64, layout: "#rows", fill: small},
			scaledOperand{ty: "f8E5M2", rows: 64, cols: 16, layout: "#cols", fill: small,
				scaleTy: "i8", scaleRows: 16, scaleCols: 2, scaleLayout: "#sc", fillScale: nearOne}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := scaledKernel(c.a, c.b, c.lhs, c.rhs, c.attrs)
			var bufs []*interp.Buffer
			mk := func(ty string, n int, f func(*interp.Buffer, int)) {
				elem := ir.I8
				if ty != "i8" {
					elem = ir.FloatTypeOf(ty)
				}
				b, err := interp.NewBuffer(elem, n)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < n && f != nil; i++ {
					f(b, i)
				}
				bufs = append(bufs, b)
			}
			for _, x := range []scaledOperand{c.a, c.b} {
				mk(x.ty, x.rows*x.cols, x.fill)
				if x.scaleTy != "" {
					mk(x.scaleTy, x.scaleRows*x.scaleCols, x.fillScale)
				}
			}
			mk("f32", 256, func(b *interp.Buffer, i int) { b.SetFloat(i, float64(i%7)-3) })
			mk("f32", 256, nil)
			mk("f32", 1, nil)
			res := crossCheck(t, src, 4, bufs)
			d := res[len(res)-2]
			nonzero := 0
			for i := range 256 {
				if v := d.Float(i); v != 0 && !math.IsNaN(v) {
					nonzero++
				}
			}
			if nonzero < 128 {
				t.Fatalf("only %d of D's 256 elements are nonzero: a weak check", nonzero)
			}
		})
	}
}

// TestDotScaledNaNScale: a 0xFF scale makes its group NaN unless fastMath,
// in the decomposed kernel (the interpreter on the pass's output) as in
// tt.dot_scaled itself.
func TestDotScaledNaNScale(t *testing.T) {
	for _, fast := range []bool{false, true} {
		src := scaledKernel(
			scaledOperand{ty: "bf16", rows: 16, cols: 64, layout: "#rows"},
			scaledOperand{ty: "i8", rows: 64, cols: 16, layout: "#cols", scaleTy: "i8", scaleRows: 16, scaleCols: 2, scaleLayout: "#sc"},
			"bf16", "e4m3", fmt.Sprintf("{fastMath = %v}", fast))
		run := func(decompose bool) *interp.Buffer {
			m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "nan.mlir"})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if decompose {
				if d, err := passes.DecomposeScaledDots(m); err != nil {
					t.Fatalf("%v %v", d, err)
				}
				if strings.Contains(m.String(), "tt.dot_scaled") {
					t.Fatal("the pass left a tt.dot_scaled")
				}
			}
			mkI8 := func(n int, f func(int) int64) *interp.Buffer {
				b, _ := interp.NewBuffer(ir.I8, n)
				for i := range n {
					b.SetInt(i, f(i))
				}
				return b
			}
			a, _ := interp.NewBuffer(ir.BF16, 16*64)
			for i := range 16 * 64 {
				a.SetFloat(i, 1)
			}
			bb := mkI8(64*16, func(int) int64 { return 0x38 }) // e4m3 1.0
			// Column 3's first group scale is 0xFF, the rest 1.
			bs := mkI8(32, func(i int) int64 {
				if i == 3*2 {
					return -1
				}
				return 127
			})
			cbuf, _ := interp.NewBuffer(ir.F32, 256)
			d, _ := interp.NewBuffer(ir.F32, 256)
			dummy, _ := interp.NewBuffer(ir.F32, 1)
			args := []interp.Arg{interp.BufArg(a), interp.BufArg(bb), interp.BufArg(bs), interp.BufArg(cbuf), interp.BufArg(d), interp.BufArg(dummy)}
			if err := interp.Run(m, "k", args, [3]int{1, 1, 1}); err != nil {
				t.Fatal(err)
			}
			return d
		}
		native, decomposed := run(false), run(true)
		for i := range 256 {
			n, dv := native.Float(i), decomposed.Float(i)
			if n != dv && !(math.IsNaN(n) && math.IsNaN(dv)) {
				t.Fatalf("fastMath %v: D[%d]: tt.dot_scaled %v, decomposed %v", fast, i, n, dv)
			}
		}
		if got := decomposed.Float(3); math.IsNaN(got) == fast {
			t.Fatalf("fastMath %v: D[0][3] = %v", fast, got)
		}
		if got := decomposed.Float(2); got != 64 {
			t.Fatalf("fastMath %v: D[0][2] = %v, want 64", fast, got)
		}
	}
}
