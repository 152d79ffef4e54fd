package lit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTestScript(t *testing.T) {
	text := `// RUN: layout-opt %s \
// RUN:   -canonicalize | FileCheck %s
// RUN: echo %(line) %(line+2) %(line - 1)
// REQUIRES: asserts, linux && !windows
// UNSUPPORTED: slow
// XFAIL: *
// XFAIL: nvptx
// ALLOW_RETRIES: 2
// CHECK-RUN: not a keyword
# XRUN: nor this
;RUN: but this is
// END.
// RUN: after END, ignored
`
	s, err := parseTestScript("t.mlir", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := &testScript{
		runs: []runLine{
			{1, " layout-opt %s    -canonicalize | FileCheck %s", 0},
			{3, " echo 3 5 2", 0},
			{11, " but this is", 0},
		},
		requires:     []string{"asserts", "linux && !windows"},
		unsupported:  []string{"slow"},
		xfail:        []string{"*", "nvptx"},
		allowRetries: 2,
	}
	if d := cmp.Diff(want, s, cmp.AllowUnexported(testScript{}, runLine{})); d != "" {
		t.Errorf("parseTestScript mismatch (-want +got):\n%s", d)
	}
}

func TestDefines(t *testing.T) {
	text := `// DEFINE: %{opt} = layout-opt \
// DEFINE:     -canonicalize
// RUN: %{opt} %s
// REDEFINE: %{opt} = other %{x}
// DEFINE: %{x}=X
// RUN: %{opt} %s
`
	s, err := parseTestScript("t", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	wantDefs := []define{
		{2, false, Substitution{"%{opt}", "layout-opt -canonicalize"}},
		{4, true, Substitution{"%{opt}", "other %{x}"}},
		{5, false, Substitution{"%{x}", "X"}},
	}
	if d := cmp.Diff(wantDefs, s.defines, cmp.AllowUnexported(define{})); d != "" {
		t.Errorf("defines (-want +got):\n%s", d)
	}
	base := []Substitution{{"%s", "file"}}
	var got []string
	for _, rl := range s.runs {
		subs, err := applyDefines("t", base, s.defines[:rl.defines])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, substitute(rl.text, subs))
	}
	// A substitution applies in list order: %{x} is in front of %{opt}, so
	// the %{x} that %{opt} brings in stays.
	want := []string{" layout-opt -canonicalize file", " other %{x} file"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("substituted RUN lines (-want +got):\n%s", d)
	}

	for _, bad := range []struct {
		defs []define
		msg  string
	}{
		{[]define{{3, true, Substitution{"%{y}", "v"}}}, "t:3: error: REDEFINE: %{y} is not defined"},
		{[]define{{1, false, Substitution{"%s", "v"}}}, "t:1: error: DEFINE: %s is already defined"},
	} {
		if _, err := applyDefines("t", base, bad.defs); err == nil || !strings.HasPrefix(err.Error(), bad.msg) {
			t.Errorf("applyDefines(%v) = %v, want %q", bad.defs, err, bad.msg)
		}
	}
}

func TestParseTestScriptErrors(t *testing.T) {
	tests := []struct{ text, msg string }{
		{"// nothing\n", "t:1: error: test has no 'RUN:' line"[4:]},
		{"// RUN: a \\\n", "t:1: error: RUN: line ends in '\\'"},
		{"// RUN: a \\\n// REQUIRES: x\n", "t:2: error: RUN: line ending in '\\' is followed by REQUIRES:"},
		{"// RUN: a\n// REQUIRES: a &&\n", "t:2: error: REQUIRES: expected"},
		{"// RUN: a\n// XFAIL: a,,b\n", "t:2: error: empty expression in XFAIL:"},
		{"// RUN: a\n// UNSUPPORTED: x \\\n", "t:2: error: UNSUPPORTED: does not take continuation"},
		{"// RUN: a\n// ALLOW_RETRIES: x\n", "t:2: error: ALLOW_RETRIES: expects"},
		{"// RUN: a\n// ALLOW_RETRIES: 1\n// ALLOW_RETRIES: 1\n", "t:3: error: ALLOW_RETRIES: given more than once"},
		{"// DEFINE: x = y\n// RUN: a\n", "t:1: error: DEFINE: expects '%{name} = value'"},
		{"// DEFINE: %{x} = \\\n// RUN: a\n", "t:2: error: DEFINE: line ending in '\\' is followed by RUN:"},
		{"// RUN: a\n// REDEFINE: %{x} = \\\n", "t: error: REDEFINE: line ends in '\\'"},
	}
	for _, tt := range tests {
		_, err := parseTestScript("t", []byte(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("parseTestScript(%q) = %v, want %q", tt.text, err, tt.msg)
		}
	}
}

func TestSubstitute(t *testing.T) {
	subs := []Substitution{
		{"%opt", "layout-opt %s"}, // replacement text is expanded by later entries
		{"%s", "/src/a.mlir"},
		{"%S", "/src"},
		{"%t", "/out/a.mlir.tmp"},
	}
	tests := []struct{ in, want string }{
		{"%opt | FileCheck %s", "layout-opt /src/a.mlir | FileCheck /src/a.mlir"},
		{"cp %s %t && ls %S", "cp /src/a.mlir /out/a.mlir.tmp && ls /src"},
		{"printf '%%s' 100%%", "printf '%s' 100%"},
		{"%%t", "%t"},
		{"%%%s", "%/src/a.mlir"},
		{"no percent", "no percent"},
	}
	for _, tt := range tests {
		if got := substitute(tt.in, subs); got != tt.want {
			t.Errorf("substitute(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func BenchmarkSubstitute(b *testing.B) {
	subs := []Substitution{{"%opt", "layout-opt"}, {"%{pathsep}", ":"}, {"%s", "/src/a.mlir"}, {"%S", "/src"}, {"%p", "/src"}, {"%t", "/out/a.tmp"}, {"%T", "/out"}}
	line := "%opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK > %t.log"
	b.ReportAllocs()
	for b.Loop() {
		substitute(line, subs)
	}
}

func BenchmarkParseTestScript(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("// RUN: layout-opt %s | FileCheck %s\n// REQUIRES: asserts\n")
	for i := 0; i < 200; i++ {
		sb.WriteString("// CHECK: %[[V:.*]] = ttg.convert_layout %arg0 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked1>\n")
	}
	data := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseTestScript("t.mlir", data); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParseTestScript checks that any file gives a script or an error
// located in it, never a panic.
func FuzzParseTestScript(f *testing.F) {
	for _, s := range []string{
		"// RUN: a \\\n// RUN: b\n", "RUN: x\nREQUIRES: a && !b, c\nXFAIL: *\nALLOW_RETRIES: 3\nEND.\nRUN: y",
		"DEFINE: %{a} = b \\\nDEFINE: c\nRUN: %{a}", "UNSUPPORTED: {{[}}", "RUN: %(line+1) %(line - 2)", "XRUN: no",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := parseTestScript("f.test", []byte(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.test:") {
				t.Fatalf("unlocated error %q", err)
			}
			return
		}
		if len(sc.runs) == 0 {
			t.Fatal("a script without RUN lines was accepted")
		}
		for _, rl := range sc.runs {
			if rl.line < 1 || rl.line > strings.Count(s, "\n")+1 || rl.defines > len(sc.defines) {
				t.Fatalf("bad run line %+v", rl)
			}
		}
	})
}
