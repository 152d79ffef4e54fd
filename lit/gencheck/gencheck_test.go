package gencheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/proc"
)

const sampleIR = `#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @convert(%arg0: tensor<128x64xf16, #blocked>, %arg1: i32) -> tensor<128x64xf16, #blocked1> {
    %c0 = arith.constant 0 : index
    %0 = ttg.convert_layout %arg0 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked1>
    %1 = scf.for %i = %c0 to %c0 step %c0 iter_args(%a = %0) -> (tensor<128x64xf16, #blocked1>) {
      %2 = arith.addf %a, %a : tensor<128x64xf16, #blocked1>
      scf.yield %2 : tensor<128x64xf16, #blocked1>
    }
    tt.return %1 : tensor<128x64xf16, #blocked1>
  }
  tt.func @second(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc("x.mlir":3:4)
    ^bb1(%x: i32):  // pred: ^bb0
    tt.return %0 : i32
  }
}

// -----
module {
  tt.func @third() {
    %0 = "test.op"() {attr = [[1]], re = "{{x}}"} : () -> tensor<[%a]>
    tt.return
  }
}
`

func TestGenerate(t *testing.T) {
	var out bytes.Buffer
	if err := Generate(&out, strings.NewReader(sampleIR), Options{}); err != nil {
		t.Fatal(err)
	}
	want := `// CHECK: #[[$BLOCKED:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[$BLOCKED1:.+]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @convert(
// CHECK-SAME:  %[[ARG0:[a-zA-Z0-9$._-]+]]: tensor<128x64xf16, #[[$BLOCKED]]>,
// CHECK-SAME:  %[[ARG1:[a-zA-Z0-9$._-]+]]: i32) -> tensor<128x64xf16, #[[$BLOCKED1]]> {
// CHECK:           %[[VAL_0:.*]] = arith.constant 0 : index
// CHECK:           %[[VAL_1:.*]] = ttg.convert_layout %[[ARG0]] : tensor<128x64xf16, #[[$BLOCKED]]> -> tensor<128x64xf16, #[[$BLOCKED1]]>
// CHECK:           %[[VAL_2:.*]] = scf.for %[[VAL_3:.*]] = %[[VAL_0]] to %[[VAL_0]] step %[[VAL_0]] iter_args(%[[VAL_4:.*]] = %[[VAL_1]]) -> (tensor<128x64xf16, #[[$BLOCKED1]]>) {
// CHECK:             %[[VAL_5:.*]] = arith.addf %[[VAL_4]], %[[VAL_4]] : tensor<128x64xf16, #[[$BLOCKED1]]>
// CHECK:             scf.yield %[[VAL_5]] : tensor<128x64xf16, #[[$BLOCKED1]]>
// CHECK:           }
// CHECK:           tt.return %[[VAL_2]] : tensor<128x64xf16, #[[$BLOCKED1]]>
// CHECK:         }

// CHECK-LABEL: tt.func @second(
// CHECK-SAME:  %[[ARG0:[a-zA-Z0-9$._-]+]]: i32) -> i32 {
// CHECK:           %[[VAL_0:.*]] = arith.addi %[[ARG0]], %[[ARG0]] : i32 loc("x.mlir":3:4)
// CHECK:           ^bb1(%[[VAL_1:.*]]: i32):
// CHECK:           tt.return %[[VAL_0]] : i32
// CHECK:         }

// CHECK-LABEL: tt.func @third() {
// CHECK:           %[[VAL_0:.*]] = "test.op"() {attr = {{\[\[}}1]], re = "{{\{\{}}x}}"} : () -> tensor<{{\[}}%[[VAL_1:.*]]]>
// CHECK:           tt.return
// CHECK:         }

`
	if got := out.String(); got != want {
		t.Errorf("Generate =\n%s\nwant\n%s", got, want)
	}
}

func TestGenerateOptions(t *testing.T) {
	in := "func @f(%arg0: i32, %arg1: i32) {\n  %sum = add %arg0, %arg1\n  %0 = neg %sum\n}\n"
	tests := []struct {
		opts Options
		want string
	}{
		{Options{StartScope: -1, SSANames: true, Prefix: "OPT", Comment: ";"},
			"; OPT-LABEL: func @f(\n" +
				"; OPT-SAME:  %[[ARG0:[a-zA-Z0-9$._-]+]]: i32,\n" +
				"; OPT-SAME:  %[[ARG1:[a-zA-Z0-9$._-]+]]: i32) {\n" +
				"; OPT:         %[[SUM:.*]] = add %[[ARG0]], %[[ARG1]]\n" +
				"; OPT:         %[[VAL_0:.*]] = neg %[[SUM]]\n" +
				"; OPT:       }\n\n"},
		{Options{StartScope: -1, StrictNames: true},
			"// CHECK-LABEL: func @f(\n" +
				"// CHECK-SAME:  %[[ARG0:[a-zA-Z0-9$._-]+]]: i32,\n" +
				"// CHECK-SAME:  %[[ARG1:[a-zA-Z0-9$._-]+]]: i32) {\n" +
				"// CHECK:         %[[VAL_0:[a-zA-Z0-9$._-]+]] = add %[[ARG0]], %[[ARG1]]\n" +
				"// CHECK:         %[[VAL_1:[a-zA-Z0-9$._-]+]] = neg %[[VAL_0]]\n" +
				"// CHECK:       }\n\n"},
		{Options{}, ""}, // depth 1 is inside the function: body only, no label
	}
	for i, tt := range tests {
		var out bytes.Buffer
		if err := Generate(&out, strings.NewReader(in), tt.opts); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			if strings.Contains(out.String(), "func @f") || !strings.Contains(out.String(), "// CHECK:         %[[VAL_0:.*]] = add %[[VAL_1:.*]], %[[VAL_2:.*]]\n") {
				t.Errorf("StartScope 1 on a bare function:\n%s", out.String())
			}
			continue
		}
		if out.String() != tt.want {
			t.Errorf("options %+v:\n%s\nwant\n%s", tt.opts, out.String(), tt.want)
		}
	}
}

