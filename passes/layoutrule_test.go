package passes_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// The layout passes ask each op for its layout rule: an op that another
// program declares takes part in propagation through its declaration
// alone, and one that declares nothing is an anchor.
func init() {
	ir.MustRegisterDialect(&ir.Dialect{Name: "lrtest", Ops: []*ir.OpDef{
		// Declares that its result has its operand's layout (no traits).
		{Name: "lrtest.same", Operands: []ir.ArgDef{ir.Arg("x")}, Results: []ir.ArgDef{ir.Arg("y")},
			Format: "$x attr-dict `:` type($x)", TypeRules: []ir.TypeRule{ir.Same("y", "x")},
			Layout: &ir.LayoutRule{Kind: ir.LayoutSame}},
		// Declares nothing about layouts.
		{Name: "lrtest.opaque", Operands: []ir.ArgDef{ir.Arg("x")}, Results: []ir.ArgDef{ir.Arg("y")},
			Format: "$x attr-dict `:` type($x)", TypeRules: []ir.TypeRule{ir.Same("y", "x")}},
		// Maps layouts like tt.reduce, through its own functions.
		{Name: "lrtest.sum", Operands: []ir.ArgDef{ir.Arg("x")}, Results: []ir.ArgDef{ir.Arg("y")},
			Attrs:  []ir.AttrDef{{Name: "axis", Kind: ir.I32Attr}},
			Format: "$x attr-dict `:` type($x) `->` type($y)",
			Layout: &ir.LayoutRule{Kind: ir.LayoutMapped,
				Forward: func(op *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
					a, _ := op.IntAttr("axis")
					return attr.SliceOf(int(a), e)
				},
				Backward: func(op *ir.Operation, _ int, e attr.Encoding) attr.Encoding {
					a, _ := op.IntAttr("axis")
					return attr.Unslice(int(a), e)
				}}},
	}})
}

const layoutRuleIR = `#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f32>, #A>, %q: tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>) {
    %0 = tt.load %p : tensor<64x64x!tt.ptr<f32>, #A>
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #A> -> tensor<64x64xf32, #B>
    %2 = lrtest.OP %1 : tensor<64x64xf32, #B>
    %3 = lrtest.sum %2 {axis = 1 : i32} : tensor<64x64xf32, #B> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #B}>>
    %4 = ttg.convert_layout %3 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #B}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #A}>>
    tt.store %q, %4 : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>
    tt.return
  }
}
`

func runRemoveConversions(t *testing.T, src string) string {
	t.Helper()
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "in.mlir"})
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	pl, err := passes.ParsePipeline("builtin.module(tt.func(remove-redundant-conversions))")
	if err != nil {
		t.Fatal(err)
	}
	if d, err := pl.Run(m, passes.RunConfig{}); err != nil || d.HasErrors() {
		t.Fatalf("run: %v %v", d, err)
	}
	var buf bytes.Buffer
	if err := ir.Print(&buf, m, ir.PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestLayoutRuleOfDeclaredOps(t *testing.T) {
	// With the rule, the load's layout flows through lrtest.same and
	// lrtest.sum to the store: no conversion is left.
	out := runRemoveConversions(t, strings.ReplaceAll(layoutRuleIR, "lrtest.OP", "lrtest.same"))
	if n := strings.Count(out, "ttg.convert_layout"); n != 0 {
		t.Errorf("with a layout rule, %d conversions are left:\n%s", n, out)
	}
	if !strings.Contains(out, "lrtest.sum %1 {axis = 1 : i32} : tensor<64x64xf32, #blocked> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>") {
		t.Errorf("lrtest.sum was not given the load's layout:\n%s", out)
	}
	// Without one, lrtest.opaque is an anchor: the conversion into it stays.
	out = runRemoveConversions(t, strings.ReplaceAll(layoutRuleIR, "lrtest.OP", "lrtest.opaque"))
	if n := strings.Count(out, "ttg.convert_layout"); n == 0 {
		t.Errorf("an op without a layout rule was propagated through:\n%s", out)
	}
}
