package interp_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// The tensor-memory ops (ops_tmem.go) on small tiles: hand-computed
// results, the dot bit for bit as tt.dot computes it, and located errors.

const tmemHeader = `#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared32 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
#shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 16, colStride = 1>
#tmem16 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 16, colStride = 2>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
`

// tmemKernel is a kernel @k of the given parameters and body.
func tmemKernel(params, body string) string {
	return tmemHeader + "  tt.func public @k(" + params + ") {\n" + body + "    tt.return\n  }\n}\n"
}

// mmaKernel loads A (m×k of ta) and B (k×n of ta) from %a and %b into
// shared memory, D (m×n of td) from %c into tensor memory, runs
// tc_gen5_mma with the i1 constants useD and pred, and stores D to %out.
func mmaKernel(m, n, k int, ta, td string, useD, pred bool) string {
	sa := fmt.Sprintf("!ttg.memdesc<%dx%dx%s, %s, #smem>", m, k, ta, sharedOf(ta))
	sb := fmt.Sprintf("!ttg.memdesc<%dx%dx%s, %s, #smem>", k, n, ta, sharedOf(ta))
	dm := fmt.Sprintf("!ttg.memdesc<%dx%dx%s, %s, #tm, mutable>", m, n, td, tmemOf(td))
	body := load2D("x", "a", ta, m, k) + load2D("y", "b", ta, k, n) + load2D("z", "c", td, m, n) +
		fmt.Sprintf(`    %%sa = ttg.local_alloc %%x : (tensor<%[1]dx%[3]dx%[4]s>) -> %[6]s
    %%sb = ttg.local_alloc %%y : (tensor<%[3]dx%[2]dx%[4]s>) -> %[7]s
    %%d, %%tok = ttng.tmem_alloc %%z : (tensor<%[1]dx%[2]dx%[5]s>) -> (%[8]s, !ttg.async.token)
    %%useD = arith.constant %[9]v
    %%pred = arith.constant %[10]v
    %%mtok = ttng.tc_gen5_mma %%sa, %%sb, %%d[%%tok], %%useD, %%pred : %[6]s, %[7]s, %[8]s
    %%r, %%ltok = ttng.tmem_load %%d[%%mtok] : %[8]s -> tensor<%[1]dx%[2]dx%[5]s>
`, m, n, k, ta, td, sa, sb, dm, useD, pred) + store2D("r", "out", td, m, n)
	return tmemKernel(fmt.Sprintf("%%a: !tt.ptr<%[1]s>, %%b: !tt.ptr<%[1]s>, %%c: !tt.ptr<%[2]s>, %%out: !tt.ptr<%[2]s>", ta, td), body)
}

func sharedOf(ty string) string {
	switch ty {
	case "f32":
		return "#shared32"
	case "i8":
		return "#shared8"
	}
	return "#shared"
}

func tmemOf(ty string) string {
	if ty == "f16" {
		return "#tmem16"
	}
	return "#tmem"
}

// dotKernel is mmaKernel's computation with tt.dot (useD and pred true).
func dotKernel(m, n, k int, ta, td, precision string) string {
	body := load2D("x", "a", ta, m, k) + load2D("y", "b", ta, k, n) + load2D("z", "c", td, m, n) +
		fmt.Sprintf("    %%r = tt.dot %%x, %%y, %%z%s : tensor<%dx%dx%s> * tensor<%dx%dx%s> -> tensor<%dx%dx%s>\n",
			precision, m, k, ta, k, n, ta, m, n, td) + store2D("r", "out", td, m, n)
	return tmemKernel(fmt.Sprintf("%%a: !tt.ptr<%[1]s>, %%b: !tt.ptr<%[1]s>, %%c: !tt.ptr<%[2]s>, %%out: !tt.ptr<%[2]s>", ta, td), body)
}

