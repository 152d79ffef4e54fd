package optdriver_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

// namedIR names its values in the text and in name locations.
const namedIR = `module {
  tt.func @f(%a: i32 loc("x")) {
    %one = arith.constant 1 : i32
    %s = arith.addi %a, %one : i32 loc("sum")
    tt.return
  }
}
`

const goodIR = `module {
  tt.func @f(%arg0: i32) {
    %c = arith.constant 1 : i32
    %0 = arith.addi %arg0, %c : i32
    tt.return
  }
}
`

// badIR uses an undefined value on line 3, column 21.
const badIR = `module {
  tt.func @f() {
    %0 = arith.addi %x, %x : i32
    tt.return
  }
}
`

const twoFuncs = `module {
  tt.func @f() {
    tt.return
  }
  tt.func @g() {
    tt.return
  }
}
`

const splitIR = `module {
  tt.func @a() {
    tt.return
  }
}

// -----

module {
  tt.func @b() {
    %0 = arith.addi %x, %x : i32
    tt.return
  }
}

// -----
module {
  tt.func @c() {
    tt.return
  }
}
`

// verifyIR expects test-remark's remark on every function, with every
// designator form.
const verifyIR = `module {
  // expected-remark @below {{function @f}}
  tt.func @f() {
    tt.return
  }
  // expected-remark @+1 {{function @g}}
  tt.func @g() {
    tt.return
  }
  tt.func @h() { // expected-remark-re {{function @{{[a-h]}}}}
    tt.return
  }
  tt.func @i() {
  // expected-remark @above {{function @i}}
    tt.return
  }
  tt.func @j() {
    tt.return
  }
  // expected-remark @-3 {{function @j}}
}
`

