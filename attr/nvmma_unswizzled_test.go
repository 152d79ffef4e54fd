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

// Triton 3.6 parses an nvmma_shared without elementBitWidth (its own
// TritonGPU/combine.mlir has two); it reads, verifies and prints back
// without the key, and only asking for its layout fails.
func TestNVMMAWithoutElementBitWidth(t *testing.T) {
	const text = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>"
	enc, _, err := Parse(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Verify(ModuleInfo{}); err != nil {
		t.Errorf("verify: %v", err)
	}
	if got := enc.Format(nil); got != text {
		t.Errorf("printed %s, want %s", got, text)
	}
	if _, err := enc.(Layout).ToLinear([]int{64, 64}); err == nil {
		t.Error("ToLinear without elementBitWidth: no error")
	}
	if _, _, err := Parse("#ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 0}>", nil); err == nil {
		t.Error("elementBitWidth = 0 accepted")
	}
}
