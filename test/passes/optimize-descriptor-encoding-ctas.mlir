// RUN: not layout-opt %s -triton-nvidia-optimize-descriptor-encoding 2>&1 >/dev/null | FileCheck %s

// Modules over several CTAs are refused (the CTA layouts Triton combines
// are not modelled), with the module's location.
// CHECK: optimize-descriptor-encoding-ctas.mlir:6:1: error: triton-nvidia-optimize-descriptor-encoding: modules over several CTAs (ttg.num-ctas = 2) are not supported
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @several_ctas(%d: !tt.tensordesc<tensor<64x64xf16>>) {
    tt.return
  }
}
