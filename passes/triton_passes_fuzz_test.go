package passes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

// tritonPassesFuzzed are Triton's passes that rewrite control flow, move
// ops or retype values: each is run alone on every fuzz input.
var tritonPassesFuzzed = []string{
	"triton-nvidia-optimize-descriptor-encoding",
	"triton-nvidia-gpu-fence-insertion",
	"tritongpu-reorder-instructions",
	"tritongpu-combine-tensor-select-and-if",
}

// FuzzTritonPasses runs each of tritonPassesFuzzed on any input that parses
// and verifies: none may panic or leave IR that does not verify (the
// pipeline verifies after the pass); a pass may refuse an input with an
// error. The seeds are the passes' own lit tests and Triton's.
func FuzzTritonPasses(f *testing.F) {
	for _, pat := range []string{
		filepath.Join("..", "test", "passes", "optimize-descriptor-encoding*.mlir"),
		filepath.Join("..", "test", "passes", "fence-insertion.mlir"),
		filepath.Join("..", "test", "passes", "reorder-instructions.mlir"),
		filepath.Join("..", "test", "passes", "combine-select-if.mlir"),
		filepath.Join("..", "..", "shared", "triton36", "lit", "TritonNvidiaGPU", "optimize_descriptor_encoding.mlir"),
		filepath.Join("..", "..", "shared", "triton36", "lit", "TritonGPU", "fence-inserstion.mlir"),
		filepath.Join("..", "..", "shared", "triton36", "lit", "TritonGPU", "reorder-instructions.mlir"),
		filepath.Join("..", "..", "shared", "triton36", "lit", "TritonGPU", "combine-select-if.mlir"),
	} {
		files, _ := filepath.Glob(pat)
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			for _, chunk := range strings.Split(string(b), "// -----") {
				f.Add(chunk)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, name := range tritonPassesFuzzed {
			m, d := ir.ParseString(src, ir.ParseConfig{Filename: "fuzz.mlir"})
			if d.HasErrors() || ir.Verify(m).HasErrors() {
				return
			}
			pl, err := ParsePipeline("builtin.module(" + name + ")")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pl.Run(m, RunConfig{}); err != nil {
				if msg := err.Error(); strings.Contains(msg, "internal error") || strings.Contains(msg, "does not verify") {
					t.Fatalf("%s: %v", name, err)
				}
				continue
			}
			if d := ir.Verify(m); d.HasErrors() {
				t.Fatalf("%s: the output does not verify: %v", name, d)
			}
		}
	})
}