// runMMA runs kernel src on A, B, C and returns the output buffer (of
// C's type and size).
func runMMA(t *testing.T, src string, a, b, c *interp.Buffer) (*interp.Buffer, error) {
	t.Helper()
	m := parseText(t, src)
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("does not verify: %v\n%s", d, src)
	}
	out, err := interp.NewBuffer(c.Elem, c.Len())
	if err != nil {
		t.Fatal(err)
	}
	err = interp.Run(m, "k", []interp.Arg{interp.BufArg(a), interp.BufArg(b), interp.BufArg(c), interp.BufArg(out)}, [3]int{1, 1, 1})
	return out, err
}

// intMatrix is the row-major rows×cols matrix f(i, j).
func intMatrix(rows, cols int, f func(i, j int) int) []float64 {
	v := make([]float64, rows*cols)
	for i := range rows {
		for j := range cols {
			v[i*cols+j] = float64(f(i, j))
		}
	}
	return v
}

// TestTCGen5MMA: D = C + A·B with useD, A·B without (C not read), C when
// pred is false; small integers, so every sum is exact.
func TestTCGen5MMA(t *testing.T) {
	const M, N, K = 64, 16, 8
	av := intMatrix(M, K, func(i, k int) int { return (i+2*k)%5 - 2 })
	bv := intMatrix(K, N, func(k, j int) int { return (3*k+j)%7 - 3 })
	cv := intMatrix(M, N, func(i, j int) int { return i - 2*j })
	prod := make([]float64, M*N)
	for i := range M {
		for j := range N {
			for k := range K {
				prod[i*N+j] += av[i*K+k] * bv[k*N+j]
			}
		}
	}
	// Element (1, 2) by hand: A row 1 is (1+2k)%5-2 = -1, 1, -2, 0, 2,
	// -1, 1, -2; B column 2 is (3k+2)%7-3 = -1, 2, -2, 1, -3, 0, 3, -1.
	// The products: 1+2+4+0-6+0+3+2 = 6; C(1, 2) = 1-4 = -3.
	if prod[1*N+2] != 6 || cv[1*N+2] != -3 {
		t.Fatalf("A·B(1, 2) = %v, C(1, 2) = %v; want 6, -3", prod[1*N+2], cv[1*N+2])
	}
	a, b, c := fillBuffer(t, "f16", av), fillBuffer(t, "f16", bv), fillBuffer(t, "f32", cv)
	for _, tc := range []struct {
		useD, pred bool
		want       func(i int) float64
	}{
		{true, true, func(i int) float64 { return cv[i] + prod[i] }},
		{false, true, func(i int) float64 { return prod[i] }},
		{true, false, func(i int) float64 { return cv[i] }},
		{false, false, func(i int) float64 { return cv[i] }},
	} {
		out, err := runMMA(t, mmaKernel(M, N, K, "f16", "f32", tc.useD, tc.pred), a, b, c)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, M*N)
		for i := range want {
			want[i] = tc.want(i)
		}
		checkBuffer(t, fmt.Sprintf("useD %v, pred %v", tc.useD, tc.pred), out, want)
	}
	if c.Float(1*N+2) != -3 {
		t.Errorf("the input C changed")
	}
}

// pseudoRandom is n values in [-2, 2) of the form j/64 (so exact in f16
// and bf16, and with products that round when accumulated in f16).
func pseudoRandom(n, seed int) []float64 {
	v := make([]float64, n)
	x := uint32(seed)*2654435761 + 1
	for i := range v {
		x = x*1664525 + 1013904223
		v[i] = float64(int(x>>24)-128) / 64
	}
	return v
}