func TestGenerateDuplicateSSANames(t *testing.T) {
	in := "module {\n  func @f(%x: i32) {\n    %y = a %x\n  }\n  func @g(%X: i32) {\n    %x = b %X\n  }\n}\n"
	var out bytes.Buffer
	if err := Generate(&out, strings.NewReader(in), Options{SSANames: true}); err != nil {
		t.Fatal(err)
	}
	// In @g, %X and %x would both be named X; the second gets a suffix.
	if !strings.Contains(out.String(), "%[[X_0:.*]] = b %[[X]]") {
		t.Errorf("duplicate names not disambiguated:\n%s", out.String())
	}
}

// TestGenerateWithFileCheck checks the generated lines against their own
// input with LLVM's FileCheck, when it is installed: generated checks must
// pass on the output they were generated from.
func TestGenerateWithFileCheck(t *testing.T) {
	fc, err := exec.LookPath("FileCheck-14")
	if err != nil {
		if fc, err = exec.LookPath("FileCheck"); err != nil {
			t.Skip("no FileCheck on PATH")
		}
	}
	for _, opts := range []Options{{}, {SSANames: true}, {StrictNames: true}} {
		var checks bytes.Buffer
		if err := Generate(&checks, strings.NewReader(sampleIR), opts); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "checks.txt")
		os.WriteFile(file, checks.Bytes(), 0o666)
		cmd := exec.Command(fc, file, "--enable-var-scope")
		cmd.Stdin = strings.NewReader(sampleIR)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("FileCheck rejects the generated checks (%+v): %v\n%s\nchecks:\n%s", opts, err, out, checks.String())
		}
	}
}

