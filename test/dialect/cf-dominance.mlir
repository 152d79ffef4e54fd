// Dominance across the blocks of one CFG region: values of the entry block
// (function arguments and op results) dominate the blocks it branches to,
// so these uses verify, print back as written and form a fixed point.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s

// CHECK-LABEL: tt.func @branches
// CHECK-NEXT:    %0 = arith.addi %x, %x : i32
// CHECK-NEXT:    cf.cond_br %c, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %1 = arith.addi %0, %x : i32
// CHECK-NEXT:    tt.return %1 : i32
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    tt.return %0 : i32
tt.func @branches(%c: i1, %x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %1 = arith.addi %0, %x : i32
  tt.return %1 : i32
^bb2:
  tt.return %0 : i32
}
