package passes

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// tritonTranspose is Triton's transpose_64x64_f16_sm80_w4 (compiled without
// tt.divisibility; a copy of ../shared's is in examples/), without its
// locations.
func tritonTranspose(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../examples/ttgir/transpose_64x64_f16_sm80_w4.ttgir")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Split(string(src), "#loc1 = loc(unknown)")[0]
	s = regexp.MustCompile(`(?m)^#loc.*\n`).ReplaceAllString(s, "")
	return regexp.MustCompile(` loc\((?:[^()]|\([^()]*\))*\)`).ReplaceAllString(s, "")
}

// The transpose is specialized for x, y, sxm and sym divisible by 16 (M
// and N, unused, are not tested), and the versioned kernel computes what
// the original does on both sides of the run-time test: strides divisible
// by 16 (128, 144) take the specialized body, 136 and 130 the original.
func TestSpecializeDivisibilityTranspose(t *testing.T) {
	src := tritonTranspose(t)
	m, d := ir.ParseString(src, ir.ParseConfig{})
	if d.HasErrors() {
		t.Fatal(d)
	}
	decs, err := SpecializeDivisibility(m, 16)
	if err != nil {
		t.Fatal(err)
	}
	if len(decs) != 1 || !slices.Equal(decs[0].Args, []string{"%x", "%y", "%sxm", "%sym"}) ||
		decs[0].Accesses != 64 || decs[0].Specialized != 8 {
		t.Fatalf("decisions %v", decs)
	}
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("after the pass: %v\n%s", d, m)
	}
	out := m.String()
	for _, want := range []string{"sizePerThread = [1, 8]", "scf.if", "tt.int_to_ptr"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	orig, _ := ir.ParseString(src, ir.ParseConfig{})
	f16 := &ir.FloatType{Kind: "f16"}
	run := func(m *ir.Module, stride int) []float64 {
		const n = 128
		x, _ := interp.NewBuffer(f16, n*stride)
		y, _ := interp.NewBuffer(f16, n*stride)
		for i := range x.Len() {
			x.SetFloat(i, float64(i%2048)-1024)
		}
		args := []interp.Arg{interp.BufArg(x), interp.BufArg(y), interp.IntArg(n), interp.IntArg(n),
			interp.IntArg(int64(stride)), interp.IntArg(int64(stride))}
		if err := interp.Run(m, "transpose_kernel", args, [3]int{2, 2, 1}); err != nil {
			t.Fatal(err)
		}
		vals := make([]float64, y.Len())
		for i := range vals {
			vals[i] = y.Float(i)
		}
		return vals
	}
	for _, stride := range []int{128, 136, 130, 144} {
		want := run(orig, stride)
		if got := run(m, stride); !slices.Equal(got, want) {
			t.Errorf("stride %d: the versioned kernel's output differs from the original's", stride)
		}
	}
}

// Kernels the pass leaves alone, and why.
func TestSpecializeDivisibilityLeavesAlone(t *testing.T) {
	for _, c := range []struct{ name, src, why string }{
		{"annotated", `
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tt.load %a : tensor<512x!tt.ptr<f32>, #b>
    tt.store %a, %v : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}`, "every pointer and integer argument has tt.divisibility"},
		// A gather: the offsets are loaded, so no assumption on the
		// pointer widens the indexed access.
		{"gather", `
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %i: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %is = tt.splat %i : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %ia = tt.addptr %is, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    %idx = tt.load %ia : tensor<128x!tt.ptr<i32>, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %a = tt.addptr %s, %idx : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #b>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}`, "assuming the arguments divisible by 16 would not widen an access (3 global accesses per thread)"},
		{"private", `
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func private @k(%p: !tt.ptr<f32>) {
    tt.return
  }
}`, "not a kernel: private"},
	} {
		m, d := ir.ParseString(c.src, ir.ParseConfig{})
		if d.HasErrors() {
			t.Fatalf("%s: %v", c.name, d)
		}
		before := m.String()
		decs, err := SpecializeDivisibility(m, 16)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(decs) != 1 || len(decs[0].Args) != 0 || decs[0].Why != c.why {
			t.Errorf("%s: decisions %v, want %q", c.name, decs, c.why)
		}
		if m.String() != before {
			t.Errorf("%s: the module changed", c.name)
		}
	}
}
