package optdriver

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/proc"
)

// largeInput is a module of more than mapInputMin bytes.
func largeInput() string {
	var b strings.Builder
	b.WriteString("module {\n")
	for b.Len() <= mapInputMin {
		b.WriteString("  \"test.op\"() {some_long_attribute_name = \"some long string value to fill the input\"} : () -> ()\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// TestBatchTool checks BatchGC (GOGC and GOMEMLIMIT in the environment
// win) and that MapInput gives the same output as reading the input.
func TestBatchTool(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mlir")
	if err := os.WriteFile(in, []byte(largeInput()), 0o644); err != nil {
		t.Fatal(err)
	}
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(1 << 40)
	defer func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()
	run := func(tool *Tool) string {
		t.Helper()
		var out, errb bytes.Buffer
		args := []string{"--allow-unregistered-dialect", "in.mlir"}
		if code := tool.Main(&proc.Proc{Args: args, Dir: dir, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.String()
	}
	want := run(&Tool{})

	t.Setenv("GOGC", "150")
	t.Setenv("GOMEMLIMIT", "1TiB")
	if got := run(&Tool{BatchGC: true, MapInput: true}); got != want {
		t.Errorf("MapInput changed the output")
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("with GOGC set, BatchGC set GOGC=%d", p)
	}
	if l := debug.SetMemoryLimit(1 << 40); l != 1<<40 {
		t.Errorf("with GOMEMLIMIT set, BatchGC set a limit of %d", l)
	}

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	run(&Tool{BatchGC: true})
	if p := debug.SetGCPercent(100); p != batchGCPercent {
		t.Errorf("BatchGC set GOGC=%d, want %d", p, batchGCPercent)
	}
	if l, want := debug.SetMemoryLimit(1<<40), batchMemLimit(len(largeInput())); l != want {
		t.Errorf("BatchGC set a limit of %d, want %d", l, want)
	}
}
