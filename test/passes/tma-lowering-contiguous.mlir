// RUN: layout-opt %s -triton-nvidia-tma-lowering 2>&1 | FileCheck %s

// A tensor map has no stride for its innermost dimension, so a descriptor
// whose innermost stride is not the constant 1 (here a column-major one, as
// in Triton's lit test of the pointer rewrite) is left as it is, with a
// warning: lowering it would read rows as if they were contiguous.
// CHECK: warning: triton-nvidia-tma-lowering: tt.make_tensor_descriptor left in place: the innermost stride is not the constant 1
// CHECK-LABEL: tt.func public @column_major
// CHECK-NOT: ttng.tensormap_create
// CHECK: tt.make_tensor_descriptor %arg0, [%c256_i32, %c256_i32], [%c1_i64, %c256_i64]
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @column_major(%arg0: !tt.ptr<f32>) -> !tt.tensordesc<tensor<128x32xf32, #nvmma>> {
    %c1_i64 = arith.constant 1 : i64
    %c256_i64 = arith.constant 256 : i64
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.make_tensor_descriptor %arg0, [%c256_i32, %c256_i32], [%c1_i64, %c256_i64] : <f32>, <tensor<128x32xf32, #nvmma>>
    tt.return %0 : !tt.tensordesc<tensor<128x32xf32, #nvmma>>
  }
}
