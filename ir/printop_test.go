package ir

import (
	"strings"
	"testing"
)

// TestPrintOp checks printing one nested op alone: local scope whatever the
// configuration, generic form and locations as configured, the root's own
// results numbered (from 0, and so are its regions': MLIR queues the
// root's regions with the counters as they were before naming the root).
func TestPrintOp(t *testing.T) {
	src := `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#loc = loc("k.py":1:2)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %0 = scf.for %i = %c0 to %n step %n iter_args(%x = %c0) -> (i32) : i32 {
      %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked> loc(#loc)
      scf.yield %x : i32
    }
    tt.return %0 : i32
  }
}
`
	m, d := ParseString(src, ParseConfig{Filename: "t.mlir"})
	if d.HasErrors() {
		t.Fatal(d)
	}
	fn, loop := findOp(m, "tt.func"), findOp(m, "scf.for")
	tests := []struct {
		name string
		op   *Operation
		cfg  PrintConfig
		want []string
	}{
		{"custom", fn, PrintConfig{}, []string{
			"tt.func @f(%arg0: i32) -> i32 {\n",
			"%0 = scf.for %arg1 = %c0_i32 to %arg0 step %arg0 iter_args(%arg2 = %c0_i32) -> (i32)  : i32 {",
			"tensor<4xi32, #ttg.blocked<{sizePerThread = [1]",
			"\n}"}},
		{"generic", fn, PrintConfig{Generic: true}, []string{
			`"tt.func"() <{`, `"scf.for"(%0, %arg0, %arg0, %0) ({`}},
		{"generic, input names", fn, PrintConfig{Generic: true, KeepNames: true}, []string{
			`"scf.for"(%c0, %n, %n, %c0) ({`}},
		{"debuginfo", fn, PrintConfig{DebugInfo: true, KeepNames: true}, []string{
			`tt.func @f(%n: i32 loc("t.mlir":4:14)) -> i32 {`,
			`: tensor<4xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> loc("k.py":1:2)`,
			`} loc("t.mlir":4:3)`}},
		{"root results are numbered", loop, PrintConfig{}, []string{
			"%0 = scf.for %arg0 = %c0 to %n step %n iter_args(%arg1 = %c0) -> (i32)  : i32 {\n  %0 = tt.make_range"}},
		{"root results keep their names", loop, PrintConfig{KeepNames: true}, []string{
			"%0 = scf.for %i = %c0 to %n step %n iter_args(%x = %c0) -> (i32)  : i32 {\n  %r = tt.make_range"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := PrintOp(&b, tc.op, tc.cfg); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			if strings.Contains(got, "#blocked") || strings.Contains(got, "#loc") || strings.HasSuffix(got, "\n") {
				t.Errorf("not local scope, or a final newline:\n%s", got)
			}
		})
	}
}
