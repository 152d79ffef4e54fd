package ir

import (
	"strings"
	"testing"
)

// roundTrip parses src, prints it, and checks that the printed text is a
// fixed point of parse and print; it returns the printed text.
func roundTrip(t *testing.T, src string) string {
	t.Helper()
	cfg := ParseConfig{Filename: "t.mlir", AllowUnregistered: true}
	m, diags := ParseString(src, cfg)
	if len(diags) > 0 {
		t.Fatalf("parse: %s", diags.Error())
	}
	var b1, b2 strings.Builder
	if err := Print(&b1, m, PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	m2, diags := ParseString(b1.String(), cfg)
	if len(diags) > 0 {
		t.Fatalf("reparse: %s\n%s", diags.Error(), b1.String())
	}
	if err := Print(&b2, m2, PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	if b1.String() != b2.String() {
		t.Fatalf("not a fixed point:\n%s\nthen:\n%s", b1.String(), b2.String())
	}
	return b1.String()
}

// An op whose results have no left-hand side is accepted, as in MLIR, and
// its results print with fresh names.
func TestUnboundResults(t *testing.T) {
	got := roundTrip(t, `tt.func @f(%a: i32) {
  ttg.async_wait {num = 0 : i32}
  arith.addi %a, %a : i32
  "foo.two"(%a) : (i32) -> (i32, i32)
  tt.return
}
`)
	want := `module {
  tt.func @f(%a: i32) {
    %0 = ttg.async_wait {num = 0 : i32}
    %1 = arith.addi %a, %a : i32
    %2:2 = "foo.two"(%a) : (i32) -> (i32, i32)
    tt.return
  }
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A layout alias written over several lines parses (Triton's
// verify-blocked-layout.mlir), errors inside it are placed on their line,
// and the lines after it keep their numbers.
func TestMultiLineEncodingAlias(t *testing.T) {
	const def = "#b = #ttg.blocked<{\n  sizePerThread = [1],\n  threadsPerWarp = [32],\n  warpsPerCTA = [4], order = [0]\n}>\n"
	got := roundTrip(t, def+"tt.func @f(%a: tensor<4xi32, #b>) {\n  tt.return\n}\n")
	if !strings.HasPrefix(got, "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n") {
		t.Errorf("got:\n%s", got)
	}
	for _, tc := range []struct{ src, want string }{
		{"#b = #ttg.blocked<{\n  sizePerThread = [1],\n  threadsPerWarp = [32], bogus = 1,\n  warpsPerCTA = [4], order = [0]}>\n",
			"t.mlir:3:26: error: unexpected key: bogus"},
		{def + "tt.func @f() {\n  tt.return %x : i32\n}\n",
			"t.mlir:7:13: error: use of undeclared SSA value name '%x'"},
	} {
		_, diags := ParseString(tc.src, ParseConfig{Filename: "t.mlir"})
		if got := diags.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
