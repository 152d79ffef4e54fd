package ir

import (
	"math"
	"strings"
	"testing"
)

// 16-bit NaNs and infinities print in their own width, as MLIR does, and
// hexadecimal 16-bit literals read back as the number they encode.
func TestFloat16HexLiterals(t *testing.T) {
	for _, c := range []struct {
		lit string
		typ Type
		v   float64
	}{
		{"0x7E00", F16, math.NaN()}, {"0x7C00", F16, math.Inf(1)}, {"0xFC00", F16, math.Inf(-1)},
		{"0x7FC0", BF16, math.NaN()}, {"0x7F80", BF16, math.Inf(1)},
	} {
		if got := string(appendFloatValue(nil, c.v, c.typ)); got != c.lit {
			t.Errorf("%v : %s prints as %s, want %s", c.v, TypeString(c.typ), got, c.lit)
		}
		src := "tt.func @f() -> " + TypeString(c.typ) + " {\n  %c = arith.constant " + c.lit + " : " + TypeString(c.typ) + "\n  tt.return %c : " + TypeString(c.typ) + "\n}\n"
		m, d := ParseString(src, ParseConfig{})
		if d.HasErrors() {
			t.Fatal(d)
		}
		if out := m.String(); !strings.Contains(out, "arith.constant "+c.lit+" : ") {
			t.Errorf("%s does not print back:\n%s", c.lit, out)
		}
	}
	if v := FloatFromBits(0x3C00, F16); v != 1 {
		t.Errorf("0x3C00 : f16 = %v, want 1", v)
	}
	if v := FloatFromBits(0x0001, F16); v != math.Ldexp(1, -24) {
		t.Errorf("0x0001 : f16 = %v, want 2^-24", v)
	}
}