func TestMain_(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.mlir"), []byte(sampleIR), 0o666)
	run := func(stdin string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		st := Main(&proc.Proc{Args: args, Dir: dir, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
		return st, out.String(), errb.String()
	}
	st, fromFile, _ := run("", "in.mlir")
	st2, fromStdin, _ := run(sampleIR)
	if st != 0 || st2 != 0 || fromFile != fromStdin || !strings.Contains(fromFile, "CHECK-LABEL: tt.func @convert(") {
		t.Errorf("gen-checks file/stdin: %d %d\n%s", st, st2, fromFile)
	}
	if st, out, _ := run("", "--check-prefix=CONV", "-o", "out.txt", "in.mlir"); st != 0 || out != "" {
		t.Errorf("-o: status %d, stdout %q", st, out)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
	if !strings.HasPrefix(string(data), "// CONV: #[[$BLOCKED:") {
		t.Errorf("-o file = %q", data)
	}
	if st, out, _ := run("", "--starts-from-scope=0", "in.mlir"); st != 0 || !strings.Contains(out, "CHECK-LABEL: module attributes") {
		t.Errorf("--starts-from-scope=0: %d\n%s", st, out)
	}
	for _, args := range [][]string{{"missing.mlir"}, {"a", "b"}, {"--bogus"}} {
		if st, _, _ := run("", args...); st == 0 {
			t.Errorf("gen-checks %q succeeded", args)
		}
	}
	// --source - reads the test from standard input, and then the tool
	// output must come from a file.
	test := "// RUN: layout-opt %s | FileCheck %s\n" + sampleIR
	st, viaStdin, _ := run(test, "--source", "-", "in.mlir")
	os.WriteFile(filepath.Join(dir, "test.mlir"), []byte(test), 0o666)
	st2, viaFile, _ := run("", "--source", "test.mlir", "in.mlir")
	if st != 0 || st2 != 0 || viaStdin != viaFile || !strings.Contains(viaStdin, "CHECK-LABEL: tt.func @convert(") {
		t.Errorf("--source -: status %d/%d, output\n%s\nwant\n%s", st, st2, viaStdin, viaFile)
	}
	// The default --source-delim-regex finds a kernel with a visibility,
	// as Triton prints it.
	public := strings.ReplaceAll(test, "tt.func @", "tt.func public @")
	if st, out, errs := run(public, "--source", "-", "in.mlir"); st != 0 || !strings.Contains(out, "CHECK-LABEL: tt.func @convert(") {
		t.Errorf("--source with tt.func public: status %d, stderr %q\n%s", st, errs, out)
	}
	for _, args := range [][]string{{"--source", "-"}, {"--source", "-", "-"}, {"--source", "-", "-i", "in.mlir"}} {
		if st, _, errs := run(test, args...); st == 0 || !strings.Contains(errs, "--source - reads the test from standard input") {
			t.Errorf("gen-checks %q: status %d, stderr %q", args, st, errs)
		}
	}
}

var checkLine = regexp.MustCompile(`^// CHECK(-LABEL|-SAME)?: `)

// FuzzGenerate checks that any input gives check lines (never a panic),
// each in the expected form.
func FuzzGenerate(f *testing.F) {
	f.Add(sampleIR)
	f.Add("}\n}\n{\n%")
	f.Add("#a = #a\n#a = #b\n")
	f.Add("  ^bb0:\n%0, %1 = x {\n")
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		if err := Generate(&out, strings.NewReader(in), Options{StartScope: -1}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if l != "" && !checkLine.MatchString(l) {
				t.Fatalf("bad line %q for input %q", l, in)
			}
		}
	})
}

func BenchmarkGenerate(b *testing.B) {
	in := strings.Repeat(sampleIR, 20)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if err := Generate(&bytes.Buffer{}, strings.NewReader(in), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

const sampleSource = `// RUN: layout-opt %s | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  // CHECK-LABEL: stale check, replaced
  tt.func @f(%arg0: i32) -> i32 {
    tt.return %arg0 : i32
  }

  tt.func @g() {
    tt.return
  }
}
`

const sampleOutput = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  tt.func @f(%arg0: i32) -> i32 {
    tt.return %arg0 : i32
  }
  tt.func @g() {
    tt.return
  }
}
`

func TestUpdate(t *testing.T) {
	delim := regexp.MustCompile(`func @`)
	var out bytes.Buffer
	if err := Update(&out, strings.NewReader(sampleSource), strings.NewReader(sampleOutput), Options{}, delim); err != nil {
		t.Fatal(err)
	}
	want := `// RUN: layout-opt %s | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
// CHECK: #[[$BLOCKED:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @f(
// CHECK-SAME:  %[[ARG0:[a-zA-Z0-9$._-]+]]: i32) -> i32 {
// CHECK:           tt.return %[[ARG0]] : i32
// CHECK:         }
  tt.func @f(%arg0: i32) -> i32 {
    tt.return %arg0 : i32
  }

// CHECK-LABEL: tt.func @g() {
// CHECK:           tt.return
// CHECK:         }
  tt.func @g() {
    tt.return
  }
}
`
	if out.String() != want {
		t.Errorf("Update =\n%s\nwant\n%s", out.String(), want)
	}

	// Updating again with the same output changes nothing.
	var again bytes.Buffer
	if err := Update(&again, strings.NewReader(out.String()), strings.NewReader(sampleOutput), Options{}, delim); err != nil {
		t.Fatal(err)
	}
	if again.String() != out.String() {
		t.Errorf("Update is not idempotent:\n%s", again.String())
	}

	// A different prefix leaves the CHECK lines alone.
	var other bytes.Buffer
	if err := Update(&other, strings.NewReader(out.String()), strings.NewReader(sampleOutput), Options{Prefix: "OPT"}, delim); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(other.String(), "// CHECK:         }\n// OPT-LABEL: tt.func @g() {") {
		t.Errorf("Update with prefix OPT:\n%s", other.String())
	}

	err := Update(&bytes.Buffer{}, strings.NewReader("tt.func @only() {\n}\n"), strings.NewReader(sampleOutput), Options{}, delim)
	if err == nil || !strings.Contains(err.Error(), "the source has 1 operations") {
		t.Errorf("mismatched sections: %v", err)
	}
}

func TestMainInPlace(t *testing.T) {
	dir := t.TempDir()
	test := filepath.Join(dir, "t.mlir")
	os.WriteFile(test, []byte(sampleSource), 0o640)
	var out, errb bytes.Buffer
	p := &proc.Proc{Args: []string{"--source", "t.mlir", "-i"}, Dir: dir, Stdin: strings.NewReader(sampleOutput), Stdout: &out, Stderr: &errb}
	if st := Main(p); st != 0 || out.Len() != 0 {
		t.Fatalf("gen-checks -i: %d %q %s", st, out.String(), errb.String())
	}
	data, _ := os.ReadFile(test)
	if !strings.Contains(string(data), "// CHECK:         }\n  tt.func @g() {") || strings.Contains(string(data), "stale") {
		t.Errorf("rewritten test:\n%s", data)
	}
	if fi, _ := os.Stat(test); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode changed to %v", fi.Mode())
	}
	for _, args := range [][]string{{"-i"}, {"--source", "t.mlir", "-i", "-o", "x"}, {"--source-delim-regex", "(", "--source", "t.mlir"}, {"--source", "missing.mlir"}} {
		p := &proc.Proc{Args: args, Dir: dir, Stdin: strings.NewReader(sampleOutput), Stdout: &out, Stderr: &errb}
		if st := Main(p); st == 0 {
			t.Errorf("gen-checks %q succeeded", args)
		}
	}
}
