package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/lit"
)

// repoRoot returns the module root.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestLitSuite runs the project's lit suite (test/ at the repository root)
// in-process, one subtest per lit test, so that go test ./... runs every
// lit test. Output directories go to a temporary exec root. Run one test
// with go test ./cmd/lit -run 'TestLitSuite/NAME'.
func TestLitSuite(t *testing.T) {
	root := filepath.Join(repoRoot(t), "test")
	if _, err := os.Stat(filepath.Join(root, lit.ConfigName)); err != nil {
		t.Fatalf("the project's lit suite is missing: %v", err)
	}
	runSuite(t, root)
}

// runSuite runs the lit tests under root as parallel subtests named by
// their path in the suite.
func runSuite(t *testing.T, root string) {
	tests, err := lit.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) == 0 {
		t.Fatalf("no lit tests under %s", root)
	}
	r := &lit.Runner{Tools: Tools(), Env: os.Environ(), ExecRoot: t.TempDir()}
	for _, lt := range tests {
		t.Run(lt.Rel, func(t *testing.T) {
			t.Parallel()
			res := r.Run(lt)
			switch {
			case res.Code.IsFailure():
				t.Errorf("%s: %s\n%s", res.Code, lt.FullName(), res.Output)
			case res.Code == lit.Unsupported:
				t.Skipf("UNSUPPORTED: %s", res.Output)
			}
		})
	}
}

// TestRunSuite checks runSuite on a small suite of passing tests: each
// becomes a subtest that passes or skips, and %t lands in the exec root,
// not in the suite.
func TestRunSuite(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"lit.cfg":        "name = GO\nsuffixes = .mlir\n",
		"a.mlir":         "// RUN: echo 'op' > %t && FileCheck %s < %t\n// CHECK: op\n",
		"sub/b.mlir":     "// RUN: echo x | not FileCheck %s\n// CHECK: y\n",
		"sub/skip.mlir":  "// REQUIRES: nothing-has-this\n// RUN: false\n",
		"sub/xfail.mlir": "// XFAIL: *\n// RUN: false\n",
	})
	t.Run("suite", func(t *testing.T) { runSuite(t, dir) })
	if _, err := os.Stat(filepath.Join(dir, "Output")); !os.IsNotExist(err) {
		t.Errorf("the run wrote into the suite: %v", err)
	}
}
