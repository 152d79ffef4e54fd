package interp_test

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
)

// TestDotUnverifiedShapes: a tt.dot whose batch dimensions the verifier
// would reject is a located error, not a panic.
func TestDotUnverifiedShapes(t *testing.T) {
	for _, c := range []struct{ a, b, d, want string }{
		{"tensor<1x2x2xf32>", "tensor<1x2x2xf32>", "tensor<2x2x2xf32>", "shapes [1 2 2] · [1 2 2] do not give [2 2 2]"},
		{"tensor<2x2x2xf32>", "tensor<3x2x2xf32>", "tensor<2x2x2xf32>", "shapes [2 2 2] · [3 2 2] do not give [2 2 2]"},
	} {
		src := `module {
  tt.func public @k() {
    %a = arith.constant dense<1.0> : ` + c.a + `
    %b = arith.constant dense<1.0> : ` + c.b + `
    %c = arith.constant dense<0.0> : ` + c.d + `
    %d = tt.dot %a, %b, %c : ` + c.a + ` * ` + c.b + ` -> ` + c.d + `
    tt.return
  }
}`
		err := interp.Run(parseText(t, src), "k", nil, [3]int{1, 1, 1})
		if err == nil || !strings.Contains(err.Error(), "error: 'tt.dot' op "+c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}
