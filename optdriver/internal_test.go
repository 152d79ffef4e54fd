package optdriver

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/layoutopt/layoutopt/ir"
)

func TestSplitInput(t *testing.T) {
	type piece struct {
		Text      string
		StartLine int
	}
	tests := []struct {
		name   string
		src    string
		marker string
		want   []piece
		warns  []string // positions of near-miss warnings
	}{
		{"no marker", "a\nb\n", DefaultSplitMarker, []piece{{"a\nb\n", 1}}, nil},
		{"two", "a\n// -----\nb\n", DefaultSplitMarker, []piece{{"a\n", 1}, {"\nb\n", 2}}, nil},
		{"three", "a\n// -----\nb\n\n// -----\nc", DefaultSplitMarker, []piece{{"a\n", 1}, {"\nb\n\n", 2}, {"\nc", 5}}, nil},
		{"too short", "a\n// ----\nb\n", DefaultSplitMarker, []piece{{"a\n// ----\nb\n", 1}}, []string{"f:2:7"}},
		{"too long", "a\n// ------\nb\n", DefaultSplitMarker, []piece{{"a\n// ------\nb\n", 1}}, []string{"f:2:7"}},
		{"at the end", "a\n// -----", DefaultSplitMarker, []piece{{"a\n// -----", 1}}, []string{"f:2:7"}},
		{"custom", "a\n#### split\nb", "#### split", []piece{{"a\n", 1}, {"\nb", 2}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks, warns := splitInput(tt.src, tt.marker, "f")
			var got []piece
			for _, c := range chunks {
				got = append(got, piece{c.text, c.startLine})
				if tt.src[c.offset:c.offset+len(c.text)] != c.text {
					t.Errorf("chunk offset %d does not point at its text", c.offset)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunks (-want +got):\n%s", diff)
			}
			var gotWarns []string
			for _, w := range warns {
				if w.Msg != "near miss with file split marker" || w.Severity != ir.Warning {
					t.Errorf("warning %v", w)
				}
				gotWarns = append(gotWarns, w.Pos.String())
			}
			if diff := cmp.Diff(tt.warns, gotWarns); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseExpectations(t *testing.T) {
	src := strings.Join([]string{
		"op1",                                    // 1
		"// expected-error @below {{below one}}", // 2
		"// expected-warning@below {{below two}}", // 3
		"op4",                                              // 4
		"op5 // expected-remark {{same line}}",             // 5
		"// expected-note @above {{above}}",                // 6
		"// expected-error @+2 {{plus two}}",               // 7
		"// expected-error@-3 {{minus three}}",             // 8
		"// expected-error-re @unknown {{a {{[0-9]+}} b}}", // 9
		"// expected-error @below {{dangling}}",            // 10
	}, "\n")
	exps, errs := parseExpectations(src, chunk{text: src, startLine: 1}, "f")
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	type exp struct {
		Sev     ir.Severity
		Line    int
		Unknown bool
		Text    string
		At      string
	}
	var got []exp
	for _, e := range exps {
		got = append(got, exp{e.severity, e.line, e.unknown, e.text, e.pos.String()})
	}
	want := []exp{
		{ir.Error, 4, false, "below one", "f:2:4"},
		{ir.Warning, 4, false, "below two", "f:3:4"},
		{ir.Remark, 5, false, "same line", "f:5:8"},
		{ir.Note, 4, false, "above", "f:6:4"},
		{ir.Error, 9, false, "plus two", "f:7:4"},
		{ir.Error, 5, false, "minus three", "f:8:4"},
		{ir.Error, 9, true, "a {{[0-9]+}} b", "f:9:4"},
		{ir.Error, 10, false, "dangling", "f:10:4"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("expectations (-want +got):\n%s", diff)
	}
	if !exps[6].match("a 123 b") || exps[6].match("a x b") {
		t.Error("the -re expectation does not match as a regex")
	}
	if !exps[0].match("xx below one yy") || exps[0].match("below") {
		t.Error("a plain expectation does not match as a substring")
	}
}

func TestParseExpectationsInChunk(t *testing.T) {
	src := "a\n// -----\n// expected-error @+1 {{x}}\nop\n"
	chunks, _ := splitInput(src, DefaultSplitMarker, "f")
	exps, _ := parseExpectations(src, chunks[1], "f")
	if len(exps) != 1 || exps[0].line != 4 || exps[0].pos.String() != "f:3:4" {
		t.Errorf("expectation in the second chunk: %+v", exps[0])
	}
}

func TestCompileExpectationErrors(t *testing.T) {
	for text, want := range map[string]string{
		"a {{b":       "found start of regex with no end '}}'",
		"a {{[b}} c":  "invalid regex: ",
		"a {{(?P<}}c": "invalid regex: ",
	} {
		_, err := compileExpectation(text)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("compileExpectation(%q) = %v, want %q", text, err, want)
		}
	}
	re, err := compileExpectation("x.y {{a.*b}} (z)")
	if err != nil {
		t.Fatal(err)
	}
	if !re.MatchString("x.y a\nmid\nb (z)") || re.MatchString("xzy ab (z)") {
		t.Errorf("regex %v: literal parts must be literal, {{}} parts regexes matching newlines", re)
	}
}

func TestDiagVerifier(t *testing.T) {
	src := strings.Join([]string{
		"op1 // expected-error {{boom}}",          // 1
		"op2 // expected-warning {{careful}}",     // 2
		"op3 // expected-remark {{never comes}}",  // 3
		"// expected-note @unknown {{somewhere}}", // 4
	}, "\n")
	exps, _ := parseExpectations(src, chunk{text: src, startLine: 1}, "f")
	v := &diagVerifier{file: "f", exps: exps}
	at := func(line int) ir.Pos { return ir.Pos{File: "f", Line: line, Col: 1} }
	v.process(ir.Diagnostic{Pos: at(1), Severity: ir.Error, Msg: "a boom here", Notes: []ir.Diagnostic{
		{Severity: ir.Note, Msg: "somewhere else"},
		{Pos: at(1), Severity: ir.Note, Msg: "see current operation: op1"},
	}})
	v.process(ir.Diagnostic{Pos: at(2), Severity: ir.Error, Msg: "careful now"})
	v.process(ir.Diagnostic{Pos: at(2), Severity: ir.Remark, Msg: "surprise"})
	// Line 3 of another file is not line 3 of the input.
	v.process(ir.Diagnostic{Pos: ir.Pos{File: "kernels.py", Line: 3, Col: 1}, Severity: ir.Remark, Msg: "never comes"})
	v.finish()
	var got []string
	for _, f := range v.failures {
		got = append(got, f.Pos.String()+": "+f.Msg)
	}
	want := []string{
		"f:2:8: 'error' diagnostic emitted when expecting a 'warning'",
		"f:2:1: unexpected remark: surprise",
		"kernels.py:3:1: unexpected remark: never comes",
		"f:2:8: expected warning \"careful\" was not produced",
		"f:3:8: expected remark \"never comes\" was not produced",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}

	// only-expected ignores what was not expected, but still wants every
	// expectation.
	exps, _ = parseExpectations(src, chunk{text: src, startLine: 1}, "f")
	v = &diagVerifier{file: "f", exps: exps, onlyExpected: true}
	v.process(ir.Diagnostic{Pos: at(3), Severity: ir.Error, Msg: "unrelated"})
	v.finish()
	if len(v.failures) != 4 {
		t.Errorf("only-expected: %d failures, want 4 (the unmet expectations): %v", len(v.failures), v.failures)
	} else if f := v.failures[3]; f.Pos.IsValid() || f.Msg != `expected note "somewhere" was not produced` {
		t.Errorf("unmet @unknown expectation reported as %v, want it at an unknown location", f)
	}
}

func TestSourcePrint(t *testing.T) {
	s := newSource("t.mlir", "first\n\tsecond line\nthird")
	var b bytes.Buffer
	s.print(&b, report{Diagnostic: ir.Diagnostic{
		Pos: ir.Pos{File: "t.mlir", Line: 2, Col: 3}, Severity: ir.Error, Msg: "bad",
		Notes: []ir.Diagnostic{
			{Pos: ir.Pos{File: "t.mlir", Line: 2, Col: 3}, Severity: ir.Note, Msg: "same place"},
			{Pos: ir.Pos{File: "t.mlir", Line: 3, Col: 1}, Severity: ir.Note, Msg: "elsewhere"},
			{Severity: ir.Note, Msg: "nowhere"},
		},
	}, span: 4})
	want := "t.mlir:2:3: error: bad\n" +
		"\tsecond line\n" +
		"\t ^~~~\n" +
		"t.mlir:2:3: note: same place\n" +
		"t.mlir:3:1: note: elsewhere\n" +
		"third\n" +
		"^\n" +
		"<unknown>:0: note: nowhere\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzSplitAndExpectations checks that splitting and scanning for
// expectations never panic, that chunks tile the input, and that every
// expectation is located inside the input.
func FuzzSplitAndExpectations(f *testing.F) {
	f.Add("a\n// -----\n// expected-error @+1 {{x}}\nop\n", DefaultSplitMarker)
	f.Add("// expected-remark-re @below {{a{{.*}}b}}\n// ----\n//==\nz", "//==")
	f.Add("// expected-note@-9 {{}}\n// expected-error@above {{{{(}}}}", DefaultSplitMarker)
	f.Fuzz(func(t *testing.T, src, marker string) {
		chunks, warns := splitInput(src, marker, "f")
		end := 0
		for _, c := range chunks {
			if c.offset < end || c.offset+len(c.text) > len(src) || src[c.offset:c.offset+len(c.text)] != c.text {
				t.Fatalf("chunk at %d (%q) does not lie in order in the input", c.offset, c.text)
			}
			if want := 1 + strings.Count(src[:c.offset], "\n"); c.startLine != want {
				t.Fatalf("chunk at %d starts on line %d, want %d", c.offset, c.startLine, want)
			}
			end = c.offset + len(c.text)
			exps, _ := parseExpectations(src, c, "f")
			for _, e := range exps {
				if e.pos.Line < c.startLine || e.pos.Line > c.startLine+strings.Count(c.text, "\n") {
					t.Fatalf("expectation at %v outside its chunk (lines from %d)", e.pos, c.startLine)
				}
				e.match("some message")
			}
		}
		for _, w := range warns {
			if !w.Pos.IsValid() {
				t.Fatalf("warning without a position: %v", w)
			}
		}
	})
}
