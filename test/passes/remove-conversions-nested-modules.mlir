// RUN: layout-opt %s -split-input-file -tritongpu-remove-layout-conversions | FileCheck %s

// A tt.func pass given as a flag reaches the functions of every module of a
// chunk: two top-level modules (parsed as one module holding both, as in
// Triton's TritonGPU/combine.mlir) and a module nested in a module.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @first
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %arg0, %arg1
  tt.func @first(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.store %arg0, %0 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @second
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %arg0, %arg1
  tt.func @second(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.store %arg0, %0 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
  module {
// CHECK-LABEL: tt.func @inner
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %arg0, %arg1
    tt.func @inner(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
      %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
      tt.store %arg0, %0 : tensor<128x!tt.ptr<f32>, #blocked>
      tt.return
    }
  }
}