// TestTCGen5MMAAsDot: tc_gen5_mma computes bit for bit what tt.dot does on
// the same operands: the same order and roundings, with an f16 or f32
// accumulator, and f32 operands as tf32 (tt.dot's inputPrecision = tf32).
func TestTCGen5MMAAsDot(t *testing.T) {
	const M, N, K = 64, 16, 32
	for _, c := range []struct{ ta, td, precision string }{
		{"f16", "f32", ""},
		{"f16", "f16", ""},
		{"bf16", "f32", ""},
		{"f32", "f32", ", inputPrecision = tf32"},
	} {
		av, bv, cv := pseudoRandom(M*K, 1), pseudoRandom(K*N, 2), pseudoRandom(M*N, 3)
		if c.ta == "f32" {
			// 1 + 2^-20 is 1 in tf32: the two dots differ unless the
			// operands are rounded to tf32.
			for i := range av {
				av[i] += math.Ldexp(av[i], -20)
			}
		}
		a, b, cb := fillBuffer(t, c.ta, av), fillBuffer(t, c.ta, bv), fillBuffer(t, c.td, cv)
		got, err := runMMA(t, mmaKernel(M, N, K, c.ta, c.td, true, true), a, b, cb)
		if err != nil {
			t.Fatal(err)
		}
		want, err := runMMA(t, dotKernel(M, N, K, c.ta, c.td, c.precision), a, b, cb)
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%s · %s -> %s", c.ta, c.ta, c.td)
		if string(got.Data) != string(want.Data) {
			t.Errorf("%s: tc_gen5_mma and tt.dot%s differ", what, c.precision)
		}
		if c.ta == "f32" {
			ieee, err := runMMA(t, dotKernel(M, N, K, c.ta, c.td, ""), a, b, cb)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Data) == string(ieee.Data) {
				t.Errorf("%s: equal to tt.dot with inputPrecision = ieee: the operands were not rounded to tf32", what)
			}
		}
		if c.td == "f16" {
			// The f16 accumulator rounds: the result is not the exact sum.
			exact := true
			for i := 0; i < M*N && exact; i++ {
				s := cv[i]
				for k := range K {
					s += av[i/N*K+k] * bv[k*N+i%N]
				}
				exact = got.Float(i) == s
			}
			if exact {
				t.Errorf("%s: every element is the exact sum: the test does not exercise rounding", what)
			}
		}
	}
}

// TestTCGen5MMAInt: i8 operands, i32 accumulator, exact.
func TestTCGen5MMAInt(t *testing.T) {
	const M, N, K = 64, 16, 32
	av := intMatrix(M, K, func(i, k int) int { return (i*7+k*3)%256 - 128 })
	bv := intMatrix(K, N, func(k, j int) int { return (k*5+j*11)%256 - 128 })
	cv := intMatrix(M, N, func(i, j int) int { return i*1000 - j })
	out, err := runMMA(t, mmaKernel(M, N, K, "i8", "i32", true, true), fillBuffer(t, "i8", av), fillBuffer(t, "i8", bv), fillBuffer(t, "i32", cv))
	if err != nil {
		t.Fatal(err)
	}
	for i := range M {
		for j := range N {
			want := int64(cv[i*N+j])
			for k := range K {
				want += int64(av[i*K+k]) * int64(bv[k*N+j])
			}
			if got := out.Int(i*N + j); got != want {
				t.Fatalf("element (%d, %d) = %d, want %d", i, j, got, want)
			}
		}
	}
}

// runTMEM runs a kernel @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) on in
// and returns n elements of out.
func runTMEM(t *testing.T, src string, in []float64, n int) (*interp.Buffer, error) {
	t.Helper()
	m := parseText(t, src)
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("does not verify: %v\n%s", d, src)
	}
	out, _ := interp.NewBuffer(ir.F32, n)
	err := interp.Run(m, "k", []interp.Arg{interp.BufArg(fillBuffer(t, "f32", in)), interp.BufArg(out)}, [3]int{1, 1, 1})
	return out, err
}

const tmem64x16 = "!ttg.memdesc<64x16xf32, #tmem, #tm, mutable>"

