// tt.dot on #ttg.blocked accumulators is Triton's FMA dot: one fmuladd
// chain over K per accumulator register (mul and add for integers),
// batched dots included; operands are widened to the accumulator's type.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @fma_f16_to_f32(
// CHECK: fpext half %{{.*}} to float
// CHECK: call float @llvm.fmuladd.f32(float %{{.*}}, float %{{.*}}, float %{{.*}})
// CHECK-LABEL: define void @fma_batched_i8(
// CHECK: sext i8 %{{.*}} to i32
// CHECK: mul i32
// CHECK-NEXT: add i32
// CHECK-NOT: fmuladd
// CHECK: ret void

#L = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#L3 = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 8, 4], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fma_f16_to_f32(%pa: !tt.ptr<f16>, %pb: !tt.ptr<f16>, %pc: !tt.ptr<f32>) {
    %a0 = tt.splat %pa : !tt.ptr<f16> -> tensor<32x8x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #L}>>
    %a = tt.load %a0 : tensor<32x8x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #L}>>
    %b0 = tt.splat %pb : !tt.ptr<f16> -> tensor<8x16x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 1, parent = #L}>>
    %b = tt.load %b0 : tensor<8x16x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 1, parent = #L}>>
    %c = arith.constant dense<0.000000e+00> : tensor<32x16xf32, #L>
    %d = tt.dot %a, %b, %c : tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #L}>> * tensor<8x16xf16, #ttg.dot_op<{opIdx = 1, parent = #L}>> -> tensor<32x16xf32, #L>
    %p = tt.splat %pc : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #L>
    tt.store %p, %d : tensor<32x16x!tt.ptr<f32>, #L>
    tt.return
  }
  tt.func public @fma_batched_i8(%pa: !tt.ptr<i8>, %pb: !tt.ptr<i8>, %pc: !tt.ptr<i32>) {
    %a0 = tt.splat %pa : !tt.ptr<i8> -> tensor<2x16x8x!tt.ptr<i8>, #ttg.dot_op<{opIdx = 0, parent = #L3}>>
    %a = tt.load %a0 : tensor<2x16x8x!tt.ptr<i8>, #ttg.dot_op<{opIdx = 0, parent = #L3}>>
    %b0 = tt.splat %pb : !tt.ptr<i8> -> tensor<2x8x16x!tt.ptr<i8>, #ttg.dot_op<{opIdx = 1, parent = #L3}>>
    %b = tt.load %b0 : tensor<2x8x16x!tt.ptr<i8>, #ttg.dot_op<{opIdx = 1, parent = #L3}>>
    %c = arith.constant dense<0> : tensor<2x16x16xi32, #L3>
    %d = tt.dot %a, %b, %c : tensor<2x16x8xi8, #ttg.dot_op<{opIdx = 0, parent = #L3}>> * tensor<2x8x16xi8, #ttg.dot_op<{opIdx = 1, parent = #L3}>> -> tensor<2x16x16xi32, #L3>
    %p = tt.splat %pc : !tt.ptr<i32> -> tensor<2x16x16x!tt.ptr<i32>, #L3>
    tt.store %p, %d : tensor<2x16x16x!tt.ptr<i32>, #L3>
    tt.return
  }
}
