package conformance

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitChunks(t *testing.T) {
	src := "a\n// -----\nb\n// ------\nc\n// ----\n// -----\nd"
	got := SplitChunks(src)
	want := []Chunk{
		{Index: 1, Text: "a\n", StartLine: 1},
		{Index: 2, Text: "\nb\n// ------\nc\n// ----\n", StartLine: 2},
		{Index: 3, Text: "\nd", StartLine: 7},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if p := got[2].Padded(); p != "\n\n\n\n\n\n\nd" {
		t.Errorf("padded: %q", p)
	}
}

func TestParseRuns(t *testing.T) {
	runs := parseRuns("// RUN: triton-opt %s -split-input-file \\\n// RUN:   -tritongpu-remove-layout-conversions -tritongpu-prefetch | FileCheck %s --check-prefixes=A,B\n" +
		"// CHECK-RUN: not a run line\n// RUN: env X=1 triton-opt %s\n// RUN: triton-opt %s 2>&1 | FileCheck %s\n")
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	r := runs[0]
	if !r.OK || !r.InputIsFile || !r.Split || r.Line != 1 ||
		!cmp.Equal(r.Passes, []string{"tritongpu-remove-layout-conversions"}) || !cmp.Equal(r.Missing, []string{"tritongpu-prefetch"}) {
		t.Errorf("run 1: %+v", r)
	}
	if got := CheckPrefixes(r.Check); !cmp.Equal(got, []string{"A", "B"}) {
		t.Errorf("prefixes %v", got)
	}
	if runs[1].OK {
		t.Errorf("env must be out of scope: %+v", runs[1])
	}
	if r := runs[2]; !r.OK || !r.MergeStderr || !cmp.Equal(r.Opt, []string{"%s"}) {
		t.Errorf("2>&1 after triton-opt merges stderr: %+v", r)
	}
	if _, ok := splitPipeline("triton-opt %s > out"); ok {
		t.Errorf("other redirections must be out of scope")
	}
}

func TestLabelBlocks(t *testing.T) {
	text := "// CHECK: #pre\nx\n// CHECK-LABEL: @f\n// CHECK: a\n// CHECK-LABEL: @g\n// CHECK: b\n"
	bs := LabelBlocks(text, []string{"CHECK"})
	if len(bs) != 2 {
		t.Fatalf("%d blocks", len(bs))
	}
	if want := "// CHECK: #pre\nx\n// CHECK-LABEL: @f\n// CHECK: a\n\n\n"; bs[0].Check != want || bs[0].Line != 3 {
		t.Errorf("block 1: %+v", bs[0])
	}
	// The earlier label stays: FileCheck matches the labels in order, so
	// @g is looked for after @f's match.
	if want := "// CHECK: #pre\nx\n// CHECK-LABEL: @f\n\n// CHECK-LABEL: @g\n// CHECK: b\n"; bs[1].Check != want || bs[1].Line != 5 {
		t.Errorf("block 2: %+v", bs[1])
	}
	// A global variable defined in an earlier block stays defined: the
	// block keeps its definition and the directives from that block's
	// label down to it (as TritonGPU/ops.mlir's [[$LINEAR:...]] needs).
	text = "// CHECK-LABEL: @f\n// CHECK: a\n// CHECK-DAG: [[$L:#.*]] = x\n// CHECK: [[$L]]\n// CHECK-LABEL: @g\n// CHECK: [[$L]]\n"
	bs = LabelBlocks(text, []string{"CHECK"})
	if want := "// CHECK-LABEL: @f\n// CHECK: a\n// CHECK-DAG: [[$L:#.*]] = x\n\n// CHECK-LABEL: @g\n// CHECK: [[$L]]\n"; bs[1].Check != want {
		t.Errorf("global variable: %q", bs[1].Check)
	}
	if bs := LabelBlocks("// CHECK: a\n", []string{"CHECK"}); len(bs) != 1 || bs[0].Line != 0 {
		t.Errorf("no labels: %+v", bs)
	}
}
