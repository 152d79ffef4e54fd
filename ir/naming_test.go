package ir

import (
	"strings"
	"testing"
)

// MLIR's sanitizeIdentifier: valid names stay, a leading digit or invalid
// byte gets '_', spaces become '_' and other bytes their hex digits.
func TestSanitizeIdentifier(t *testing.T) {
	for in, want := range map[string]string{
		"acc": "acc", "c-1_i32": "c-1_i32", "a.b$c": "a.b$c",
		"0x": "_0x", "a b": "a_b", "a/b": "a2Fb", "(x)": "_28x29", " x": "_x",
	} {
		if got := sanitizeIdentifier(in); got != want {
			t.Errorf("sanitizeIdentifier(%q) = %q, want %q", in, got, want)
		}
	}
}

// nameFromLoc walks a location in pre-order, as Location::findInstanceOf:
// a call site's callee before its caller, a fused location's parts in
// order, through aliases.
func TestNameFromLoc(t *testing.T) {
	file := FileLineColLoc{File: "k.py", Line: 1, Col: 2}
	alias := &LocAlias{Name: "loc3", Loc: NameLoc{Name: "aliased", Child: file}}
	for _, tc := range []struct {
		loc  Location
		want string
	}{
		{NameLoc{Name: "x", Child: file}, "x"},
		{CallSiteLoc{Callee: file, Caller: NameLoc{Name: "caller"}}, "caller"},
		{CallSiteLoc{Callee: NameLoc{Name: "callee"}, Caller: NameLoc{Name: "caller"}}, "callee"},
		{FusedLoc{Locs: []Location{file, NameLoc{Name: "second"}, NameLoc{Name: "third"}}}, "second"},
		{LocRef{Alias: alias}, "aliased"},
		{file, ""}, {UnknownLoc{}, ""}, {nil, ""},
	} {
		if got, _ := nameFromLoc(tc.loc); got != tc.want {
			t.Errorf("nameFromLoc(%s) = %q, want %q", LocString(tc.loc), got, tc.want)
		}
	}
}

// The names of one module under each naming configuration.
func TestSSANaming(t *testing.T) {
	src := `#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%n: i32 loc("n"), %c: i1) -> i32 {
    %zero = arith.constant 0 : i32
    %big = arith.constant 255 : i8
    %t = arith.constant true
    %r = arith.addi %n, %zero : i32 loc(callsite("k.py":3:4 at "r"("k.py":5:6)))
    %y:2 = scf.if %c -> (i32, i32) {
      %in = arith.addi %r, %r : i32 loc("r")
      scf.yield %in, %in : i32, i32
    } else {
      scf.yield %r, %r : i32, i32
    }
    %s = arith.addi %y#0, %y#1 : i32
    tt.return %s : i32
  }
}
`
	m := mustParse(t, src)
	for _, tc := range []struct {
		name string
		cfg  PrintConfig
		want []string
	}{
		{"MLIR", PrintConfig{}, []string{
			"tt.func @f(%arg0: i32, %arg1: i1) -> i32 {",
			"%c0_i32 = arith.constant 0 : i32",
			"%c-1_i8 = arith.constant -1 : i8", // 255 read as a signed i8, as APInt prints
			"%true = arith.constant true",
			"%0 = arith.addi %arg0, %c0_i32 : i32",
			"%1:2 = scf.if %arg1 -> (i32, i32) {\n      %3 = arith.addi %0, %0 : i32",
			"%2 = arith.addi %1#0, %1#1 : i32"}},
		{"name locations", PrintConfig{NameLocAsPrefix: true}, []string{
			"tt.func @f(%n: i32, %arg1: i1) -> i32 {", // %n took argument number 0
			"%r = arith.addi %n, %c0_i32 : i32",
			"%0:2 = scf.if %arg1",
			"%r_0 = arith.addi %r, %r : i32", // unique in the nested scope too
			"%1 = arith.addi %0#0, %0#1 : i32"}},
		{"input names", PrintConfig{KeepNames: true}, []string{
			"tt.func @f(%n: i32, %c: i1) -> i32 {",
			"%zero = arith.constant 0 : i32",
			"%y:2 = scf.if %c",
			"%s = arith.addi %y#0, %y#1 : i32"}},
		{"generic form", PrintConfig{Generic: true}, []string{
			"^bb0(%arg0: i32, %arg1: i1):",
			`%0 = "arith.constant"() <{value = 0 : i32}>`, // no asm names in generic form
			`%4:2 = "scf.if"(%arg1) ({`,
			// Unique IDs: the regions are named after the function's
			// values, the else region (queued last) first.
			`%6 = "arith.addi"(%3, %3)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := printString(t, m, tc.cfg)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			m2, d := ParseString(out, ParseConfig{Filename: "out.mlir"})
			if d.HasErrors() {
				t.Fatalf("reparse: %v", d)
			}
			if tc.cfg.NameLocAsPrefix {
				return // the names came from locations the text lacks
			}
			if out2 := printString(t, m2, tc.cfg); out2 != out {
				t.Errorf("not a fixed point:\n%s", firstDiff(out, out2))
			}
		})
	}
}

// TestIntegerValuesAsAPInt checks that an integer attribute prints its low
// Width bits as MLIR's APInt does: two's complement for signless and signed
// types, unsigned for unsigned ones, whatever the input wrote.
func TestIntegerValuesAsAPInt(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		typ  *IntegerType
		want string
	}{
		{255, &IntegerType{Width: 8}, "-1 : i8"},
		{-1, &IntegerType{Width: 8}, "-1 : i8"},
		{127, &IntegerType{Width: 8}, "127 : i8"},
		{65535, &IntegerType{Width: 16, Sign: Signed}, "-1 : si16"},
		{-1, &IntegerType{Width: 8, Sign: Unsigned}, "255 : ui8"},
		{4294967295, &IntegerType{Width: 32}, "-1 : i32"},
		{-5, &IntegerType{Width: 64}, "-5 : i64"},
	} {
		got := string((&IntegerAttr{Value: tc.v, Type: tc.typ}).appendAttr(nil, nil))
		if got != tc.want {
			t.Errorf("%d : %v printed %q, want %q", tc.v, tc.typ, got, tc.want)
		}
	}
}