// canonical returns src as the printer prints it with cfg.
func canonical(t testing.TB, src string, cfg ir.PrintConfig) string {
	t.Helper()
	m, diags := ir.Parse([]byte(src), ir.ParseConfig{Filename: "x.mlir", AllowUnregistered: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var b strings.Builder
	if err := ir.Print(&b, m, cfg); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// driverCase is one command line, checked the same way whether the driver
// runs in-process or as the built binary.
type driverCase struct {
	name  string
	files map[string]string // written to the working directory first
	links map[string]string // symbolic links made there next: name → target
	stdin string
	args  []string
	code  int
	check func(t *testing.T, r result)
}

func driverCases(t *testing.T) []driverCase {
	good := canonical(t, goodIR, ir.PrintConfig{})
	marked := strings.Replace(good, "module {", "module attributes {test.marked} {", 1)
	return []driverCase{
		{name: "file to stdout", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir"},
			check: func(t *testing.T, r result) {
				if r.stdout != good || r.stderr != "" {
					t.Errorf("stdout %q stderr %q, want the canonical module", r.stdout, r.stderr)
				}
			}},
		{name: "stdin", stdin: goodIR, args: nil,
			check: func(t *testing.T, r result) {
				if r.stdout != good {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "dash is stdin", stdin: goodIR, args: []string{"-"},
			check: func(t *testing.T, r result) {
				if r.stdout != good {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "-o writes the file", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-o", "out.mlir"},
			check: func(t *testing.T, r result) {
				if r.stdout != "" || readFile(t, filepath.Join(r.dir, "out.mlir")) != good {
					t.Errorf("stdout %q; out.mlir %q", r.stdout, readFile(t, filepath.Join(r.dir, "out.mlir")))
				}
				leftovers, _ := filepath.Glob(filepath.Join(r.dir, ".out.mlir.tmp*"))
				if len(leftovers) != 0 {
					t.Errorf("temporary files left: %v", leftovers)
				}
			}},
		{name: "-o keeps the old file on error", code: 1,
			files: map[string]string{"in.mlir": badIR, "out.mlir": "precious\n"}, args: []string{"in.mlir", "-o", "out.mlir"},
			check: func(t *testing.T, r result) {
				if got := readFile(t, filepath.Join(r.dir, "out.mlir")); got != "precious\n" {
					t.Errorf("out.mlir = %q, want it untouched", got)
				}
				contains(t, "stderr", r.stderr, "in.mlir:3:21: error: use of undeclared SSA value name '%x'\n", "    %0 = arith.addi %x, %x : i32\n", "                    ^\n")
				leftovers, _ := filepath.Glob(filepath.Join(r.dir, ".out.mlir.tmp*"))
				if len(leftovers) != 0 {
					t.Errorf("temporary files left: %v", leftovers)
				}
			}},
		{name: "-o keeps the old file when a pass fails", code: 1,
			files: map[string]string{"in.mlir": goodIR, "out.mlir": "precious\n"}, args: []string{"in.mlir", "-test-fail", "-o", "out.mlir"},
			check: func(t *testing.T, r result) {
				if got := readFile(t, filepath.Join(r.dir, "out.mlir")); got != "precious\n" {
					t.Errorf("out.mlir = %q, want it untouched", got)
				}
			}},
		{name: "-o into a missing directory", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-o", "no/such/dir/out.mlir"},
			check: func(t *testing.T, r result) {
				if want := "layout-opt: error: cannot write output file 'no/such/dir/out.mlir': no such file or directory\n"; r.stderr != want {
					t.Errorf("stderr %q, want %q", r.stderr, want)
				}
			}},
		{name: "-o /dev/null", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-o", os.DevNull},
			check: func(t *testing.T, r result) {
				if r.stdout != "" || r.stderr != "" {
					t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
				}
			}},
		{name: "-o through a symbolic link writes its target", files: map[string]string{"in.mlir": goodIR, "target.mlir": "old\n"},
			links: map[string]string{"link.mlir": "target.mlir"}, args: []string{"in.mlir", "-o", "link.mlir"},
			check: func(t *testing.T, r result) {
				if fi, err := os.Lstat(filepath.Join(r.dir, "link.mlir")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("link.mlir is no longer a link: %v %v", fi, err)
				}
				if got := readFile(t, filepath.Join(r.dir, "target.mlir")); got != good {
					t.Errorf("target.mlir = %q, want the output %q", got, good)
				}
			}},
		{name: "-o names a directory", code: 1, files: map[string]string{"in.mlir": goodIR, "d/x": ""}, args: []string{"in.mlir", "-o", "d"},
			check: func(t *testing.T, r result) {
				if want := "layout-opt: error: cannot write output file 'd': is a directory\n"; r.stderr != want {
					t.Errorf("stderr %q, want %q", r.stderr, want)
				}
			}},
		{name: "unreadable file", code: 1, args: []string{"missing.mlir"},
			check: func(t *testing.T, r result) {
				if want := "layout-opt: error: cannot open input file 'missing.mlir': no such file or directory\n"; r.stderr != want {
					t.Errorf("stderr %q, want %q", r.stderr, want)
				}
				if r.stdout != "" {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "bad IR", code: 1, files: map[string]string{"in.mlir": badIR}, args: []string{"in.mlir"},
			check: func(t *testing.T, r result) {
				want := "in.mlir:3:21: error: use of undeclared SSA value name '%x'\n    %0 = arith.addi %x, %x : i32\n                    ^\n"
				if r.stderr != want {
					t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
				}
				if r.stdout != "" {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "too many inputs", code: 1, args: []string{"a.mlir", "b.mlir"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "layout-opt: error: too many input files: a.mlir b.mlir")
			}},
		{name: "pass flag", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-mark"},
			check: func(t *testing.T, r result) {
				if r.stdout != marked {
					t.Errorf("stdout %q, want %q", r.stdout, marked)
				}
			}},
		{name: "pass alias with --", files: map[string]string{"in.mlir": goodIR}, args: []string{"--test-mark-alias", "in.mlir"},
			check: func(t *testing.T, r result) {
				if r.stdout != marked {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "pass flags run in command-line order with options", files: map[string]string{"in.mlir": goodIR},
			args: []string{"-test-opts=mode=slow", "in.mlir", "--test-opts=n=2 mode=fast", "-test-opts"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "in.mlir:1:1: remark: mode=slow n=1\n", "remark: mode=fast n=2\n", "remark: mode=fast n=1\n")
			}},
		{name: "bad option value on a pass flag", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-opts=mode=medium"},
			check: func(t *testing.T, r result) {
				want := `layout-opt: error: invalid options for -test-opts="mode=medium": pass 'test-opts': invalid value "medium" for option 'mode' (allowed: fast, slow)` + "\n"
				if r.stderr != want || r.stdout != "" {
					t.Errorf("stderr %q, want %q", r.stderr, want)
				}
			}},
		{name: "unknown option on a pass flag", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-opts=speed=3"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "pass 'test-opts' has no option 'speed' (options: mode, n)")
			}},
		{name: "unknown pass flag", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-no-such-pass"},
			check: func(t *testing.T, r result) {
				want := "layout-opt: error: unknown command line argument '-no-such-pass': not a flag or a registered pass (see -help and -list-passes)\n"
				if r.stderr != want {
					t.Errorf("stderr %q, want %q", r.stderr, want)
				}
			}},
		{name: "-pass-pipeline with nesting and options", files: map[string]string{"in.mlir": twoFuncs},
			args: []string{"in.mlir", "-pass-pipeline=builtin.module(test-opts{mode=slow n=3},tt.func(test-remark),test-mark)"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "remark: mode=slow n=3", "in.mlir:2:3: remark: function @f", "in.mlir:5:3: remark: function @g")
				contains(t, "stdout", r.stdout, "module attributes {test.marked}")
			}},
		{name: "-p is -pass-pipeline", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-p", "builtin.module(test-mark)"},
			check: func(t *testing.T, r result) {
				if r.stdout != marked {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "malformed pipeline", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-pass-pipeline=builtin.module(test-mark"},
			check: func(t *testing.T, r result) {
				want := "MLIR Textual PassPipeline Parser:1:15: error: encountered unbalanced parentheses while parsing pipeline\n" +
					"builtin.module(test-mark\n" +
					"              ^\n" +
					"layout-opt: error: invalid pass pipeline\n"
				if r.stderr != want {
					t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
				}
			}},
		{name: "unknown pass in a pipeline", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "--pass-pipeline=builtin.module(test-mark,nope)"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "MLIR Textual PassPipeline Parser:1:26: error: 'nope' does not refer to a registered pass or pass pipeline\n")
			}},
		{name: "bad option value in a pipeline", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "--pass-pipeline=builtin.module(test-opts{n=many})"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, `MLIR Textual PassPipeline Parser:1:28: error: pass 'test-opts': invalid value "many" for option 'n': expected an integer`)
			}},
		{name: "pipeline and pass flags together", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-mark", "-pass-pipeline=builtin.module(test-mark)"},
			check: func(t *testing.T, r result) {
				if want := "layout-opt: error: '-pass-pipeline' option can't be used with individual pass options\n"; r.stderr != want {
					t.Errorf("stderr %q", r.stderr)
				}
			}},
		{name: "failing pass", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-fail"},
			check: func(t *testing.T, r result) {
				want := "in.mlir:2:3: error: test-fail: refusing op 'tt.func'\n  tt.func @f(%arg0: i32) {\n  ^\n"
				if r.stderr != want || r.stdout != "" {
					t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
				}
			}},
		{name: "pass returning a plain error", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-plainerr"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "in.mlir:1:1: error: pass 'test-plainerr' failed: plain failure\n")
			}},
		{name: "warnings do not fail", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-warn"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "in.mlir:1:1: warning: test warning\n")
				if r.stdout != good {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "verifier after each pass names the pass", code: 1, files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-break"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr,
					"in.mlir:1:1: error: pass 'test-break' produced IR that does not verify\n",
					"in.mlir:4:10: error: 'arith.addi' op operand #1")
				if r.stdout != "" {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "-verify-each=false", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-break", "-verify-each=false"},
			check: func(t *testing.T, r result) {
				lacks(t, "stderr", r.stderr, "does not verify")
				lacks(t, "stdout", r.stdout, "arith.constant")
				contains(t, "stdout", r.stdout, "arith.addi")
			}},
		{name: "-split-input-file", code: 1, files: map[string]string{"in.mlir": splitIR}, args: []string{"in.mlir", "-split-input-file"},
			check: func(t *testing.T, r result) {
				// The failing middle chunk reports its line in the whole file
				// and prints nothing; the others are printed, joined by markers.
				contains(t, "stderr", r.stderr, "in.mlir:11:21: error: use of undeclared SSA value name '%x'\n")
				a := canonical(t, "module {\n  tt.func @a() {\n    tt.return\n  }\n}\n", ir.PrintConfig{})
				c := canonical(t, "module {\n  tt.func @c() {\n    tt.return\n  }\n}\n", ir.PrintConfig{})
				if want := a + "\n// -----\n" + "\n// -----\n" + c; r.stdout != want {
					t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
				}
			}},
		{name: "-split-input-file=MARKER and -output-split-marker", files: map[string]string{"in.mlir": strings.ReplaceAll(twoFuncs, "  tt.func @g", "}\n//==\nmodule {\n  tt.func @g")},
			args: []string{"in.mlir", "-split-input-file=//==", "-output-split-marker=// ====="},
			check: func(t *testing.T, r result) {
				if n := strings.Count(r.stdout, "\n// =====\n"); n != 1 {
					t.Errorf("%d output markers, want 1:\n%s", n, r.stdout)
				}
				if strings.Count(r.stdout, "module {") != 2 {
					t.Errorf("want two modules:\n%s", r.stdout)
				}
			}},
		{name: "split near miss", files: map[string]string{"in.mlir": goodIR + "// ----\n"}, args: []string{"in.mlir", "-split-input-file"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "in.mlir:8:7: warning: near miss with file split marker\n// ----\n      ^\n")
			}},
		{name: "-verify-diagnostics, all expectations met", files: map[string]string{"in.mlir": verifyIR}, args: []string{"in.mlir", "-verify-diagnostics", "-test-remark"},
			check: func(t *testing.T, r result) {
				if r.stderr != "" {
					t.Errorf("stderr %q", r.stderr)
				}
				contains(t, "stdout", r.stdout, "tt.func @f", "tt.func @j")
			}},
		{name: "-verify-diagnostics, mismatches", code: 1,
			files: map[string]string{"in.mlir": strings.Replace(verifyIR, "{{function @g}}", "{{function @G}}", 1)},
			args:  []string{"in.mlir", "-verify-diagnostics", "-test-remark"},
			check: func(t *testing.T, r result) {
				want := "in.mlir:7:3: error: unexpected remark: function @g\n  tt.func @g() {\n  ^\n" +
					"in.mlir:6:6: error: expected remark \"function @G\" was not produced\n  // expected-remark @+1 {{function @G}}\n     ^~~~~~~~~~~\n"
				if r.stderr != want {
					t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
				}
			}},
		{name: "-verify-diagnostics, wrong severity", code: 1,
			files: map[string]string{"in.mlir": "module {\n  // expected-error @below {{function @f}}\n  tt.func @f() {\n    tt.return\n  }\n}\n"},
			args:  []string{"in.mlir", "-verify-diagnostics", "-test-remark"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "in.mlir:2:6: error: 'remark' diagnostic emitted when expecting a 'error'\n", "in.mlir:2:6: error: expected error \"function @f\" was not produced\n")
			}},
		{name: "-verify-diagnostics on parse errors", files: map[string]string{"in.mlir": strings.Replace(badIR, "%x, %x : i32", "%x, %x : i32 // expected-error {{undeclared SSA value name '%x'}}", 1)},
			args: []string{"in.mlir", "-verify-diagnostics"},
			check: func(t *testing.T, r result) {
				if r.stderr != "" || r.stdout != "" {
					t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
				}
			}},
		{name: "-verify-diagnostics with -split-input-file", files: map[string]string{"in.mlir": "module {\n  tt.func @f() {\n    tt.return\n  }\n}\n// -----\n// expected-error @+3 {{undeclared}}\nmodule {\n  tt.func @f() {\n    %0 = arith.addi %x, %x : i32\n    tt.return\n  }\n}\n"},
			args: []string{"in.mlir", "-verify-diagnostics", "-split-input-file"},
			check: func(t *testing.T, r result) {
				if r.stderr != "" {
					t.Errorf("stderr %q", r.stderr)
				}
			}},
		{name: "-verify-diagnostics=only-expected", files: map[string]string{"in.mlir": "module {\n  // expected-remark @below {{function @f}}\n  tt.func @f() {\n    tt.return\n  }\n  tt.func @g() {\n    tt.return\n  }\n}\n"},
			args: []string{"in.mlir", "-verify-diagnostics=only-expected", "-test-remark"},
			check: func(t *testing.T, r result) {
				if r.stderr != "" {
					t.Errorf("stderr %q", r.stderr)
				}
			}},
		{name: "-verify-diagnostics, bad regex", code: 1, files: map[string]string{"in.mlir": "// expected-error-re {{a {{[}} b}}\n" + goodIR},
			args: []string{"in.mlir", "-verify-diagnostics"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "in.mlir:1:4: error: invalid regex: ")
			}},
		{name: "-verify-diagnostics with a failing pass", files: map[string]string{"in.mlir": "module {\n  // expected-error @below {{refusing op 'tt.func'}}\n  tt.func @f() {\n    tt.return\n  }\n}\n"},
			args: []string{"in.mlir", "-verify-diagnostics", "-test-fail"},
			check: func(t *testing.T, r result) {
				// The status is the verification's; the failed chunk prints nothing.
				if r.stderr != "" || r.stdout != "" {
					t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
				}
			}},
		{name: "-verify-diagnostics on a verifier failure", files: map[string]string{"in.mlir": "module { // expected-error {{pass 'test-break' produced IR that does not verify}}\n  tt.func @f(%a: i32) {\n    %c = arith.constant 1 : i32\n    %0 = arith.addi %a, %c : i32 // expected-error {{'arith.addi' op operand #1}}\n    tt.return\n  }\n}\n"},
			args: []string{"in.mlir", "-verify-diagnostics", "-test-break"},
			check: func(t *testing.T, r result) {
				if r.stderr != "" {
					t.Errorf("stderr %q", r.stderr)
				}
			}},
		{name: "-mlir-print-ir-after-failure on a verifier failure", code: 1, files: map[string]string{"in.mlir": goodIR},
			args: []string{"in.mlir", "-test-break", "-mlir-print-ir-after-failure"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "// -----// IR Dump After TestBreak Failed (test-break) //----- //\n", "error: pass 'test-break' produced IR that does not verify")
			}},
		{name: "-allow-unregistered-dialect", files: map[string]string{"in.mlir": "module {\n  \"foo.bar\"() : () -> ()\n}\n"},
			args: []string{"in.mlir", "-allow-unregistered-dialect"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, `"foo.bar"() : () -> ()`)
			}},
		{name: "unregistered op without the flag", code: 1, files: map[string]string{"in.mlir": "module {\n  \"foo.bar\"() : () -> ()\n}\n"},
			args: []string{"in.mlir"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "in.mlir:2:3: error: ")
			}},
		{name: "-mlir-print-debuginfo", files: map[string]string{"in.mlir": strings.Replace(goodIR, "tt.return", `tt.return loc("k.py":7:3)`, 1)},
			args: []string{"in.mlir", "-mlir-print-debuginfo"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, `loc("k.py":7:3)`)
			}},
		{name: "no debuginfo by default", files: map[string]string{"in.mlir": strings.Replace(goodIR, "tt.return", `tt.return loc("k.py":7:3)`, 1)},
			args: []string{"in.mlir"},
			check: func(t *testing.T, r result) {
				lacks(t, "stdout", r.stdout, "loc(")
			}},
		{name: "-mlir-print-op-generic", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-mlir-print-op-generic"},
			check: func(t *testing.T, r result) {
				if want := canonical(t, goodIR, ir.PrintConfig{Generic: true}); r.stdout != want {
					t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
				}
				contains(t, "stdout", r.stdout, `"tt.func"() <{`, `"arith.addi"(%arg0, %0)`)
			}},
		{name: "MLIR's names", files: map[string]string{"in.mlir": namedIR}, args: []string{"in.mlir"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, `tt.func @f(%arg0: i32) {`, `%c1_i32 = arith.constant 1 : i32`, `%0 = arith.addi %arg0, %c1_i32 : i32`)
			}},
		{name: "-mlir-use-nameloc-as-prefix", files: map[string]string{"in.mlir": namedIR}, args: []string{"in.mlir", "-mlir-use-nameloc-as-prefix"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, `tt.func @f(%x: i32) {`, `%c1_i32 = arith.constant 1 : i32`, `%sum = arith.addi %x, %c1_i32 : i32`)
			}},
		{name: "-keep-ssa-names", files: map[string]string{"in.mlir": namedIR}, args: []string{"in.mlir", "-keep-ssa-names"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, `tt.func @f(%a: i32) {`, `%one = arith.constant 1 : i32`, `%s = arith.addi %a, %one : i32`)
			}},
		{name: "-mlir-print-local-scope", files: map[string]string{"in.mlir": convertKernel}, args: []string{"in.mlir", "-mlir-print-local-scope"},
			check: func(t *testing.T, r result) {
				lacks(t, "stdout", r.stdout, "#blocked =", "#blocked>")
				contains(t, "stdout", r.stdout, "tensor<128xi32, #ttg.blocked<{sizePerThread = [1]")
			}},
		{name: "aliases by default", files: map[string]string{"in.mlir": convertKernel}, args: []string{"in.mlir"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, "#blocked = #ttg.blocked<{", "tensor<128xi32, #blocked>")
			}},
		{name: "-mlir-print-ir-before-all and -after-all", files: map[string]string{"in.mlir": goodIR},
			args: []string{"in.mlir", "-test-mark", "-test-noop", "-mlir-print-ir-before-all", "-mlir-print-ir-after-all"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr,
					"// -----// IR Dump Before TestMark (test-mark) //----- //\n"+good+"\n",
					"// -----// IR Dump After TestMark (test-mark) //----- //\n"+marked+"\n",
					"// -----// IR Dump Before TestNoop (test-noop) //----- //\n"+marked+"\n",
					"// -----// IR Dump After TestNoop (test-noop) //----- //\n"+marked+"\n")
			}},
		{name: "-mlir-print-ir-after-change", files: map[string]string{"in.mlir": goodIR},
			args: []string{"in.mlir", "-test-noop", "-test-mark", "-test-noop", "-mlir-print-ir-after-all", "-mlir-print-ir-after-change"},
			check: func(t *testing.T, r result) {
				if want := "// -----// IR Dump After TestMark (test-mark) //----- //\n" + marked + "\n"; r.stderr != want {
					t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
				}
			}},
		{name: "-mlir-print-ir-after-change alone", files: map[string]string{"in.mlir": goodIR},
			args: []string{"in.mlir", "-test-noop", "-test-mark", "-mlir-print-ir-after-change"},
			check: func(t *testing.T, r result) {
				if strings.Count(r.stderr, "IR Dump") != 1 || !strings.Contains(r.stderr, "IR Dump After TestMark (test-mark)") {
					t.Errorf("stderr:\n%s", r.stderr)
				}
			}},
		{name: "-mlir-print-ir-before= and -after=", files: map[string]string{"in.mlir": goodIR},
			args: []string{"in.mlir", "-test-noop", "-test-mark", "-mlir-print-ir-before=test-mark", "-mlir-print-ir-after=test-noop,test-mark-alias"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "IR Dump After TestNoop (test-noop)", "IR Dump Before TestMark (test-mark)", "IR Dump After TestMark (test-mark)")
				if n := strings.Count(r.stderr, "IR Dump"); n != 3 {
					t.Errorf("%d dumps, want 3:\n%s", n, r.stderr)
				}
			}},
		{name: "-mlir-print-ir-after= with an unknown pass", code: 1, files: map[string]string{"in.mlir": goodIR},
			args: []string{"in.mlir", "-mlir-print-ir-after=nope"},
			check: func(t *testing.T, r result) {
				if want := "layout-opt: error: 'nope' does not refer to a registered pass\n"; r.stderr != want {
					t.Errorf("stderr %q", r.stderr)
				}
			}},
		{name: "-mlir-print-ir-after-failure", code: 1, files: map[string]string{"in.mlir": goodIR},
			args: []string{"in.mlir", "-test-fail", "-mlir-print-ir-after-failure"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "// -----// IR Dump After TestFail Failed (test-fail) //----- //\n"+good)
			}},
		{name: "nested pass dumps print the function", files: map[string]string{"in.mlir": twoFuncs},
			args: []string{"in.mlir", "-test-remark", "-mlir-print-ir-after-all"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr,
					"// -----// IR Dump After TestRemark (test-remark) //----- //\ntt.func @f() {\n  tt.return\n}\n\n",
					"// -----// IR Dump After TestRemark (test-remark) //----- //\ntt.func @g() {\n")
			}},
		{name: "-mlir-print-ir-module-scope", files: map[string]string{"in.mlir": twoFuncs},
			args: []string{"in.mlir", "-test-remark", "-mlir-print-ir-after-all", "-mlir-print-ir-module-scope"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr,
					"// -----// IR Dump After TestRemark (test-remark) ('tt.func' operation: @f) //----- //\nmodule {\n",
					"// -----// IR Dump After TestRemark (test-remark) ('tt.func' operation: @g) //----- //\nmodule {\n")
			}},
		{name: "-mlir-timing tree", files: map[string]string{"in.mlir": twoFuncs},
			args: []string{"in.mlir", "-pass-pipeline=builtin.module(test-mark,tt.func(test-remark))", "-mlir-timing"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "... Execution time report ...", "Total Execution Time:", "----Wall Time----  ----Name----\n",
					"%)  Parser\n", "%)  TestMark\n", "%)  'tt.func' Pipeline\n", "%)    TestRemark\n", "%)  Output\n", "%)  Rest\n", "(100.0%)  Total\n")
			}},
		{name: "-mlir-timing list", files: map[string]string{"in.mlir": twoFuncs},
			args: []string{"in.mlir", "-test-remark", "-mlir-timing", "-mlir-timing-display=list"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "----Wall Time----  ----Name----\n", "Rest\n", "Total\n")
				contains(t, "stderr", r.stderr, "%)  TestRemark\n")
			}},
		{name: "bad -mlir-timing-display", code: 1, args: []string{"-mlir-timing-display=pie"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, `layout-opt: error: invalid value "pie" for -mlir-timing-display: want tree or list`)
			}},
		{name: "-dump-pass-pipeline", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-test-mark", "-test-opts=n=4", "-dump-pass-pipeline"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "builtin.module(test-mark,test-opts{n=4})\n")
			}},
		{name: "-mlir-disable-threading is accepted", files: map[string]string{"in.mlir": goodIR}, args: []string{"in.mlir", "-mlir-disable-threading"},
			check: func(t *testing.T, r result) {
				if r.stdout != good {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "-list-passes", args: []string{"-list-passes"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, "Registered Passes:\n", "  test-mark: Set test.marked on the module\n    alias: test-mark-alias\n",
					"  test-opts: Remark on its options\n    mode=<fast|slow>: how fast (default: fast)\n    n=<int>: how many (default: 1)\n",
					"  test-remark: Remark on each function\n    runs on: tt.func\n")
			}},
		{name: "-show-dialects", args: []string{"-show-dialects"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, "Available Dialects: ", "arith, ", "scf, ", "tt, ttg")
				if strings.Count(r.stdout, "\n") != 1 {
					t.Errorf("stdout %q, want one line", r.stdout)
				}
			}},
		{name: "-help", args: []string{"-help"},
			check: func(t *testing.T, r result) {
				contains(t, "stdout", r.stdout, "OVERVIEW: ", "Available Dialects: ", "USAGE: layout-opt [options] [input file]", "OPTIONS:")
				for _, f := range []string{"--allow-unregistered-dialect", "--dump-pass-pipeline", "--list-passes", "--mlir-print-debuginfo",
					"--mlir-print-ir-after-all", "--mlir-print-ir-after-change", "--mlir-print-ir-before-all", "--mlir-print-op-generic",
					"--mlir-timing", "-o <filename>", "--pass-pipeline=<pipeline>", "--split-input-file[=<marker>]",
					"--verify-diagnostics[=<mode>]", "--verify-each", "--version", "--show-dialects", "--mlir-print-ir-after-failure",
					"--mlir-print-ir-before=<passes>", "--mlir-print-ir-after=<passes>", "--mlir-print-ir-module-scope", "--mlir-print-local-scope",
					"--mlir-timing-display=<mode>", "--output-split-marker=<marker>", "--mlir-disable-threading"} {
					contains(t, "stdout", r.stdout, "\n  "+f+" ")
				}
				contains(t, "stdout", r.stdout, "Passes:\n", "--test-mark ", "-   Set test.marked on the module\n", "--test-mark-alias", "Alias for --test-mark",
					"--test-opts ", "mode=<fast|slow>", "how fast (default: fast)")
				if r.stderr != "" {
					t.Errorf("stderr %q", r.stderr)
				}
			}},
		{name: "-h", args: []string{"-h"},
			check: func(t *testing.T, r result) { contains(t, "stdout", r.stdout, "USAGE: layout-opt") }},
		{name: "-version", args: []string{"-version"},
			check: func(t *testing.T, r result) {
				if !strings.HasPrefix(r.stdout, "layout-opt version 0.1.0 (go") {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
		{name: "bad flag value", code: 1, args: []string{"-verify-each=maybe"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "layout-opt: error: invalid value \"maybe\" for -verify-each: parse error")
			}},
		{name: "bad -verify-diagnostics mode", code: 1, args: []string{"-verify-diagnostics=some"},
			check: func(t *testing.T, r result) {
				contains(t, "stderr", r.stderr, "layout-opt: error: invalid value \"some\" for -verify-diagnostics: want all or only-expected")
			}},
		{name: "-- ends the flags", files: map[string]string{"-weird.mlir": goodIR}, args: []string{"-test-mark", "--", "-weird.mlir"},
			check: func(t *testing.T, r result) {
				if r.stdout != marked {
					t.Errorf("stdout %q", r.stdout)
				}
			}},
	}
}

