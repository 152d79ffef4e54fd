package lit

import (
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestParseShell(t *testing.T) {
	tests := []struct {
		in, want string // want: the parse rendered by String
	}{
		{"echo hi", "echo hi"},
		{"  echo   hi  ", "echo hi"},
		{"echo 'a b' \"c d\"", "echo 'a b' 'c d'"},
		{`echo a\ b`, "echo 'a b'"},
		{`echo "a\"b\\c\d"`, `echo 'a"b\c\d'`},
		{`echo 'it'\''s'`, `echo 'it'\''s'`},
		{`echo "\$x"`, `echo $x`},
		{"echo ''", "echo ''"},
		{"a|b|c", "a | b | c"},
		{"a && b || c ; d", "a && b || c ; d"},
		{"a;", "a"},
		{"cmd > out 2> err < in", "cmd >out 2>err <in"},
		{"cmd >> out 2>> err", "cmd >>out 2>>err"},
		{"cmd 2>&1 | FileCheck %s", "cmd 2>&1 | FileCheck %s"},
		{"cmd &> both", "cmd &>both"},
		{"cmd >&both", "cmd >&both"},
		{"cmd 1>&2", "cmd 1>&2"},
		{"cmd a2>x", "cmd a2 >x"},
		{"cmd '2'>x", "cmd 2 >x"},
		{"not --crash tool -x", "not --crash tool -x"},
		{"ls *.mlir", `ls *.mlir`},
		{"ls 'a*'", `ls 'a*'`},
		{"ls a\\ *", `ls a\ *`},
		{"x=1 y", "x=1 y"},
	}
	for _, tt := range tests {
		n, err := parseShell(tt.in)
		if err != nil {
			t.Errorf("parseShell(%q): %v", tt.in, err)
			continue
		}
		if got := n.String(); got != tt.want {
			t.Errorf("parseShell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseShellStructure(t *testing.T) {
	n, err := parseShell(`tool "a b" c* 2>&1 <in | FileCheck %s && echo ok`)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := n.(*seq)
	if !ok || s.op != "&&" {
		t.Fatalf("top node = %#v, want && seq", n)
	}
	p := s.lhs.(*pipeline)
	if len(p.commands) != 2 {
		t.Fatalf("pipeline has %d commands, want 2", len(p.commands))
	}
	c := p.commands[0]
	wantArgs := []word{{text: "tool"}, {text: "a b"}, {text: "c*", glob: true}}
	if len(c.args) != len(wantArgs) {
		t.Fatalf("args = %#v", c.args)
	}
	for i, w := range wantArgs {
		if c.args[i] != w {
			t.Errorf("arg %d = %#v, want %#v", i, c.args[i], w)
		}
	}
	wantRedirs := []redirect{{op: ">&", fd: 2, target: word{text: "1"}}, {op: "<", fd: -1, target: word{text: "in"}}}
	for i, r := range wantRedirs {
		if c.redirects[i] != r {
			t.Errorf("redirect %d = %#v, want %#v", i, c.redirects[i], r)
		}
	}
}

func TestParseshellErrors(t *testing.T) {
	tests := []struct {
		in  string
		col int
		msg string
	}{
		{"", 1, "empty command"},
		{"   ", 1, "empty command"},
		{"echo 'abc", 6, "missing closing quote"},
		{`echo "abc`, 6, "missing closing quote"},
		{`echo abc\`, 9, "escape character at end"},
		{"| a", 1, "unexpected token"},
		{"a |", 4, "missing command"},
		{"a &&", 3, "missing command after"},
		{"a || || b", 6, "unexpected token"},
		{"a > ", 3, "missing target"},
		{"a > | b", 3, "missing target"},
		{"a & b", 3, "unsupported shell operator '&'"},
		{"cat << EOF", 5, "here-documents"},
		{"ls 'a*'*", 9, "glob characters both inside and outside"},
		{"a 99999999999>x", 3, "too large"},
	}
	for _, tt := range tests {
		_, err := parseShell(tt.in)
		var se *shellError
		if !errors.As(err, &se) {
			t.Errorf("parseShell(%q) error = %v, want a shellError", tt.in, err)
			continue
		}
		if se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("parseShell(%q) = %v, want col %d %q", tt.in, err, tt.col, tt.msg)
		}
	}
}

// FuzzParseShell checks that the parser never panics and that rendering a
// parse gives text that parses to the same script.
func FuzzParseShell(f *testing.F) {
	for _, s := range []string{
		"echo hi | FileCheck %s", `a "b\"c" 'd' e\ f && g || h ; i`,
		"x 2>&1 >out <in &>both >>app 2>>err", "not --crash a *.c", "a;", `"`, "a |", "2>x y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseShell(s)
		if err != nil {
			var se *shellError
			if !errors.As(err, &se) || se.Col < 1 || se.Col > len(s)+1 {
				t.Fatalf("parseShell(%q): bad error %v", s, err)
			}
			return
		}
		text := n.String()
		n2, err := parseShell(text)
		if err != nil {
			t.Fatalf("reparse of %q (from %q): %v", text, s, err)
		}
		if got := n2.String(); got != text {
			t.Fatalf("round trip of %q: %q then %q", s, text, got)
		}
	})
}

func BenchmarkParseShell(b *testing.B) {
	line := `layout-opt /src/test/convert.mlir -split-input-file -remove-layout-conversions 2>&1 | FileCheck /src/test/convert.mlir --check-prefix=CHECK && not layout-opt -bad 2> /tmp/err`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseShell(line); err != nil {
			b.Fatal(err)
		}
	}
}

// TestQuotedRoundTrip checks that any argument, quoted for the shell, lexes
// back to itself as one word.
func TestQuotedRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.String().Draw(t, "text")
		toks, err := lexShell("cmd " + word{text: text}.quoted())
		if err != nil {
			t.Fatalf("quoted %q: %v", text, err)
		}
		if len(toks) != 2 || toks[1].kind != tokWord || toks[1].word.text != text || toks[1].word.glob {
			t.Fatalf("quoted %q lexes to %+v", text, toks)
		}
	})
}
