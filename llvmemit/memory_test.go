package llvmemit_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
)

// TestSimMaskedLoadOther checks masked loads with an `other` value
// against the interpreter. A constant `other` (integer, f32, bf16 bits) is
// the initial value of the loaded words, as in Triton, so no select
// follows the load; an f16 one is selected afterwards.
func TestSimMaskedLoadOther(t *testing.T) {
	cases := []struct {
		name, elem, other, mask string
		want, not               string
	}{
		{"f32-pairs", "f32", "1.5", "pairs", "mov.u32 $1, 0x3fc00000;", "select"},
		{"f32-ragged", "f32", "-2.0", "ragged", "mov.u32 $0, 0xc0000000;", "select"},
		{"i32-ragged", "i32", "-7", "ragged", "mov.u32 $0, 0xfffffff9;", "select"},
		{"bf16-pairs", "bf16", "1.5", "pairs", "mov.u32 $0, 0x3fc03fc0;", "select"},
		{"f16-pairs", "f16", "1.5", "pairs", "mov.u32 $0, 0x0;", ""},
		{"f32-zero", "f32", "0.0", "pairs", "mov.u32 $1, 0x0;", "select"},
	}
	// In a loop (of a function without a dot) the masked-off words are set
	// after the load (loadHints.fillAfter), elsewhere before it.
	for _, c := range cases {
		for _, loop := range []bool{false, true} {
			name := c.name
			if loop {
				name += "-loop"
			}
			t.Run(name, func(t *testing.T) {
				testMaskedLoadOther(t, c.elem, c.other, c.mask, c.want, c.not, loop)
			})
		}
	}
}

func testMaskedLoadOther(t *testing.T, elem, other, mask, want, not string, loop bool) {
	const n = 512
	ty := func(e string) string { return fmt.Sprintf("tensor<%dx%s, #b>", n, e) }
	pt := ty("!tt.ptr<" + elem + ">")
	body := inOutBody(n, elem, mask) + fmt.Sprintf(`
    %%o = arith.constant dense<%s> : %s`, other, ty(elem))
	if loop {
		body += fmt.Sprintf(`
    %%c0 = arith.constant 0 : i32
    %%c1 = arith.constant 1 : i32
    %%x = scf.for %%i = %%c0 to %%c1 step %%c1 iter_args(%%a = %%o) -> (%s) : i32 {
      %%v = tt.load %%ia, %%m, %%o : %s
      scf.yield %%v : %s
    }
    tt.store %%ja, %%x : %s`, ty(elem), pt, ty(elem), pt)
	} else {
		body += fmt.Sprintf(`
    %%x = tt.load %%ia, %%m, %%o : %s
    tt.store %%ja, %%x : %s`, pt, pt)
	}
	src := `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
` + fmt.Sprintf(`module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%%in: !tt.ptr<%s> {tt.divisibility = 16 : i32}, %%out: !tt.ptr<%s> {tt.divisibility = 16 : i32}, %%lim: i32) {`, elem, elem) + body + `
    tt.return
  }
}
`
	ll := lowerSource(t, src, "k.mlir", true).Module.String()
	if !strings.Contains(ll, want) || not != "" && strings.Contains(ll, not) {
		t.Fatalf("want %q and no %q in the LLVM IR:\n%s", want, not, ll)
	}
	if after := strings.Contains(ll, "@!$"); after != loop {
		t.Fatalf("words set after the load: %v, want %v:\n%s", after, loop, ll)
	}
	var et ir.Type = &ir.FloatType{Kind: elem}
	if elem == "i32" {
		et = ir.I32
	}
	crossCheckArgs(t, src, 4, []*interp.Buffer{filled(t, et, n, 1), zeros(t, et, n)}, []int64{n - 37})
}

