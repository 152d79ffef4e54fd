package interp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
)

// Inputs the verifier lets through that once panicked the interpreter.
func TestVerifiedEdgeCases(t *testing.T) {
	const head = `#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
`
	for _, c := range []struct{ body, want string }{
		// A shared buffer of another element kind than the tensor moved.
		{`    %c = arith.constant dense<1.0> : tensor<128xf32>
    %m = ttg.local_alloc %c : (tensor<128xf32>) -> !ttg.memdesc<128xi32, #shared, #smem>`, "storing f32 elements into a buffer of i32"},
		{`    %m = ttg.local_alloc : () -> !ttg.memdesc<128xi32, #shared, #smem, mutable>
    %c = arith.constant dense<1.0> : tensor<128xf32>
    ttg.local_store %c, %m : tensor<128xf32> -> !ttg.memdesc<128xi32, #shared, #smem, mutable>`, "storing f32 elements into a buffer of i32"},
		{`    %m = ttg.local_alloc : () -> !ttg.memdesc<128xi32, #shared, #smem, mutable>
    %c = ttg.local_load %m : !ttg.memdesc<128xi32, #shared, #smem, mutable> -> tensor<128xf32>`, "loading f32 elements from a buffer of i32"},
		// A constant with a dimension of size 0.
		{`    %z = arith.constant dense<1.0> : tensor<0x4xf32>`, ""},
	} {
		m := parseText(t, head+c.body+"\n    tt.return\n  }\n}\n")
		err := interp.Run(m, "k", nil, [3]int{1, 1, 1})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.body, err)
			}
			continue
		}
		var ie *interp.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "test.mlir:") {
			t.Errorf("%s: %v, want a located error %q", c.body, err, c.want)
		}
	}
}