// TestTMEMAllocLoadStore: tmem_alloc with src holds src, without it zeros;
// tmem_store with pred true writes, with pred false does not; tmem_load
// reads back what was stored; with and without tokens.
func TestTMEMAllocLoadStore(t *testing.T) {
	const M, N = 64, 16
	in := intMatrix(2*M, N, func(i, j int) int { return i*N + j + 1 }) // X then Y
	x, y := in[:M*N], in[M*N:]
	zeros := make([]float64, M*N)
	loads := load2D("x", "in", "f32", M, N) + `    %c1024 = arith.constant 1024 : i32
    %inY = tt.addptr %in, %c1024 : !tt.ptr<f32>, i32
` + load2D("y", "inY", "f32", M, N) + `    %true = arith.constant true
    %false = arith.constant false
`
	params := "%in: !tt.ptr<f32>, %out: !tt.ptr<f32>"
	for _, c := range []struct {
		name, body string
		want       []float64
	}{
		{"alloc with src", `    %m = ttng.tmem_alloc %x : (tensor<64x16xf32>) -> !ttg.memdesc<64x16xf32, #tmem, #tm>
    %r = ttng.tmem_load %m : !ttg.memdesc<64x16xf32, #tmem, #tm> -> tensor<64x16xf32>
`, x},
		{"alloc with src and token", `    %m, %tok = ttng.tmem_alloc %x : (tensor<64x16xf32>) -> (` + tmem64x16 + `, !ttg.async.token)
    %r, %t2 = ttng.tmem_load %m[%tok] : ` + tmem64x16 + ` -> tensor<64x16xf32>
`, x},
		{"alloc without src", `    %m = ttng.tmem_alloc : () -> ` + tmem64x16 + `
    %r = ttng.tmem_load %m : ` + tmem64x16 + ` -> tensor<64x16xf32>
`, zeros},
		{"store, load", `    %m = ttng.tmem_alloc : () -> ` + tmem64x16 + `
    ttng.tmem_store %y, %m, %true : tensor<64x16xf32> -> ` + tmem64x16 + `
    %r = ttng.tmem_load %m : ` + tmem64x16 + ` -> tensor<64x16xf32>
`, y},
		{"store over src, tokens", `    %m, %tok = ttng.tmem_alloc %x : (tensor<64x16xf32>) -> (` + tmem64x16 + `, !ttg.async.token)
    %t1 = ttng.tmem_store %y, %m[%tok], %true : tensor<64x16xf32> -> ` + tmem64x16 + `
    %r, %t2 = ttng.tmem_load %m[%t1] : ` + tmem64x16 + ` -> tensor<64x16xf32>
`, y},
		{"store with pred false", `    %m, %tok = ttng.tmem_alloc %x : (tensor<64x16xf32>) -> (` + tmem64x16 + `, !ttg.async.token)
    %t1 = ttng.tmem_store %y, %m[%tok], %false : tensor<64x16xf32> -> ` + tmem64x16 + `
    %r, %t2 = ttng.tmem_load %m[%t1] : ` + tmem64x16 + ` -> tensor<64x16xf32>
`, x},
		{"store twice", `    %m = ttng.tmem_alloc : () -> ` + tmem64x16 + `
    ttng.tmem_store %x, %m, %true : tensor<64x16xf32> -> ` + tmem64x16 + `
    ttng.tmem_store %y, %m, %false : tensor<64x16xf32> -> ` + tmem64x16 + `
    %r = ttng.tmem_load %m : ` + tmem64x16 + ` -> tensor<64x16xf32>
`, x},
	} {
		out, err := runTMEM(t, tmemKernel(params, loads+c.body+store2D("r", "out", "f32", M, N)), in, M*N)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkBuffer(t, c.name, out, c.want)
	}
}

