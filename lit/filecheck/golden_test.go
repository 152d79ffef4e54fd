package filecheck

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from LLVM FileCheck 14")

// goldenCases are failure reports whose text must equal LLVM FileCheck's
// byte for byte. The golden files hold LLVM's exit status and stderr.
var goldenCases = []struct {
	name, check, input string
	args               []string
}{
	{"next-not-found", "CHECK: foo\nCHECK-NEXT: baz\n", "foo\nbar\n", nil},
	{"check-not-found", "CHECK: hello\nCHECK: world\n", "hello there\nwrld\nplanet\n", nil},
	{"not-found-in-input", "CHECK: a\nCHECK-NOT: bad\nCHECK: b\n", "a\nbad stuff\nb\n", nil},
	{"same-wrong-line", "CHECK: a\nCHECK-SAME: b\n", "a\nb\n", nil},
	{"next-same-line", "CHECK: a\nCHECK-NEXT: b\n", "a b\n", nil},
	{"next-skipped-line", "CHECK: a\nCHECK-NEXT: c\n", "a\nb\nc\n", nil},
	{"empty-fails", "CHECK: a\nCHECK-EMPTY:\nCHECK: c\n", "a\nb\n\nc\n", nil},
	{"dag-not-found", "CHECK-DAG: x\nCHECK-DAG: y\nCHECK-DAG: z\n", "y\nx\nw\n", nil},
	{"dag-not-between", "CHECK-DAG: a\nCHECK-NOT: bad\nCHECK-DAG: b\n", "a\nbad\nb\n", nil},
	{"label-blocks", "CHECK-LABEL: f1\nCHECK: one\nCHECK-LABEL: f2\nCHECK: two\n", "f1\nzero\nf2\nthree\n", nil},
	{"label-missing", "CHECK-LABEL: f1\nCHECK-LABEL: f9\n", "f1\nf2\n", nil},
	{"count", "CHECK-COUNT-3: x\n", "x\nx\ny\n", nil},
	{"implicit-check-not", "CHECK: a\nCHECK: b\n", "a\nwarning\nb\n", []string{"--implicit-check-not=warning"}},
	{"undefined-variable", "CHECK: [[X]]\n", "hi\n", nil},
	{"variables", "CHECK: op [[R:r[0-9]+]], [[#N:]]\nCHECK: use [[R]] [[#N+1]]\n", "op r4, 7\nuse r4 9\n", nil},
	{"hex-format", "CHECK: addr 0x[[#%x,A:]]\nCHECK: next 0x[[#%x,A+16]]\n", "addr 0xff\nnext 0x10e\n", nil},
	{"verbose-always", "CHECK: a\nCHECK-NEXT: b\nCHECK-NOT: c\n", "a\nb\nd\n", []string{"-v", "--dump-input=always"}},
	{"very-verbose", "CHECK-DAG: a\nCHECK-DAG: a\nCHECK: z\n", "a a\nb\n", []string{"-vv"}},
	{"filter-annotation", "CHECK: a\nCHECK: q\n", "a\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n", []string{"--dump-input-filter=annotation", "--dump-input-context=2"}},
	{"elision", "CHECK: x\nCHECK: needle\n", "x\n" + strings.Repeat("filler\n", 20) + "neeedle\n" + strings.Repeat("more\n", 10), nil},
	{"empty-input", "CHECK: a\n", "", nil},
	{"bad-prefix", "CHECK: a\n", "a\n", []string{"--check-prefix=A B"}},
	{"unused-prefix", "A: a\n", "a\n", []string{"--check-prefixes=A,B"}},
	{"unterminated-regex", "CHECK: {{abc\n", "abc\n", nil},
	{"not-combo", "CHECK-DAG-NOT: x\n", "x\n", nil},
	{"bad-count", "CHECK-COUNT-0: x\n", "x\n", nil},
	{"next-first", "CHECK-NEXT: x\n", "x\n", nil},
	{"global-define-error", "CHECK: x\n", "x\n", []string{"-D1X=3", "-DNOEQ"}},
	{"numeric-define", "CHECK: v[[#N+1]] [[S]]\n", "v5 str\n", []string{"-D#N=4", "-DS=str"}},
	{"full-lines", "CHECK: a b\n", "  a b c\n", []string{"--match-full-lines"}},
	{"strict-whitespace", "CHECK: a b\n", "a\tb\n", []string{"--strict-whitespace"}},
	{"tabs-in-input", "CHECK: a\tb\tzz\n", "x\ta\tb\tc\n", []string{"--strict-whitespace"}},
	{"crlf", "CHECK: a\r\nCHECK-EMPTY:\r\nCHECK-NEXT: c\r\n", "a\r\n\r\nb\r\n", nil},
	{"ignore-case", "CHECK: HELLO\nCHECK: World\n", "hello\nplanet\n", []string{"--ignore-case"}},
	{"literal", "CHECK{LITERAL}: {{x}}\n", "{{y}}\n", nil},
	{"var-scope", "CHECK: [[V:[a-z]+]] [[$G:[a-z]+]]\nCHECK-LABEL: f\nCHECK: [[G]] [[V]]\n", "ab cd\nf\ncd ab\n", []string{"--enable-var-scope"}},
	{"overflow", "CHECK: [[#N:]] [[#N*2]]\n", "5 10\n", nil},
	{"missing-bracket", "CHECK: [[a]b]]\n", "x\n", nil},
	{"verbose-no-dump", "CHECK: [[V:[a-z]+]] [[#N:]]\nCHECK-NEXT: [[V]]\nCHECK-NOT: q\n", "ab 12\nab\n", []string{"-v", "--dump-input=never"}},
	{"dag-verbose-always", "CHECK-DAG: x\nCHECK-DAG: y\nCHECK-NOT: z\nCHECK-DAG: w\n", "y x\nw\n", []string{"-vv", "--dump-input=always"}},
	{"color-next", "CHECK: foo\nCHECK-NEXT: baz\n", "foo\nbar\n", []string{"--color"}},
	{"color-verbose", "CHECK: a\nCHECK-NEXT: b\nCHECK-NOT: c\nCHECK: zz\n", "x a y\nb\nd\n", []string{"--color", "-v"}},
	{"color-vv-elision", "CHECK-DAG: a\nCHECK-DAG: a\nCHECK: [[X]]\n", "a a\n" + strings.Repeat("f\n", 12) + "q\n", []string{"--color", "-vv"}},
	{"color-remarks", "CHECK: [[V:[a-z]+]]\nCHECK-NOT: q\n", "ab\n", []string{"--color", "-v", "--dump-input=never"}},
	{"numeric-unrepresentable", "CHECK: v [[#%X,N:]] w\n", "v 4611686018427387907 w\n", nil},
	{"comment-prefix", "COM: CHECK: ignored\nRUN: CHECK: also\nCHECK: z\n", "a\n", nil},
}

