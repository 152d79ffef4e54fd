package passes

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/layoutopt/layoutopt/ir"
)

// nestedModules is a chunk with two top-level modules (it parses as one
// module holding both, as TritonGPU/combine.mlir's second chunk does) and a
// module nested inside a module; every function has a conversion that
// does nothing.
const nestedModules = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @a(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.store %arg0, %0 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @b(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.store %arg0, %0 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
  module {
    tt.func @c(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
      %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
      tt.store %arg0, %0 : tensor<128x!tt.ptr<f32>, #blocked>
      tt.return
    }
  }
}
`

func parseNested(t *testing.T) *ir.Module {
	t.Helper()
	m, diags := ir.ParseString(nestedModules, ir.ParseConfig{Filename: "nested.mlir"})
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("verify: %v", d)
	}
	return m
}

// TestImplicitNestingReachesNestedModules: a tt.func pass added to a module
// pipeline (as a pass flag adds it) runs on the functions of nested modules
// too; an explicit tt.func pipeline reaches only direct children.
func TestImplicitNestingReachesNestedModules(t *testing.T) {
	tests := []struct {
		pipeline string
		want     []string
	}{
		{"builtin.module(test-func)", []string{"test-func@a", "test-func@b", "test-func@c"}},
		{"builtin.module(tt.func(test-func))", nil},
		{"builtin.module(builtin.module(tt.func(test-func)))", []string{"test-func@a", "test-func@b"}},
	}
	for _, tt := range tests {
		var log []string
		reg := testPasses(t, &log)
		pl, err := reg.ParsePipeline(tt.pipeline)
		if err != nil {
			t.Fatal(err)
		}
		if diags, err := pl.Run(parseNested(t), RunConfig{}); err != nil || diags.HasErrors() {
			t.Fatalf("%s: err %v, diags %v", tt.pipeline, err, diags)
		}
		if diff := cmp.Diff(tt.want, log); diff != "" {
			t.Errorf("%s: passes ran (-want +got):\n%s", tt.pipeline, diff)
		}
	}
}

// TestRemoveConversionsInNestedModules: the Triton alias as a flag would
// run it removes the conversion of every function, nested or not.
func TestRemoveConversionsInNestedModules(t *testing.T) {
	pl := NewPipeline(ModuleOp)
	if err := pl.AddPass(Lookup("tritongpu-remove-layout-conversions"), ""); err != nil {
		t.Fatal(err)
	}
	m := parseNested(t)
	if diags, err := pl.Run(m, RunConfig{}); err != nil || diags.HasErrors() {
		t.Fatalf("err %v, diags %v", err, diags)
	}
	var b strings.Builder
	if err := ir.Print(&b, m, ir.PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "ttg.convert_layout"); n != 0 {
		t.Errorf("%d conversions left:\n%s", n, b.String())
	}
}