// TestTMEMViews: a tmem_subslice is a view of columns; memdesc_index of a
// multi-buffered allocation selects one buffer; tmem_copy copies a shared
// buffer as it is.
func TestTMEMViews(t *testing.T) {
	const M, N = 64, 16
	in := intMatrix(M, N, func(i, j int) int { return i*N + j + 1 })
	params := "%in: !tt.ptr<f32>, %out: !tt.ptr<f32>"
	loads := load2D("x", "in", "f32", M, N) + "    %true = arith.constant true\n"
	// Columns 8..15 of x stored into columns 0..7 of a zero buffer.
	half := make([]float64, M*N)
	for i := range M {
		for j := range N / 2 {
			half[i*N+j] = in[i*N+j+N/2]
		}
	}
	slice := `    %m = ttng.tmem_alloc %x : (tensor<64x16xf32>) -> !ttg.memdesc<64x16xf32, #tmem, #tm>
    %s = ttng.tmem_subslice %m {N = 8 : i32} : !ttg.memdesc<64x16xf32, #tmem, #tm> -> !ttg.memdesc<64x8xf32, #tmem, #tm, 64x16>
    %h = ttng.tmem_load %s : !ttg.memdesc<64x8xf32, #tmem, #tm, 64x16> -> tensor<64x8xf32>
    %z = ttng.tmem_alloc : () -> ` + tmem64x16 + `
    %s0 = ttng.tmem_subslice %z {N = 0 : i32} : ` + tmem64x16 + ` -> !ttg.memdesc<64x8xf32, #tmem, #tm, mutable, 64x16>
    ttng.tmem_store %h, %s0, %true : tensor<64x8xf32> -> !ttg.memdesc<64x8xf32, #tmem, #tm, mutable, 64x16>
    %r = ttng.tmem_load %z : ` + tmem64x16 + ` -> tensor<64x16xf32>
`
	index := `    %m = ttng.tmem_alloc : () -> !ttg.memdesc<2x64x16xf32, #tmem, #tm, mutable>
    %c1 = arith.constant 1 : i32
    %b1 = ttg.memdesc_index %m[%c1] : !ttg.memdesc<2x64x16xf32, #tmem, #tm, mutable> -> ` + tmem64x16 + `
    ttng.tmem_store %x, %b1, %true : tensor<64x16xf32> -> ` + tmem64x16 + `
    %c0 = arith.constant 0 : i32
    %b0 = ttg.memdesc_index %m[%c0] : !ttg.memdesc<2x64x16xf32, #tmem, #tm, mutable> -> ` + tmem64x16 + `
    %r0 = ttng.tmem_load %b0 : ` + tmem64x16 + ` -> tensor<64x16xf32>
    %r1 = ttng.tmem_load %b1 : ` + tmem64x16 + ` -> tensor<64x16xf32>
    %r = arith.addf %r0, %r1 : tensor<64x16xf32>
`
	cp := `    %sm = ttg.local_alloc %x : (tensor<64x16xf32>) -> !ttg.memdesc<64x16xf32, #shared32, #smem>
    %m = ttng.tmem_alloc : () -> ` + tmem64x16 + `
    ttng.tmem_copy %sm, %m : !ttg.memdesc<64x16xf32, #shared32, #smem>, ` + tmem64x16 + `
    %r = ttng.tmem_load %m : ` + tmem64x16 + ` -> tensor<64x16xf32>
`
	for _, c := range []struct {
		name, body string
		want       []float64
	}{
		{"tmem_subslice", slice, half},
		{"memdesc_index", index, in},
		{"tmem_copy", cp, in},
	} {
		out, err := runTMEM(t, tmemKernel(params, loads+c.body+store2D("r", "out", "f32", M, N)), in, M*N)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkBuffer(t, c.name, out, c.want)
	}
}

