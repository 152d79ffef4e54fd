// RUN: layout-opt %s -split-input-file -remove-redundant-conversions | FileCheck %s

// Rule 1: a conversion to the same attribute is removed.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @same_attr
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %arg0, %arg1 : tensor<128x!tt.ptr<f32>, #blocked>
  tt.func @same_attr(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.store %arg0, %0 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Rule 1 with another spelling: #linear is the same layout as #blocked for
// 128 elements, so the round trip through it disappears and the addition
// stays in #blocked.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @other_spelling
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.addf %arg1, %arg1 : tensor<128xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
  tt.func @other_spelling(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #linear>
    %1 = arith.addf %0, %0 : tensor<128xf32, #linear>
    %2 = ttg.convert_layout %1 : tensor<128xf32, #linear> -> tensor<128xf32, #blocked>
    tt.store %arg0, %2 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Rule 1, chains: cvt(cvt(x)) converts x directly.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @chain
// CHECK: %[[C:.*]] = ttg.convert_layout %arg1 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
// CHECK-NEXT: tt.store %arg0, %[[C]] : tensor<64x64x!tt.ptr<f32>, #blocked>
  tt.func @chain(%arg0: tensor<64x64x!tt.ptr<f32>, #blocked2>, %arg1: tensor<64x64xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked2>
    tt.store %arg0, %1 : tensor<64x64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}
