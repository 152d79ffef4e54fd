package passes

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestParsePipeline(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	tests := []struct {
		in, want string
	}{
		{"builtin.module()", "builtin.module()"},
		{"builtin.module(test-a)", "builtin.module(test-a)"},
		{"  builtin.module ( test-a , test-b )  ", "builtin.module(test-a,test-b)"},
		{"builtin.module(test-alias-a)", "builtin.module(test-a)"},
		{"builtin.module(test-opts{mode=slow n=3})", "builtin.module(test-opts{mode=slow n=3})"},
		{"builtin.module(test-opts{ n=-2   mode=fast })", "builtin.module(test-opts{n=-2 mode=fast})"},
		{"builtin.module(test-opts{flag})", "builtin.module(test-opts{flag=true})"},
		{"builtin.module(test-opts{flag=0})", "builtin.module(test-opts{flag=0})"},
		{"builtin.module(test-opts{label='a b'})", "builtin.module(test-opts{label='a b'})"},
		{`builtin.module(test-opts{label="it's"})`, `builtin.module(test-opts{label="it's"})`},
		{"builtin.module(test-opts{label={x y}})", "builtin.module(test-opts{label='x y'})"},
		{"builtin.module(test-opts{label={a,b}})", "builtin.module(test-opts{label=a,b})"},
		{"builtin.module(test-opts{label=a,b})", "builtin.module(test-opts{label=a,b})"},
		{"builtin.module(test-opts{label=x'y})", "builtin.module(test-opts{label=\"x'y\"})"},
		{"builtin.module(test-opts{label=(a])})", "builtin.module(test-opts{label=(a])})"},
		{"builtin.module(tt.func(test-func),test-a)", "builtin.module(tt.func(test-func),test-a)"},
		{"builtin.module(tt.func(test-func, test-func), any(test-opts{n=2}), tt.func())", "builtin.module(tt.func(test-func,test-func),any(test-opts{n=2}),tt.func())"},
		{"any(test-a)", "any(test-a)"},
		{"tt.func(test-func)", "tt.func(test-func)"},
	}
	for _, tt := range tests {
		pl, err := reg.ParsePipeline(tt.in)
		if err != nil {
			t.Errorf("ParsePipeline(%q): %v", tt.in, err)
			continue
		}
		if got := pl.String(); got != tt.want {
			t.Errorf("ParsePipeline(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParsePipelineStructure(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	pl, err := reg.ParsePipeline("builtin.module(test-a,any(test-opts{mode=slow label='x y'}))")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Anchor != "builtin.module" || len(pl.Elems) != 2 {
		t.Fatalf("got anchor %q with %d elements", pl.Anchor, len(pl.Elems))
	}
	if pl.Elems[0].Pass != reg.Lookup("test-a") || pl.Elems[0].Nested != nil {
		t.Errorf("element 0 = %+v, want pass test-a", pl.Elems[0])
	}
	n := pl.Elems[1].Nested
	if n == nil || n.Anchor != AnyOp || len(n.Elems) != 1 {
		t.Fatalf("element 1 = %+v, want an 'any' pipeline of one pass", pl.Elems[1])
	}
	want := []OptionValue{{"mode", "slow"}, {"label", "x y"}}
	if diff := cmp.Diff(want, n.Elems[0].Options); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
}

// TestPipelineAnchorMismatch checks that a pass restricted to
// builtin.module is refused in a pipeline on another op kind, as mlir-opt
// refuses it, both in text and through AddPass.
func TestPipelineAnchorMismatch(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	const want = "Can't add pass 'test-a' restricted to 'builtin.module' on a PassManager intended to run on 'tt.func', did you intend to nest?"
	_, err := reg.ParsePipeline("builtin.module(tt.func(test-a))")
	if err == nil || !strings.Contains(err.Error(), "1:24: error: "+want) {
		t.Errorf("ParsePipeline: got %v, want an error at column 24: %s", err, want)
	}
	if err := NewPipeline("tt.func").AddPass(reg.Lookup("test-a"), ""); err == nil || err.Error() != want {
		t.Errorf("AddPass: got %v, want %s", err, want)
	}
	if _, err := reg.ParsePipeline("builtin.module(tt.func(test-func),any(test-a))"); err != nil {
		t.Errorf("a tt.func pass in tt.func and a module pass in any: %v", err)
	}
}

func TestParsePipelineErrors(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	tests := []struct {
		in  string
		col int
		msg string
	}{
		{"", 1, "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'"},
		{"test-a", 1, "expected pass pipeline to be wrapped with the anchor operation type"},
		{"(test-a)", 1, "expected pass pipeline to be wrapped"},
		{"builtin.module(test-a", 15, "encountered unbalanced parentheses while parsing pipeline"},
		{"builtin.module(test-a))", 23, "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline"},
		{"builtin.module(test-a) x", 24, "unexpected text after the pipeline"},
		{"builtin.module(nope)", 16, "'nope' does not refer to a registered pass or pass pipeline"},
		{"builtin.module(test-opt)", 16, "'test-opt' does not refer to a registered pass or pass pipeline; did you mean 'test-opts'?"},
		{"builtin.module(test-alias-b)", 16, "'test-alias-b' does not refer to a registered pass or pass pipeline; did you mean 'test-alias-a'?"},
		{"builtin.module(test-opts{mod=fast})", 26, "pass 'test-opts' has no option 'mod' (options: mode, n, flag, label); did you mean 'mode'?"},
		{"builtin.module(test-a test-b)", 23, "expected ',' after parsing pipeline"},
		{"builtin.module(,test-a)", 16, "expected a pass name or a nested pipeline, found ','"},
		{"builtin.module(test-a,)", 23, "expected a pass name or a nested pipeline, found ')'"},
		{"builtin.module(test-opts{mode=medium})", 31, `pass 'test-opts': invalid value "medium" for option 'mode' (allowed: fast, slow)`},
		{"builtin.module(test-opts{bogus=1})", 26, "pass 'test-opts' has no option 'bogus' (options: mode, n, flag, label)"},
		{"builtin.module(test-a{x=1})", 23, "pass 'test-a' has no option 'x' (it takes no options)"},
		{"builtin.module(test-opts{n=three})", 28, `invalid value "three" for option 'n': expected an integer`},
		{"builtin.module(test-opts{flag=maybe})", 31, `invalid value "maybe" for option 'flag': expected true or false`},
		{"builtin.module(test-opts{n})", 26, "option 'n' of pass 'test-opts' needs a value: n=..."},
		{"builtin.module(test-opts{n=1 n=2})", 30, "option 'n' of pass 'test-opts' given twice"},
		{"builtin.module(test-opts{mode=fast)", 25, "missing closing '}' while processing pass options"},
		{"builtin.module(test-opts{label='a b})", 35, "pass 'test-opts' has no option 'b'"},
		{"9bad(test-a)", 1, "'9bad' is not a valid operation name"},
		{"builtin.module(tt.func(test-func)", 15, "encountered unbalanced parentheses while parsing pipeline"},
		{strings.Repeat("a(", 100) + strings.Repeat(")", 100), 129, "pipeline nested more than 64 deep"},
	}
	for _, tt := range tests {
		_, err := reg.ParsePipeline(tt.in)
		var pe *PipelineError
		if !errors.As(err, &pe) {
			t.Errorf("ParsePipeline(%q) error = %v, want a *PipelineError", tt.in, err)
			continue
		}
		if pe.Column() != tt.col || !strings.Contains(pe.Msg, tt.msg) {
			t.Errorf("ParsePipeline(%q) error at column %d: %q\nwant column %d: %q", tt.in, pe.Column(), pe.Msg, tt.col, tt.msg)
		}
	}
}

func TestPipelineErrorFormat(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	_, err := reg.ParsePipeline("builtin.module(test-a,nope)")
	var pe *PipelineError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is not a *PipelineError", err)
	}
	want := "MLIR Textual PassPipeline Parser:1:23: error: 'nope' does not refer to a registered pass or pass pipeline"
	if got := pe.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	wantSnippet := "builtin.module(test-a,nope)\n                      ^"
	if got := pe.Snippet(); got != wantSnippet {
		t.Errorf("Snippet() =\n%s\nwant\n%s", got, wantSnippet)
	}
}

func TestAddPass(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	pl := NewPipeline(ModuleOp)
	if err := pl.AddPass(reg.Lookup("test-opts"), "mode=slow label='hello world'"); err != nil {
		t.Fatal(err)
	}
	pl.Nest("tt.func").AddPass(reg.Lookup("test-func"), "")
	if got, want := pl.String(), "builtin.module(test-opts{mode=slow label='hello world'},tt.func(test-func))"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	err := pl.AddPass(reg.Lookup("test-opts"), "mode=slow n=x")
	var pe *PipelineError
	if !errors.As(err, &pe) || pe.Column() != 13 || !strings.Contains(pe.Msg, "expected an integer") {
		t.Errorf("AddPass with a bad int: %v", err)
	}
}

// genPipeline generates a random pipeline over the test passes.
func genPipeline(reg *Registry, depth int) *rapid.Generator[*Pipeline] {
	return rapid.Custom(func(t *rapid.T) *Pipeline {
		anchor := rapid.SampledFrom([]string{"builtin.module", "tt.func", "any", "scf.for"}).Draw(t, "anchor")
		pl := NewPipeline(anchor)
		n := rapid.IntRange(0, 4).Draw(t, "n")
		for i := 0; i < n; i++ {
			if depth > 0 && rapid.IntRange(0, 3).Draw(t, "nest") == 0 {
				pl.Elems = append(pl.Elems, Element{Nested: genPipeline(reg, depth-1).Draw(t, "nested")})
				continue
			}
			names := []string{"test-a", "test-b", "test-opts", "test-func"}
			if anchor != "builtin.module" && anchor != AnyOp {
				names = []string{"test-func"} // no op but a module holds a module
			}
			p := reg.Lookup(rapid.SampledFrom(names).Draw(t, "pass"))
			var opts []OptionValue
			if p.Name == "test-opts" {
				if rapid.Bool().Draw(t, "mode?") {
					opts = append(opts, OptionValue{"mode", rapid.SampledFrom([]string{"fast", "slow"}).Draw(t, "mode")})
				}
				if rapid.Bool().Draw(t, "n?") {
					opts = append(opts, OptionValue{"n", rapid.SampledFrom([]string{"0", "-7", "42"}).Draw(t, "n")})
				}
				if rapid.Bool().Draw(t, "label?") {
					// Values that survive MLIR's trimming: no leading or
					// trailing space.
					v := rapid.StringMatching(`[a-z{}'" ,=]{0,8}`).Draw(t, "label")
					v = strings.TrimSpace(v)
					if v != "" && balanced(v) {
						opts = append(opts, OptionValue{"label", v})
					}
				}
			}
			pl.Elems = append(pl.Elems, Element{Pass: p, Options: opts})
		}
		return pl
	})
}

// balanced reports whether the braces of s are balanced both when quotes
// are ignored (the scan for the end of a pass's options, as in MLIR) and
// when quoted text is skipped (the scan of one option's value): only such
// values can be written in a pipeline. `{"'}"` fails the second.
func balanced(s string) bool {
	if end, ok := matchBrace("{"+s+"}", 0); !ok || end != len(s)+1 {
		return false
	}
	d := 0
	for _, c := range s {
		switch c {
		case '{':
			d++
		case '}':
			d--
			if d < 0 {
				return false
			}
		}
	}
	return d == 0
}

// TestPipelineRoundTrip checks that printing a pipeline and parsing it back
// gives the same pipeline.
func TestPipelineRoundTrip(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	rapid.Check(t, func(t *rapid.T) {
		pl := genPipeline(reg, 2).Draw(t, "pipeline")
		text := pl.String()
		back, err := reg.ParsePipeline(text)
		if err != nil {
			t.Fatalf("ParsePipeline(%q): %v", text, err)
		}
		if got := back.String(); got != text {
			t.Fatalf("round trip: %q became %q", text, got)
		}
		if !samePipeline(pl, back) {
			t.Fatalf("round trip of %q changed the structure", text)
		}
	})
}

func samePipeline(a, b *Pipeline) bool {
	if a.Anchor != b.Anchor || len(a.Elems) != len(b.Elems) {
		return false
	}
	for i := range a.Elems {
		x, y := a.Elems[i], b.Elems[i]
		if (x.Nested == nil) != (y.Nested == nil) {
			return false
		}
		if x.Nested != nil {
			if !samePipeline(x.Nested, y.Nested) {
				return false
			}
			continue
		}
		if x.Pass != y.Pass || !cmp.Equal(x.Options, y.Options) {
			return false
		}
	}
	return true
}

func FuzzParsePipeline(f *testing.F) {
	for _, s := range []string{
		"builtin.module(test-a,tt.func(test-func),test-opts{mode=slow n=2 label='a b'})",
		"builtin.module(test-opts{label={x,{y}} flag})",
		"any(test-b)",
		"builtin.module(test-a",
		"builtin.module(test-opts{label=\"q'q\"})",
		"a(b(c(d())))",
	} {
		f.Add(s)
	}
	var log []string
	reg := testPasses(f, &log)
	f.Fuzz(func(t *testing.T, text string) {
		pl, err := reg.ParsePipeline(text)
		if err != nil {
			var pe *PipelineError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *PipelineError", err)
			}
			if pe.Offset < 0 || pe.Offset > len(text) {
				t.Fatalf("error offset %d outside the text (len %d)", pe.Offset, len(text))
			}
			_ = pe.Snippet()
			return
		}
		s := pl.String()
		back, err := reg.ParsePipeline(s)
		if err != nil {
			t.Fatalf("%q parsed, but its printed form %q does not: %v", text, s, err)
		}
		if back.String() != s {
			t.Fatalf("printed form not stable: %q then %q", s, back.String())
		}
	})
}

func BenchmarkParsePipeline(b *testing.B) {
	var log []string
	reg := testPasses(b, &log)
	text := "builtin.module(test-a,tt.func(test-func,test-opts{mode=slow n=3 label='a b'}),test-b,test-opts{flag})"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.ParsePipeline(text); err != nil {
			b.Fatal(err)
		}
	}
}