// TestTCGen5MMAFromTMEM: A may be read from tensor memory, and D may be a
// view (a buffer of a multi-buffered allocation).
func TestTCGen5MMAFromTMEM(t *testing.T) {
	const M, N, K = 64, 16, 16
	av := intMatrix(M, K, func(i, k int) int { return (i+k)%3 - 1 })
	bv := intMatrix(K, N, func(k, j int) int { return (k*j)%5 - 2 })
	a, b := fillBuffer(t, "f16", av), fillBuffer(t, "f16", bv)
	c := fillBuffer(t, "f32", make([]float64, M*N))
	body := load2D("x", "a", "f16", M, K) + load2D("y", "b", "f16", K, N) + `    %true = arith.constant true
    %false = arith.constant false
    %ta = ttng.tmem_alloc %x : (tensor<64x16xf16>) -> !ttg.memdesc<64x16xf16, #tmem16, #tm>
    %sb = ttg.local_alloc %y : (tensor<16x16xf16>) -> !ttg.memdesc<16x16xf16, #shared, #smem>
    %d2 = ttng.tmem_alloc : () -> !ttg.memdesc<2x64x16xf32, #tmem, #tm, mutable>
    %c1 = arith.constant 1 : i32
    %d = ttg.memdesc_index %d2[%c1] : !ttg.memdesc<2x64x16xf32, #tmem, #tm, mutable> -> ` + tmem64x16 + `
    ttng.tc_gen5_mma %ta, %sb, %d, %false, %true : !ttg.memdesc<64x16xf16, #tmem16, #tm>, !ttg.memdesc<16x16xf16, #shared, #smem>, ` + tmem64x16 + `
    ttng.tc_gen5_mma %ta, %sb, %d, %true, %true : !ttg.memdesc<64x16xf16, #tmem16, #tm>, !ttg.memdesc<16x16xf16, #shared, #smem>, ` + tmem64x16 + `
    %r = ttng.tmem_load %d : ` + tmem64x16 + ` -> tensor<64x16xf32>
` + store2D("r", "out", "f32", M, N)
	src := tmemKernel("%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %out: !tt.ptr<f32>", body)
	out, err := runMMA(t, src, a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, M*N)
	for i := range M {
		for j := range N {
			for k := range K {
				want[i*N+j] += 2 * av[i*K+k] * bv[k*N+j] // A·B, then + A·B
			}
		}
	}
	checkBuffer(t, "A in tensor memory, D a view", out, want)
}

