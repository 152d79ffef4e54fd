package ir

import (
	"strings"
	"testing"
)

const blockedDef = "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		unreg bool
		want  string
	}{
		{"undefined value", `tt.func @f(%a: i32) {
  %0 = arith.addi %a, %b : i32
  tt.return
}`, false, "t.mlir:2:23: error: use of undeclared SSA value name '%b'"},
		{"type mismatch", `tt.func @f(%a: i32) {
  %0 = arith.addf %a, %a : f32
  tt.return
}`, false, "t.mlir:2:19: error: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'\n" +
			"t.mlir:1:12: note: prior use here"},
		{"call operand count", `tt.func @g(%a: i32, %b: f32) {
  tt.call @f(%a, %b) : (i32) -> ()
  tt.return
}`, false, "t.mlir:2:14: error: 2 operands present, but expected 1"}, // at the operand list, as MLIR's generated parser

		{"generic operand count", `tt.func @g(%a: i32, %b: i32) {
  "tt.call"(%a, %b) {callee = @f} : (i32) -> ()
  tt.return
}`, false, "t.mlir:2:37: error: 2 operands present, but expected 1"},
		{"generic missing operand", `tt.func @g(%a: i32) {
  "tt.call"() {callee = @f} : (i32) -> ()
  tt.return
}`, false, "t.mlir:2:31: error: 0 operands present, but expected 1"},
		// MLIR reports the count at the operand list (resolveOperands is given
		// the location where the list starts).
		{"yield operand count", `tt.func @g(%a: i32, %b: i32) {
  scf.yield %a, %b : i32
  tt.return
}`, false, "t.mlir:2:13: error: 2 operands present, but expected 1"},
		{"redefinition", `tt.func @f(%a: i32) {
  %a = arith.addi %a, %a : i32
  tt.return
}`, false, "t.mlir:2:3: error: redefinition of SSA value '%a'\nt.mlir:1:12: note: previously defined here"},
		{"undefined alias", "tt.func @f() {\n  %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #nope>\n  tt.return\n}",
			false, "t.mlir:2:71: error: undefined symbol alias id 'nope'"},
		{"unknown custom op", "tt.func @f() {\n  tt.frobnicate\n  tt.return\n}", false,
			"t.mlir:2:3: error: custom op 'tt.frobnicate' is unknown"},
		{"unregistered dialect", "tt.func @f(%a: i32) {\n  %0 = \"foo.bar\"(%a) : (i32) -> i32\n  tt.return\n}", false,
			"t.mlir:2:8: error: 'foo.bar' op created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"},
		{"unregistered op of known dialect", "tt.func @f(%a: i32) {\n  %0 = \"tt.bar\"(%a) : (i32) -> i32\n  tt.return\n}", false,
			"t.mlir:2:8: error: unregistered operation 'tt.bar' found in dialect ('tt') that does not allow unknown operations"},
		{"unregistered op of known dialect, allowed", "tt.func @f(%a: i32) {\n  %0 = \"tt.bar\"(%a) : (i32) -> i32\n  tt.return\n}", true,
			"t.mlir:2:8: error: unregistered operation 'tt.bar' found in dialect ('tt') that does not allow unknown operations"},
		{"unregistered builtin op, allowed", "\"builtin.bar\"() : () -> ()", true,
			"t.mlir:1:1: error: unregistered operation 'builtin.bar' found in dialect ('builtin') that does not allow unknown operations"},
		{"unregistered in custom form", "tt.func @f(%a: i32) {\n  %0 = foo.bar %a : i32\n  tt.return\n}", true,
			"t.mlir:2:8: error: custom op 'foo.bar' is unknown"},
		{"syntax", "tt.func @f(%a: i32) {\n  %0 = arith.addi %a %a : i32\n  tt.return\n}", false,
			"t.mlir:2:22: error: expected ','"},
		{"result count", "tt.func @f(%a: i32) {\n  %0:2 = arith.addi %a, %a : i32\n  tt.return\n}", false,
			"t.mlir:2:10: error: operation defines 1 results but was provided 2 to bind"},
		{"bad encoding field", "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>\n", false,
			"t.mlir:1:96: error: unexpected key: bogus"},
		{"unterminated string", "module attributes {x = \"abc} {\n}", false,
			"t.mlir:1:24: error: expected '\"' in string literal"},
		{"location alias never defined", "module {\n} loc(#loc9)", false,
			"t.mlir:2:7: error: operation location alias was never defined: #loc9"},
		{"several errors", `tt.func @f(%a: i32) {
  %0 = arith.addi %a, %x : i32
  %1 = arith.muli %a, %a : f32
  %2 = arith.subi %a %a : i32
  %3 = arith.addi %0, %1 : i32
  tt.return
}`, false, "t.mlir:2:23: error: use of undeclared SSA value name '%x'\n" +
			"t.mlir:3:19: error: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'\n" +
			"t.mlir:1:12: note: prior use here\n" +
			"t.mlir:4:22: error: expected ','"},
		// Recovery: one error, no cascade.
		{"unregistered op closing the module", `module { "foo.bar"() : () -> () }`, false,
			"t.mlir:1:10: error: 'foo.bar' op created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"},
		{"error before a '}' on its line", "module { tt.func @f( }", false,
			"t.mlir:1:22: error: expected non-function type"},
		{"error in the header of an op with a region", `tt.func @f(%a: i32) -> i32 {
  %0 = scf.for %i = %a to %a step %a iter_args(%x = %a) -> (i32) : bad {
    scf.yield %x : i32
  }
  tt.return %0 : i32
}
tt.func @g() {
  tt.return %nope : i32
}`, false, "t.mlir:2:68: error: expected non-function type\n" +
			"t.mlir:8:13: error: use of undeclared SSA value name '%nope'"},
		{"error in a list spanning lines", `tt.func @f(%a: i32,
    %b: bad) {
  tt.return
}
tt.func @g() {
  tt.return %nope : i32
}`, false, "t.mlir:2:9: error: expected non-function type\n" +
			"t.mlir:6:13: error: use of undeclared SSA value name '%nope'"},
		{"unclosed region at the end", "module {\n  tt.func @f() {\n    tt.return\n", false,
			"t.mlir:4:1: error: expected '}' to end region"},
		{"independent errors in two functions", `tt.func @f(%a: i32) {
  %0 = arith.addi %a %a : i32
  tt.return
}
tt.func @g(%a: i32) {
  %0 = arith.addi %a, %b : i32
  tt.return
}`, false, "t.mlir:2:22: error: expected ','\n" +
			"t.mlir:6:23: error: use of undeclared SSA value name '%b'"},
		{"word that is not a type", "module attributes {x = foo} {\n}", false,
			"t.mlir:1:24: error: expected attribute value"},
		{"type attribute in error", "module attributes {x = tensor<4xfoo>} {\n}", false,
			"t.mlir:1:33: error: expected non-function type"},
		{"split line numbers", "\n\n  %0 = \"x.y\"() : () -> (", true, "t.mlir:13:25: error: expected non-function type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ParseConfig{Filename: "t.mlir", AllowUnregistered: tc.unreg}
			if tc.name == "split line numbers" {
				cfg.StartLine = 11
			}
			m, diags := ParseString(tc.src, cfg)
			if m != nil {
				t.Fatalf("parse succeeded, want errors")
			}
			if got := diags.Error(); got != tc.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestAllowUnregistered(t *testing.T) {
	src := "tt.func @f(%a: i32) {\n  %0 = \"foo.bar\"(%a) {k = 1 : i32} : (i32) -> i32\n  \"foo.use\"(%0) : (i32) -> ()\n  tt.return\n}\n"
	m, diags := ParseString(src, ParseConfig{Filename: "t.mlir", AllowUnregistered: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := keep(m)
	want := `%0 = "foo.bar"(%a) {k = 1 : i32} : (i32) -> i32`
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	// The implicit module is printed around the function.
	if !strings.HasPrefix(out, "module {\n  tt.func @f(") {
		t.Errorf("output:\n%s", out)
	}
}

// TestVerifyUnregisteredOfLoadedDialect checks that Verify rejects an
// unregistered op of a dialect with registered ops built in code, as the
// parser does, and accepts one of an unknown dialect.
func TestVerifyUnregisteredOfLoadedDialect(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"tt.bogus", "unregistered operation 'tt.bogus' found in dialect ('tt') that does not allow unknown operations"},
		{"foo.bogus", ""},
	} {
		m := MustParse("tt.func @f() {\n  tt.return\n}\n")
		ret := findOp(m, "tt.return")
		ret.Block().InsertBefore(ret, NewOperation(tc.name, nil, nil, nil, 0))
		var got string
		if d := Verify(m); len(d) > 0 {
			got = d[0].Msg
		}
		if got != tc.want {
			t.Errorf("%s: Verify = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestNestingLimit(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	src := "module attributes {x = " + deep + "} {\n}"
	_, diags := ParseString(src, ParseConfig{Filename: "t.mlir", MaxNesting: 64})
	want := "t.mlir:1:88: error: nesting too deep (limit 64)"
	if len(diags) == 0 || diags[0].String() != want {
		t.Errorf("got %v, want %s", diags, want)
	}
	regions := strings.Repeat("\"x.r\"() ({\n", 1000) + strings.Repeat("}) : () -> ()\n", 1000)
	_, diags = ParseString(regions, ParseConfig{Filename: "t.mlir", AllowUnregistered: true})
	if len(diags) != 1 || !strings.Contains(diags[0].Msg, "nesting too deep (limit 512)") {
		t.Errorf("got %v, want the one nesting error", diags)
	}
	// Unclosed: one error at the end, not one per open region.
	_, diags = ParseString(strings.Repeat("\"x.r\"() ({\n", 100), ParseConfig{Filename: "t.mlir", AllowUnregistered: true})
	if len(diags) != 1 || diags[0].Msg != "expected '}' to end region" {
		t.Errorf("got %v, want one \"expected '}'\"", diags)
	}
}

func TestRender(t *testing.T) {
	src := "tt.func @f(%a: i32) {\n\t%0 = arith.addf %a, %a : f32\n  tt.return\n}\n"
	_, diags := ParseString(src, ParseConfig{Filename: "r.mlir"})
	want := "r.mlir:2:18: error: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'\n" +
		"\t%0 = arith.addf %a, %a : f32\n" +
		"\t                ^\n" +
		"r.mlir:1:12: note: prior use here\n" +
		"tt.func @f(%a: i32) {\n" +
		"           ^\n"
	if got := diags.Render([]byte(src), 1); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
