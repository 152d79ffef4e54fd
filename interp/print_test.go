package interp_test

import (
	"bytes"
	"strings"
	"testing"

	_ "github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestPrint checks tt.print's lines: Triton's format, the index padded to
// each dimension's digits, signed and unsigned narrow integers, hex (a
// float's own bits), several operands, none, and nothing without
// Machine.Print.
func TestPrint(t *testing.T) {
	src := `
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%n: i32) {
    %r = tt.make_range {end = 12 : i32, start = 0 : i32} : tensor<12xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<12xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<12x1xi32, #b>
    %c5 = arith.constant dense<5> : tensor<12x1xi32, #b>
    %d = arith.subi %e, %c5 : tensor<12x1xi32, #b>
    %d8 = arith.trunci %d : tensor<12x1xi32, #b> to tensor<12x1xi8, #b>
    %f = arith.sitofp %d : tensor<12x1xi32, #b> to tensor<12x1xf16, #b>
    tt.print " d: " {hex = false, isSigned = array<i32: 1>} : %d : tensor<12x1xi32, #b>
    tt.print " u8: " {hex = false, isSigned = array<i32: 0>} : %d8 : tensor<12x1xi8, #b>
    tt.print " h, n: " {hex = true, isSigned = array<i32: 0, 1>} : %f, %n : tensor<12x1xf16, #b>, i32
    tt.print " x: " {hex = true, isSigned = array<i32: 1>} : %d8 : tensor<12x1xi8, #b>
    tt.print " end" {hex = false, isSigned = array<i32>}
    tt.return
  }
}`
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "print.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var out bytes.Buffer
	if err := interp.RunWith(m, "k", []interp.Arg{interp.IntArg(-2)}, [3]int{2, 1, 1}, interp.Options{Print: &out}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	for _, want := range []string{
		"pid (0, 0, 0) idx ( 0, 0) d: -5",
		"pid (0, 0, 0) idx (11, 0) d: 6",
		"pid (0, 0, 0) idx ( 0, 0) u8: 251",
		"pid (0, 0, 0) idx ( 2, 0) h, n: (operand 0) 0xc200",
		"pid (0, 0, 0) idx () h, n: (operand 1) 0xfffffffe",
		"pid (0, 0, 0) idx ( 0, 0) x: 0xfffffffb",
		"pid (0, 0, 0) end",
		"pid (1, 0, 0) end",
	} {
		found := false
		for _, l := range lines {
			found = found || l == want
		}
		if !found {
			t.Errorf("no line %q in\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "\n"); n != 2*(12*4+1+1) {
		t.Errorf("%d lines, want %d", n, 2*(12*4+1+1))
	}
	if err := interp.RunWith(m, "k", []interp.Arg{interp.IntArg(-2)}, [3]int{1, 1, 1}, interp.Options{}); err != nil {
		t.Fatal(err)
	}
}
