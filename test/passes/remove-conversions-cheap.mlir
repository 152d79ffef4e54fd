// RUN: layout-opt %s -split-input-file -remove-redundant-conversions | FileCheck %s

// Rule 2: conversions of splat, make_range and constants are folded into the
// producer, re-created in the target layout.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @splat
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[S:.*]] = tt.splat %arg1 : f32 -> tensor<256xf32, #blocked>
// CHECK-NEXT: tt.store %arg0, %[[S]] : tensor<256x!tt.ptr<f32>, #blocked>
  tt.func @splat(%arg0: tensor<256x!tt.ptr<f32>, #blocked1>, %arg1: f32) {
    %0 = tt.splat %arg1 : f32 -> tensor<256xf32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    tt.store %arg0, %1 : tensor<256x!tt.ptr<f32>, #blocked1>
    tt.return
  }

// CHECK-LABEL: tt.func @make_range_and_constant
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
// CHECK-DAG: arith.constant dense<7> : tensor<256xi32, #blocked>
// CHECK: tt.return
  tt.func @make_range_and_constant(%arg0: tensor<256x!tt.ptr<i32>, #blocked1>) {
    %0 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %c = arith.constant dense<7> : tensor<256xi32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked1>
    %2 = ttg.convert_layout %c : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked1>
    %3 = arith.addi %1, %2 : tensor<256xi32, #blocked1>
    tt.store %arg0, %3 : tensor<256x!tt.ptr<i32>, #blocked1>
    tt.return
  }

// A producer with another user is cloned; the original stays for it.
// CHECK-LABEL: tt.func @splat_two_users
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: %[[A:.*]] = tt.splat %arg2 : f32 -> tensor<256xf32, #blocked1>
// CHECK-DAG: %[[B:.*]] = tt.splat %arg2 : f32 -> tensor<256xf32, #blocked>
// CHECK-DAG: tt.store %arg0, %[[A]] : tensor<256x!tt.ptr<f32>, #blocked1>
// CHECK-DAG: tt.store %arg1, %[[B]] : tensor<256x!tt.ptr<f32>, #blocked>
  tt.func @splat_two_users(%arg0: tensor<256x!tt.ptr<f32>, #blocked>, %arg1: tensor<256x!tt.ptr<f32>, #blocked1>, %arg2: f32) {
    %0 = tt.splat %arg2 : f32 -> tensor<256xf32, #blocked>
    tt.store %arg0, %0 : tensor<256x!tt.ptr<f32>, #blocked>
    %1 = ttg.convert_layout %0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    tt.store %arg1, %1 : tensor<256x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// Two conversions of one value are both rematerialized; the identical
// copies they leave are merged.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @two_conversions
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[R:.*]] = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[R]], %[[R]] : tensor<256xi32, #blocked>
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[A]], %[[A]] : tensor<256xi32, #blocked>
// CHECK-NEXT: tt.store %arg0, %[[M]] : tensor<256x!tt.ptr<i32>, #blocked>
  tt.func @two_conversions(%arg0: tensor<256x!tt.ptr<i32>, #blocked1>) {
    %0 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %1 = arith.addi %0, %0 : tensor<256xi32, #blocked>
    %2 = ttg.convert_layout %1 : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked1>
    %3 = ttg.convert_layout %1 : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked1>
    %4 = arith.muli %2, %3 : tensor<256xi32, #blocked1>
    tt.store %arg0, %4 : tensor<256x!tt.ptr<i32>, #blocked1>
    tt.return
  }
}
