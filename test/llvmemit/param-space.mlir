// A kernel whose parameters take more than PTX 7.0's 4352 bytes (here a
// tensor argument of 2048 f32 registers per thread: 8192 bytes, then the
// two scratch pointers) is an error at the function: ptxas would reject
// its PTX ("uses too much parameter space").
// RUN: not layout-translate -ttgir-to-llvmir %s 2>&1 | FileCheck %s

// CHECK: param-space.mlir:[[# @LINE + 3]]:3: error: cannot lower 'tt.func': the kernel's parameters take 8208 bytes, more than the 4352 that PTX 7.0 allows
#b = #ttg.blocked<{sizePerThread = [64, 32], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: tensor<256x1024xf32, #b>) {
    tt.return
  }
}
