// RUN: layout-opt %s -split-input-file -tritongpu-combine-tensor-select-and-if | FileCheck %s

// Triton's own test is ../shared/triton36/lit/TritonGPU/combine-select-if.mlir
// (the conformance suite runs it); these cases are the ones left alone.

// A select used before the if, one after an if on another condition, and
// one in another block than the if stay selects; only the select whose
// uses all follow the if on its condition is folded into it.
// CHECK-LABEL: tt.func @left_alone
// CHECK: %[[S0:.+]] = arith.select %arg0, %arg2, %arg3
// CHECK-NEXT: tt.store %arg4, %[[S0]]
// CHECK: %[[S1:.+]] = arith.select %arg1, %arg2, %arg3
// CHECK: %[[R:.+]] = scf.if %arg0 -> (tensor<64xi32>) {
// CHECK: scf.yield %arg3 : tensor<64xi32>
// CHECK: } else {
// CHECK: scf.yield %arg2 : tensor<64xi32>
// CHECK: scf.for
// CHECK: arith.select %arg0
// CHECK: tt.store %arg4, %[[S1]]
// CHECK: tt.store %arg4, %[[R]]
tt.func @left_alone(%c: i1, %d: i1, %a: tensor<64xi32>, %b: tensor<64xi32>, %p: tensor<64x!tt.ptr<i32>>, %n: i32) {
  %s0 = arith.select %c, %a, %b : tensor<64xi32>
  tt.store %p, %s0 : tensor<64x!tt.ptr<i32>>
  %s1 = arith.select %d, %a, %b : tensor<64xi32>
  %s2 = arith.select %c, %b, %a : tensor<64xi32>
  scf.if %c {
    tt.store %p, %a : tensor<64x!tt.ptr<i32>>
  }
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %s3 = arith.select %c, %a, %b : tensor<64xi32>
    tt.store %p, %s3 : tensor<64x!tt.ptr<i32>>
  }
  tt.store %p, %s1 : tensor<64x!tt.ptr<i32>>
  tt.store %p, %s2 : tensor<64x!tt.ptr<i32>>
  tt.return
}
