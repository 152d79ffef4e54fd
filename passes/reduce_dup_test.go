package passes_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/lit"
	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/proc"
)

// TestTritonReduceDataDuplication runs Triton 3.6's own lit test of the
// pass, unchanged but for triton-opt → layout-opt in its RUN line, with
// package lit when ../shared is present. (The conformance package measures
// only files that run no pass.)
func TestTritonReduceDataDuplication(t *testing.T) {
	dir, missing := findShared(t, "triton36")
	if missing != "" {
		t.Skip(missing)
	}
	src, err := os.ReadFile(filepath.Join(dir, "lit", "TritonGPU", "reduce-data-duplication.mlir"))
	if err != nil {
		t.Skip(err)
	}
	if !strings.HasPrefix(string(src), "// RUN: triton-opt %s -split-input-file -tritongpu-reduce-data-duplication | FileCheck %s\n") {
		t.Fatalf("the RUN line changed: %.100q", src)
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "lit.cfg"), []byte("name = triton-reduce-data-duplication\nsuffixes = .mlir\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "triton-opt", "layout-opt", 1)
	if err := os.WriteFile(filepath.Join(tmp, "reduce-data-duplication.mlir"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := lit.Builtins()
	tools["layout-opt"] = optdriver.Main
	tools["FileCheck"] = filecheck.Main
	var out bytes.Buffer
	p := &proc.Proc{Args: []string{"-v", tmp}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}
	if rc := lit.Main(p, tools); rc != 0 {
		t.Fatalf("lit: exit %d\n%s", rc, out.String())
	}
}

// TestReduceDataDuplicationKeepsMeaning runs the pass on the shared kernels:
// the output re-parses, and with each new round trip read back as a
// conversion it computes what the input does.
func TestReduceDataDuplicationKeepsMeaning(t *testing.T) {
	names, srcs := sharedKernels(t)
	for i, name := range names {
		before, diags := ir.Parse(srcs[i], ir.ParseConfig{Filename: name})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", name, diags)
		}
		pre := undoRoundTrips(t, name, before)
		after := runPipeline(t, name, srcs[i], "builtin.module(tritongpu-reduce-data-duplication)")
		again, diags := ir.ParseString(after.String(), ir.ParseConfig{Filename: name + ".out"})
		if diags.HasErrors() {
			t.Fatalf("%s: the output does not re-parse: %v", name, diags)
		}
		if n := undoRoundTrips(t, name, again) - pre; n < 0 {
			t.Errorf("%s: %d round trips fewer", name, -n)
		}
		sameComputation(t, name, before, again)
	}
}
