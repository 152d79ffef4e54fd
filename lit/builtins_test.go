package lit

import (
	"bytes"
	"github.com/layoutopt/layoutopt/proc"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runBuiltin runs a builtin by name in dir with stdin and returns its status,
// stdout and stderr.
func runBuiltin(t *testing.T, dir, name, stdin string, args ...string) (int, string, string) {
	t.Helper()
	tool, ok := Builtins()[name]
	if !ok {
		t.Fatalf("no builtin %q", name)
	}
	var out, errb bytes.Buffer
	st := tool(&proc.Proc{Args: args, Dir: dir, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return st, out.String(), errb.String()
}

func TestEcho(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "\n"},
		{[]string{"a", "b"}, "a b\n"},
		{[]string{"-n", "a"}, "a"},
		{[]string{"-e", `a\tb\nc`}, "a\tb\nc\n"},
		{[]string{"-e", `a\cb`}, "a"},
		{[]string{"-e", `\0101`}, "A\n"},
		{[]string{`a\tb`}, `a\tb` + "\n"},
		{[]string{"-ne", `x\n`}, "x\n"},
		{[]string{"-x"}, "-x\n"},
		{[]string{"-"}, "-\n"},
	}
	for _, tt := range tests {
		st, out, _ := runBuiltin(t, "", "echo", "", tt.args...)
		if st != 0 || out != tt.want {
			t.Errorf("echo %q = %d %q, want 0 %q", tt.args, st, out, tt.want)
		}
	}
}

func TestCat(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte("A\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "b"), []byte("B\x01\x7f\xe9\n"), 0o666)
	tests := []struct {
		args   []string
		stdin  string
		status int
		want   string
	}{
		{nil, "in\n", 0, "in\n"},
		{[]string{"a", "-", "a"}, "mid\n", 0, "A\nmid\nA\n"},
		{[]string{"-v", "b"}, "", 0, "B^A^?M-i\n"},
		{[]string{"a", "missing"}, "", 1, "A\n"},
		{[]string{"--bogus"}, "", 1, ""},
	}
	for _, tt := range tests {
		st, out, _ := runBuiltin(t, dir, "cat", tt.stdin, tt.args...)
		if st != tt.status || out != tt.want {
			t.Errorf("cat %q = %d %q, want %d %q", tt.args, st, out, tt.status, tt.want)
		}
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		arg    string
		stdin  string
		status int
	}{
		{"0", "", 0},
		{"0", "x", 0},
		{"1", "x\n", 0},
		{"2", "a\nb\n", 0},
		{"1", "a\nb", 0},
		{"3", "a\nb\n", 1},
		{"x", "", 2},
		{"-1", "", 2},
	}
	for _, tt := range tests {
		if st, _, errs := runBuiltin(t, "", "count", tt.stdin, tt.arg); st != tt.status {
			t.Errorf("count %s < %q = %d, want %d (%s)", tt.arg, tt.stdin, st, tt.status, errs)
		}
	}
	if _, _, errs := runBuiltin(t, "", "count", "a\n", "2"); errs != "Expected 2 lines, got 1.\n" {
		t.Errorf("count message = %q", errs)
	}
}

func TestDiff(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) { os.WriteFile(filepath.Join(dir, name), []byte(s), 0o666) }
	write("a", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n")
	write("b", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n")
	write("sp1", "a  b\nc\n")
	write("sp2", "a b \nc\n")
	write("sp3", "ab\nc\n")
	write("blank", "a b \n\nc\n")
	write("crlf", "a  b\r\nc\r\n")
	tests := []struct {
		args   []string
		stdin  string
		status int
		want   string
	}{
		{[]string{"a", "a"}, "", 0, ""},
		{[]string{"a", "b"}, "", 1, "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{[]string{"-U", "1", "a", "b"}, "", 1, "--- a\n+++ b\n@@ -4,3 +4,3 @@\n 4\n-5\n+five\n 6\n"},
		{[]string{"-U0", "a", "b"}, "", 1, "--- a\n+++ b\n@@ -5 +5 @@\n-5\n+five\n"},
		{[]string{"sp1", "sp2"}, "", 1, ""},
		{[]string{"-b", "sp1", "sp2"}, "", 0, ""},
		{[]string{"-b", "sp1", "sp3"}, "", 1, ""},
		{[]string{"-w", "sp1", "sp3"}, "", 0, ""},
		{[]string{"-b", "sp2", "blank"}, "", 1, ""},
		{[]string{"-b", "-B", "sp2", "blank"}, "", 0, ""},
		{[]string{"sp1", "crlf"}, "", 1, ""},
		{[]string{"--strip-trailing-cr", "sp1", "crlf"}, "", 0, ""},
		{[]string{"-", "sp1"}, "a  b\nc\n", 0, ""},
		{[]string{"a"}, "", 2, ""},
		{[]string{"a", "missing"}, "", 2, ""},
		{[]string{"-q", "a", "a"}, "", 2, ""},
	}
	for _, tt := range tests {
		st, out, errs := runBuiltin(t, dir, "diff", tt.stdin, tt.args...)
		if st != tt.status {
			t.Errorf("diff %q = %d, want %d (%s)", tt.args, st, tt.status, errs)
		}
		if tt.want != "" && out != tt.want {
			t.Errorf("diff %q printed\n%s\nwant\n%s", tt.args, out, tt.want)
		}
	}
}

func TestUnifiedDiffEdges(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"", "x\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"},
		{"x\n", "", "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n"},
		{"1\n2\n", "0\n1\n2\n", "--- a\n+++ b\n@@ -1,2 +1,3 @@\n+0\n 1\n 2\n"},
	}
	for _, tt := range tests {
		if got := unifiedDiff("a", "b", tt.a, tt.b, diffOptions{context: 3}); got != tt.want {
			t.Errorf("unifiedDiff(%q, %q) =\n%s\nwant\n%s", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestMkdirRm(t *testing.T) {
	dir := t.TempDir()
	steps := []struct {
		tool   string
		args   []string
		status int
	}{
		{"mkdir", []string{"a"}, 0},
		{"mkdir", []string{"a"}, 1},
		{"mkdir", []string{"-p", "a/b/c"}, 0},
		{"mkdir", []string{"-p", "a/b/c"}, 0},
		{"mkdir", nil, 1},
		{"rm", []string{"a"}, 1},
		{"rm", []string{"missing"}, 1},
		{"rm", []string{"-f", "missing"}, 0},
		{"rm", []string{"-rf", "a"}, 0},
		{"rm", nil, 1},
	}
	for _, s := range steps {
		if st, _, errs := runBuiltin(t, dir, s.tool, "", s.args...); st != s.status {
			t.Errorf("%s %q = %d, want %d (%s)", s.tool, s.args, st, s.status, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Errorf("rm -rf a left a behind: %v", err)
	}
}

func TestSplitFile(t *testing.T) {
	dir := t.TempDir()
	input := "// RUN: split-file %s %t\n//--- a.mlir\nA1\nA2\n//--- sub/b.txt\nB\n#--- c\nC\n"
	os.WriteFile(filepath.Join(dir, "in"), []byte(input), 0o666)
	if st, _, errs := runBuiltin(t, dir, "split-file", "", "in", "out"); st != 0 {
		t.Fatalf("split-file: %d %s", st, errs)
	}
	want := map[string]string{"a.mlir": "A1\nA2\n", "sub/b.txt": "B\n", "c": "C\n"}
	for name, content := range want {
		got, err := os.ReadFile(filepath.Join(dir, "out", name))
		if err != nil || string(got) != content {
			t.Errorf("part %s = %q, %v; want %q", name, got, err, content)
		}
	}
	if st, _, errs := runBuiltin(t, dir, "split-file", "", "--leading-lines", "in", "lead"); st != 0 {
		t.Fatalf("split-file --leading-lines: %d %s", st, errs)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "lead", "sub/b.txt"))
	if string(got) != "\n\n\n\n\nB\n" {
		t.Errorf("--leading-lines part = %q", got)
	}
	for _, bad := range []struct{ input, msg string }{
		{"nothing here\n", "no part separator"},
		{"//--- a\n//--- a\n", "occurs more than once"},
		{"//--- \n", "empty part name"},
		{"//---  a\n", "leading or trailing space"},
	} {
		os.WriteFile(filepath.Join(dir, "bad"), []byte(bad.input), 0o666)
		st, _, errs := runBuiltin(t, dir, "split-file", "", "bad", "o2")
		if st != 1 || !strings.Contains(errs, bad.msg) {
			t.Errorf("split-file on %q = %d %q, want 1 and %q", bad.input, st, errs, bad.msg)
		}
	}
}
