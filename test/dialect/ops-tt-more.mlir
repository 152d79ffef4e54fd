// More tt ops in custom form (join/split/cat, gather, histogram, precise
// math, mulhiui, pointer/integer casts, memdesc_trans) and tt.scan in
// generic form with its combine region. Each prints back as written,
// printing is a fixed point, and the generic form reads back.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// GENERIC: %s:2 = "tt.split"(%j) : (tensor<16x16x2xf32, #blocked1>) -> (tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>)
// GENERIC: %g = "tt.gather"(%a, %i) <{axis = 1 : i32}> : (tensor<16x16xf32, #blocked>, tensor<16x16xi32, #blocked>) -> tensor<16x16xf32, #blocked>
// GENERIC: %t = "ttg.memdesc_trans"(%m) <{order = array<i32: 1, 0>}>
// GENERIC: "tt.scan.return"(%z) : (f32) -> ()

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @more(%a: tensor<16x16xf32, #blocked>, %b: tensor<16x16xf32, #blocked>, %i: tensor<16x16xi32, #blocked>, %p: tensor<16x16x!tt.ptr<f32>, #blocked>, %m: !ttg.memdesc<16x16xf32, #shared, #smem>) {
// CHECK-NEXT:  %j = tt.join %a, %b : tensor<16x16xf32, #blocked> -> tensor<16x16x2xf32, #blocked1>
// CHECK-NEXT:  %s:2 = tt.split %j : tensor<16x16x2xf32, #blocked1> -> tensor<16x16xf32, #blocked>
// CHECK-NEXT:  %c = tt.cat %a, %b : tensor<16x16xf32, #blocked> -> tensor<32x16xf32, #blocked>
// CHECK-NEXT:  %g = tt.gather %a[%i] {axis = 1 : i32} : (tensor<16x16xf32, #blocked>, tensor<16x16xi32, #blocked>) -> tensor<16x16xf32, #blocked>
// CHECK-NEXT:  %h = tt.histogram %i : tensor<16x16xi32, #blocked> -> tensor<16xi32, #blocked2>
// CHECK-NEXT:  %q = tt.precise_sqrt %a : tensor<16x16xf32, #blocked>
// CHECK-NEXT:  %d = tt.precise_divf %a, %b : tensor<16x16xf32, #blocked>
// CHECK-NEXT:  %u = tt.mulhiui %i, %i : tensor<16x16xi32, #blocked>
// CHECK-NEXT:  %pi = tt.ptr_to_int %p : tensor<16x16x!tt.ptr<f32>, #blocked> -> tensor<16x16xi64, #blocked>
// CHECK-NEXT:  %ip = tt.int_to_ptr %pi : tensor<16x16xi64, #blocked> -> tensor<16x16x!tt.ptr<f32>, #blocked>
// CHECK-NEXT:  %t = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<16x16xf32, #shared, #smem> -> !ttg.memdesc<16x16xf32, #shared, #smem>
// CHECK-NEXT:  %sc = "tt.scan"(%a) <{axis = 1 : i32, reverse = false}> ({
// CHECK-NEXT:  ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:  %z = arith.addf %x, %y : f32
// CHECK-NEXT:  tt.scan.return %z : f32
// CHECK-NEXT:  }) : (tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @more(%a: tensor<16x16xf32, #blocked>, %b: tensor<16x16xf32, #blocked>, %i: tensor<16x16xi32, #blocked>, %p: tensor<16x16x!tt.ptr<f32>, #blocked>, %m: !ttg.memdesc<16x16xf32, #shared, #smem>) {
    %j = tt.join %a, %b : tensor<16x16xf32, #blocked> -> tensor<16x16x2xf32, #blocked1>
    %s:2 = tt.split %j : tensor<16x16x2xf32, #blocked1> -> tensor<16x16xf32, #blocked>
    %c = tt.cat %a, %b : tensor<16x16xf32, #blocked> -> tensor<32x16xf32, #blocked>
    %g = tt.gather %a[%i] {axis = 1 : i32} : (tensor<16x16xf32, #blocked>, tensor<16x16xi32, #blocked>) -> tensor<16x16xf32, #blocked>
    %h = tt.histogram %i : tensor<16x16xi32, #blocked> -> tensor<16xi32, #blocked2>
    %q = tt.precise_sqrt %a : tensor<16x16xf32, #blocked>
    %d = tt.precise_divf %a, %b : tensor<16x16xf32, #blocked>
    %u = tt.mulhiui %i, %i : tensor<16x16xi32, #blocked>
    %pi = tt.ptr_to_int %p : tensor<16x16x!tt.ptr<f32>, #blocked> -> tensor<16x16xi64, #blocked>
    %ip = tt.int_to_ptr %pi : tensor<16x16xi64, #blocked> -> tensor<16x16x!tt.ptr<f32>, #blocked>
    %t = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<16x16xf32, #shared, #smem> -> !ttg.memdesc<16x16xf32, #shared, #smem>
    %sc = "tt.scan"(%a) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      tt.scan.return %z : f32
    }) : (tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>
    tt.return
  }
}
