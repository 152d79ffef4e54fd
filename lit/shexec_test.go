package lit

import (
	"bytes"
	"fmt"
	"github.com/layoutopt/layoutopt/proc"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTools are in-process tools for the shell tests.
func fakeTools() map[string]proc.Tool {
	tools := Builtins()
	tools["upper"] = func(p *proc.Proc) int { // stdin → stdout in upper case
		data, _ := io.ReadAll(p.Stdin)
		p.Stdout.Write(bytes.ToUpper(data))
		return 0
	}
	tools["both"] = func(p *proc.Proc) int { // writes to both streams
		fmt.Fprintln(p.Stdout, "to-stdout")
		fmt.Fprintln(p.Stderr, "to-stderr")
		return 0
	}
	tools["exit"] = func(p *proc.Proc) int { // exit N
		var n int
		fmt.Sscan(p.Args[0], &n)
		return n
	}
	tools["boom"] = func(p *proc.Proc) int { panic("boom") }
	tools["args"] = func(p *proc.Proc) int { // one argument a line, in brackets
		for _, a := range p.Args {
			fmt.Fprintf(p.Stdout, "[%s]\n", a)
		}
		return 0
	}
	tools["getenv"] = func(p *proc.Proc) int {
		v, ok := p.LookupEnv(p.Args[0])
		fmt.Fprintf(p.Stdout, "%s=%q %v\n", p.Args[0], v, ok)
		return 0
	}
	tools["pwd"] = func(p *proc.Proc) int {
		fmt.Fprintln(p.Stdout, p.Dir)
		return 0
	}
	tools["yes"] = func(p *proc.Proc) int { // writes until its reader goes away
		for i := 0; i < 1<<20; i++ {
			if _, err := io.WriteString(p.Stdout, "y\n"); err != nil {
				return 0
			}
		}
		return 0
	}
	tools["head1"] = func(p *proc.Proc) int { // copies one line, then stops reading
		var b [2]byte
		if _, err := io.ReadFull(p.Stdin, b[:]); err != nil {
			return 1
		}
		p.Stdout.Write(b[:])
		return 0
	}
	return tools
}

// runShell runs lines in a fresh shell in dir and returns the status of the
// last one with everything written to stdout and stderr.
func runShell(t *testing.T, dir string, lines ...string) (int, string, string) {
	t.Helper()
	var out, errb lockedBuffer
	sh := &shell{dir: dir, env: []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent"}, tools: fakeTools(), stdout: &out, stderr: &errb}
	st := 0
	for _, l := range lines {
		var err error
		st, err = sh.runLine(l)
		if err != nil {
			t.Fatalf("runLine(%q): %v", l, err)
		}
	}
	return st, out.buf.String(), errb.buf.String()
}

func TestShellRun(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("abc\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "x1.c"), nil, 0o666)
	os.WriteFile(filepath.Join(dir, "x2.c"), nil, 0o666)
	tests := []struct {
		name   string
		lines  []string
		status int
		stdout string
		stderr string // substring
	}{
		{"echo", []string{"echo hello  world"}, 0, "hello world\n", ""},
		{"quoting", []string{`args 'a b' "c\"d" e\ f ''`}, 0, "[a b]\n[c\"d]\n[e f]\n[]\n", ""},
		{"pipe", []string{"echo abc | upper | upper"}, 0, "ABC\n", ""},
		{"stdin redirect", []string{"upper < in.txt"}, 0, "ABC\n", ""},
		{"stdout redirect", []string{"echo one > out.txt", "echo two >> out.txt", "cat out.txt"}, 0, "one\ntwo\n", ""},
		{"stderr to file", []string{"both 2> err.txt", "cat err.txt"}, 0, "to-stdout\nto-stderr\n", ""},
		{"2>&1 into pipe", []string{"both 2>&1 | upper"}, 0, "TO-STDOUT\nTO-STDERR\n", ""},
		{"order of redirections", []string{"both 2>&1 > f.txt | upper", "cat f.txt"}, 0, "TO-STDERR\nto-stdout\n", ""},
		{"&>", []string{"both &> all.txt", "cat all.txt"}, 0, "to-stdout\nto-stderr\n", ""},
		{">&file", []string{"both >& all2.txt", "cat all2.txt"}, 0, "to-stdout\nto-stderr\n", ""},
		{"1>&2", []string{"echo hi 1>&2"}, 0, "", "hi\n"},
		{"and", []string{"true && echo yes"}, 0, "yes\n", ""},
		{"and short-circuits", []string{"false && echo yes"}, 1, "", ""},
		{"or", []string{"false || echo recovered"}, 0, "recovered\n", ""},
		{"or short-circuits", []string{"true || echo no"}, 0, "", ""},
		{"semicolon", []string{"false ; echo after"}, 0, "after\n", ""},
		{"left to right", []string{"false && echo a || echo b"}, 0, "b\n", ""},
		{"pipefail", []string{"exit 3 | upper"}, 3, "", ""},
		{"pipefail rightmost", []string{"exit 3 | exit 4 | true"}, 4, "", ""},
		{"last status", []string{"true | exit 5"}, 5, "", ""},
		{"not", []string{"not false"}, 0, "", ""},
		{"not success", []string{"not true"}, 1, "", ""},
		{"not not", []string{"not not true"}, 0, "", ""},
		{"not not failure", []string{"not not exit 2"}, 1, "", ""},
		{"not crash", []string{"not boom"}, 1, "", "panic: boom"},
		{"not --crash", []string{"not --crash boom"}, 0, "", "panic: boom"},
		{"not --crash without crash", []string{"not --crash false"}, 1, "", ""},
		{"crash status", []string{"boom"}, crashStatus, "", "panic: boom"},
		{"not in pipeline", []string{"not exit 1 | upper"}, 0, "", ""},
		{"not keeps redirections", []string{"not both > o.txt 2>&1 ; cat o.txt"}, 0, "to-stdout\nto-stderr\n", ""},
		{"unknown command", []string{"no-such-command-xyz"}, 127, "", "'no-such-command-xyz': command not found"},
		{"cd", []string{"mkdir sub", "cd sub", "pwd"}, 0, "", ""},
		{"export", []string{"export FOO=bar", "getenv FOO"}, 0, "FOO=\"bar\" true\n", ""},
		{"env", []string{"env A=1 B=2 getenv B"}, 0, "B=\"2\" true\n", ""},
		{"env -u", []string{"export FOO=x", "env -u FOO getenv FOO"}, 0, "FOO=\"\" false\n", ""},
		{"env does not leak", []string{"env A=1 true", "getenv A"}, 0, "A=\"\" false\n", ""},
		{"cd in pipeline", []string{"cd . | true"}, 127, "", "cannot be part of a pipeline"},
		{"cd to nowhere", []string{"cd nowhere"}, 1, "", "cd: nowhere: no such directory"},
		{"cd two args", []string{"cd a b"}, 1, "", "expected exactly one argument"},
		{"cd redirected", []string{"cd . > x"}, 1, "", "redirections are not supported"},
		{"export without =", []string{"export FOO"}, 1, "", "expected NAME=VALUE"},
		{"cd after env", []string{"env cd ."}, 127, "", "cannot be used here"},
		{"not alone", []string{"not"}, 1, "", "missing command"},
		{"env prints", []string{"env -i A=1"}, 0, "A=1\n", ""},
		{"bad fd", []string{"echo x 3> f"}, 1, "", "unsupported redirect of file descriptor 3"},
		{"bad dup", []string{"echo x 2>&5"}, 1, "", "unsupported redirect"},
		{"glob", []string{"args x*.c"}, 0, "[x1.c]\n[x2.c]\n", ""},
		{"quoted glob", []string{"args 'x*.c'"}, 0, "[x*.c]\n", ""},
		{"glob without match", []string{"args q*.z"}, 0, "[q*.z]\n", ""},
		{"missing input", []string{"cat < nope.txt"}, 1, "", "nope.txt"},
		{"early reader exit", []string{"yes | head1"}, 0, "y\n", ""},
		{"colon", []string{": 'RUN: at line 1'"}, 0, "", ""},
		{"external", []string{"sh -c 'echo ext; exit 4'"}, 4, "ext\n", ""},
		{"external in pipe", []string{"echo abc | sh -c 'tr a-z A-Z'"}, 0, "ABC\n", ""},
		{"external output not all read", []string{"sh -c 'echo a; echo b' | head1"}, 0, "a\n", ""},
		{"external early reader exit", []string{"yes | head -n 1"}, 0, "y\n", ""},
		{"external reads file", []string{"sh -c 'cat' < in.txt"}, 0, "abc\n", ""},
		{"external crash", []string{"not --crash sh -c 'kill -SEGV $$'"}, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			os.Mkdir(d, 0o777)
			for _, n := range []string{"in.txt", "x1.c", "x2.c"} {
				data, _ := os.ReadFile(filepath.Join(dir, n))
				os.WriteFile(filepath.Join(d, n), data, 0o666)
			}
			st, out, errs := runShell(t, d, tt.lines...)
			if st != tt.status {
				t.Errorf("status = %d, want %d (stderr %q)", st, tt.status, errs)
			}
			if tt.name == "cd" {
				tt.stdout = filepath.Join(d, "sub") + "\n"
			}
			if out != tt.stdout {
				t.Errorf("stdout = %q, want %q", out, tt.stdout)
			}
			if !strings.Contains(errs, tt.stderr) || tt.stderr == "" && errs != "" {
				t.Errorf("stderr = %q, want it to contain %q", errs, tt.stderr)
			}
		})
	}
}

func TestShellNoPipefail(t *testing.T) {
	var out, errb lockedBuffer
	sh := &shell{dir: t.TempDir(), tools: fakeTools(), stdout: &out, stderr: &errb, noPipefail: true}
	for line, want := range map[string]int{"exit 3 | true": 0, "true | exit 4": 4, "exit 3 | exit 5 | true": 0} {
		if st, err := sh.runLine(line); err != nil || st != want {
			t.Errorf("without pipefail, %q = %d, %v; want %d", line, st, err, want)
		}
	}
}

func TestShellToolPaths(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "fake")
	os.WriteFile(script, []byte("#!/bin/sh\necho external \"$@\"\n"), 0o777)
	var out, errb lockedBuffer
	sh := &shell{dir: dir, env: []string{"PATH=" + os.Getenv("PATH")}, tools: fakeTools(),
		toolPaths: map[string]string{"upper": script}, stdout: &out, stderr: &errb}
	if st, err := sh.runLine("upper x"); err != nil || st != 0 {
		t.Fatalf("status %d, err %v, stderr %q", st, err, errb.buf.String())
	}
	if got := out.buf.String(); got != "external x\n" {
		t.Errorf("a config tool path must shadow the in-process tool; got %q", got)
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o777)
	os.WriteFile(filepath.Join(bin, "tool"), []byte("#!/bin/sh\n"), 0o777)
	os.WriteFile(filepath.Join(bin, "data"), []byte("x"), 0o666)
	env := []string{"PATH=/nonexistent:" + bin}
	if p, err := lookPath("tool", dir, env); err != nil || p != filepath.Join(bin, "tool") {
		t.Errorf("lookPath(tool) = %q, %v", p, err)
	}
	if _, err := lookPath("data", dir, env); err == nil {
		t.Error("lookPath found a file that is not executable")
	}
	if p, err := lookPath("bin/tool", dir, nil); err != nil || p != filepath.Join(bin, "tool") {
		t.Errorf("lookPath(bin/tool) = %q, %v", p, err)
	}
	if _, err := lookPath("tool", dir, nil); err == nil {
		t.Error("lookPath found a tool without PATH")
	}
}

func BenchmarkShellPipeline(b *testing.B) {
	dir := b.TempDir()
	var out, errb lockedBuffer
	sh := &shell{dir: dir, tools: fakeTools(), stdout: &out, stderr: &errb}
	b.ReportAllocs()
	for b.Loop() {
		out.buf.Reset()
		if st, err := sh.runLine("echo hello world | upper | cat | count 1"); err != nil || st != 0 {
			b.Fatalf("status %d, err %v: %s", st, err, errb.buf.String())
		}
	}
}
