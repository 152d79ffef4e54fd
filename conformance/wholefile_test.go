package conformance

import (
	"bytes"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/proc"
)

// wholeFiles are Triton test files that pass as lit runs them: every RUN
// line's layout-opt output against FileCheck over the whole file at once,
// not block by block as TestTriton36 measures.
var wholeFiles = []string{
	"TritonGPU/combine.mlir",
	"TritonGPU/canonicalize.mlir",
	"TritonGPU/coalesce.mlir",
}

func TestWholeFiles(t *testing.T) {
	root := testenv.Shared(t, "triton36/lit")
	files, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	byRel := map[string]*File{}
	for _, f := range files {
		byRel[f.Rel] = f
	}
	for _, rel := range wholeFiles {
		t.Run(rel, func(t *testing.T) {
			f := byRel[rel]
			if f == nil {
				t.Fatalf("%s is not in the corpus", rel)
			}
			runs := 0
			for _, r := range f.Runs {
				if !r.OK || r.Check == nil || len(r.Missing) > 0 {
					t.Fatalf("%s: layout-opt cannot run it", r)
				}
				runs++
				args := substitute(r.Opt, f.Path)
				out, errs, _ := opt(f.Dir(), args, "")
				if r.MergeStderr {
					out += errs
				}
				var diag bytes.Buffer
				p := &proc.Proc{Args: substitute(r.Check, f.Path), Dir: f.Dir(), Stdin: strings.NewReader(out), Stdout: &diag, Stderr: &diag}
				if filecheck.Main(p) != 0 {
					t.Errorf("%s: FileCheck fails:\n%s\nlayout-opt's errors:\n%s", r, diag.String(), errs)
				}
			}
			if runs == 0 {
				t.Fatalf("%s has no RUN line", rel)
			}
		})
	}
}

// substitute replaces lit's %s with path.
func substitute(args []string, path string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "%s" {
			a = path
		}
		out[i] = a
	}
	return out
}
