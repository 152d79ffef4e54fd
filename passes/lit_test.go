package passes_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/lit"
	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/proc"
)

// TestLitFiles runs the lit tests of these passes (test/passes) in-process
// with package lit, layout-opt and FileCheck as its tools, so that
// go test ./passes checks them without the rest of the suite.
func TestLitFiles(t *testing.T) {
	dir := filepath.Join("..", "test", "passes")
	if files, _ := filepath.Glob(filepath.Join(dir, "*.mlir")); len(files) == 0 {
		t.Skip("no lit tests")
	}
	tools := lit.Builtins()
	tools["layout-opt"] = optdriver.Main
	tools["FileCheck"] = filecheck.Main
	var out bytes.Buffer
	p := &proc.Proc{Args: []string{"-v", dir}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}
	if rc := lit.Main(p, tools); rc != 0 {
		t.Fatalf("lit %s: exit %d\n%s", dir, rc, out.String())
	}
}
