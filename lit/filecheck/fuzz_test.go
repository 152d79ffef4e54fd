package filecheck

import (
	"io"
	"regexp"
	"testing"
)

// FuzzCheck runs whole check files over inputs: parsing and matching must
// never panic, and errors must come back as values.
func FuzzCheck(f *testing.F) {
	seeds := []struct{ check, input string }{
		{"CHECK: foo\nCHECK-NEXT: bar\n", "foo\nbar\n"},
		{"CHECK-DAG: [[V:[a-z]+]]\nCHECK-NOT: x\nCHECK-DAG: [[V]]\n", "ab\nab\n"},
		{"CHECK-LABEL: f\nCHECK: [[#N:]] [[#%x,M:]]\nCHECK-SAME: [[#N+M]]\n", "f\n1 a 11\n"},
		{"CHECK: op [[R:r[0-9]]], [[R]] [[@LINE]]\n", "op r1, r1 1\n"},
		{"CHECK-COUNT-2{LITERAL}: [[x]]\nCHECK-EMPTY:\n", "[[x]]\n[[x]]\n\n"},
		{"CHECK: {{[[:alpha:]]+(x|y){2}}}\nCHECK: [[#add(1,max(2,3))]]\n", "abxy\n4\n"},
		{"CHECK: [[#%.3d,N:-5]]\n", "-005\n"},
		{"CHECK: [[a]b]]\n", "x\n"},
	}
	for _, s := range seeds {
		f.Add(s.check, s.input)
	}
	f.Fuzz(func(t *testing.T, check, input string) {
		o := DefaultOptions()
		o.DumpInput = "always"
		_, err := Check("check", []byte(check), "-", []byte(input), o, io.Discard)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}

// FuzzTranslateERE checks that every accepted POSIX regex becomes a valid
// Go regex.
func FuzzTranslateERE(f *testing.F) {
	for _, s := range []string{`a{2,3}`, `[^]a-z[:digit:]]`, `(a|b)*\.`, `{x`, `[[.a.]-c]`, `\1`, `a**`, `[[=e=]]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ere string) {
		goRe, n, err := translateERE(ere)
		if err != nil {
			return
		}
		re, err := regexp.Compile("(?m)" + goRe)
		if err != nil {
			t.Fatalf("translateERE(%q) = %q: %v", ere, goRe, err)
		}
		if re.NumSubexp() != n {
			t.Fatalf("translateERE(%q) = %q: %d groups, reported %d", ere, goRe, re.NumSubexp(), n)
		}
	})
}

// FuzzParseArgs checks the command-line parser on arbitrary arguments.
func FuzzParseArgs(f *testing.F) {
	f.Add("--check-prefix=X -DV=1 f")
	f.Add("-D#%x,N=ff --dump-input=always --dump-input-context 3")
	f.Fuzz(func(t *testing.T, line string) {
		_, _ = parseArgs(splitGNU(line))
	})
}
