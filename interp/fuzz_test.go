package interp_test

import (
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

// FuzzRun runs the kernel of any module that parses and verifies, on lazy
// random memory with bounded work: the interpreter may report an error,
// never panic.
func FuzzRun(f *testing.F) {
	f.Add(addKernel)
	f.Add(reduceKernel)
	f.Add(`module {
  tt.func public @k(%out: !tt.ptr<i8>) {
    %a = arith.constant 100 : i8
    %b = arith.constant 0 : i8
    %r = arith.divsi %a, %b : i8
    tt.store %out, %r : !tt.ptr<i8>
    tt.return
  }
}`)
	f.Add(fp4Kernel(2, 2, 1, "bf16"))
	f.Add(`module attributes {ttg.global_scratch_memory_size = 16 : i32} {
  tt.func public @k(%out: !tt.ptr<i32>) {
    %s = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32, ttg.global_scratch_memory_offset = 4 : i32} : !tt.ptr<i32>
    %c = arith.constant 7 : i32
    tt.store %s, %c : !tt.ptr<i32>
    %v = tt.load %s : !tt.ptr<i32>
    tt.store %out, %v : !tt.ptr<i32>
    tt.return
  }
}`)
	f.Add(dsCase{
		a:   dsOperand{ty: "i8", rows: 2, cols: 16, scaleTy: "i8", scaleRows: 2, scaleCols: 2},
		b:   dsOperand{ty: "f8E4M3FN", rows: 32, cols: 2, scaleTy: "i8", scaleRows: 2, scaleCols: 2},
		lhs: "e2m1", rhs: "e4m3", attrs: "{fastMath = false}", m: 2, n: 2}.kernel())
	f.Add(blockLoad{shape: [2]int64{4, 5}, strides: [2]int64{5, 1}, offsets: [2]int32{1, 1}, adv: [2]int32{-1, -2}, rows: 2, cols: 4,
		attrs: "boundaryCheck = array<i32: 0, 1>, padding = 2 : i32"}.kernel())
	f.Add(blockStoreKernel([2]int64{4, 5}, [2]int64{1, 5}, [2]int32{3, 2}, [2]int32{}, "boundaryCheck = array<i32: 1>"))
	f.Add(descLoad{shape: [2]int32{4, 5}, strides: [2]int64{5, 1}, idx: [2]int32{-1, 3}, rows: 2, cols: 4, attrs: "padding = 2 : i32"}.kernel())
	f.Add(descStoreKernel([2]int32{5, 4}, [2]int64{1, 5}, [2]int32{3, 2}))
	f.Fuzz(func(t *testing.T, src string) {
		m, diags := ir.Parse([]byte(src), ir.ParseConfig{Filename: "fuzz.mlir"})
		if diags.HasErrors() || ir.Verify(m).HasErrors() {
			return
		}
		_, _ = runKernelBounded(m, 1, [3]int{1, 1, 1}, 1<<12, 1<<20, kernelInt)
	})
}
