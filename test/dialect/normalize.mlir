// What printing normalizes: comments and extra white space go, attribute
// dictionaries are sorted by name, ops written in generic form print in
// their custom form, the legacy #triton_gpu. prefix of encodings becomes
// #ttg., and SSA names are kept as written. The result is a fixed point.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s --match-full-lines --strict-whitespace

// CHECK:#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT:module attributes {a = 2 : i32, "triton_gpu.num-warps" = 4 : i32, z = 1 : i32} {
// CHECK-NEXT:  tt.func @f(%arg0: i32, %arg1: i32) {
// CHECK-NEXT:    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %c = arith.constant 3 : i32
// CHECK-NEXT:    %c_1 = arith.constant 3 : i32
// CHECK-NEXT:    %2 = arith.addi %1, %c : i32
// CHECK-NEXT:    tt.return
// CHECK-NEXT:  }
// CHECK-NEXT:}
// CHECK-EMPTY:
// CHECK-NOT:{{.}}

#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-warps" = 4 : i32, z = 1 : i32, a = 2 : i32} {
  tt.func @f(%arg0: i32,    %arg1 : i32) {   // trailing comment
    %0 = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #blocked>
    %1 = "arith.addi"(%arg0, %arg1) : (i32, i32) -> i32
    %c = arith.constant 3 : i32
    %c_1 = arith.constant 3 : i32
    %2 = arith.addi %1, %c : i32
    tt.return
  }
}
