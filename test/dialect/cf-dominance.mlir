// XFAIL: *
// BUG: the verifier does not see that a value of the entry block (an
// argument of the function or an op result) dominates the blocks the entry
// branches to: every use below is reported as
//   error: 'tt.return' op operand #0 does not dominate this use
// although MLIR accepts the function (the entry block dominates every block
// of the region).

// RUN: layout-opt %s | FileCheck %s

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
