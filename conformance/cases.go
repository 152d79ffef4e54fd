package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/proc"
)

// Kind is one of the three measures.
type Kind string

const (
	RoundTrip         Kind = "round-trip"
	VerifyDiagnostics Kind = "verify-diagnostics"
	PrintOnly         Kind = "print-only"
	PassRun           Kind = "pass"
)

// Kinds lists the measures in report order.
var Kinds = []Kind{RoundTrip, VerifyDiagnostics, PrintOnly, PassRun}

// Case is one measured case.
type Case struct {
	Kind Kind
	File *File
	ID   string // "TritonGPU/invalid.mlir#12"; print-only: "Triton/ops.mlir#3" (label 3), "F@RUN2#3" for a second RUN line
	Line int    // line in the file where the chunk or label starts

	run func(scratch string) Result
}

// Key is the expectation-file key: kind and id.
func (c *Case) Key() string { return string(c.Kind) + " " + c.ID }

// Result is the outcome of one case. Why is the first diagnostic or
// FileCheck error of a failure; Detail is the whole error output.
type Result struct {
	Pass   bool
	Why    string
	Detail string
}

// Run runs the case. scratch is a directory for temporary files that the
// case may use (FileCheck reads its check file from disk).
func (c *Case) Run(scratch string) Result { return c.run(scratch) }

// Cases returns the cases of the corpus, in file order.
func Cases(files []*File) []*Case {
	var cs []*Case
	for _, f := range files {
		cs = append(cs, roundTripCases(f)...)
		cs = append(cs, verifyCases(f)...)
		cs = append(cs, printOnlyCases(f)...)
		cs = append(cs, passCases(f)...)
	}
	return cs
}

// roundTripCases: every chunk without expected-error of a file that some
// RUN line runs triton-opt on.
func roundTripCases(f *File) []*Case {
	if !f.ReadsFile() {
		return nil
	}
	var args []string
	if f.AllowUnregistered() {
		args = append(args, "-allow-unregistered-dialect")
	}
	args = append(args, "-")
	var cs []*Case
	for _, ch := range SplitChunks(f.Text) {
		if strings.Contains(ch.Text, "expected-error") {
			continue
		}
		cs = append(cs, &Case{
			Kind: RoundTrip, File: f, ID: fmt.Sprintf("%s#%d", f.Rel, ch.Index), Line: ch.StartLine,
			run: func(string) Result {
				out1, errs, ok := opt(f.Dir(), args, ch.Padded())
				if !ok {
					return failure(f, "", errs)
				}
				out2, errs, ok := opt(f.Dir(), args, out1)
				if !ok {
					return failure(f, "the printed form does not parse: ", errs)
				}
				if out1 != out2 {
					return Result{Why: "not a fixed point: " + firstDiff(out1, out2), Detail: out1 + "\n// ----- printed again:\n" + out2}
				}
				return Result{Pass: true}
			},
		})
	}
	return cs
}

// verifyCases: every chunk of every in-scope -verify-diagnostics RUN line,
// run alone with that line's flags.
func verifyCases(f *File) []*Case {
	var runs []*Run
	for _, r := range f.Runs {
		if r.OK && r.InputIsFile && r.VerifyDiagnostics && len(r.Missing) == 0 {
			runs = append(runs, r)
		}
	}
	var cs []*Case
	for _, r := range runs {
		var args []string
		for _, a := range r.Opt {
			if a != "%s" && strings.TrimLeft(a, "-") != "split-input-file" {
				args = append(args, a)
			}
		}
		args = append(args, "-")
		chunks := []Chunk{{Index: 1, Text: f.Text, StartLine: 1}}
		if r.Split {
			chunks = SplitChunks(f.Text)
		}
		for _, ch := range chunks {
			id := fmt.Sprintf("%s#%d", f.Rel, ch.Index)
			if len(runs) > 1 {
				id = fmt.Sprintf("%s@RUN%d#%d", f.Rel, r.Index, ch.Index)
			}
			cs = append(cs, &Case{
				Kind: VerifyDiagnostics, File: f, ID: id, Line: ch.StartLine,
				run: func(string) Result {
					if _, errs, ok := opt(f.Dir(), args, ch.Padded()); !ok {
						return failure(f, "", errs)
					}
					return Result{Pass: true}
				},
			})
		}
	}
	return cs
}

// printOnlyCases: every CHECK-LABEL block of every RUN line
// "triton-opt %s [driver flags] | FileCheck %s [flags]".
func printOnlyCases(f *File) []*Case {
	return checkCases(f, PrintOnly, func(r *Run) bool { return len(r.Passes) == 0 })
}

// passCases: every CHECK-LABEL block of every RUN line
// "triton-opt %s [driver flags] PASSES [2>&1] | FileCheck %s [flags]"
// whose passes layout-opt all has (no -verify-diagnostics: verifyCases
// covers those).
func passCases(f *File) []*Case {
	return checkCases(f, PassRun, func(r *Run) bool { return len(r.Passes) > 0 && !r.VerifyDiagnostics })
}

