// The custom syntax of the scf ops (for with and without iter_args, if with
// and without results and else, while with its two regions) and of cf
// branches with block arguments. Each prints back as written (implicit
// empty scf.yield terminators stay implicit), printing is a fixed point, and
// the generic form reads back.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// In generic form the implicit terminators are explicit, the loop bounds and
// inits are operands, successors follow the operands.
// GENERIC: %acc:2 = "scf.for"(%c0_i32, %n, %c1_i32, %init, %c0_i32) ({
// GENERIC-NEXT: ^bb0(%i: i32, %a: tensor<512xf32, #blocked>, %k: i32):
// GENERIC: "scf.yield"(%s, %k1) : (tensor<512xf32, #blocked>, i32) -> ()
// GENERIC-NEXT: }) {tt.num_stages = 3 : i32} : (i32, i32, i32, tensor<512xf32, #blocked>, i32) -> (tensor<512xf32, #blocked>, i32)
// GENERIC: "scf.for"(%c0_i32, %n, %c1_i32) ({
// GENERIC: "scf.yield"() : () -> ()
// GENERIC: %r = "scf.if"(%c) ({
// GENERIC: }, {
// GENERIC: "scf.if"(%c) ({
// GENERIC: "scf.yield"() : () -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (i1) -> ()
// GENERIC: %{{[0-9]+}} = "scf.while"(%n) ({
// GENERIC: "scf.condition"(%{{[0-9]+}}, %arg{{[0-9]+}}) : (i1, i32) -> ()
// GENERIC: "cf.cond_br"(%c, %x, %x, %x)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 2>}> : (i1, i32, i32, i32) -> ()
// GENERIC: "cf.br"(%0)[^bb3] : (i32) -> ()

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @for_loop(%n: i32, %init: tensor<512xf32, #blocked>) -> tensor<512xf32, #blocked> {
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:  %acc:2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%a = %init, %k = %c0_i32) -> (tensor<512xf32, #blocked>, i32)  : i32 {
// CHECK-NEXT:  %s = arith.addf %a, %a : tensor<512xf32, #blocked>
// CHECK-NEXT:  %k1 = arith.addi %k, %i : i32
// CHECK-NEXT:  scf.yield %s, %k1 : tensor<512xf32, #blocked>, i32
// CHECK-NEXT:  } {tt.num_stages = 3 : i32}
// CHECK-NEXT:  scf.for %j = %c0_i32 to %n step %c1_i32  : i32 {
// CHECK-NEXT:  %u = arith.muli %j, %j : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  tt.return %acc#0 : tensor<512xf32, #blocked>
// CHECK-NEXT:  }
  tt.func @for_loop(%n: i32, %init: tensor<512xf32, #blocked>) -> tensor<512xf32, #blocked> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %acc:2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%a = %init, %k = %c0_i32) -> (tensor<512xf32, #blocked>, i32)  : i32 {
      %s = arith.addf %a, %a : tensor<512xf32, #blocked>
      %k1 = arith.addi %k, %i : i32
      scf.yield %s, %k1 : tensor<512xf32, #blocked>, i32
    } {tt.num_stages = 3 : i32}
    scf.for %j = %c0_i32 to %n step %c1_i32  : i32 {
      %u = arith.muli %j, %j : i32
    }
    tt.return %acc#0 : tensor<512xf32, #blocked>
  }
// CHECK-LABEL: tt.func @if_else(%c: i1, %x: i32, %y: i32) -> i32 {
// CHECK-NEXT:  %r = scf.if %c -> (i32) {
// CHECK-NEXT:  %s = arith.addi %x, %y : i32
// CHECK-NEXT:  scf.yield %s : i32
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %y : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.if %c {
// CHECK-NEXT:  %t = arith.subi %x, %y : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  tt.return %r : i32
// CHECK-NEXT:  }
  tt.func @if_else(%c: i1, %x: i32, %y: i32) -> i32 {
    %r = scf.if %c -> (i32) {
      %s = arith.addi %x, %y : i32
      scf.yield %s : i32
    } else {
      scf.yield %y : i32
    }
    scf.if %c {
      %t = arith.subi %x, %y : i32
    }
    tt.return %r : i32
  }
// CHECK-LABEL: tt.func @while_loop(%n: i32) -> i32 {
// CHECK-NEXT:  %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:  %0 = scf.while (%arg1 = %n) : (i32) -> i32 {
// CHECK-NEXT:  %1 = arith.cmpi sgt, %arg1, %c1_i32 : i32
// CHECK-NEXT:  scf.condition(%1) %arg1 : i32
// CHECK-NEXT:  } do {
// CHECK-NEXT:  ^bb0(%arg1: i32):
// CHECK-NEXT:  %1 = arith.subi %arg1, %c1_i32 : i32
// CHECK-NEXT:  scf.yield %1 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  tt.return %0 : i32
// CHECK-NEXT:  }
  tt.func @while_loop(%n: i32) -> i32 {
    %c1_i32 = arith.constant 1 : i32
    %0 = scf.while (%arg1 = %n) : (i32) -> i32 {
      %1 = arith.cmpi sgt, %arg1, %c1_i32 : i32
      scf.condition(%1) %arg1 : i32
    } do {
    ^bb0(%arg1: i32):
      %1 = arith.subi %arg1, %c1_i32 : i32
      scf.yield %1 : i32
    }
    tt.return %0 : i32
  }
// CHECK-LABEL: tt.func @branches(%c: i1, %x: i32) -> i32 {
// CHECK-NEXT:  cf.cond_br %c, ^bb1(%x : i32), ^bb2(%x, %x : i32, i32)
// CHECK-NEXT:  ^bb1(%0: i32):
// CHECK-NEXT:  cf.br ^bb3(%0 : i32)
// CHECK-NEXT:  ^bb2(%1: i32, %2: i32):
// CHECK-NEXT:  %3 = arith.addi %1, %2 : i32
// CHECK-NEXT:  cf.br ^bb3(%3 : i32)
// CHECK-NEXT:  ^bb3(%4: i32):
// CHECK-NEXT:  tt.return %4 : i32
// CHECK-NEXT:  }
  tt.func @branches(%c: i1, %x: i32) -> i32 {
    cf.cond_br %c, ^bb1(%x : i32), ^bb2(%x, %x : i32, i32)
  ^bb1(%0: i32):
    cf.br ^bb3(%0 : i32)
  ^bb2(%1: i32, %2: i32):
    %3 = arith.addi %1, %2 : i32
    cf.br ^bb3(%3 : i32)
  ^bb3(%4: i32):
    tt.return %4 : i32
  }
}
