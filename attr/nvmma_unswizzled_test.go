package attr

import "testing"

// Triton 3.6 lays an unswizzled nvmma_shared out row-major whether or not it
// is transposed; the bank-conflict oracle (12 rows with transposed = true)
// pins this down.
func TestNVMMAUnswizzledIgnoresTransposed(t *testing.T) {
	for _, shape := range [][]int{{64, 64}, {16, 32}, {128, 32}} {
		for _, bw := range []string{"8", "16", "32"} {
			get := func(tr string) string {
				enc, _, err := Parse("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = "+tr+", elementBitWidth = "+bw+"}>", nil)
				if err != nil {
					t.Fatal(err)
				}
				l, err := enc.(Layout).ToLinear(shape)
				if err != nil {
					t.Fatal(err)
				}
				return l.String()
			}
			if a, b := get("true"), get("false"); a != b {
				t.Errorf("%v i%s: transposed %s, not transposed %s", shape, bw, a, b)
			}
		}
	}
}
