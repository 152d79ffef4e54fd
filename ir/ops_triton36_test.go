package ir

import (
	"regexp"
	"strings"
	"testing"
)

// triton36Prelude declares the encodings used by TestTriton36OpSyntax.
const triton36Prelude = `#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
`

// triton36Funcs are functions of Triton 3.6 ops in their custom form, one
// op a line, as Triton 3.6 prints them.
var triton36Funcs = []string{
	`  tt.func @dot_scaled(%a: tensor<128x64xf8E4M3FN, #blocked>, %b: tensor<64x128xf8E4M3FN, #blocked>, %c: tensor<128x128xf32, #blocked>, %as: tensor<128x2xi8, #blocked>, %bs: tensor<128x2xi8, #blocked>) {
    %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> -> tensor<128x128xf32, #blocked>
    %1 = tt.dot_scaled %a, %b scale %bs, %c lhs = e4m3 rhs = e5m2 {fastMath = true} : tensor<128x64xf8E4M3FN, #blocked> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> -> tensor<128x128xf32, #blocked>
    %2 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked> * tensor<64x128xf8E4M3FN, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return
  }
`,
	`  tt.func @memory(%t: tensor<128x128xf32, #blocked>, %c: i1, %i: i32, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %buf: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    %0 = ttg.memdesc_subslice %buf[1, 0, 0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable, 2x64x64>
    %1 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 4096 : i32} : !tt.ptr<i8>
    %result = ttng.tmem_alloc %t : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
    %result_0, %token = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %2 = ttng.tmem_store %t, %result_0[%token], %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %result_1, %token_2 = ttng.tmem_load %result_0[%2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
    %result_3 = ttng.tmem_load %result : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x128xf32, #blocked>
    ttng.tmem_store %t, %result_0, %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %3 = ttng.tmem_store %t, %result_0[], %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %c : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.wait_barrier %bar, %i : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.wait_barrier %bar, %i, %c deps %buf : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    gpu.barrier
    %4 = ub.poison : tensor<16x16xf32, #blocked>
    tt.return
  }
`,
}

// opNamePattern finds the op name on a line of custom-form IR.
var opNamePattern = regexp.MustCompile(`[a-z_]+\.[a-z_.]+`)

// TestTriton36OpSyntax checks the custom form of each Triton 3.6 op of
// ops_tt_more.go and ops_ttng.go: the function up to and including the op
// prints back exactly as written, verifies, and reads back from its
// generic form.
func TestTriton36OpSyntax(t *testing.T) {
	// Each case is a function of triton36Funcs cut after one of its ops.
	type opCase struct{ name, fn string }
	var cases []opCase
	for _, fn := range triton36Funcs {
		lines := strings.SplitAfter(fn, "\n")
		head, ops := lines[0], lines[1:len(lines)-3] // drop tt.return, "}" and the empty tail
		for i, op := range ops {
			name := opNamePattern.FindString(op)
			cases = append(cases, opCase{name, head + strings.Join(ops[:i+1], "") + "    tt.return\n  }\n"})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := triton36Prelude + c.fn + "}\n"
			m, d := ParseString(src, ParseConfig{Filename: "t.mlir"})
			if d.HasErrors() {
				t.Fatal(d)
			}
			// Aliases the case does not use are not printed.
			out := keep(m)
			if !strings.HasSuffix(out, c.fn+"}\n") {
				t.Errorf("custom form:\n%s", firstDiff(c.fn, out[strings.Index(out, "  tt.func"):]))
			}
			if d := Verify(m); len(d) > 0 {
				t.Errorf("verify: %v", d)
			}
			var b strings.Builder
			Print(&b, m, PrintConfig{Generic: true, KeepNames: true})
			m2, d := ParseString(b.String(), ParseConfig{Filename: "g.mlir"})
			if d.HasErrors() {
				t.Fatalf("generic: %v\n%s", d, b.String())
			}
			if out2 := keep(m2); out2 != out {
				t.Errorf("via generic:\n%s", firstDiff(out, out2))
			}
		})
	}
}

// TestDotMaxNumImpreciseAcc checks that tt.dot keeps maxNumImpreciseAcc in
// its attribute dictionary (it has no keyword in the assemblyFormat) and
// drops the default 0.
func TestDotMaxNumImpreciseAcc(t *testing.T) {
	const head = "tt.func @f(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {\n"
	const types = " : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>\n  tt.return\n}\n"
	cases := []struct{ in, want string }{
		{"%0 = tt.dot %a, %b, %c {maxNumImpreciseAcc = 32 : i32}", "%0 = tt.dot %a, %b, %c {maxNumImpreciseAcc = 32 : i32}"},
		{"%0 = tt.dot %a, %b, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}", "%0 = tt.dot %a, %b, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}"},
		{"%0 = tt.dot %a, %b, %c {maxNumImpreciseAcc = 0 : i32}", "%0 = tt.dot %a, %b, %c"},
		{"%0 = tt.dot %a, %b, %c, inputPrecision = ieee", "%0 = tt.dot %a, %b, %c"},
	}
	for _, c := range cases {
		m, d := ParseString(head+"  "+c.in+types, ParseConfig{Filename: "t.mlir"})
		if d.HasErrors() {
			t.Errorf("%s: %v", c.in, d)
			continue
		}
		if got := keep(m); !strings.Contains(got, "\n    "+c.want+" : tensor") {
			t.Errorf("%s: got\n%s", c.in, got)
		}
	}
}

// TestLoadFromTritonGeneric checks that tt.load and tt.store written in
// generic form as Triton writes them (every default-valued property and
// operandSegmentSizes) print in the custom form without them.
func TestLoadFromTritonGeneric(t *testing.T) {
	const src = `tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %v: tensor<16xf32>) {
  %0 = "tt.load"(%p, %m) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xi1>) -> tensor<16xf32>
  %1 = "tt.load"(%p) <{boundaryCheck = array<i32>, cache = 2 : i32, evict = 1 : i32, isVolatile = true, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>) -> tensor<16xf32>
  "tt.store"(%p, %v) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 3 : i32}> : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> ()
  tt.return
}
`
	m, d := ParseString(src, ParseConfig{Filename: "t.mlir"})
	if d.HasErrors() {
		t.Fatal(d)
	}
	out := keep(m)
	for _, want := range []string{
		"%0 = tt.load %p, %m : tensor<16x!tt.ptr<f32>>\n",
		"%1 = tt.load %p cacheModifier = ca {isVolatile = true} : tensor<16x!tt.ptr<f32>>\n",
		"tt.store %p, %v evictionPolicy = evict_last : tensor<16x!tt.ptr<f32>>\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestTMEMResultNames checks that results of ttng.tmem_alloc and
// ttng.tmem_load without names of their own print as %result and %token,
// uniqued as MLIR does, as Triton's getAsmResultNames names them.
func TestTMEMResultNames(t *testing.T) {
	const src = "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n" +
		"tt.func @f() {\n" +
		"  %0:2 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)\n" +
		"  %1:2 = ttng.tmem_load %0#0[%0#1] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32>\n" +
		"  tt.return\n}\n"
	m, d := ParseString(src, ParseConfig{Filename: "t.mlir"})
	if d.HasErrors() {
		t.Fatal(d)
	}
	out := keep(m)
	for _, want := range []string{
		"    %result, %token = ttng.tmem_alloc : ",
		"    %result_0, %token_1 = ttng.tmem_load %result[%token] : ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
