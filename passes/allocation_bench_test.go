package passes_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// benchPrepare measures PrepareSharedMemory (allocation with NVIDIA's
// scratch sizes, attributes, Membar) on a shared kernel, cloning included.
func benchPrepare(b *testing.B, file string, cc int) {
	src, err := os.ReadFile(filepath.Join(sharedDir(b, "triton36"), file))
	if err != nil {
		b.Skip(err)
	}
	benchPrepareModule(b, ir.MustParse(string(src)), cc)
}

func benchPrepareModule(b *testing.B, m *ir.Module, cc int) {
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		c := m.Clone()
		if _, _, err := passes.PrepareSharedMemory(c.Op, cc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrepareSharedMemoryMatmulSm90(b *testing.B) {
	benchPrepare(b, "ttgir/jit_matmul_128x128x64_w8_s3.ttgir", 90)
}

func BenchmarkPrepareSharedMemoryMatmulSm80(b *testing.B) {
	benchPrepare(b, "ttgir/matmul_64x64x32_f16_sm80_w4.ttgir", 80)
}

func BenchmarkPrepareSharedMemorySoftmax(b *testing.B) {
	benchPrepare(b, "ttgir/softmax_b1024_sm90_w4.ttgir", 90)
}

// manyBuffers is a kernel with n shared buffers, each written, read in a
// loop and freed, a few live at a time.
func manyBuffers(n int) string {
	var s strings.Builder
	s.WriteString(`#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @many(%lb: index, %ub: index, %st: index, %x: tensor<32x32xf16, #AL>) {
`)
	for i := range n {
		fmt.Fprintf(&s, "    %%a%d = ttg.local_alloc %%x : (tensor<32x32xf16, #AL>) -> !ttg.memdesc<%dx32xf16, #S, #smem, mutable>\n", i, 32)
		if i >= 4 {
			fmt.Fprintf(&s, "    scf.for %%i%d = %%lb to %%ub step %%st {\n      %%l%d = ttg.local_load %%a%d : !ttg.memdesc<32x32xf16, #S, #smem, mutable> -> tensor<32x32xf16, #AL>\n      ttg.local_store %%l%d, %%a%d : tensor<32x32xf16, #AL> -> !ttg.memdesc<32x32xf16, #S, #smem, mutable>\n    }\n", i, i, i-4, i, i-1)
			fmt.Fprintf(&s, "    ttg.local_dealloc %%a%d : !ttg.memdesc<32x32xf16, #S, #smem, mutable>\n", i-4)
		}
	}
	s.WriteString("    tt.return\n  }\n}\n")
	return s.String()
}

// BenchmarkPrepareSharedMemory500 allocates and synchronises a kernel of
// 500 buffers (about 2,500 ops).
func BenchmarkPrepareSharedMemory500(b *testing.B) {
	benchPrepareModule(b, ir.MustParse(manyBuffers(500)), 90)
}

func TestManyBuffersKernel(t *testing.T) {
	m := ir.MustParse(manyBuffers(40))
	alloc, n, err := passes.PrepareSharedMemory(m.Op, 90)
	if err != nil {
		t.Fatal(err)
	}
	// At most five 2 KiB buffers are live at once (%a(i-4) .. %a(i)).
	if got := alloc.SharedMemorySize(); got < 5*2048 || got > 6*2048 {
		t.Errorf("ttg.shared = %d, want 10-12 KiB", got)
	}
	if n == 0 {
		t.Error("no barriers inserted")
	}
	if errs := ir.Verify(m); errs.HasErrors() {
		t.Fatal(errs)
	}
}
