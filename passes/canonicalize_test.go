package passes_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// sharedTTGIR lists every .ttgir file under ../shared/triton36.
func sharedTTGIR(t *testing.T) []string {
	t.Helper()
	dir := sharedDir(t, "triton36")
	var files []string
	for _, sub := range []string{"ttgir", "prepost"} {
		fs, _ := filepath.Glob(filepath.Join(dir, sub, "*.ttgir"))
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Skip("no .ttgir files")
	}
	return files
}

// typedValues lists the types of every op result and block argument under
// m, in walk order.
func typedValues(m *ir.Module) []ir.Type {
	var out []ir.Type
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		for _, v := range op.Results() {
			out = append(out, v.Type())
		}
		for _, r := range op.Regions() {
			for _, b := range r.Blocks {
				for _, a := range b.Args() {
					out = append(out, a.Type())
				}
			}
		}
		return ir.Advance
	})
	return out
}

// TestCanonicalizeKeepsLayouts runs canonicalize-layouts in both forms
// (and linear followed by named) on every shared file and checks that every
// value keeps its linear layout, that the output re-parses and verifies,
// and that the pass is idempotent.
func TestCanonicalizeKeepsLayouts(t *testing.T) {
	// Each pipeline, and the pass whose output must be its own fixed point.
	pipelines := []struct{ run, again string }{
		{"builtin.module(canonicalize-layouts)", "builtin.module(canonicalize-layouts)"},
		{"builtin.module(canonicalize-layouts{form=linear})", "builtin.module(canonicalize-layouts{form=linear})"},
		{"builtin.module(canonicalize-layouts{form=linear},canonicalize-layouts{form=named})", "builtin.module(canonicalize-layouts)"},
	}
	for _, file := range sharedTTGIR(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, pl := range pipelines {
			name := filepath.Base(file) + "/" + pl.run
			t.Run(name, func(t *testing.T) {
				orig := ir.MustParse(string(src))
				m := runPipeline(t, file, src, pl.run)
				before, after := typedValues(orig), typedValues(m)
				if len(before) != len(after) {
					t.Fatalf("%d values before, %d after", len(before), len(after))
				}
				changed := 0
				for i := range before {
					lb, okb := layoutOfType(t, before[i])
					la, oka := layoutOfType(t, after[i])
					switch {
					case !okb || !oka:
						// No linear layout to compare (a multi-buffered
						// memdesc): the type must not change.
						if !ir.TypesEqual(before[i], after[i]) {
							t.Errorf("value %d: %s without a layout became %s", i, ir.TypeString(before[i]), ir.TypeString(after[i]))
						}
					case !lb.Equal(la):
						t.Errorf("value %d: %s became %s", i, ir.TypeString(before[i]), ir.TypeString(after[i]))
					}
					if !ir.TypesEqual(before[i], after[i]) {
						changed++
					}
				}
				out := m.String()
				m2, diags := ir.ParseString(out, ir.ParseConfig{Filename: "out"})
				if diags.HasErrors() {
					t.Fatalf("output does not re-parse: %v\n%s", diags, out)
				}
				if diags := ir.Verify(m2); diags.HasErrors() {
					t.Fatalf("output does not verify: %v", diags)
				}
				again := runPipeline(t, "out", []byte(out), pl.again)
				if got := again.String(); got != out {
					t.Errorf("not idempotent:\nfirst:\n%s\nsecond:\n%s", out, got)
				}
				if strings.HasSuffix(pl.run, "form=linear})") {
					checkLinearForm(t, after)
				}
				// Named form recovers a named encoding for every #ttg.linear
				// that the linear form made from one (blocked, slice, mma,
				// dot_op here).
				if strings.HasSuffix(pl.run, "form=named})") && !strings.Contains(string(src), "#ttg.linear") && strings.Contains(out, "#ttg.linear") {
					t.Errorf("linear then named form left #ttg.linear:\n%s", out)
				}
				t.Logf("%d of %d value types rewritten", changed, len(before))
			})
		}
	}
}

// checkLinearForm checks the output of form=linear: a named distributed
// encoding may only remain when it is used with several shapes (so that no
// single #ttg.linear denotes it on all of them).
func checkLinearForm(t *testing.T, types []ir.Type) {
	t.Helper()
	shapes := map[string]map[string]bool{}
	for _, ty := range types {
		rt, ok := ty.(*ir.RankedTensorType)
		if !ok {
			continue
		}
		enc := ir.Encoding(rt)
		if enc == nil {
			continue
		}
		switch enc.(type) {
		case *attr.Blocked, *attr.NvidiaMma, *attr.Slice, *attr.DotOperand, *attr.AMDMfma, *attr.AMDWmma:
			k := enc.Format(nil)
			if shapes[k] == nil {
				shapes[k] = map[string]bool{}
			}
			shapes[k][fmt.Sprint(rt.Shape)] = true
		}
	}
	for k, s := range shapes {
		if len(s) < 2 {
			t.Errorf("form=linear left %s, used with the single shape %v", k, s)
		}
	}
}
