// RUN: layout-opt %s -verify-diagnostics

// A tensor takes a distributed layout only (Triton's verifyTensorLayouts).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: tensor<16x16xf32, #shared>) {
    // expected-error @+1 {{Non-distributed layout is not allowed in tensor type.}}
    %0 = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x16xf32, #shared> -> tensor<16x16xf32, #shared>
    tt.return
  }
}
