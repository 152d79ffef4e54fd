package filecheck

import (
	"bytes"
	"io"
	"math/big"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/layoutopt/layoutopt/proc"
	"pgregory.net/rapid"
)

func TestTranslateERE(t *testing.T) {
	tests := []struct {
		ere     string
		match   []string // inputs that must contain a match
		noMatch []string // inputs that must not
		err     bool
	}{
		{ere: `\d`, match: []string{"d"}, noMatch: []string{"1"}},
		{ere: `\n`, match: []string{"n"}, noMatch: []string{"\n"}},
		{ere: `[^a]`, match: []string{"b"}, noMatch: []string{"\n", "a"}},
		{ere: `[\.]`, match: []string{`\`, "."}, noMatch: []string{"x"}},
		{ere: `a{2}`, match: []string{"aa"}, noMatch: []string{"a"}},
		{ere: `a{1,}b`, match: []string{"aaab"}, noMatch: []string{"b"}},
		{ere: `{x`, match: []string{"{x"}},
		{ere: `a{b`, match: []string{"a{b"}},
		{ere: `[[:digit:]]+`, match: []string{"x42"}, noMatch: []string{"x"}},
		{ere: `[[:xdigit:]]{4}`, match: []string{"beef"}, noMatch: []string{"bee"}},
		{ere: `[]a]`, match: []string{"]"}, noMatch: []string{"b"}},
		{ere: `[a-]`, match: []string{"-"}},
		{ere: `x|y`, match: []string{"y"}},
		{ere: `(ab)*c`, match: []string{"ababc", "c"}},
		{ere: `^a$`, match: []string{"b\na\nc"}},
		{ere: `.`, noMatch: []string{"\n"}},
		{ere: `a**`, err: true},
		{ere: `*a`, err: true},
		{ere: `(a`, err: true},
		{ere: `a)`, err: true},
		{ere: `a|`, err: true},
		{ere: `[z-a]`, err: true},
		{ere: `\1`, err: true},
		{ere: `[[:word:]]`, err: true},
		{ere: `a{300}`, err: true},
		{ere: `(?i)a`, err: true},
		{ere: `a\`, err: true},
	}
	for _, tc := range tests {
		goRe, _, err := translateERE(tc.ere)
		if (err != nil) != tc.err {
			t.Errorf("translateERE(%q) error = %v, want error %v", tc.ere, err, tc.err)
			continue
		}
		if err != nil {
			continue
		}
		re, err := regexp.Compile("(?m)" + goRe)
		if err != nil {
			t.Errorf("translateERE(%q) = %q does not compile: %v", tc.ere, goRe, err)
			continue
		}
		for _, s := range tc.match {
			if !re.MatchString(s) {
				t.Errorf("%q (Go %q) does not match %q", tc.ere, goRe, s)
			}
		}
		for _, s := range tc.noMatch {
			if re.MatchString(s) {
				t.Errorf("%q (Go %q) matches %q", tc.ere, goRe, s)
			}
		}
	}
}

func TestCanonicalize(t *testing.T) {
	tests := []struct {
		in, want, wantStrict string
	}{
		{"a  b\t\tc", "a b c", "a  b\t\tc"},
		{"a\r\nb\r", "a\nb\r", "a\nb\r"},
		{" \t\r\n \r\r\n", " \n \r\n", " \t\n \r\n"},
		{"plain", "plain", "plain"},
		{"", "", ""},
	}
	for _, tc := range tests {
		if got := canonicalize([]byte(tc.in), false); got != tc.want {
			t.Errorf("canonicalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := canonicalize([]byte(tc.in), true); got != tc.wantStrict {
			t.Errorf("canonicalize(%q, strict) = %q, want %q", tc.in, got, tc.wantStrict)
		}
	}
}

// TestSemantics pins FileCheck behaviours listed in LLVM's documentation
// and verified against FileCheck-14.
func TestSemantics(t *testing.T) {
	tests := []struct {
		name, check, input string
		mod                func(*Options)
		ok                 bool
	}{
		{"substring on one line", "CHECK: a\nCHECK: b\n", "ab\n", nil, true},
		{"order matters", "CHECK: b\nCHECK: a\n", "ab\n", nil, false},
		{"sloppy NOT passes", "CHECK: a\nCHECK-NOT: bad\nCHECK: b\n", "a\nbad\nb\n", nil, true},
		{"anchored NOT fails", "CHECK: a\nCHECK-NOT: bad\nCHECK: {{^}}b{{$}}\n", "a\nbad\nb\n", nil, false},
		{"COUNT is not at-most", "CHECK-COUNT-3: a\n", "a\na\na\na\n", nil, true},
		{"COUNT too few", "CHECK-COUNT-3: a\n", "a\na\n", nil, false},
		{"same-line backreference", "CHECK: op [[R:r[0-9]]], [[R]]\n", "op r1, r2\nop r1, r1\n", nil, true},
		{"backreference far away", "CHECK: op [[R:r[0-9]]], [[R]]\n", strings.Repeat("op r1, r2\n", 3000) + "op r3, r3\n", nil, true},
		{"backreference mismatch", "CHECK: op [[R:r[0-9]]], [[R]]\n", "op r1, r2\n", nil, false},
		{"greedy backreference", "CHECK: [[X:[a-z]+]][[X]]\n", "abab\n", nil, true},
		{"variable across lines", "CHECK: def [[V:[a-z]+]]\nCHECK: use [[V]]\n", "def x\nuse x\n", nil, true},
		{"variable mismatch", "CHECK: def [[V:[a-z]+]]\nCHECK: use [[V]]\n", "def x\nuse y\n", nil, false},
		{"numeric expression", "CHECK: [[#N:]]\nCHECK: [[#N+1]]\n", "41\n42\n", nil, true},
		{"numeric expression wrong", "CHECK: [[#N:]]\nCHECK-NEXT: [[#N+1]]\n", "41\n43\n", nil, false},
		{"hex format", "CHECK: 0x[[#%x,A:]]\nCHECK: [[#%X,A+1]]\n", "0xfe\nFF\n", nil, true},
		{"precision", "CHECK: [[#%.3u,N:]]\nCHECK-SAME: [[#%.3u,N+1]]\n", "007 008\n", nil, true},
		{"function call", "CHECK: [[#N:]]\nCHECK-SAME: [[#mul(N,2)]] [[#max(N,3)]] [[#sub(div(N,2),min(N,1))]]\n", "5 10 5 1\n", nil, true},
		{"@LINE", "CHECK: line [[@LINE]]\nCHECK: line [[#@LINE-1]]\n", "line 1\nline 1\n", nil, true},
		{"DAG any order", "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", "a\nb\nc\n", nil, true},
		{"DAG no overlap", "CHECK-DAG: a\nCHECK-DAG: a\n", "a\n", nil, false},
		{"DAG overlap allowed", "CHECK-DAG: a\nCHECK-DAG: a\n", "a\n", func(o *Options) { o.AllowDeprecatedDagOverlap = true }, true},
		{"DAG then CHECK searches after group", "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: a\n", "a\nb\n", nil, false},
		{"NOT between DAG groups", "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n", "a\nx\nb\n", nil, false},
		{"labels split input", "CHECK-LABEL: f1\nCHECK: x\nCHECK-LABEL: f2\n", "f1\nf2\nx\n", nil, false},
		{"label reports later blocks", "CHECK-LABEL: f1\nCHECK: y\nCHECK-LABEL: f2\nCHECK: x\n", "f1\nf2\nx\n", nil, false},
		{"var scope clears", "CHECK: [[V:[a-z]+]]\nCHECK-LABEL: f\nCHECK: [[V]]\n", "a\nf\na\n", func(o *Options) { o.EnableVarScope = true }, false},
		{"global var survives", "CHECK: [[$V:[a-z]+]]\nCHECK-LABEL: f\nCHECK: [[$V]]\n", "a\nf\na\n", func(o *Options) { o.EnableVarScope = true }, true},
		{"whitespace canonical", "CHECK: a b\n", "a \t  b\n", nil, true},
		{"strict whitespace", "CHECK: a b\n", "a \t  b\n", func(o *Options) { o.StrictWhitespace = true }, false},
		{"full lines", "CHECK: a b\n", "x a b\n", func(o *Options) { o.MatchFullLines = true }, false},
		{"full lines ok", "CHECK: a b\n", "  a b \n", func(o *Options) { o.MatchFullLines = true }, true},
		{"ignore case", "CHECK: HeLLo\n", "hello\n", func(o *Options) { o.IgnoreCase = true }, true},
		{"CRLF and EMPTY", "CHECK: a\r\nCHECK-EMPTY:\r\nCHECK-NEXT: b\r\n", "a\r\n\r\nb\r\n", nil, true},
		{"implicit check not", "CHECK: a\nCHECK: b\n", "a\nwarning\nb\n", func(o *Options) { o.ImplicitCheckNot = []string{"warning"} }, false},
		{"implicit check not at end", "CHECK: a\n", "a\nwarning\n", func(o *Options) { o.ImplicitCheckNot = []string{"warning"} }, false},
		{"define", "CHECK: [[X]] [[#N+1]]\n", "v 3\n", func(o *Options) { o.Defines = []string{"X=v", "#N=3"} }, false},
		{"define ok", "CHECK: [[X]] [[#N+1]]\n", "v 4\n", func(o *Options) { o.Defines = []string{"X=v", "#N=3"} }, true},
		{"literal", "CHECK{LITERAL}: [[x]] {{y}}\n", "[[x]] {{y}}\n", nil, true},
		{"comment disables", "COM: CHECK: nope\nCHECK: yes\n", "yes\n", nil, true},
		{"custom prefixes", "A: one\nB: two\n", "one two\n", func(o *Options) { o.CheckPrefixes = []string{"A", "B"} }, true},
		{"prefix must start word", "XCHECK: nothing\nCHECK: a\n", "a\n", nil, true},
		{"invalid UTF-8 in regex pattern", "CHECK: a\xff{{b}}\n", "xa\xffb\n", nil, true},
		{"allow empty", "CHECK-NOT: x\n", "", func(o *Options) { o.AllowEmpty = true }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.NextDiff = false
			if tc.mod != nil {
				tc.mod(&o)
			}
			var diag bytes.Buffer
			ok, err := Check("check", []byte(tc.check), "-", []byte(tc.input), o, &diag)
			if err != nil {
				t.Fatalf("Check error: %v\n%s", err, diag.String())
			}
			if ok != tc.ok {
				t.Errorf("ok = %v, want %v\n%s", ok, tc.ok, diag.String())
			}
		})
	}
}

func TestCheckFileErrors(t *testing.T) {
	tests := []struct{ check, want string }{
		{"CHECK:\n", "found empty check string with prefix 'CHECK:'"},
		{"CHECK-NEXT: a\n", "found 'CHECK-NEXT' without previous 'CHECK: line"},
		{"CHECK-LABEL: [[X:a]]\n", "found 'CHECK-LABEL:' with variable definition or use"},
		{"CHECK: {{a\n", "found start of regex string with no end '}}'"},
		{"CHECK: [[#N:]] [[#N]]\n", "numeric variable 'N' defined earlier in the same CHECK directive"},
		{"CHECK: [[#%q,N:]]\n", "invalid format specifier in expression"},
		{"CHECK: [[#foo(1,2)]]\n", "call to undefined function 'foo'"},
		{"CHECK: [[#add(1)]]\n", "function 'add' takes 2 arguments but 1 given"},
		{"CHECK: [[X Y]]\n", "unexpected whitespace"},
		{"CHECK: [[a]b]]\n", `missing closing "]" for regex variable`},
		{"nothing\n", "no check strings found with prefix 'CHECK:'"},
		{"CHECK: {{a**}}\n", "invalid regex"},
	}
	for _, tc := range tests {
		var diag bytes.Buffer
		_, err := Check("check", []byte(tc.check), "-", []byte("a\n"), DefaultOptions(), &diag)
		if err == nil {
			t.Errorf("%q: no error", tc.check)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want it to contain %q", tc.check, err, tc.want)
		}
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args    []string
		want    func(*cmdLine)
		wantErr string
	}{
		{args: []string{"--check-prefix=X", "-check-prefix", "Y", "--check-prefixes=A,B", "f"}, want: func(c *cmdLine) {
			c.opts.CheckPrefixes = []string{"X", "Y", "A", "B"}
			c.checkFile = "f"
		}},
		{args: []string{"-DVAR=V", "-D", "W=1", "-D#N=3", "-D#%x,H=ff", "f"}, want: func(c *cmdLine) {
			c.opts.Defines = []string{"VAR=V", "W=1", "#N=3", "#%x,H=ff"}
			c.checkFile = "f"
		}},
		{args: []string{"--strict-whitespace", "-match-full-lines", "--ignore-case=true", "-v", "f"}, want: func(c *cmdLine) {
			c.opts.StrictWhitespace, c.opts.MatchFullLines, c.opts.IgnoreCase, c.opts.Verbose = true, true, true, true
			c.checkFile = "f"
		}},
		{args: []string{"--dump-input=never", "--dump-input=always", "--dump-input-filter=error", "--dump-input-filter=all", "--dump-input-context=2", "--dump-input-context", "9", "f"}, want: func(c *cmdLine) {
			c.opts.DumpInput, c.opts.DumpInputFilter, c.opts.DumpInputContext = "always", "all", 9
			c.checkFile = "f"
		}},
		{args: []string{"--implicit-check-not", "a", "--implicit-check-not=b", "--input-file", "in", "f"}, want: func(c *cmdLine) {
			c.opts.ImplicitCheckNot = []string{"a", "b"}
			c.inputFile = "in"
			c.checkFile = "f"
		}},
		{args: []string{"--bogus", "f"}, wantErr: "Unknown command line argument '--bogus'"},
		{args: []string{"--strict-whitespace", "--strict-whitespace"}, wantErr: "may only occur zero or one times"},
		{args: []string{"--dump-input=x"}, wantErr: "Cannot find option named 'x'"},
		{args: []string{"a", "b"}, wantErr: "Too many positional arguments"},
		{args: []string{"--check-prefix"}, wantErr: "requires a value"},
	}
	for _, tc := range tests {
		got, err := parseArgs(tc.args)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("parseArgs(%q) error = %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseArgs(%q): %v", tc.args, err)
			continue
		}
		want := &cmdLine{opts: DefaultOptions()}
		tc.want(want)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(cmdLine{})); diff != "" {
			t.Errorf("parseArgs(%q) mismatch (-want +got):\n%s", tc.args, diff)
		}
	}
}

func TestSplitGNU(t *testing.T) {
	got := splitGNU(`-v  --check-prefix='A B' "x\"y" a\ b`)
	want := []string{"-v", "--check-prefix=A B", `x"y`, "a b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestMainEnvAndFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := writeFile(dir, name, text); err != nil {
			t.Fatal(err)
		}
	}
	write("c.txt", "MY: hello\n")
	write("in.txt", "hello\n")
	var out, errb bytes.Buffer
	p := &proc.Proc{Args: []string{"c.txt", "--input-file", "in.txt"}, Dir: dir,
		Env: []string{"FILECHECK_OPTS=--check-prefix=MY"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	if st := Main(p); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	p.Args = []string{"missing.txt"}
	if st := Main(p); st != 2 || !strings.Contains(errb.String(), "Could not open check file 'missing.txt'") {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
	errb.Reset()
	p.Args, p.Env = []string{"--dump-input=help"}, nil
	if st := Main(p); st != 0 || out.String() != DumpHelp {
		t.Errorf("dump help: status %d, stdout %q", st, out.String())
	}
}

func TestNextDiff(t *testing.T) {
	var diag bytes.Buffer
	check := "CHECK: func\nCHECK-NEXT: a = 1\nCHECK-NEXT: b = 2\nCHECK-NEXT: c = 3\n"
	input := "func\na = 1\nb = 5\nc = 3\n"
	o := DefaultOptions()
	o.DumpInput = "never"
	ok, err := Check("t.mlir", []byte(check), "-", []byte(input), o, &diag)
	if ok || err != nil {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	want := "\nt.mlir:3: diff of the CHECK block (-expected +input lines 1-4):\n  func\n  a = 1\n- b = 2\n+ b = 5\n  c = 3\n"
	if !strings.HasSuffix(diag.String(), want) {
		t.Errorf("diagnostics end:\n%s\nwant suffix:\n%s", diag.String(), want)
	}
}

// TestNumericFormatRoundTrip checks that every value printed in a format
// is matched by the format's wildcard and reads back as the same value.
func TestNumericFormatRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom([]formatKind{fmtUnsigned, fmtSigned, fmtHexLower, fmtHexUpper}).Draw(t, "kind")
		f := numFormat{kind: kind, precision: rapid.IntRange(0, 12).Draw(t, "prec")}
		if kind == fmtHexLower || kind == fmtHexUpper {
			f.alternate = rapid.Bool().Draw(t, "alt")
		}
		var v *big.Int
		if kind == fmtSigned {
			v = big.NewInt(rapid.Int64().Draw(t, "v"))
		} else {
			v = new(big.Int).SetUint64(rapid.Uint64().Draw(t, "v"))
		}
		txt, err := f.text(v)
		if err != nil {
			t.Fatalf("text(%v): %v", v, err)
		}
		goRe, _, err := translateERE(f.wildcard())
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`\A(?:` + goRe + `)\z`).MatchString(txt) {
			t.Fatalf("wildcard %q does not match %q", f.wildcard(), txt)
		}
		b := newSrcBuf("x", txt)
		back, err := f.parseValue(sref{b, 0, len(txt)})
		if err != nil || back.Cmp(v) != 0 {
			t.Fatalf("parseValue(%q) = %v, %v; want %v", txt, back, err, v)
		}
	})
}

func TestExpressionOverflow(t *testing.T) {
	for _, tc := range []struct {
		check string
		ok    bool
	}{
		{"CHECK: [[#N+1]]\n", false},
		{"CHECK: [[#%d,N-20]]\n", true},
		{"CHECK: [[#N-20]]\n", false},
	} {
		o := DefaultOptions()
		o.Defines = []string{"#N=18446744073709551615"}
		input := "-2\n"
		if tc.ok {
			input = "18446744073709551595\n-2\n"
			o.Defines = []string{"#%d,N=18"}
		}
		ok, err := Check("c", []byte(tc.check), "-", []byte(input), o, io.Discard)
		if err != nil || ok != tc.ok {
			t.Errorf("%q: ok=%v err=%v, want ok=%v", tc.check, ok, err, tc.ok)
		}
	}
}

// TestConcurrentChecks runs checks in parallel, as the in-process lit runner
// does; run it with -race.
func TestConcurrentChecks(t *testing.T) {
	check, input := benchInput(64<<10, 50)
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			ok, err := Check("c", check, "-", input, DefaultOptions(), io.Discard)
			if err == nil && !ok {
				err = io.ErrUnexpectedEOF
			}
			errs <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
