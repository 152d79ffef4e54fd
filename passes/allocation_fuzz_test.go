package passes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

// FuzzSharedMemoryPasses runs the TMA lowering, the allocation and Membar
// on any input that parses and verifies: they must not panic, must leave IR
// that verifies (or fail with a located error), and buffers live at the
// same time must never share bytes. The seeds are the lit test inputs.
func FuzzSharedMemoryPasses(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "test", "passes", "*.mlir"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, chunk := range strings.Split(string(src), "// -----") {
			f.Add(chunk)
		}
	}
	pipeline, err := ParsePipeline("builtin.module(triton-nvidia-tma-lowering,allocate-shared-memory-nv{compute-capability=90},test-print-membar,tritongpu-global-scratch-memory-allocation)")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "fuzz"})
		if diags.HasErrors() || ir.Verify(m).HasErrors() {
			return
		}
		before := m.Clone()
		if diags, err := pipeline.Run(m, RunConfig{}); err != nil {
			for _, d := range diags {
				if d.Severity == ir.Error && d.Pos.Line == 0 {
					t.Fatalf("error without a location: %v\ninput:\n%s", d, src)
				}
			}
			return
		}
		alloc, err := AllocateModule(before.Op, NvidiaScratchSize(90))
		if err != nil {
			return
		}
		for _, fa := range alloc.Funcs {
			for _, x := range fa.Buffers {
				if x.Offset%x.Alignment != 0 || x.Offset+x.Size > fa.SharedMemorySize {
					t.Fatalf("buffer %d misplaced: %+v (frame %d)\n%s", x.ID, x, fa.SharedMemorySize, src)
				}
				for _, y := range fa.Buffers {
					if x != y && x.Live.Intersects(y.Live) && x.Bytes().Intersects(y.Bytes()) {
						t.Fatalf("buffers %d and %d overlap while live\n%s", x.ID, y.ID, src)
					}
				}
			}
		}
	})
}
