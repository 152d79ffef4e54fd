package ir

import (
	"strings"
	"testing"
)

// TestOpVerifiers checks the op verifiers of ops_verify.go: each module
// is rejected with the message of MLIR's or Triton's verifier, or, with an
// empty want, accepted.
func TestOpVerifiers(t *testing.T) {
	const enc = "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n" +
		"#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n" +
		"#smem = #ttg.shared_memory\n"
	cases := []struct{ name, src, want string }{
		{"if-without-else", "tt.func @f(%c: i1, %a: i32) {\n  %r = scf.if %c -> (i32) {\n    scf.yield %a : i32\n  }\n  tt.return\n}\n",
			"'scf.if' op must have an else block if defining values"},
		{"if-with-else", "tt.func @f(%c: i1, %a: i32) {\n  %r = scf.if %c -> (i32) {\n    scf.yield %a : i32\n  } else {\n    scf.yield %a : i32\n  }\n  tt.return\n}\n", ""},
		{"call-undefined", "tt.func @f(%a: i32) {\n  tt.call @nope(%a) : (i32) -> ()\n  tt.return\n}\n",
			"'tt.call' op 'nope' does not reference a valid function"},
		{"call-ok", "tt.func private @g(i32) -> i32\ntt.func @f(%a: i32) {\n  %0 = tt.call @g(%a) : (i32) -> i32\n  tt.return\n}\n", ""},
		{"call-operand-type", "tt.func private @g(i32) -> i32\ntt.func @f(%a: i64) {\n  %0 = tt.call @g(%a) : (i64) -> i32\n  tt.return\n}\n",
			"'tt.call' op operand type mismatch: expected operand type i32, but provided i64 for operand number 0"},
		{"call-result-count", "tt.func private @g(i32) -> i32\ntt.func @f(%a: i32) {\n  tt.call @g(%a) : (i32) -> ()\n  tt.return\n}\n",
			"'tt.call' op incorrect number of results for callee"},
		{"yield-in-func", "tt.func @f(%a: i32) {\n  scf.yield\n}\n",
			"'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'"},
		{"return-in-if", "tt.func @f(%c: i1) {\n  scf.if %c {\n    tt.return\n  }\n  tt.return\n}\n",
			"'tt.return' op expects parent op 'tt.func'"},
		{"reduce-return-in-func", "tt.func @f(%a: i32) {\n  tt.reduce.return %a : i32\n}\n",
			"'tt.reduce.return' op expects parent op 'tt.reduce'"},
		{"local-load-shape", enc + "tt.func @f(%m: !ttg.memdesc<32x16xf16, #shared, #smem>) {\n  %0 = ttg.local_load %m : !ttg.memdesc<32x16xf16, #shared, #smem> -> tensor<16x32xf16, #blocked>\n  tt.return\n}\n",
			"'ttg.local_load' op source shape [32, 16] must match [destination shape 16, 32]"},
		{"local-store-shape", enc + "tt.func @f(%t: tensor<16x32xf16, #blocked>, %m: !ttg.memdesc<32x16xf16, #shared, #smem, mutable>) {\n  ttg.local_store %t, %m : tensor<16x32xf16, #blocked> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>\n  tt.return\n}\n",
			"'ttg.local_store' op source shape [16, 32] must match [destination shape 32, 16]"},
		{"local-store-immutable", enc + "tt.func @f(%t: tensor<16x16xf16, #blocked>, %m: !ttg.memdesc<16x16xf16, #shared, #smem>) {\n  ttg.local_store %t, %m : tensor<16x16xf16, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #smem>\n  tt.return\n}\n",
			"'ttg.local_store' op Cannot store into immutable memory"},
		{"addptr-result", "tt.func @f(%p: !tt.ptr<f32>, %o: i32) {\n  %0 = \"tt.addptr\"(%p, %o) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>\n  tt.return\n}\n",
			"'tt.addptr' op failed to verify that result type matches ptr type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, d := ParseString(c.src, ParseConfig{Filename: "t.mlir"})
			if d.HasErrors() {
				t.Fatal(d)
			}
			diags := Verify(m)
			if c.want == "" {
				if len(diags) > 0 {
					t.Errorf("unexpected: %v", diags)
				}
				return
			}
			if len(diags) != 1 || !strings.Contains(diags[0].Msg, c.want) {
				t.Errorf("got %v, want one error %q", diags, c.want)
			}
		})
	}
}
