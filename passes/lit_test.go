package passes_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/lit"
	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/optdriver"
)

// TestLitFiles runs the lit tests of these passes (test/passes/*.mlir)
// in-process: each `RUN: layout-opt %s ARGS | FileCheck %s` line runs the
// layout-opt driver on the file and FileCheck on its output, as the lit
// runner does.
func TestLitFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "test", "passes", "*.mlir"))
	if len(files) == 0 {
		t.Skip("no lit tests")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			runs := 0
			for _, line := range strings.Split(string(src), "\n") {
				_, cmd, ok := strings.Cut(line, "// RUN: ")
				if !ok {
					continue
				}
				runs++
				tool, check, ok := strings.Cut(cmd, "|")
				checkArgs := shellWords(strings.TrimSpace(check))
				if !ok || len(checkArgs) < 2 || checkArgs[0] != "FileCheck" || checkArgs[1] != "%s" {
					t.Fatalf("unsupported RUN line %q", cmd)
				}
				var opts filecheck.Options
				for _, a := range checkArgs[2:] {
					p, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), "check-prefix=")
					if !ok {
						t.Fatalf("unsupported FileCheck argument %q", a)
					}
					opts.CheckPrefixes = append(opts.CheckPrefixes, p)
				}
				args := shellWords(strings.ReplaceAll(strings.TrimSpace(tool), "%s", file))
				if len(args) == 0 || args[0] != "layout-opt" {
					t.Fatalf("unsupported RUN line %q", cmd)
				}
				var stdout, stderr bytes.Buffer
				p := &lit.Proc{Args: args[1:], Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}
				if rc := optdriver.Main(p); rc != 0 {
					t.Fatalf("layout-opt %v: exit %d\n%s", args[1:], rc, stderr.String())
				}
				var diag bytes.Buffer
				ok, err = filecheck.Check(file, src, "-", stdout.Bytes(), opts, &diag)
				if err != nil || !ok {
					t.Fatalf("FileCheck failed (%v):\n%s\noutput:\n%s", err, diag.String(), stdout.String())
				}
			}
			if runs == 0 {
				t.Fatal("no RUN line")
			}
		})
	}
}

// shellWords splits a command line at spaces, honouring single quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