// TestTMEMErrors: ill-typed operands and mismatched shapes are errors
// located at the op, not panics (and an empty tile is no error).
func TestTMEMErrors(t *testing.T) {
	smA := "!ttg.memdesc<64x8xf16, #shared, #smem>"
	smB := "!ttg.memdesc<8x16xf16, #shared, #smem>"
	prelude := `    %true = arith.constant true
    %t16 = arith.constant dense<1.0> : tensor<64x16xf32>
    %t8 = arith.constant dense<1.0> : tensor<64x8xf32>
    %h = arith.constant dense<1.0> : tensor<64x8xf16>
    %hb = arith.constant dense<1.0> : tensor<8x16xf16>
    %i = arith.constant dense<1> : tensor<64x8xi8>
    %ib = arith.constant dense<1> : tensor<8x16xi8>
    %sa = ttg.local_alloc %h : (tensor<64x8xf16>) -> ` + smA + `
    %sb = ttg.local_alloc %hb : (tensor<8x16xf16>) -> ` + smB + `
    %m = ttng.tmem_alloc : () -> ` + tmem64x16 + `
`
	for _, c := range []struct{ op, body, want string }{
		{"ttng.tmem_alloc", `    %x = ttng.tmem_alloc %t8 : (tensor<64x8xf32>) -> ` + tmem64x16 + "\n",
			"src of type f32[64 8] for a memdesc of type f32[64 16]"},
		{"ttng.tmem_store", `    ttng.tmem_store %t8, %m, %true : tensor<64x8xf32> -> ` + tmem64x16 + "\n",
			"src of shape [64 8] for a memdesc of shape [64 16]"},
		{"ttng.tmem_store", `    %w = arith.constant dense<1.0> : tensor<64x16xf16>
    ttng.tmem_store %w, %m, %true : tensor<64x16xf16> -> ` + tmem64x16 + "\n",
			"src of element type f16 for a memdesc of element type f32"},
		{"ttng.tmem_store", `    ttng.tmem_store %t16, %sa, %true : tensor<64x16xf32> -> ` + smA + "\n",
			"src of element type f32 for a memdesc of element type f16"},
		{"ttng.tmem_store", `    %one = arith.constant dense<true> : tensor<2xi1>
    ttng.tmem_store %t16, %m, %one : tensor<64x16xf32> -> ` + tmem64x16 + "\n",
			""}, // does not parse: pred must be i1
		{"ttng.tmem_load", `    %r = ttng.tmem_load %m : ` + tmem64x16 + " -> tensor<64x16xf16>\n",
			"result of element type f16 for a memdesc of element type f32"},
		{"ttng.tmem_load", `    %r = ttng.tmem_load %m : ` + tmem64x16 + " -> tensor<16x64xf32>\n",
			"result of shape [16 64] for a memdesc of shape [64 16]"},
		{"ttng.tmem_subslice", `    %s = ttng.tmem_subslice %m {N = 12 : i32} : ` + tmem64x16 + ` -> !ttg.memdesc<64x8xf32, #tmem, #tm, mutable, 64x16>` + "\n",
			"subslice of shape [64 8] at column 12 outside [64 16]"},
		{"ttng.tmem_copy", `    %sc = ttg.local_alloc %t16 : (tensor<64x16xf32>) -> !ttg.memdesc<64x16xf32, #shared32, #smem>
    %sd = ttg.local_alloc : () -> !ttg.memdesc<64x16xf32, #shared32, #smem, mutable>
    ttng.tmem_copy %sc, %sd : !ttg.memdesc<64x16xf32, #shared32, #smem>, !ttg.memdesc<64x16xf32, #shared32, #smem, mutable>` + "\n",
			"is not supported (only #ttng.tensor_memory_encoding)"},
		// K of B (16) is not K of A (8).
		{"ttng.tc_gen5_mma", `    %sb2 = ttg.local_alloc %t16 : (tensor<64x16xf32>) -> !ttg.memdesc<64x16xf32, #shared32, #smem>
    ttng.tc_gen5_mma %sa, %sb2, %m, %true, %true : ` + smA + `, !ttg.memdesc<64x16xf32, #shared32, #smem>, ` + tmem64x16 + "\n",
			"shapes [64 8] · [64 16] do not give [64 16]"},
		{"ttng.tc_gen5_mma", `    %m8 = ttng.tmem_alloc : () -> !ttg.memdesc<64x8xf32, #tmem, #tm, mutable>
    ttng.tc_gen5_mma %sa, %sb, %m8, %true, %true : ` + smA + `, ` + smB + `, !ttg.memdesc<64x8xf32, #tmem, #tm, mutable>` + "\n",
			"shapes [64 8] · [8 16] do not give [64 8]"},
		{"ttng.tc_gen5_mma", `    %si = ttg.local_alloc %i : (tensor<64x8xi8>) -> !ttg.memdesc<64x8xi8, #shared8, #smem>
    %sib = ttg.local_alloc %ib : (tensor<8x16xi8>) -> !ttg.memdesc<8x16xi8, #shared8, #smem>
    ttng.tc_gen5_mma %si, %sib, %m, %true, %true : !ttg.memdesc<64x8xi8, #shared8, #smem>, !ttg.memdesc<8x16xi8, #shared8, #smem>, ` + tmem64x16 + "\n",
			"mixed integer and float operands"},
		{"ttng.tc_gen5_mma", `    ttng.tc_gen5_mma %h, %sb, %m, %true, %true : tensor<64x8xf16>, ` + smB + `, ` + tmem64x16 + "\n",
			"a: expected a memdesc operand, got *interp.Tensor"},
		{"ttng.tc_gen5_mma", `    ttng.tc_gen5_mma %sa, %sb, %t16, %true, %true : ` + smA + `, ` + smB + ", tensor<64x16xf32>\n",
			"d: expected a memdesc operand, got *interp.Tensor"},
		// A and D of 0 rows: nothing to compute, and no error.
		{"", `    %s0 = ttg.local_alloc : () -> !ttg.memdesc<0x8xf16, #shared, #smem, mutable>
    %m0 = ttng.tmem_alloc : () -> !ttg.memdesc<0x16xf32, #tmem, #tm, mutable>
    ttng.tc_gen5_mma %s0, %sb, %m0, %true, %true : !ttg.memdesc<0x8xf16, #shared, #smem, mutable>, ` + smB + `, !ttg.memdesc<0x16xf32, #tmem, #tm, mutable>` + "\n",
			""},
		{"ttng.tc_gen5_mma", `    %two = arith.constant 2 : i32
    ttng.tc_gen5_mma %sa, %sb, %m, %two, %true : ` + smA + `, ` + smB + `, ` + tmem64x16 + "\n",
			""}, // does not parse: useD must be i1
	} {
		src := tmemKernel("", prelude+c.body)
		if c.op == "" {
			if err := interp.Run(parseText(t, src), "k", nil, [3]int{1, 1, 1}); err != nil {
				t.Errorf("%s: %v", strings.TrimSpace(c.body), err)
			}
			continue
		}
		if c.want == "" {
			if _, diags := ir.Parse([]byte(src), ir.ParseConfig{Filename: "test.mlir"}); !diags.HasErrors() {
				t.Errorf("%s: parsed", c.body)
			}
			continue
		}
		m := parseText(t, src)
		err := interp.Run(m, "k", nil, [3]int{1, 1, 1})
		var e *interp.Error
		if !errors.As(err, &e) || e.Op != c.op || !strings.Contains(e.Msg, c.want) || e.Pos.Line == 0 {
			t.Errorf("%s: got %v, want an *interp.Error at %s containing %q", strings.TrimSpace(c.body), err, c.op, c.want)
		}
	}
}

