// scf.for, scf.if and scf.while become basic blocks; every register of a
// loop-carried tensor gets its own phi.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @loops(
  // CHECK: br label %for.header1
  // CHECK: for.header1:
  // CHECK-NEXT: %[[IV:.*]] = phi i32 [ 0, %entry ], [ %[[NEXT:.*]], %for.body2 ]
  // CHECK-NEXT: phi i32 [ %{{.*}}, %entry ], [ %{{.*}}, %for.body2 ]
  // CHECK-NEXT: phi i32 [ %{{.*}}, %entry ], [ %{{.*}}, %for.body2 ]
  // CHECK-NEXT: %[[C:.*]] = icmp slt i32 %[[IV]], %n
  // CHECK-NEXT: br i1 %[[C]], label %for.body2, label %for.exit3
  // CHECK: %[[NEXT]] = add i32 %[[IV]], 1
  // CHECK-NEXT: br label %for.header1
  // CHECK: br i1 %{{.*}}, label %if.then4, label %if.else6
  // CHECK: if.end5:
  // CHECK-NEXT: phi i32 [ %{{.*}}, %if.then4 ], [ %{{.*}}, %if.else6 ]
  // CHECK: while.before7:
  // CHECK: br i1 %{{.*}}, label %while.after8, label %while.exit9
  // CHECK: while.after8:
  // CHECK: br label %while.before7
  tt.func public @loops(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %r) -> (tensor<64xi32, #b>) : i32 {
      %s = tt.splat %i : i32 -> tensor<64xi32, #b>
      %t = arith.addi %a, %s : tensor<64xi32, #b>
      scf.yield %t : tensor<64xi32, #b>
    }
    %cond = arith.cmpi sgt, %n, %c1 : i32
    %sel = scf.if %cond -> (tensor<64xi32, #b>) {
      scf.yield %acc : tensor<64xi32, #b>
    } else {
      scf.yield %r : tensor<64xi32, #b>
    }
    %w = scf.while (%k = %c0) : (i32) -> i32 {
      %lt = arith.cmpi slt, %k, %n : i32
      scf.condition(%lt) %k : i32
    } do {
    ^bb0(%k: i32):
      %k1 = arith.addi %k, %c1 : i32
      scf.yield %k1 : i32
    }
    %ws = tt.splat %w : i32 -> tensor<64xi32, #b>
    %o = arith.addi %sel, %ws : tensor<64xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #b>
    %pa = tt.addptr %ps, %r : tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>
    tt.store %pa, %o : tensor<64x!tt.ptr<i32>, #b>
    tt.return
  }
}
