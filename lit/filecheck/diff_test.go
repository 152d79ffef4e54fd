package filecheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/layoutopt/layoutopt/proc"
)

const llvmFileCheck = "/usr/lib/llvm-14/bin/FileCheck"

// runResult is what a FileCheck run produced.
type runResult struct {
	status int
	stderr string
}

var firstErrorRE = regexp.MustCompile(`(?m)^(.*?):(\d+):(\d+): error: `)

// firstErrorLoc returns "file:line" of the first located error, or "".
func firstErrorLoc(stderr string) string {
	m := firstErrorRE.FindStringSubmatch(stderr)
	if m == nil {
		return ""
	}
	return m[1] + ":" + m[2]
}

func runLLVM(dir string, c genCase) (runResult, error) {
	cmd := exec.Command(llvmFileCheck, append(append([]string{}, c.args...), "check.txt")...)
	cmd.Dir = dir
	cmd.Env = []string{}
	if c.env != "" {
		cmd.Env = []string{"FILECHECK_OPTS=" + c.env}
	}
	cmd.Stdin = strings.NewReader(c.input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		return runResult{}, err
	}
	return runResult{status, stderr.String()}, nil
}

func runGo(dir string, c genCase) runResult {
	var stdout, stderr bytes.Buffer
	p := &proc.Proc{
		Args:   append(append([]string{"--next-diff=false"}, c.args...), "check.txt"),
		Dir:    dir,
		Env:    []string{"FILECHECK_OPTS=" + c.env},
		Stdin:  strings.NewReader(c.input),
		Stdout: &stdout,
		Stderr: &stderr,
	}
	return runResult{Main(p), stderr.String()}
}

// TestDifferential runs generated cases through LLVM's FileCheck and this
// package and requires the same exit status and, on failure, the same
// location of the first error.
func TestDifferential(t *testing.T) {
	if _, err := os.Stat(llvmFileCheck); err != nil {
		t.Skip("LLVM FileCheck not installed")
	}
	n := 600
	if testing.Short() {
		n = 150
	}
	g := &caseGen{}
	cases := make([]genCase, n)
	for i := range cases {
		switch {
		case i%6 == 4:
			cases[i] = g.genRegex(int64(i))
		case i%6 == 5:
			cases[i] = g.genNumeric(int64(i))
		default:
			cases[i] = g.gen(int64(i))
		}
	}
	type outcome struct {
		c         genCase
		llvm, got runResult
		err       error
	}
	results := make([]outcome, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range cases {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			dir := t.TempDir()
			c := cases[i]
			if err := os.WriteFile(filepath.Join(dir, "check.txt"), []byte(c.check), 0o644); err != nil {
				results[i].err = err
				return
			}
			ll, err := runLLVM(dir, c)
			results[i] = outcome{c: c, llvm: ll, got: runGo(dir, c), err: err}
		}(i)
	}
	wg.Wait()
	statuses := map[int]int{}
	identical := 0
	for _, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.llvm.status < 0 || r.llvm.status > 2 {
			// LLVM FileCheck crashed (it does on a few odd regexes).
			t.Logf("%s: LLVM FileCheck crashed; skipped", r.c.name)
			continue
		}
		statuses[r.llvm.status]++
		if r.llvm.stderr == r.got.stderr {
			identical++
		}
		bad := r.llvm.status != r.got.status
		if !bad && r.llvm.status != 0 && firstErrorLoc(r.llvm.stderr) != firstErrorLoc(r.got.stderr) {
			bad = true
		}
		if bad {
			t.Errorf("%s: args %q\n--- check:\n%s--- input:\n%q\n--- llvm (exit %d):\n%s--- go (exit %d):\n%s",
				r.c.name, r.c.args, r.c.check, r.c.input, r.llvm.status, r.llvm.stderr, r.got.status, r.got.stderr)
		}
	}
	t.Logf("%d cases, LLVM exit statuses %v, byte-identical stderr in %d", n, statuses, identical)
	if statuses[0] < n/10 || statuses[1] < n/4 || statuses[2] < n/20 {
		t.Errorf("generator is unbalanced: statuses %v", statuses)
	}
}