// FuzzTMEM runs mutations of the tensor-memory kernels above on lazy
// random memory with bounded work: the interpreter may report an error,
// never panic.
func FuzzTMEM(f *testing.F) {
	f.Add(mmaKernel(64, 16, 8, "f16", "f32", true, true))
	f.Add(mmaKernel(64, 16, 8, "i8", "i32", false, true))
	f.Add(dotKernel(64, 16, 8, "f32", "f32", ", inputPrecision = tf32"))
	f.Add(tmemKernel("%in: !tt.ptr<f32>, %out: !tt.ptr<f32>", load2D("x", "in", "f32", 64, 16)+`    %true = arith.constant true
    %m, %tok = ttng.tmem_alloc %x : (tensor<64x16xf32>) -> (`+tmem64x16+`, !ttg.async.token)
    %s = ttng.tmem_subslice %m {N = 8 : i32} : `+tmem64x16+` -> !ttg.memdesc<64x8xf32, #tmem, #tm, mutable, 64x16>
    %h = ttng.tmem_load %s : !ttg.memdesc<64x8xf32, #tmem, #tm, mutable, 64x16> -> tensor<64x8xf32>
    %s0 = ttng.tmem_subslice %m {N = 0 : i32} : `+tmem64x16+` -> !ttg.memdesc<64x8xf32, #tmem, #tm, mutable, 64x16>
    %t1 = ttng.tmem_store %h, %s0[%tok], %true : tensor<64x8xf32> -> !ttg.memdesc<64x8xf32, #tmem, #tm, mutable, 64x16>
    %r, %t2 = ttng.tmem_load %m[%t1] : `+tmem64x16+` -> tensor<64x16xf32>
`+store2D("r", "out", "f32", 64, 16)))
	f.Fuzz(func(t *testing.T, src string) {
		m, diags := ir.Parse([]byte(src), ir.ParseConfig{Filename: "fuzz.mlir"})
		if diags.HasErrors() || ir.Verify(m).HasErrors() {
			return
		}
		mc := interp.NewMachine(m, nil)
		fn, ok := tt.AsFunc(mc.Func("k"))
		if !ok || fn.Body() == nil || fn.Body().Entry() == nil {
			return
		}
		mem := &interp.LazyMemory{Seed: 1}
		var args []interp.Value
		for _, arg := range fn.Body().Entry().Args() {
			e, err := interp.ElemOf(arg.Type())
			switch {
			case err != nil:
				return
			case e.IsPtr():
				pe, err := interp.ElemOf(e.Pointee)
				if err != nil {
					return
				}
				mem.Elems = append(mem.Elems, pe)
				args = append(args, interp.Scalar(e, int64(len(mem.Elems))<<40, 0))
			default:
				args = append(args, interp.Scalar(e, 3, 0.5))
			}
		}
		mc.Mem, mc.MaxOps, mc.MaxWork = mem, 1<<12, 1<<20
		_ = mc.Launch("k", args, [3]int{1, 1, 1})
	})
}
