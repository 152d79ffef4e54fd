package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/proc"
)

// writeTree creates files under dir from a map of slash paths to contents.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func runLit(dir string, args ...string) (int, string) {
	var out bytes.Buffer
	p := &proc.Proc{Args: args, Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}, Stdin: strings.NewReader("%0 = op\n"), Stdout: &out, Stderr: &out}
	return run(p), out.String()
}

// TestRunWithFileCheck runs a small suite through the command, with the
// in-process FileCheck.
func TestRunWithFileCheck(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"lit.cfg":    "name = CMD\nsuffixes = .mlir\n",
		"ok.mlir":    "// RUN: echo 'tt.func @f' | FileCheck %s\n// CHECK: tt.func @f\n",
		"bad.mlir":   "// RUN: echo 'tt.func @g' | FileCheck %s\n// CHECK: tt.func @f\n",
		"notfc.mlir": "// RUN: echo 'tt.func @g' | not FileCheck %s\n// CHECK: tt.func @f\n",
	})
	st, out := runLit(dir, "-v", ".")
	if st != 1 || !strings.HasSuffix(out, "\n2 passed, 1 failed\n") {
		t.Errorf("status %d, output:\n%s", st, out)
	}
	if !strings.Contains(out, "FAIL: CMD :: bad.mlir") || !strings.Contains(out, "error: CHECK: expected string not found in input") {
		t.Errorf("the FileCheck failure is not reported:\n%s", out)
	}
}

func TestGenChecksSubcommand(t *testing.T) {
	st, out := runLit(t.TempDir(), "gen-checks", "--starts-from-scope=0")
	if want := "// CHECK:       %[[VAL_0:.*]] = op\n"; st != 0 || out != want {
		t.Errorf("gen-checks: status %d, output %q", st, out)
	}
}
