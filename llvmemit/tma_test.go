package llvmemit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// TestTMABoxPlacement checks, element by element, that where the TMA writes
// each message's box (its offset, the box row-major, 16-byte granules
// swizzled within the swizzle's atom as the TMA's swizzle modes do:
// address bits 4.. XOR bits 7.., CuTe's Swizzle<1|2|3,4,3>) is where the
// buffer's nvmma_shared layout puts the element, which the local loads
// read: over swizzles, element widths, ranks, and blocks of several boxes
// in every dimension (one GPU run checked the
// 2-D 128-byte case, proof/results/h100-r23).
func TestTMABoxPlacement(t *testing.T) {
	for _, c := range []struct {
		shape   string
		elem    string
		bits    int
		swizzle int
	}{
		{"64x128", "f16", 16, 128},
		{"128x128", "f16", 16, 128},
		{"512x64", "f16", 16, 128},
		{"512x128", "f16", 16, 128}, // boxes along both dimensions
		{"64x64", "f32", 32, 128},
		{"32x64", "f32", 32, 64},
		{"16x64", "i8", 8, 32},
		{"128x32", "bf16", 16, 64},
		{"64x64", "f16", 16, 0},
		{"512x128", "f16", 16, 0},
		{"2x64x64", "f16", 16, 128},
		{"4x8x128", "f32", 32, 128},
	} {
		t.Run(fmt.Sprintf("%sx%s/%dB", c.shape, c.elem, c.swizzle), func(t *testing.T) {
			rank := ""
			if strings.Count(c.shape, "x") == 2 {
				rank = ", rank = 3"
			}
			src := fmt.Sprintf(`#s = #ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = false, elementBitWidth = %d%s}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%%d: !tt.tensordesc<tensor<%sx%s, #s>>) {
    tt.return
  }
}`, c.swizzle, c.bits, rank, c.shape, c.elem)
			m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "t.mlir"})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var dt *ir.TensorDescType
			m.Op.Walk(func(op *ir.Operation) ir.WalkResult {
				if op.Name() == "tt.func" {
					dt = op.Region(0).Entry().Args()[0].Type().(*ir.TensorDescType)
				}
				return ir.Advance
			})
			tb, err := passes.TMABoxOf(dt)
			if err != nil {
				t.Fatal(err)
			}
			shape := dt.Block.Shape
			S, err := attr.Linear(dt.Block.Encoding.(*ir.EncodingAttr).Enc.(attr.Shared), intShape(shape))
			if err != nil {
				t.Fatal(err)
			}
			inv, err := S.Invert()
			if err != nil {
				t.Fatal(err)
			}
			msgs := tmaBoxes(tb, shape, &memDesc{view: inv})
			r := len(shape)
			counts, n := make([]int64, r), int64(1)
			for d := range shape {
				counts[d] = shape[d] / tb.Box[d]
				n *= counts[d]
			}
			if int64(len(msgs)) != n {
				t.Fatalf("%d messages, want %d", len(msgs), n)
			}
			mask := int64(tb.SwizzleMode)
			mask = 1<<mask - 1 // bits of the 16-byte granule index swizzled
			x := make([]int, r)
			for i := int64(0); i < int64(S.TotalOutDimSize()); i++ {
				rest := i
				for d := r - 1; d >= 0; d-- {
					x[d] = int(rest % shape[d])
					rest /= shape[d]
				}
				m, stride, inBox := int64(0), int64(1), int64(0)
				for d := range r {
					m += int64(x[d]) / tb.Box[d] * stride
					stride *= counts[d]
					inBox = inBox*tb.Box[d] + int64(x[d])%tb.Box[d]
				}
				b := inBox * int64(tb.ElemBytes)
				b ^= (b >> 7 & mask) << 4
				got := msgs[m].offset + b
				want := int64(inv.Apply(x...)[0]) * int64(tb.ElemBytes)
				if got != want {
					t.Fatalf("element %v: the TMA writes it at byte %d (message %d at %d, box %v), the layout has it at %d", x, got, m, msgs[m].offset, tb.Box, want)
				}
			}
		})
	}
}
