// tt.reduce of an integer of at most 32 bits whose combine is one of
// redux.sync's operations, along an axis that spans the whole warp: on
// sm_80 and later one redux.sync replaces the five butterflies (Triton's
// matchReduxKind); before sm_80, or over part of a warp, shuffles.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s --check-prefix=SM75
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir -compute-capability 80 %s | FileCheck %s --check-prefix=SM80

#w = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#h = #ttg.linear<{register = [[16]], lane = [[1], [2], [4], [8], [0]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  // SM75-LABEL: define void @sum(
  // SM75-NOT: redux.sync
  // SM75-COUNT-5: call i32 @llvm.nvvm.shfl.sync.bfly.i32(
  // SM75-NOT: redux.sync
  // SM80-LABEL: define void @sum(
  // SM80-NOT: shfl.sync
  // SM80: call i32 @llvm.nvvm.redux.sync.add(i32 %{{.*}}, i32 -1)
  // SM80-NOT: shfl.sync
  // SM80-LABEL: }
  tt.func public @sum(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #w>
    %a = tt.splat %p : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #w>
    %b = tt.addptr %a, %r : tensor<32x!tt.ptr<i32>, #w>, tensor<32xi32, #w>
    %x = tt.load %b : tensor<32x!tt.ptr<i32>, #w>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%u: i32, %v: i32):
      %t = arith.addi %u, %v : i32
      tt.reduce.return %t : i32
    }) : (tensor<32xi32, #w>) -> i32
    tt.store %q, %s : !tt.ptr<i32>
    tt.return
  }
  // i8 min: sign-extended to i32 for redux.sync.min, truncated back.
  // SM80-LABEL: define void @min8(
  // SM80: sext i8 %{{.*}} to i32
  // SM80: call i32 @llvm.nvvm.redux.sync.min(i32 %{{.*}}, i32 -1)
  // SM80: trunc i32 %{{.*}} to i8
  // SM80-LABEL: }
  tt.func public @min8(%p: !tt.ptr<i8>, %q: !tt.ptr<i8>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #w>
    %a = tt.splat %p : !tt.ptr<i8> -> tensor<32x!tt.ptr<i8>, #w>
    %b = tt.addptr %a, %r : tensor<32x!tt.ptr<i8>, #w>, tensor<32xi32, #w>
    %x = tt.load %b : tensor<32x!tt.ptr<i8>, #w>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%u: i8, %v: i8):
      %t = arith.minsi %u, %v : i8
      tt.reduce.return %t : i8
    }) : (tensor<32xi8, #w>) -> i8
    tt.store %q, %s : !tt.ptr<i8>
    tt.return
  }
  // Sixteen lanes along the axis (lane 16 holds a copy of lane 0): shuffles.
  // SM80-LABEL: define void @half(
  // SM80-NOT: redux.sync
  // SM80-COUNT-4: call i32 @llvm.nvvm.shfl.sync.bfly.i32(
  // SM80-NOT: redux.sync
  // SM80-LABEL: }
  tt.func public @half(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #h>
    %a = tt.splat %p : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #h>
    %b = tt.addptr %a, %r : tensor<32x!tt.ptr<i32>, #h>, tensor<32xi32, #h>
    %x = tt.load %b : tensor<32x!tt.ptr<i32>, #h>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%u: i32, %v: i32):
      %t = arith.addi %u, %v : i32
      tt.reduce.return %t : i32
    }) : (tensor<32xi32, #h>) -> i32
    tt.store %q, %s : !tt.ptr<i32>
    tt.return
  }
  // A float sum is not redux.sync's.
  // SM80-LABEL: define void @fsum(
  // SM80-NOT: redux.sync
  // SM80: shfl.sync.bfly
  tt.func public @fsum(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #w>
    %a = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #w>
    %b = tt.addptr %a, %r : tensor<32x!tt.ptr<f32>, #w>, tensor<32xi32, #w>
    %x = tt.load %b : tensor<32x!tt.ptr<f32>, #w>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      tt.reduce.return %t : f32
    }) : (tensor<32xf32, #w>) -> f32
    tt.store %q, %s : !tt.ptr<f32>
    tt.return
  }
}