func goldenPath(name string) string { return filepath.Join("testdata", "golden", name+".txt") }

// runLLVMGolden runs LLVM FileCheck for a golden case: "exit N\n" + stderr.
func runLLVMGolden(t *testing.T, dir, input string, args []string) string {
	r, err := runLLVM(dir, genCase{input: input, args: args})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("exit %d\n%s", r.status, strings.ReplaceAll(r.stderr, llvmFileCheck, "FileCheck"))
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "check.txt"), []byte(tc.check), 0o644); err != nil {
				t.Fatal(err)
			}
			if *update {
				if _, err := os.Stat(llvmFileCheck); err != nil {
					t.Skip("LLVM FileCheck not installed")
				}
				if err := os.WriteFile(goldenPath(tc.name), []byte(runLLVMGolden(t, dir, tc.input, tc.args)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(goldenPath(tc.name))
			if err != nil {
				t.Fatal(err)
			}
			r := runGo(dir, genCase{input: tc.input, args: tc.args})
			got := fmt.Sprintf("exit %d\n%s", r.status, strings.ReplaceAll(r.stderr, "FileCheck --next-diff=false ", "FileCheck "))
			if got != string(want) {
				t.Errorf("output differs from LLVM FileCheck (-want +got):\n%s", lineDiff(strings.Split(string(want), "\n"), strings.Split(got, "\n")))
			}
		})
	}
}
