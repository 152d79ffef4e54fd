package passes_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/passes"
)

// sharedDir returns ../shared/sub next to the module root, skipping the
// test when it is absent.
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	p, missing := findShared(t, sub)
	if missing != "" {
		t.Skip(missing)
	}
	return p
}

// findShared returns ../shared/sub next to the module root, or says why
// there is none.
func findShared(_ testing.TB, sub string) (path, missing string) {
	dir := testenv.SharedDir()
	if dir == "" {
		return "", "../shared not present"
	}
	p := filepath.Join(dir, sub)
	if _, err := os.Stat(p); err != nil {
		return "", p + " not available"
	}
	return p, ""
}

// runPipeline parses src, runs the pipeline text on it (the verifier runs
// after every pass) and returns the module.
func runPipeline(t testing.TB, name string, src []byte, pipeline string) *ir.Module {
	t.Helper()
	m, diags := ir.Parse(src, ir.ParseConfig{Filename: name})
	if diags.HasErrors() {
		t.Fatalf("parse %s: %v", name, diags)
	}
	p, err := passes.ParsePipeline(pipeline)
	if err != nil {
		t.Fatalf("pipeline %q: %v", pipeline, err)
	}
	if diags, err := p.Run(m, passes.RunConfig{}); err != nil {
		t.Fatalf("%s on %s: %v\n%v", pipeline, name, err, diags)
	}
	return m
}

func countOps(m *ir.Module, name string) int {
	n := 0
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == name {
			n++
		}
		return ir.Advance
	})
	return n
}

// anchorSignature lists, in program order, every anchor op (function,
// expensive load, store, dot, shared-memory and atomic ops) with the linear
// layout of each tensor operand, result and argument.
type anchorSig struct {
	name    string
	layouts []linear.Layout
}

func isAnchor(op *ir.Operation, threads int) bool {
	switch op.Name() {
	case "tt.func", "tt.store", "tt.dot", "ttng.warp_group_dot", "ttg.local_alloc", "ttg.local_load",
		"ttg.local_store", "tt.atomic_rmw", "tt.atomic_cas", "tt.descriptor_load", "tt.descriptor_store":
		return true
	case "tt.load":
		s, ok := ir.ShapeOf(op.Operand(0).Type())
		if !ok {
			return true
		}
		n := int64(1)
		for _, x := range s {
			n *= x
		}
		return n >= int64(threads)
	}
	return false
}

func anchorSignature(t *testing.T, m *ir.Module) []anchorSig {
	t.Helper()
	threads := int(m.IntAttr("ttg.num-warps", 4) * m.IntAttr("ttg.threads-per-warp", 32))
	var sigs []anchorSig
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if !isAnchor(op, threads) {
			return ir.Advance
		}
		var types []ir.Type
		if op.Name() == "tt.func" {
			for _, a := range op.Region(0).Entry().Args() {
				types = append(types, a.Type())
			}
		} else if op.Name() == "ttg.local_alloc" || op.Name() == "ttg.local_store" {
			// The register tensor stored may come in any layout: Triton's
			// clean-up folds a conversion of it into the op
			// (CanonicalizeConvertFromAlloc, ...FromLocalStore).
			for _, ty := range append(op.OperandTypes(), op.ResultTypes()...) {
				if _, ok := ty.(*ir.RankedTensorType); !ok {
					types = append(types, ty)
				}
			}
		} else {
			types = append(op.OperandTypes(), op.ResultTypes()...)
		}
		sig := anchorSig{name: op.Name()}
		for _, ty := range types {
			if l, ok := layoutOfType(t, ty); ok {
				sig.layouts = append(sig.layouts, l)
			}
		}
		sigs = append(sigs, sig)
		return ir.Advance
	})
	return sigs
}

// layoutOfType returns the linear layout of a tensor or memdesc type (the
// allocation shape for memdescs).
func layoutOfType(t testing.TB, ty ir.Type) (linear.Layout, bool) {
	t.Helper()
	enc := ir.Encoding(ty)
	if enc == nil {
		return linear.Layout{}, false
	}
	l, ok := enc.(interface {
		ToLinear([]int) (linear.Layout, error)
	})
	if !ok {
		return linear.Layout{}, false
	}
	s, _ := ir.ShapeOf(ty)
	if md, ok := ty.(*ir.MemDescType); ok && md.AllocShape != nil {
		s = md.AllocShape
	}
	shape := make([]int, len(s))
	for i, x := range s {
		shape[i] = int(x)
	}
	ll, err := l.ToLinear(shape)
	if err != nil {
		return linear.Layout{}, false // e.g. a multi-buffered memdesc
	}
	return ll, true
}

