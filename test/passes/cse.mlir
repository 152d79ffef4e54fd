// RUN: layout-opt %s -split-input-file -cse | FileCheck %s

// Pure ops with the same operands and attributes merge; the first one stays.

// CHECK-LABEL: tt.func @simple
// CHECK: %[[A:.+]] = arith.addi %arg0, %arg1 : i32
// CHECK-NOT: arith.addi
// CHECK: %[[M:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK: tt.return %[[M]] : i32
tt.func @simple(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.addi %arg0, %arg1 : i32
  %1 = arith.addi %arg0, %arg1 : i32
  %2 = arith.muli %0, %1 : i32
  tt.return %2 : i32
}

// Constants merge, attribute by attribute.

// CHECK-LABEL: tt.func @constants
// CHECK: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[C1]], %[[C1]] : i32
// CHECK-NEXT: %[[T:.+]] = arith.addi %[[S]], %[[C2]] : i32
// CHECK-NEXT: tt.return %[[T]]
tt.func @constants() -> i32 {
  %c1 = arith.constant 1 : i32
  %c1_0 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c1_0 : i32
  %1 = arith.addi %0, %c2 : i32
  tt.return %1 : i32
}

// Different attributes (the predicate) or result types keep both ops.

// CHECK-LABEL: tt.func @different_attrs
// CHECK: arith.cmpi slt, %arg0, %arg1 : i32
// CHECK: arith.cmpi sgt, %arg0, %arg1 : i32
// CHECK: arith.extsi %arg0 : i32 to i64
// CHECK: tt.splat %arg0 : i32 -> tensor<4xi32>
// CHECK: tt.splat %arg0 : i32 -> tensor<8xi32>
tt.func @different_attrs(%arg0: i32, %arg1: i32) -> (i1, i1, i64, tensor<4xi32>, tensor<8xi32>) {
  %0 = arith.cmpi slt, %arg0, %arg1 : i32
  %1 = arith.cmpi sgt, %arg0, %arg1 : i32
  %2 = arith.extsi %arg0 : i32 to i64
  %3 = tt.splat %arg0 : i32 -> tensor<4xi32>
  %4 = tt.splat %arg0 : i32 -> tensor<8xi32>
  tt.return %0, %1, %2, %3, %4 : i1, i1, i64, tensor<4xi32>, tensor<8xi32>
}

// Side effects: stores and atomics never merge; loads merge only when no
// op between them may write memory.

// CHECK-LABEL: tt.func @side_effects
// CHECK: %[[L:.+]] = tt.load %arg0 : !tt.ptr<f32>
// CHECK-NOT: tt.load
// CHECK: tt.store %arg0, %[[L]]
// CHECK: tt.store %arg0, %[[L]]
// CHECK: %[[L2:.+]] = tt.load %arg0 : !tt.ptr<f32>
// CHECK: tt.atomic_rmw fadd
// CHECK: tt.atomic_rmw fadd
// CHECK: tt.return %[[L]], %[[L2]]
tt.func @side_effects(%arg0: !tt.ptr<f32>, %arg1: f32) -> (f32, f32) {
  %0 = tt.load %arg0 : !tt.ptr<f32>
  %1 = tt.load %arg0 : !tt.ptr<f32>
  tt.store %arg0, %0 : !tt.ptr<f32>
  tt.store %arg0, %1 : !tt.ptr<f32>
  %2 = tt.load %arg0 : !tt.ptr<f32>
  %3 = tt.atomic_rmw fadd, acq_rel, gpu, %arg0, %arg1 : (!tt.ptr<f32>, f32) -> f32
  %4 = tt.atomic_rmw fadd, acq_rel, gpu, %arg0, %arg1 : (!tt.ptr<f32>, f32) -> f32
  tt.return %0, %2 : f32, f32
}

// Dominance: an op in an scf.if branch reuses one of the enclosing block,
// ops of different branches stay, and an op after the scf.if does not reuse
// one of a branch.

