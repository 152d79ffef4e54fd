// Float constants given by their bits (MLIR's hexadecimal literals, as
// Triton prints infinities and NaNs): f16 -inf splat, an f16 NaN scalar,
// f32 -inf, each the same value in LLVM IR.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @k(
// CHECK: store half 0xHFC00, half addrspace(1)*
// CHECK: bitcast half 0xH7E00 to i16
// CHECK: store float 0xFFF0000000000000, float addrspace(1)*

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%h: !tt.ptr<f16>, %f: !tt.ptr<f32>) {
    %ninf = arith.constant dense<0xFC00> : tensor<128xf16, #b>
    %nan = arith.constant 0x7E00 : f16
    %finf = arith.constant dense<0xFF800000> : tensor<128xf32, #b>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %hs = tt.splat %h : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #b>
    %hp = tt.addptr %hs, %r : tensor<128x!tt.ptr<f16>, #b>, tensor<128xi32, #b>
    tt.store %hp, %ninf : tensor<128x!tt.ptr<f16>, #b>
    tt.store %h, %nan : !tt.ptr<f16>
    %fs = tt.splat %f : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %fp = tt.addptr %fs, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    tt.store %fp, %finf : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}
