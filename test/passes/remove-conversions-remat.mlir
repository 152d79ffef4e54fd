// RUN: layout-opt %s -split-input-file -tritongpu-remove-layout-conversions | FileCheck %s

// Rule 4: an address computation is recomputed in the layout of the load
// that uses it (through expand_dims, broadcast and element-wise ops, looking
// through conversions on the way), which is cheaper than converting the
// 64x64 tensor of pointers. The Triton flag spelling runs the same pass.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @address
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: tt.expand_dims {{.*}} -> tensor<64x1xi32, #blocked>
// CHECK: tt.broadcast {{.*}} -> tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK: tt.load {{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
  tt.func @address(%x: !tt.ptr<f32>, %y: tensor<64x64x!tt.ptr<f32>, #blocked2>, %s: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %0 = ttg.convert_layout %r : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %2 = tt.splat %s : i32 -> tensor<64x1xi32, #blocked1>
    %3 = arith.muli %1, %2 : tensor<64x1xi32, #blocked1>
    %4 = tt.splat %x : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked1>
    %5 = tt.addptr %4, %3 : tensor<64x1x!tt.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %6 = tt.broadcast %5 : tensor<64x1x!tt.ptr<f32>, #blocked1> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
    %7 = ttg.convert_layout %6 : tensor<64x64x!tt.ptr<f32>, #blocked1> -> tensor<64x64x!tt.ptr<f32>, #blocked2>
    %8 = tt.load %7 : tensor<64x64x!tt.ptr<f32>, #blocked2>
    tt.store %y, %8 : tensor<64x64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// Loop-carried pointers are re-typed to the layout of the load in the loop;
// the one conversion left (of the function argument) moves out of the loop.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @loop_pointers
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0 : tensor<64x32x!tt.ptr<f16>, #blocked> -> tensor<64x32x!tt.ptr<f16>, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[P]], {{.*}} -> (tensor<64x32x!tt.ptr<f16>, #blocked1>, tensor<64x32xf16, #blocked1>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load {{.*}} : tensor<64x32x!tt.ptr<f16>, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.addptr {{.*}} : tensor<64x32x!tt.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
  tt.func @loop_pointers(%p: tensor<64x32x!tt.ptr<f16>, #blocked>, %out: tensor<64x32x!tt.ptr<f16>, #blocked1>, %n: i32, %step: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked1>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ptr = %p, %acc = %z) -> (tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xf16, #blocked1>)  : i32 {
      %pc = ttg.convert_layout %ptr : tensor<64x32x!tt.ptr<f16>, #blocked> -> tensor<64x32x!tt.ptr<f16>, #blocked1>
      %l = tt.load %pc : tensor<64x32x!tt.ptr<f16>, #blocked1>
      %s = arith.addf %acc, %l : tensor<64x32xf16, #blocked1>
      %st = tt.splat %step : i32 -> tensor<64x32xi32, #blocked>
      %next = tt.addptr %ptr, %st : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %next, %s : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xf16, #blocked1>
    }
    tt.store %out, %r#1 : tensor<64x32x!tt.ptr<f16>, #blocked1>
    tt.return
  }
}

// -----

// Cases that must not change.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// A load feeding a store of another layout: both are anchors.
// CHECK-LABEL: tt.func @anchor_to_anchor
// CHECK: %[[L:.*]] = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
// CHECK: tt.store %arg1, %[[C]] : tensor<64x64x!tt.ptr<f32>, #blocked1>
  tt.func @anchor_to_anchor(%arg0: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x64x!tt.ptr<f32>, #blocked1>) {
    %0 = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    tt.store %arg1, %1 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    tt.return
  }

// Recomputing exp (needed in #blocked too) would cost more than converting.
// CHECK-LABEL: tt.func @expensive_chain
// CHECK: %[[E:.*]] = math.exp %{{.*}} : tensor<64x64xf32, #blocked>
// CHECK: tt.store %arg0, %[[E]] : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[E]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
// CHECK: tt.store %arg1, %[[C]] : tensor<64x64x!tt.ptr<f32>, #blocked1>
// CHECK-NOT: math.exp
  tt.func @expensive_chain(%arg0: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x64x!tt.ptr<f32>, #blocked1>) {
    %0 = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
    %1 = math.exp %0 : tensor<64x64xf32, #blocked>
    tt.store %arg0, %1 : tensor<64x64x!tt.ptr<f32>, #blocked>
    %2 = ttg.convert_layout %1 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    tt.store %arg1, %2 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    tt.return
  }

// mma -> dot_op conversions are left alone.
// CHECK-LABEL: tt.func @mma_to_dot_operand
// CHECK: ttg.convert_layout %arg0 : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: tt.dot
  tt.func @mma_to_dot_operand(%arg0: tensor<64x32xf16, #mma>, %arg1: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %arg2: tensor<64x64xf32, #mma>, %arg3: tensor<64x64x!tt.ptr<f32>, #mma>) {
    %0 = ttg.convert_layout %arg0 : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %1 = tt.dot %0, %arg1, %arg2 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.store %arg3, %1 : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// With one leaf conversion allowed, a conversion after a broadcast moves
// before it: converting 128x1 elements is cheaper than 128x64.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @hoist_over_broadcast
// CHECK: %[[C:.*]] = ttg.convert_layout %arg1 : tensor<128x1xf32, #blocked1> -> tensor<128x1xf32, #blocked>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[C]] : tensor<128x1xf32, #blocked> -> tensor<128x64xf32, #blocked>
// CHECK-NEXT: tt.store %arg0, %[[B]] : tensor<128x64x!tt.ptr<f32>, #blocked>
  tt.func @hoist_over_broadcast(%arg0: tensor<128x64x!tt.ptr<f32>, #blocked1>, %arg1: tensor<128x1xf32, #blocked>) {
    %0 = tt.broadcast %arg1 : tensor<128x1xf32, #blocked> -> tensor<128x64xf32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #blocked1>
    tt.store %arg0, %1 : tensor<128x64x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}