// inOutBody is the start of a test kernel over n elements of elem with
// parameters %in, %out (pointers) and %lim (i32), one element per index of
// a 1-D layout #b: %r the indices, %ia and %ja the input's and output's
// pointers, and for mask "pairs" (true for the first half of each run of
// 4: constancy 2) or "ragged" (r < lim: constancy 1) the mask %m.
func inOutBody(n int, elem, mask string) string {
	ty := func(e string) string { return fmt.Sprintf("tensor<%dx%s, #b>", n, e) }
	body := fmt.Sprintf(`
    %%r = tt.make_range {end = %[1]d : i32, start = 0 : i32} : %[2]s
    %%ip = tt.splat %%in : !tt.ptr<%[3]s> -> %[4]s
    %%ia = tt.addptr %%ip, %%r : %[4]s, %[2]s
    %%jp = tt.splat %%out : !tt.ptr<%[3]s> -> %[4]s
    %%ja = tt.addptr %%jp, %%r : %[4]s, %[2]s`, n, ty("i32"), elem, ty("!tt.ptr<"+elem+">"))
	switch mask {
	case "pairs":
		body += fmt.Sprintf(`
    %%c4 = arith.constant dense<4> : %[1]s
    %%c2 = arith.constant dense<2> : %[1]s
    %%rem = arith.remsi %%r, %%c4 : %[1]s
    %%m = arith.cmpi slt, %%rem, %%c2 : %[1]s`, ty("i32"))
	case "ragged":
		body += fmt.Sprintf(`
    %%nn = tt.splat %%lim : i32 -> %[1]s
    %%m = arith.cmpi slt, %%r, %%nn : %[1]s`, ty("i32"))
	}
	return body
}

// TestSimInBoundsVectors checks accesses made whole where the thread's
// elements are in bounds and element by element where they are not
// (test/llvmemit/inbounds-vectors.mlir) against the interpreter, with the
// bound inside a thread's run of 8 (one warp diverges, the other takes
// the whole path) and at a multiple of 8 (every thread takes one side).
func TestSimInBoundsVectors(t *testing.T) {
	src, err := os.ReadFile("../test/llvmemit/inbounds-vectors.mlir")
	if err != nil {
		t.Fatal(err)
	}
	ll := lowerSource(t, string(src), "inbounds-vectors.mlir", true).Module.String()
	if !strings.Contains(ll, "load <4 x i32>") || !strings.Contains(ll, "\"st.global.v2.b32 [ $2 + 0 ], { $0, $1 };\"") || !strings.Contains(ll, "phi i8") {
		t.Fatalf("no whole-vector path in the LLVM IR:\n%s", ll)
	}
	for _, lim := range []int64{512 - 37, 256, 512, 0} {
		t.Run(fmt.Sprint(lim), func(t *testing.T) {
			rows := strings.Replace(string(src), "tt.func public @rows(", "tt.func public @k(", 1)
			f16 := &ir.FloatType{Kind: "f16"}
			crossCheckArgs(t, rows, 2, []*interp.Buffer{filled(t, f16, 512, 3), zeros(t, f16, 512), filled(t, ir.I8, 512, 5), zeros(t, ir.I8, 512)}, []int64{lim})
		})
	}
}

// TestInBoundsBranchWGMMALoops checks that the in-bounds branch stays out
// of loops around a wgmma with 64 or more accumulator registers per thread
// (the 128x128 sm_90 matmul's A and B loads), and is kept in a loop around
// a smaller one (the 64x64 matmul's A and B loads: 32 registers) and
// after the loops (their output stores).
func TestInBoundsBranchWGMMALoops(t *testing.T) {
	for _, c := range []struct {
		kernel        string
		loads, stores int
	}{
		{"matmul_grouped_128x128x64_f16_sm90_w4", 0, 1},
		{"matmul_bias_64x64x32_f16_sm90_w4", 2, 1},
	} {
		res, err := lower(t, "../passes/testdata/prepost/"+c.kernel+".post.ttgir")
		if err != nil {
			t.Fatal(err)
		}
		ll := res.Module.String()
		if l, s := strings.Count(ll, "\nld.full"), strings.Count(ll, "\nst.full"); l != c.loads || s != c.stores {
			t.Errorf("%s: %d loads and %d stores branch on their masks, want %d and %d", c.kernel, l, s, c.loads, c.stores)
		}
	}
}

