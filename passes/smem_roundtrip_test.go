package passes_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/smem"
)

// sharedKernels returns the shared Triton 3.6 kernels (ttgir and prepost),
// by base name, or skips.
func sharedKernels(t *testing.T) (names []string, srcs [][]byte) {
	t.Helper()
	dir, missing := findShared(t, "triton36")
	if missing != "" {
		t.Skip(missing)
	}
	fs, _ := filepath.Glob(filepath.Join(dir, "*", "*.ttgir"))
	for _, f := range fs {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f))
		srcs = append(srcs, src)
	}
	if len(names) == 0 {
		t.Skip("no shared kernels")
	}
	return names, srcs
}

// undoRoundTrips turns every local_load of a local_alloc with an operand
// back into a ttg.convert_layout of that operand, checking that the memdesc
// has the tensor's shape and element type, and erases the allocs left
// unused. It returns how many it undid.
func undoRoundTrips(t *testing.T, name string, m *ir.Module) int {
	t.Helper()
	var loads []*ir.Operation
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "ttg.local_load" {
			if a := op.Operand(0).DefiningOp(); a != nil && a.Name() == "ttg.local_alloc" && a.NumOperands() == 1 {
				loads = append(loads, op)
			}
		}
		return ir.Advance
	})
	for _, ld := range loads {
		alloc := ld.Operand(0).DefiningOp()
		src := alloc.Operand(0)
		md := alloc.Result(0).Type().(*ir.MemDescType)
		rt := src.Type().(*ir.RankedTensorType)
		if !ir.TypesEqual(md.Elem, rt.Elem) || len(md.Shape) != len(rt.Shape) || md.Mutable {
			t.Errorf("%s: round trip through %s of %s", name, ir.TypeString(md), ir.TypeString(rt))
		}
		cvt := ir.NewOperation("ttg.convert_layout", []*ir.Value{src}, []ir.Type{ld.Result(0).Type()}, nil, 0)
		ld.Block().InsertBefore(ld, cvt)
		ld.Result(0).ReplaceAllUsesWith(cvt.Result(0))
		if err := ld.Erase(); err != nil {
			t.Fatal(err)
		}
	}
	var allocs []*ir.Operation
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "ttg.local_alloc" && op.NumOperands() == 1 && op.Result(0).NumUses() == 0 {
			allocs = append(allocs, op)
		}
		return ir.Advance
	})
	for _, a := range allocs {
		if err := a.Erase(); err != nil {
			t.Fatal(err)
		}
	}
	return len(loads)
}

// needsShared counts the conversions Triton lowers through shared memory
// within a CTA.
func needsShared(t *testing.T, m *ir.Module) int {
	t.Helper()
	n := 0
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() != "ttg.convert_layout" {
			return ir.Advance
		}
		se, de := ir.Encoding(op.Operand(0).Type()), ir.Encoding(op.Result(0).Type())
		rt := op.Operand(0).Type().(*ir.RankedTensorType)
		shape := make([]int, len(rt.Shape))
		for i, s := range rt.Shape {
			shape[i] = int(s)
		}
		sl, err1 := attr.Linear(se, shape)
		dl, err2 := attr.Linear(de, shape)
		if err1 != nil || err2 != nil {
			return ir.Advance
		}
		c, err := smem.Classify(sl, dl)
		if err != nil {
			t.Fatal(err)
		}
		if c.Kind == smem.SharedMemory && !c.CrossCTA {
			n++
		}
		return ir.Advance
	})
	return n
}

// TestInsertSharedRoundTrips runs the pass on the shared kernels with both
// swizzles: the result verifies (the manager checks), prints and re-parses
// to the same text, keeps only conversions that need no shared memory, and
// computes what the input computes (with each round trip read back as a
// conversion, the semantic check of remove-redundant-conversions).
func TestInsertSharedRoundTrips(t *testing.T) {
	names, srcs := sharedKernels(t)
	total := 0
	for i, name := range names {
		before, diags := ir.Parse(srcs[i], ir.ParseConfig{Filename: name})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", name, diags)
		}
		want := needsShared(t, before)
		// Round trips the kernel already has are read back as conversions
		// on both sides.
		pre := undoRoundTrips(t, name, before)
		for _, swz := range []string{"optimal", "none"} {
			after := runPipeline(t, name, srcs[i], "builtin.module(insert-shared-round-trips{swizzle="+swz+"})")
			text := after.String()
			again, diags := ir.ParseString(text, ir.ParseConfig{Filename: name + ".out"})
			if diags.HasErrors() {
				t.Fatalf("%s (%s): the output does not re-parse: %v\n%s", name, swz, diags, text)
			}
			if d := ir.Verify(again); d.HasErrors() {
				t.Fatalf("%s (%s): the re-parsed output does not verify: %v", name, swz, d)
			}
			if again.String() != text {
				t.Errorf("%s (%s): printing the re-parsed output changes it", name, swz)
			}
			if n := needsShared(t, after); n != 0 {
				t.Errorf("%s (%s): %d conversions through shared memory left", name, swz, n)
			}
			if n := undoRoundTrips(t, name, again) - pre; n != want {
				t.Errorf("%s (%s): %d round trips, want %d", name, swz, n, want)
			}
			sameComputation(t, name+" ("+swz+")", before, again)
			if swz == "optimal" {
				total += want
			}
		}
	}
	t.Logf("%d round trips inserted in %d kernels", total, len(names))
	if total == 0 {
		t.Error("no round trip inserted")
	}
}