func runCases(t *testing.T, run func(t *testing.T, c driverCase, dir string) result) {
	for _, c := range driverCases(t) {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			for name, target := range c.links {
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			r := run(t, c, dir)
			if r.code != c.code {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, c.code, r.stdout, r.stderr)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

// TestDriverInProcess runs every case through Tool.Main.
func TestDriverInProcess(t *testing.T) {
	runCases(t, func(t *testing.T, c driverCase, dir string) result {
		return runInProcess(t, dir, c.stdin, c.args...)
	})
}

// TestDriverBinary runs every case through the built testtool binary
// (layout-opt plus the test passes).
func TestDriverBinary(t *testing.T) {
	runCases(t, func(t *testing.T, c driverCase, dir string) result {
		return runBinary(t, testToolBin, dir, c.stdin, c.args...)
	})
}

// TestLayoutOptBinary runs the real layout-opt binary: it prints, lists
// the layout passes, and reports errors like the driver under test.
func TestLayoutOptBinary(t *testing.T) {
	dir := writeFiles(t, map[string]string{"in.mlir": goodIR, "bad.mlir": badIR})
	r := runBinary(t, layoutOptBin, dir, "", "in.mlir")
	if r.code != 0 || r.stdout != canonical(t, goodIR, ir.PrintConfig{}) {
		t.Errorf("plain run: status %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, layoutOptBin, dir, "", "bad.mlir")
	if r.code != 1 || !strings.Contains(r.stderr, "bad.mlir:3:21: error: use of undeclared SSA value name '%x'") {
		t.Errorf("bad IR: status %d stderr %q", r.code, r.stderr)
	}
	r = runBinary(t, layoutOptBin, dir, "", "-list-passes")
	if r.code != 0 || strings.Contains(r.stdout, "test-mark") {
		t.Errorf("-list-passes: status %d, stdout %q (the test passes must not be in layout-opt)", r.code, r.stdout)
	}
	for _, name := range []string{"remove-redundant-conversions", "canonicalize-layouts"} {
		if !strings.Contains(r.stdout, "  "+name+": ") {
			t.Logf("layout-opt does not register %s yet", name)
		}
	}
	r = runBinary(t, layoutOptBin, dir, "", "in.mlir", "-test-mark")
	if r.code != 1 || !strings.Contains(r.stderr, "unknown command line argument '-test-mark'") {
		t.Errorf("test pass in layout-opt: status %d stderr %q", r.code, r.stderr)
	}
	r = runBinary(t, layoutOptBin, dir, "", "-version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "layout-opt version ") {
		t.Errorf("-version: %d %q", r.code, r.stdout)
	}
}

// TestOutputFilePermissions checks that -o keeps the mode of a file it
// replaces.
func TestOutputFilePermissions(t *testing.T) {
	dir := writeFiles(t, map[string]string{"in.mlir": goodIR, "out.mlir": "old"})
	out := filepath.Join(dir, "out.mlir")
	if err := os.Chmod(out, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runInProcess(t, dir, "", "in.mlir", "-o", "out.mlir"); r.code != 0 {
		t.Fatalf("status %d: %s", r.code, r.stderr)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

// convertKernel has one conversion between two spellings of the same
// layout, which remove-redundant-conversions removes.
const convertKernel = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%out: !tt.ptr<i32>) {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %2 = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked1>
    %3 = tt.addptr %2, %1 : tensor<128x!tt.ptr<i32>, #blocked1>, tensor<128xi32, #blocked1>
    tt.store %3, %1 : tensor<128x!tt.ptr<i32>, #blocked1>
    tt.return
  }
}
`

// TestLayoutOptRealPasses runs the layout passes through the real binary
// with the command lines users write, Triton's spelling included.
func TestLayoutOptRealPasses(t *testing.T) {
	for _, name := range []string{"remove-redundant-conversions", "canonicalize-layouts"} {
		if passes.Lookup(name) == nil {
			t.Skipf("pass %s is not registered", name)
		}
	}
	input := convertKernel + "\n// -----\n\n" + convertKernel
	dir := writeFiles(t, map[string]string{"k.mlir": input})
	for _, args := range [][]string{
		{"k.mlir", "-split-input-file", "--tritongpu-remove-layout-conversions"},
		{"k.mlir", "-split-input-file", "-remove-redundant-conversions", "-canonicalize-layouts"},
		{"k.mlir", "-split-input-file", "-pass-pipeline=builtin.module(canonicalize-layouts{form=linear},remove-redundant-conversions)"},
		{"k.mlir", "-split-input-file", "-pass-pipeline=builtin.module(tt.func(remove-redundant-conversions))"},
	} {
		r := runBinary(t, layoutOptBin, dir, "", args...)
		if r.code != 0 {
			t.Errorf("%v: status %d\n%s", args, r.code, r.stderr)
			continue
		}
		if strings.Contains(r.stdout, "ttg.convert_layout") || strings.Count(r.stdout, "tt.store") != 2 || strings.Count(r.stdout, "\n// -----\n") != 1 {
			t.Errorf("%v: want two modules without conversions:\n%s", args, r.stdout)
		}
	}
	r := runBinary(t, layoutOptBin, dir, "", "k.mlir", "-canonicalize-layouts=form=fancy")
	if r.code != 1 || !strings.Contains(r.stderr, `layout-opt: error: invalid options for -canonicalize-layouts="form=fancy": pass 'canonicalize-layouts': invalid value "fancy" for option 'form'`) {
		t.Errorf("bad form: status %d, stderr %q", r.code, r.stderr)
	}
	r = runBinary(t, layoutOptBin, dir, "", "-help")
	if r.code != 0 || !strings.Contains(r.stdout, "--tritongpu-remove-layout-conversions") || !strings.Contains(r.stdout, "form=<named|linear>") {
		t.Errorf("-help lacks the layout passes:\n%s", r.stdout)
	}
}

// BenchmarkDriver runs layout-opt in-process on a real Triton kernel:
// parse, verify, the pass (if any), verify, print.
func BenchmarkDriver(b *testing.B) {
	path := testenv.Shared(b, "triton36/prepost/softmax_b1024_sm90_w4.pre.ttgir")
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"print", []string{path}},
		{"remove-redundant-conversions", []string{path, "-remove-redundant-conversions"}},
		{"print-ir-after-all", []string{path, "-remove-redundant-conversions", "-canonicalize-layouts", "-mlir-print-ir-after-all", "-mlir-print-ir-after-change"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tool := &optdriver.Tool{}
			b.ReportAllocs()
			for b.Loop() {
				var out, errb bytes.Buffer
				if code := tool.Main(&proc.Proc{Args: bc.args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != 0 {
					b.Fatalf("status %d: %s", code, errb.String())
				}
			}
		})
	}
}

type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("writer exploded") }

// TestMainRecoversPanics checks that a bug surfaces as an error and exit
// status 1, not as a crash of the process hosting the driver.
func TestMainRecoversPanics(t *testing.T) {
	var errb bytes.Buffer
	code := optdriver.Main(&proc.Proc{Args: []string{"-version"}, Stdin: strings.NewReader(""), Stdout: panicWriter{}, Stderr: &errb})
	if code != 1 || errb.String() != "layout-opt: error: internal error: writer exploded (please report this bug)\n" {
		t.Errorf("status %d, stderr %q", code, errb.String())
	}
}

// TestMainConcurrent runs the driver from many goroutines at once, as the
// lit runner does, and checks that every run gives the same result.
func TestMainConcurrent(t *testing.T) {
	dir := writeFiles(t, map[string]string{"in.mlir": splitIR, "k.mlir": convertKernel})
	runs := [][]string{
		{"in.mlir", "-split-input-file", "-test-remark", "-mlir-print-ir-after-all", "-mlir-timing"},
		{"k.mlir", "-remove-redundant-conversions", "-canonicalize-layouts=form=linear", "-mlir-print-ir-after-change"},
	}
	want := make([]result, len(runs))
	for i, args := range runs {
		want[i] = runInProcess(t, dir, "", args...)
	}
	done := make(chan error)
	const n = 8
	for g := 0; g < n; g++ {
		go func() {
			for i, args := range runs {
				r := runInProcess(t, dir, "", args...)
				if r.code != want[i].code || r.stdout != want[i].stdout {
					done <- fmt.Errorf("run %v: status %d, stdout differs from the sequential run", args, r.code)
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < n; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestSharedKernels runs layout-opt in-process over every real Triton
// kernel in ../shared with the layout passes, as a user would, and checks
// that the output reads back and prints the same.
func TestSharedKernels(t *testing.T) {
	dir := filepath.Dir(testenv.Shared(t, "triton36/prepost/softmax_b1024_sm90_w4.pre.ttgir"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.pre.ttgir"))
	more, _ := filepath.Glob(filepath.Join(dir, "..", "ttgir", "*.ttgir"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("no shared kernels")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			r := runInProcess(t, "", "", path, "-tritongpu-remove-layout-conversions", "-canonicalize-layouts", "-mlir-print-debuginfo")
			if r.code != 0 {
				t.Fatalf("status %d:\n%s", r.code, r.stderr)
			}
			again := runInProcess(t, "", r.stdout, "-", "-mlir-print-debuginfo")
			if again.code != 0 {
				t.Fatalf("the output does not read back (status %d):\n%s", again.code, again.stderr)
			}
			if again.stdout != r.stdout {
				t.Errorf("the output is not a fixed point of printing")
			}
		})
	}
}
