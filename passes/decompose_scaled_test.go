package passes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// FuzzDecomposeScaled: tritongpu-decompose-scaled-blocked on any module
// that verifies either rewrites every tt.dot_scaled without an MMA layout
// into IR that verifies (the pipeline checks) or fails with an error,
// never a panic. Seeds: its lit test and Triton's scaled-dot lit kernels.
func FuzzDecomposeScaled(f *testing.F) {
	seeds := []string{filepath.Join("..", "test", "passes", "decompose-scaled-blocked.mlir")}
	if dir := testenv.SharedDir(); dir != "" {
		seeds = append(seeds, filepath.Join(dir, "triton36", "lit", "TritonGPU", "accelerate-matmul.mlir"),
			filepath.Join(dir, "triton36", "lit", "TritonGPU", "amd", "accelerate-amd-matmul-mfma-decompose-scaled-dot.mlir"))
	}
	for _, file := range seeds {
		src, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		for _, chunk := range strings.Split(string(src), "// -----") {
			if strings.Contains(chunk, "tt.dot_scaled") {
				f.Add(chunk)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "fuzz"})
		if diags.HasErrors() || ir.Verify(m).HasErrors() {
			return
		}
		if _, err := passes.DecomposeScaledDots(m); err != nil {
			return
		}
		if strings.Contains(m.String(), "tt.dot_scaled") && !strings.Contains(src, "nvidia_mma") && !strings.Contains(src, "amd_") {
			// Only MMA-laid-out (or layout-free) scaled dots are left alone.
			m.Op.Walk(func(op *ir.Operation) ir.WalkResult {
				if op.Name() == "tt.dot_scaled" {
					if rt, ok := op.Result(0).Type().(*ir.RankedTensorType); ok && rt.Encoding != nil {
						t.Fatalf("a tt.dot_scaled with layout %s was left:\n%s", ir.TypeString(rt), src)
					}
				}
				return ir.Advance
			})
		}
	})
}
