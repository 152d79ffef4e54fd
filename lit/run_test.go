package lit

import (
	"github.com/layoutopt/layoutopt/proc"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBuiltinSubstitutions(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.MkdirAll(filepath.Join(real, "Output"), 0o777)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	realDir, _ := filepath.EvalSymlinks(real)
	file := filepath.Join(link, "a.mlir")
	subs := builtinSubstitutions(file, filepath.Join(link, "Output"), filepath.Join(link, "Output", "a.mlir"))
	tests := []struct{ in, want string }{
		{"%s", file},
		{"%S %p", link + " " + link},
		{"%t", filepath.Join(link, "Output", "a.mlir.tmp")},
		{"%T", filepath.Join(link, "Output")},
		{"%/s", filepath.ToSlash(file)},
		{"%:t", filepath.Join(link, "Output", "a.mlir.tmp")},
		{"%{s:real}", filepath.Join(realDir, "a.mlir")},
		{"%{t:real}", filepath.Join(realDir, "Output", "a.mlir.tmp")},
		{"%{S:real}", realDir},
		{"%{s:basename} %{s:stem} %{t:stem} %basename_t", "a.mlir a a.mlir a.mlir"},
		{"a%{pathsep}b%{fs-sep}c %{fs-src-root}", "a" + string(os.PathListSeparator) + "b" + string(filepath.Separator) + "c /"},
		{"%%s %s%%", "%s " + file + "%"},
	}
	for _, tt := range tests {
		if got := substitute(tt.in, subs); got != tt.want {
			t.Errorf("substitute(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := noDriveColon(`C:\x`); got != `C\x` {
		t.Errorf("noDriveColon = %q", got)
	}
}

func TestCodeNames(t *testing.T) {
	for c := Excluded; c <= XPass; c++ {
		if c.String() == "" || c.Label() == "" || c.String() == c.Label() {
			t.Errorf("code %d: %q %q", int(c), c.String(), c.Label())
		}
	}
	if got := Code(99).String(); got != "Code(99)" {
		t.Errorf("Code(99) = %q", got)
	}
	failures := map[Code]bool{Fail: true, XPass: true, Unresolved: true, Timeout: true}
	for c := Excluded; c <= XPass; c++ {
		if c.IsFailure() != failures[c] {
			t.Errorf("%v.IsFailure() = %v", c, c.IsFailure())
		}
	}
}

func TestTimeout(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"lit.cfg":       "name = T\nsuffixes = .test\n",
		"inproc.test":   "RUN: nap\n",
		"external.test": "RUN: sleep 10\n",
		"quick.test":    "RUN: true\n",
	})
	tests, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	nap := func(p *proc.Proc) int { time.Sleep(2 * time.Second); return 0 }
	r := &Runner{Tools: map[string]proc.Tool{"nap": nap}, Env: []string{"PATH=" + os.Getenv("PATH")}, Timeout: 200 * time.Millisecond}
	want := map[string]Code{"inproc.test": Timeout, "external.test": Timeout, "quick.test": Pass}
	for _, tt := range tests {
		start := time.Now()
		res := r.Run(tt)
		if res.Code != want[tt.Rel] {
			t.Errorf("%s: %v, want %v\n%s", tt.Rel, res.Code, want[tt.Rel], res.Output)
		}
		if d := time.Since(start); d > 1500*time.Millisecond {
			t.Errorf("%s took %v despite the 200ms timeout", tt.Rel, d)
		}
		if res.Code == Timeout && !strings.HasPrefix(res.Output, "Reached timeout of 200ms") {
			t.Errorf("%s output = %q", tt.Rel, res.Output)
		}
	}
}

func TestRunShellSyntaxError(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"lit.cfg":     "name = S\nsuffixes = .test\n",
		"syntax.test": "RUN: echo ok\nRUN: echo 'unterminated\n",
	})
	tests, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := (&Runner{}).Run(tests[0])
	if res.Code != Fail || !strings.Contains(res.Output, "shell parser error on RUN: at line 2: col 7: missing closing quote") ||
		!strings.Contains(res.Output, "Command Output (stdout):\n--\nok\n--") {
		t.Errorf("%v\n%s", res.Code, res.Output)
	}
}
