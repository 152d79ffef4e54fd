package passes_test

import (
	"os"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// TestCSERegionsAndEffects checks what the lit test cannot say as
// briefly: ops with equal regions merge, ops whose regions differ do not,
// and an op of unknown effects between two loads keeps both.
func TestCSERegionsAndEffects(t *testing.T) {
	src := `
tt.func @f(%arg0: tensor<8xf32>, %p: !tt.ptr<f32>) -> (f32, f32, f32, f32, f32) {
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  %1 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  %2 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.maxnumf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  %3 = tt.load %p : !tt.ptr<f32>
  "unknown.op"() : () -> ()
  %4 = tt.load %p : !tt.ptr<f32>
  tt.return %0, %1, %2, %3, %4 : f32, f32, f32, f32, f32
}`
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "in.mlir", AllowUnregistered: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := runParsed(t, m, "builtin.module(cse)")
	if n := strings.Count(out, "tt.reduce\"(") + strings.Count(out, "tt.reduce("); n != 2 {
		t.Errorf("want 2 reductions (add merged, max kept), got %d:\n%s", n, out)
	}
	if n := strings.Count(out, "tt.load"); n != 2 {
		t.Errorf("want both loads around the unknown op, got %d:\n%s", n, out)
	}
}

// TestCSESharedFiles runs -cse on the shared TTGIR kernels: the output
// verifies and a second run changes nothing.
func TestCSESharedFiles(t *testing.T) {
	for _, file := range sharedTTGIR(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := runPipeline(t, file, src, "builtin.module(cse)")
		if d := ir.Verify(m); d.HasErrors() {
			t.Fatalf("%s: %v", file, d)
		}
		once := m.String()
		again := runPipeline(t, file, []byte(once), "builtin.module(cse)").String()
		if again != once {
			t.Errorf("%s: -cse is not idempotent", file)
		}
	}
}

// runParsed runs pipeline on m and returns the printed result.
func runParsed(t *testing.T, m *ir.Module, pipeline string) string {
	t.Helper()
	p, err := passes.ParsePipeline(pipeline)
	if err != nil {
		t.Fatal(err)
	}
	if diags, err := p.Run(m, passes.RunConfig{}); err != nil {
		t.Fatalf("%s: %v\n%v", pipeline, err, diags)
	}
	return m.String()
}