// CHECK-LABEL: tt.func @regions
// CHECK: %[[A:.+]] = arith.addi %arg0, %arg0 : i32
// CHECK: scf.if %arg1
// CHECK-NEXT: %[[B:.+]] = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT: %[[C:.+]] = arith.subi %[[A]], %[[B]] : i32
// CHECK-NEXT: scf.yield %[[C]] : i32
// CHECK: } else {
// CHECK-NEXT: %[[D:.+]] = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT: scf.yield %[[D]] : i32
// CHECK: %[[E:.+]] = arith.muli %arg0, %arg0 : i32
// CHECK-NOT: arith.addi
// CHECK: tt.return %[[A]], %{{.+}}, %[[E]], %[[A]] :
tt.func @regions(%arg0: i32, %arg1: i1) -> (i32, i32, i32, i32) {
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = scf.if %arg1 -> (i32) {
    %a = arith.addi %arg0, %arg0 : i32
    %b = arith.muli %arg0, %arg0 : i32
    %c = arith.subi %a, %b : i32
    scf.yield %c : i32
  } else {
    %d = arith.muli %arg0, %arg0 : i32
    scf.yield %d : i32
  }
  %2 = arith.muli %arg0, %arg0 : i32
  %3 = arith.addi %arg0, %arg0 : i32
  tt.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// Blocks of a CFG: the entry dominates both successors, which do not
// dominate each other nor the join.

// CHECK-LABEL: tt.func @cfg
// CHECK: %[[A:.+]] = arith.addi %arg0, %arg0 : i32
// CHECK: cf.cond_br
// CHECK: ^bb1:
// CHECK-NEXT: %[[M1:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT: cf.br ^bb3(%[[M1]] : i32)
// CHECK: ^bb2:
// CHECK-NEXT: %[[M2:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT: cf.br ^bb3(%[[M2]] : i32)
// CHECK: ^bb3(%[[X:.+]]: i32):
// CHECK-NEXT: %[[M3:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[X]], %[[M3]] : i32
// CHECK-NEXT: tt.return %[[S]]
tt.func @cfg(%arg0: i32, %arg1: i1) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  cf.cond_br %arg1, ^bb1, ^bb2
^bb1:
  %1 = arith.addi %arg0, %arg0 : i32
  %2 = arith.muli %1, %1 : i32
  cf.br ^bb3(%2 : i32)
^bb2:
  %3 = arith.muli %0, %0 : i32
  cf.br ^bb3(%3 : i32)
^bb3(%x: i32):
  %4 = arith.muli %0, %0 : i32
  %5 = arith.addi %x, %4 : i32
  tt.return %5 : i32
}

// -----

// Functions are isolated from above: each one keeps its own constants.
// Unused pure ops are erased.

// CHECK-LABEL: tt.func @f
// CHECK-NEXT: arith.constant 7 : i32
// CHECK-NEXT: tt.return
// CHECK-LABEL: tt.func @g
// CHECK-NEXT: arith.constant 7 : i32
// CHECK-NEXT: tt.return
tt.func @f() -> i32 {
  %c = arith.constant 7 : i32
  %unused = arith.addi %c, %c : i32
  tt.return %c : i32
}
tt.func @g() -> i32 {
  %c = arith.constant 7 : i32
  tt.return %c : i32
}

// -----

// Layout conversions of one value to one layout merge (what Triton's tests
// rely on after -tritongpu-remove-layout-conversions); a conversion to
// another layout stays.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @converts
// CHECK: %[[C:.+]] = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
// CHECK-NEXT: %[[D:.+]] = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked2>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[C]], %[[C]] : tensor<256xf32, #blocked1>
// CHECK-NEXT: tt.return %[[S]], %[[D]]
  tt.func @converts(%arg0: tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked1>, tensor<256xf32, #blocked2>) {
    %0 = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    %1 = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked2>
    %2 = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    %3 = arith.addf %0, %2 : tensor<256xf32, #blocked1>
    tt.return %3, %1 : tensor<256xf32, #blocked1>, tensor<256xf32, #blocked2>
  }
}
