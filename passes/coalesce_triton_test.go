package passes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/passes"
)

// Triton's .post kernels of testdata/prepost went through Triton's coalesce
// and remove-layout-conversions: running ours on them again must give every
// global load and store the layout Triton gave it (compared as
// LinearLayouts). All 126 do; a wrong tie-break of the order (3-D pointers
// with two dims of contiguity 1) or the induction variable's divisibility
// missing from the axis analysis (loads in loops) each broke several.
func TestCoalesceReproducesTriton(t *testing.T) {
	files, err := filepath.Glob("testdata/prepost/*.post.ttgir")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	p, err := passes.ParsePipeline("builtin.module(coalesce,tt.func(remove-redundant-conversions))")
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := ir.MustParse(string(src))
		before := memLayouts(t, m)
		if _, err := p.Run(m, passes.RunConfig{}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		after := memLayouts(t, m)
		equal := len(before) == len(after)
		for i := 0; equal && i < len(before); i++ {
			equal = before[i].Equal(after[i])
		}
		if !equal {
			t.Errorf("%s: the memory layouts differ from Triton's", filepath.Base(f))
			continue
		}
		same++
	}
	t.Logf("%d of %d kernels reproduced", same, len(files))
}

// memLayouts is the layout of the pointers of every tt.load and tt.store of
// m with a tensor of pointers, in program order.
func memLayouts(t *testing.T, m *ir.Module) []linear.Layout {
	var out []linear.Layout
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if (op.Name() != "tt.load" && op.Name() != "tt.store") || op.NumOperands() == 0 {
			return ir.Advance
		}
		rt, ok := op.Operand(0).Type().(*ir.RankedTensorType)
		if !ok || !strings.Contains(ir.TypeString(rt.Elem), "ptr") {
			return ir.Advance
		}
		ll, err := attr.Linear(ir.Encoding(rt), ir.IntShape(rt))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ll)
		return ir.Advance
	})
	return out
}
