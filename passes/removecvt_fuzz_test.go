package passes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// FuzzLayoutPasses runs both layout passes on any input that parses and
// verifies: they must not panic, must leave IR that verifies, and
// remove-redundant-conversions must keep what the program computes while
// canonicalize-layouts keeps every value's layout. The seeds are the lit
// test inputs of the passes.
func FuzzLayoutPasses(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "test", "passes", "*.mlir"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, chunk := range strings.Split(string(src), "// -----") {
			f.Add(chunk)
		}
	}
	remove, err := passes.ParsePipeline("builtin.module(remove-redundant-conversions)")
	if err != nil {
		f.Fatal(err)
	}
	canon, err := passes.ParsePipeline("builtin.module(canonicalize-layouts{form=linear},canonicalize-layouts)")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "fuzz"})
		if diags.HasErrors() || ir.Verify(m).HasErrors() {
			return
		}
		before := m.Clone()
		if diags, err := remove.Run(m, passes.RunConfig{}); err != nil {
			t.Fatalf("remove-redundant-conversions: %v\n%v\ninput:\n%s", err, diags, src)
		}
		sameComputation(t, "fuzz", before, m)

		c := before.Clone()
		if diags, err := canon.Run(c, passes.RunConfig{}); err != nil {
			t.Fatalf("canonicalize-layouts: %v\n%v\ninput:\n%s", err, diags, src)
		}
		b, a := typedValues(before), typedValues(c)
		if len(a) != len(b) {
			t.Fatalf("canonicalize-layouts changed the number of values")
		}
		for i := range b {
			lb, okb := layoutOfType(t, b[i])
			la, oka := layoutOfType(t, a[i])
			if okb && oka && !lb.Equal(la) {
				t.Fatalf("canonicalize-layouts changed %s into %s", ir.TypeString(b[i]), ir.TypeString(a[i]))
			}
		}
	})
}

// FuzzCoalesceSpecialize runs coalesce, specialize-divisibility,
// test-print-alignment and l2-prefetch on any input that parses and
// verifies: none may panic (a located error, such as a module without
// ttg.num-warps, is fine), each leaves IR that verifies, coalesce keeps
// what the program computes and l2-prefetch changes nothing but its
// attribute. The seeds are their lit test inputs.
func FuzzCoalesceSpecialize(f *testing.F) {
	for _, name := range []string{"coalesce.mlir", "specialize-divisibility.mlir", "test-print-alignment.mlir", "l2-prefetch.mlir", "order-programs.mlir"} {
		src, err := os.ReadFile(filepath.Join("..", "test", "passes", name))
		if err != nil {
			f.Fatal(err)
		}
		for _, chunk := range strings.Split(string(src), "// -----") {
			f.Add(chunk)
		}
	}
	var pipes []*passes.Pipeline
	for _, text := range []string{"builtin.module(coalesce)", "builtin.module(specialize-divisibility)", "builtin.module(test-print-alignment)",
		"builtin.module(tt.func(l2-prefetch))"} {
		p, err := passes.ParsePipeline(text)
		if err != nil {
			f.Fatal(err)
		}
		pipes = append(pipes, p)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "fuzz"})
		if diags.HasErrors() || ir.Verify(m).HasErrors() {
			return
		}
		for i, p := range pipes {
			c := m.Clone()
			diags, err := p.Run(c, passes.RunConfig{})
			if err != nil {
				if strings.Contains(err.Error(), "panic") || strings.Contains(err.Error(), "does not verify") {
					t.Fatalf("%s: %v\n%v\ninput:\n%s", p, err, diags, src)
				}
				continue
			}
			switch i {
			case 0: // the versioned kernel has two bodies: TestSpecializeDivisibilityTranspose runs them
				sameComputation(t, "fuzz", m, c)
			case 3: // l2-prefetch only adds its attribute to loads
				c.Op.Walk(func(op *ir.Operation) ir.WalkResult {
					if op.Name() == "tt.load" {
						op.RemoveAttr(passes.L2PrefetchAttr)
					}
					return ir.Advance
				})
				if c.String() != m.String() {
					t.Fatalf("l2-prefetch changed more than its attribute:\n%s\ninput:\n%s", c, src)
				}
			}
		}
	})
}
