// RUN: layout-opt %s -remove-redundant-conversions | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @round_trip(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #linear>
    %1 = arith.addf %0, %0 : tensor<128xf32, #linear>
    %2 = ttg.convert_layout %1 : tensor<128xf32, #linear> -> tensor<128xf32, #blocked>
    tt.store %arg0, %2 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
