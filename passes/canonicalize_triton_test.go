package passes_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/conformance"
	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/proc"
)

// tritonPassFiles are Triton 3.6 lit tests of passes this package has, the
// flags of their RUN line (triton-opt replaced by layout-opt), and how
// many of their CHECK-LABEL blocks must pass: a ratchet, raise it with the
// progress. (The conformance package measures only files without passes.)
var tritonPassFiles = []struct {
	file  string
	flags []string
	want  int
}{
	{"TritonGPU/canonicalize.mlir", []string{"-split-input-file", "-canonicalize", "-allow-unregistered-dialect"}, 20},
	{"Triton/canonicalize.mlir", []string{"-split-input-file", "-canonicalize"}, 14},
}

// TestTritonPassFiles runs those files when ../shared is present: layout-opt
// once on the whole file, then FileCheck per CHECK-LABEL block (the lines
// before the first label plus the block), as the conformance package's
// print-only cases do.
func TestTritonPassFiles(t *testing.T) {
	dir := sharedDir(t, "triton36")
	for _, tf := range tritonPassFiles {
		path := filepath.Join(dir, "lit", tf.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Skip(err)
		}
		var out, errs bytes.Buffer
		p := &proc.Proc{Args: append([]string{path}, tf.flags...), Dir: filepath.Dir(path), Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs}
		optdriver.Main(p)
		blocks := conformance.LabelBlocks(string(src), []string{"CHECK"})
		var fcOut bytes.Buffer
		fc := &proc.Proc{Args: []string{path}, Dir: filepath.Dir(path), Stdin: strings.NewReader(out.String()), Stdout: &fcOut, Stderr: &fcOut}
		filecheck.Main(fc)
		failed := failedBlocks(fcOut.String(), filepath.Base(path), blocks)
		pass := 0
		for i, b := range blocks {
			if failed[i] {
				t.Logf("%s: FAIL %s", tf.file, b.Label)
			} else {
				pass++
			}
		}
		t.Logf("%s: %d/%d CHECK-LABEL blocks pass", tf.file, pass, len(blocks))
		if pass < tf.want {
			t.Errorf("%s: %d/%d blocks pass, want at least %d\n%s", tf.file, pass, len(blocks), tf.want, errs.String())
		}
	}
}

var fcErrorLine = regexp.MustCompile(`([^\s:]+):(\d+):\d+: error: (.*)`)

// failedBlocks maps FileCheck's errors on the whole file to the label
// blocks they fall in (FileCheck checks each label section on its own). A
// label that is not found fails its block and every later one, whose
// sections FileCheck can no longer place.
func failedBlocks(fcOut, base string, blocks []conformance.Block) map[int]bool {
	failed := map[int]bool{}
	blockOf := func(line int) int {
		k := 0
		for i, b := range blocks {
			if b.Line <= line {
				k = i
			}
		}
		return k
	}
	for _, m := range fcErrorLine.FindAllStringSubmatch(fcOut, -1) {
		if filepath.Base(m[1]) != base {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		k := blockOf(line)
		failed[k] = true
		if strings.HasPrefix(m[3], "CHECK-LABEL: expected string not found") {
			for j := k; j < len(blocks); j++ {
				failed[j] = true
			}
		}
	}
	return failed
}
