package passes_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// TestExampleTool builds passes/internal/exampletool, a separate main
// package that registers its own pass, and runs pipelines that mix it with
// remove-redundant-conversions.
func TestExampleTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "exampletool")
	build := exec.Command(testenv.GoCommand(), "build", "-o", bin, "./internal/exampletool")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	in := filepath.Join(dir, "kernel.mlir")
	if err := os.WriteFile(in, []byte(kernel), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(pipeline string) (stdout, stderr string, code int) {
		cmd := exec.Command(bin, in, pipeline)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), code
	}

	stdout, stderr, code := run("builtin.module(count-converts,tritongpu-remove-layout-conversions,count-converts{max=0})")
	if code != 0 {
		t.Fatalf("status %d, stderr:\n%s", code, stderr)
	}
	want := in + ":4:3: remark: 1 conversions\n" + in + ":4:3: remark: 0 conversions\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if strings.Contains(stdout, "ttg.convert_layout") || !strings.Contains(stdout, "tt.store") {
		t.Errorf("output still converts, or lost the store:\n%s", stdout)
	}

	// The tool's own pass fails the pipeline before the conversion is removed.
	_, stderr, code = run("builtin.module(count-converts{max=0},remove-redundant-conversions)")
	if code != 1 || stderr != in+":4:3: error: 1 conversions, more than 0\n" {
		t.Errorf("status %d, stderr %q", code, stderr)
	}

	// Its options are checked like ours.
	_, stderr, code = run("builtin.module(count-converts{max=lots})")
	if code != 1 || !strings.Contains(stderr, `invalid value "lots" for option 'max': expected an integer`) {
		t.Errorf("status %d, stderr %q", code, stderr)
	}
}