func sameAnchors(t *testing.T, name string, before, after []anchorSig) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("%s: %d anchors before, %d after", name, len(before), len(after))
		return
	}
	for i := range before {
		b, a := before[i], after[i]
		if b.name != a.name || len(b.layouts) != len(a.layouts) {
			t.Errorf("%s: anchor %d: %s with %d tensors became %s with %d", name, i, b.name, len(b.layouts), a.name, len(a.layouts))
			continue
		}
		for k := range b.layouts {
			if !b.layouts[k].Equal(a.layouts[k]) {
				t.Errorf("%s: anchor %d (%s): tensor %d changed layout", name, i, b.name, k)
			}
		}
	}
}

// TestRemoveConversionsPrePost is the measure of the pass: on every
// NAME.pre.ttgir of ../shared/triton36/prepost it must leave no more
// ttg.convert_layout ops than Triton's NAME.post.ttgir, verify, and keep
// every anchor's layouts.
func TestRemoveConversionsPrePost(t *testing.T) {
	dir := sharedDir(t, "triton36/prepost")
	pres, _ := filepath.Glob(filepath.Join(dir, "*.pre.ttgir"))
	if len(pres) == 0 {
		t.Skip("no pre/post pairs")
	}
	for _, pre := range pres {
		name := strings.TrimSuffix(filepath.Base(pre), ".pre.ttgir")
		t.Run(name, func(t *testing.T) {
			post := filepath.Join(dir, name+".post.ttgir")
			postSrc, err := os.ReadFile(post)
			if err != nil {
				t.Skipf("no %s", post)
			}
			preSrc, err := os.ReadFile(pre)
			if err != nil {
				t.Fatal(err)
			}
			orig := ir.MustParse(string(preSrc))
			m := runPipeline(t, pre, preSrc, "builtin.module(remove-redundant-conversions)")
			// The output must print, re-parse and verify.
			out := m.String()
			m2, diags := ir.ParseString(out, ir.ParseConfig{Filename: name + ".out"})
			if diags.HasErrors() {
				t.Fatalf("output does not re-parse: %v\n%s", diags, out)
			}
			if diags := ir.Verify(m2); diags.HasErrors() {
				t.Fatalf("output does not verify: %v\n%s", diags, out)
			}
			ours := countOps(m2, "ttg.convert_layout")
			theirs := countOps(ir.MustParse(string(postSrc)), "ttg.convert_layout")
			t.Logf("%s: convert_layout ops: pre %d, ours %d, Triton %d", name, countOps(orig, "ttg.convert_layout"), ours, theirs)
			if ours > theirs {
				t.Errorf("%s: %d convert_layout ops left, Triton leaves %d\n%s", name, ours, theirs, out)
			}
			sameAnchors(t, name, anchorSignature(t, orig), anchorSignature(t, m2))
			// The aliases are regenerated as MLIR prints them, so the
			// layouts left carry the names Triton's output gives them.
			if got, want := attrAliasDefs(out), attrAliasDefs(string(postSrc)); !slices.Equal(got, want) {
				t.Errorf("%s: alias definitions\n%s\nwant Triton's\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// attrAliasDefs returns the layout alias definitions ("#name = #ttg...")
// at the top of a printed module, in order.
func attrAliasDefs(text string) []string {
	var defs []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") && strings.Contains(line, " = #ttg.") {
			defs = append(defs, line)
		}
	}
	return defs
}

// TestRemoveConversionsStable runs the pass on Triton's own outputs (the
// .ttgir files and every NAME.post.ttgir): it must not add conversions, and
// its output must be a fixed point.
func TestRemoveConversionsStable(t *testing.T) {
	for _, file := range sharedTTGIR(t) {
		if strings.HasSuffix(file, ".pre.ttgir") {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			const pl = "builtin.module(remove-redundant-conversions)"
			once := runPipeline(t, file, src, pl)
			if got, was := countOps(once, "ttg.convert_layout"), countOps(ir.MustParse(string(src)), "ttg.convert_layout"); got > was {
				t.Errorf("%d conversions became %d", was, got)
			}
			out := once.String()
			if again := runPipeline(t, "once", []byte(out), pl).String(); again != out {
				t.Errorf("not a fixed point:\n%s\nthen:\n%s", out, again)
			}
		})
	}
}