// checkCases makes a case of kind k for every CHECK-LABEL block of every
// RUN line "triton-opt %s ... | FileCheck %s ..." that layout-opt can run
// and that want accepts.
func checkCases(f *File, k Kind, want func(*Run) bool) []*Case {
	var runs []*Run
	for _, r := range f.Runs {
		if r.OK && r.InputIsFile && r.Check != nil && len(r.Missing) == 0 && checksFile(r.Check) && want(r) {
			runs = append(runs, r)
		}
	}
	var cs []*Case
	for _, r := range runs {
		var optArgs []string
		for _, a := range r.Opt {
			if a == "%s" {
				a = f.Path
			}
			optArgs = append(optArgs, a)
		}
		var once sync.Once
		var out, errs string
		var ok bool
		output := func() (string, string, bool) {
			once.Do(func() {
				out, errs, ok = opt(f.Dir(), optArgs, "")
				if r.MergeStderr {
					out += errs
				}
			})
			return out, errs, ok
		}
		for _, b := range LabelBlocks(f.Text, CheckPrefixes(r.Check)) {
			id := fmt.Sprintf("%s#%d", f.Rel, b.Index)
			if len(runs) > 1 {
				id = fmt.Sprintf("%s@RUN%d#%d", f.Rel, r.Index, b.Index)
			}
			line := b.Line
			if line == 0 {
				line = 1
			}
			cs = append(cs, &Case{
				Kind: k, File: f, ID: id, Line: line,
				run: func(scratch string) Result {
					out, errs, ok := output()
					name := filepath.Join(scratch, fmt.Sprintf("r%d-b%d-%s", r.Index, b.Index, filepath.Base(f.Path)))
					check := func(text string) (bool, string, error) {
						if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
							return false, "", err
						}
						var args []string
						for _, a := range r.Check {
							if a == "%s" {
								a = name
							}
							args = append(args, a)
						}
						var stderr bytes.Buffer
						p := &proc.Proc{Args: args, Dir: f.Dir(), Stdin: strings.NewReader(out), Stdout: &stderr, Stderr: &stderr}
						return filecheck.Main(p) == 0, strings.ReplaceAll(stderr.String(), name, f.Rel), nil
					}
					var pass bool
					var fcErr string
					var err error
					if k == PassRun && b.NextLine > 0 {
						// The next label bounds the block, as in the whole
						// file: a CHECK-NOT at the block's end must not see
						// the functions of later chunks. When that label is
						// what fails, check the block alone.
						pass, fcErr, err = check(b.Bounded())
						if err == nil && !pass && strings.Contains(fcErr, fmt.Sprintf("%s:%d:", f.Rel, b.NextLine)) {
							pass, fcErr, err = check(b.Check)
						}
					} else {
						pass, fcErr, err = check(b.Check)
					}
					if err != nil {
						return Result{Why: err.Error()}
					}
					if !pass {
						if !ok && k == PassRun {
							// A split file's other chunks may fail (a pass test
							// may even expect it, with 2>&1): FileCheck's error
							// says what this block misses; layout-opt's errors
							// go to the detail.
							res := failure(f, "", fcErr)
							res.Detail += "\nlayout-opt's errors:\n" + strings.ReplaceAll(errs, f.Path, f.Rel)
							return res
						}
						if !ok {
							// Most likely the cause: the chunk of this label did not parse or verify.
							return failure(f, "layout-opt fails: ", errs)
						}
						return failure(f, "", fcErr)
					}
					return Result{Pass: true}
				},
			})
		}
	}
	return cs
}

// checksFile reports whether a FileCheck command line checks against %s.
func checksFile(args []string) bool {
	for _, a := range args {
		if a == "%s" {
			return true
		}
	}
	return false
}

// Dir is the file's directory.
func (f *File) Dir() string { return filepath.Dir(f.Path) }

// opt runs layout-opt in-process on stdin (when the arguments name no
// file) and returns its output, its error output and whether it succeeded.
func opt(dir string, args []string, stdin string) (string, string, bool) {
	var out, errs bytes.Buffer
	p := &proc.Proc{Args: args, Dir: dir, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errs}
	ok := optdriver.Main(p) == 0
	return out.String(), errs.String(), ok
}

// failure makes a failing Result from an error output, naming the file
// instead of <stdin>.
func failure(f *File, prefix, errs string) Result {
	errs = strings.ReplaceAll(errs, f.Path, f.Rel)
	errs = strings.ReplaceAll(errs, "<stdin>", f.Rel)
	return Result{Why: prefix + FirstError(errs), Detail: errs}
}

// FirstError returns the first line of an error output that reports an
// error (", error: " or "error:"), or its first line.
func FirstError(errs string) string {
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	for _, l := range lines {
		if strings.Contains(l, "error:") {
			return strings.TrimSpace(l)
		}
	}
	if len(lines) > 0 && lines[0] != "" {
		return strings.TrimSpace(lines[0])
	}
	return "failed without a message"
}

// firstDiff describes the first line where a and b differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: %q then %q", i+1, x, y)
		}
	}
	return "outputs differ"
}
