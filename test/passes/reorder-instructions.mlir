// RUN: layout-opt %s -split-input-file -tritongpu-reorder-instructions | FileCheck %s

// Triton's own test is ../shared/triton36/lit/TritonGPU/reorder-instructions.mlir
// (the conformance suite runs it); these cases cover the other moves.

// A local_load (to a dot operand) used once, inside a loop, moves into the
// loop, just before its use; a local_alloc of a loaded value moves up to
// just after the load; a tt.trans just after its source's definition.
// CHECK-LABEL: tt.func public @moves
// CHECK: %[[X:.+]] = tt.load
// CHECK-NEXT: %[[S:.+]] = ttg.local_alloc %[[X]]
// CHECK-NEXT: %[[Y:.+]] = tt.load
// CHECK-NEXT: tt.trans %[[Y]]
// CHECK: scf.for
// CHECK-NEXT: %[[L:.+]] = ttg.local_load %[[S]]
// CHECK-NEXT: tt.dot %[[L]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @moves(%p: tensor<32x32x!tt.ptr<f32>, #blocked>, %n: i32) -> (tensor<32x32xf32, #blocked1>, tensor<32x32xf32, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %b = arith.constant dense<1.000000e+00> : tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %x = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    %y = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    %s = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %l = ttg.local_load %s : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %t = tt.trans %y {order = array<i32: 1, 0>} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<32x32xf32, #mma>) : i32 {
      %d = tt.dot %l, %b, %acc, inputPrecision = tf32 : tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf32, #mma>
      scf.yield %d : tensor<32x32xf32, #mma>
    }
    tt.return %t, %r : tensor<32x32xf32, #blocked1>, tensor<32x32xf32, #mma>
  }
}

// -----

// A conversion sinks below the last deallocation before its first use,
// not past the use; one whose use is in a nested region stops at the op
// holding it.
// CHECK-LABEL: tt.func public @sink_to_use
// CHECK: ttg.local_dealloc %{{.+}} : !ttg.memdesc<64xf32, #shared, #smem, mutable>
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.addf %[[C]], %[[C]]
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sink_to_use(%x: tensor<256xf32, #blocked>, %c: i1) {
    %m0 = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    %m1 = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %y = ttg.convert_layout %x : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    ttg.local_dealloc %m0 : !ttg.memdesc<64xf32, #shared, #smem, mutable>
    scf.if %c {
      %z = arith.addf %y, %y : tensor<256xf32, #blocked1>
    }
    ttg.local_dealloc %m1 : !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tt.return
  }
}
