package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/layoutopt/layoutopt/lit"
)

// repoRoot walks up from the working directory to the directory with
// go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// TestLitSuite runs the project's lit suite (test/ at the repository root)
// in-process, one subtest per lit test, so that go test ./... runs every
// lit test. Output directories go to a temporary exec root. Run one test
// with go test ./cmd/lit -run 'TestLitSuite/NAME'.
func TestLitSuite(t *testing.T) {
	root := filepath.Join(repoRoot(t), "test")
	if _, err := os.Stat(filepath.Join(root, lit.ConfigName)); err != nil {
		t.Skipf("no lit suite: %v", err)
	}
	tests, err := lit.Discover(root)
	if err != nil {
		t.Fatal(err)
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