// TestSimL2Prefetch checks loads marked with passes.L2PrefetchAttr:
// ld.global.L2::256B through inline PTX, masked (Triton's predicated form,
// `other` in the words first) and unmasked (no predicate), words of
// sub-word elements, the PTX header raised to ISA 7.4; and the same
// results as the interpreter.
func TestSimL2Prefetch(t *testing.T) {
	cases := []struct {
		name, elem, mask, want string
	}{
		{"f16", "f16", "", "ld.global.L2::256B.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];"},
		{"f32", "f32", "", "ld.global.L2::256B.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];"},
		{"i8", "i8", "", "ld.global.L2::256B.b32 { $0 }, [ $1 + 0 ];"},
		{"f32-ragged", "f32", "ragged", "@$2 ld.global.L2::256B.b32 { $0 }, [ $1 + 0 ];"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const n = 512
			pt := fmt.Sprintf("tensor<%dx!tt.ptr<%s>, #b>", n, c.elem)
			load := fmt.Sprintf(`
    %%x = tt.load %%ia {layoutopt.l2_prefetch_bytes = 256 : i32} : %s`, pt)
			if c.mask != "" {
				load = fmt.Sprintf(`
    %%o = arith.constant dense<-3.0> : tensor<%dx%s, #b>
    %%x = tt.load %%ia, %%m, %%o {layoutopt.l2_prefetch_bytes = 256 : i32} : %s`, n, c.elem, pt)
			}
			src := `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
` + fmt.Sprintf(`module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%%in: !tt.ptr<%s> {tt.divisibility = 16 : i32}, %%out: !tt.ptr<%s> {tt.divisibility = 16 : i32}, %%lim: i32) {`, c.elem, c.elem) +
				inOutBody(n, c.elem, c.mask) + load + fmt.Sprintf(`
    tt.store %%ja, %%x : %s
    tt.return
  }
}
`, pt)
			if c.elem == "f16" { // 8 per thread: one 128-bit vector
				src = strings.Replace(src, "sizePerThread = [4]", "sizePerThread = [8]", 1)
			}
			res := lowerSource(t, src, c.name+".mlir", true)
			ll := res.Module.String()
			if !strings.Contains(ll, c.want) || strings.Count(ll, "L2::256B") != strings.Count(ll, "ld.global") {
				t.Fatalf("want %q on every global load in the LLVM IR:\n%s", c.want, ll)
			}
			if v, target := res.Header(); v != llvmemit.L2PrefetchPTXVersion || target != "" {
				t.Fatalf("Header() = %q, %q; want %q and llc's target", v, target, llvmemit.L2PrefetchPTXVersion)
			}
			var et ir.Type = &ir.FloatType{Kind: c.elem}
			if c.elem == "i8" {
				et = ir.I8
			}
			crossCheckArgs(t, src, 4, []*interp.Buffer{filled(t, et, n, 1), zeros(t, et, n)}, []int64{n - 37})
		})
	}
}

// TestL2PrefetchRefused checks the lowering's errors on the attribute: a
// size PTX has no qualifier for, and a target before sm_80.
func TestL2PrefetchRefused(t *testing.T) {
	for _, c := range []struct{ size, target, want string }{
		{"128", "cuda:80", "must be 256 : i32"},
		{"256", "cuda:75", "needs sm_80 or newer (the module is for sm_75)"},
	} {
		src := `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "` + c.target + `", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %lim: i32) {` + inOutBody(512, "f32", "") + `
    %x = tt.load %ia {layoutopt.l2_prefetch_bytes = ` + c.size + ` : i32} : tensor<512x!tt.ptr<f32>, #b>
    tt.store %ja, %x : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}
`
		m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "refused.mlir"})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if _, err := llvmemit.Emit(m); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "refused.mlir:9:") {
			t.Errorf("%s on %s: got %v, want an error at the load saying %q", c.size, c.target, err, c.want)
		}
	}
}
