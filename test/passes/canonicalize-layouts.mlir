// RUN: layout-opt %s -split-input-file -canonicalize-layouts | FileCheck %s
// RUN: layout-opt %s -split-input-file -pass-pipeline='builtin.module(canonicalize-layouts{form=linear})' | FileCheck %s --check-prefix=LINEAR

// form=named merges two #blocked attributes that are the same layout for
// every shape they are used with (here only 128x1, where the order does not
// matter) into the first one used; aliases are regenerated. form=linear writes #ttg.linear.

#b0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NOT: #blocked1
// CHECK-LABEL: tt.func @merge
// CHECK: ttg.convert_layout %arg1 : tensor<128x1xf32, #blocked> -> tensor<128x1xf32, #blocked>
// LINEAR: #linear = #ttg.linear<{register = [], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}32, 0], [64, 0]], block = []}>
// LINEAR-NOT: #ttg.blocked
// LINEAR-LABEL: tt.func @merge
// LINEAR: ttg.convert_layout %arg1 : tensor<128x1xf32, #linear> -> tensor<128x1xf32, #linear>
  tt.func @merge(%arg0: tensor<128x1x!tt.ptr<f32>, #b1>, %arg1: tensor<128x1xf32, #b0>) {
    %0 = ttg.convert_layout %arg1 : tensor<128x1xf32, #b0> -> tensor<128x1xf32, #b1>
    tt.store %arg0, %0 : tensor<128x1x!tt.ptr<f32>, #b1>
    tt.return
  }
}

// -----

// A #ttg.linear equal to a #blocked of the module is printed as it; one that
// matches no attribute of the module becomes a #blocked built to match.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
#linear1 = #ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [128]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NOT: #ttg.linear
// CHECK-LABEL: tt.func @named
// CHECK-SAME: tensor<128xf32, #blocked>, %arg1: tensor<128xf32, #blocked>, %arg2: tensor<256xf32, #blocked1>
// LINEAR-LABEL: tt.func @named
// LINEAR-SAME: tensor<128xf32, #linear>, %arg1: tensor<128xf32, #linear>, %arg2: tensor<256xf32, #linear1>
  tt.func @named(%arg0: tensor<128xf32, #blocked>, %arg1: tensor<128xf32, #linear>, %arg2: tensor<256xf32, #linear1>) {
    tt.return
  }
}
