// RUN: layout-opt %s -split-input-file -triton-nvidia-gpu-fence-insertion | FileCheck %s
// RUN: layout-opt %s -split-input-file -triton-nvidia-gpu-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=SM80

// Triton's own test is ../shared/triton36/lit/TritonGPU/fence-inserstion.mlir
// (the conformance suite runs it); these cases cover the rest of the pass.

// A local_store to a buffer seen through a view (ttg.memdesc_index, one
// use) before the loop: the fence goes before the loop, once, although two
// wgmmas read the buffer (the second fence would follow the first). Below
// sm_90 the pass does nothing.
// CHECK-LABEL: tt.func public @store_through_view
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: scf.for
// CHECK-NOT: ttng.fence_async_shared
// CHECK: ttng.warp_group_dot
// CHECK-NOT: ttng.fence_async_shared
// CHECK: ttng.warp_group_dot
// SM80-NOT: ttng.fence_async_shared
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @store_through_view(%a: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #shared1, #smem>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %v = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %a, %v : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %w = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    scf.for %i = %c0 to %c4 step %c1 : i32 {
      %d = ttng.warp_group_dot %w, %b, %cst : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      %e = ttng.warp_group_dot %w, %b, %cst : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    }
    tt.return
  }
}

// -----

// An operand carried by an scf.for whose yielded buffer is allocated from
// registers in the loop: the fence stays in the loop, before the wgmma. A
// buffer from a function argument counts as written (conservatively).
// CHECK-LABEL: tt.func public @carried
// CHECK: scf.for
// CHECK: ttng.fence_async_shared
// CHECK-NEXT: ttng.warp_group_dot
// CHECK-LABEL: tt.func public @argument
// CHECK: ttng.fence_async_shared
// CHECK-NEXT: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried(%a: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #shared1, #smem>, %m0: !ttg.memdesc<64x64xf16, #shared, #smem>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %m0) -> (!ttg.memdesc<64x64xf16, #shared, #smem>) : i32 {
      %d = ttng.warp_group_dot %m, %b, %cst : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      %n = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      scf.yield %n : !ttg.memdesc<64x64xf16, #shared, #smem>
    }
    tt.return
  }
  tt.func public @argument(%m: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared1, #smem>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = ttng.warp_group_dot %m, %b, %cst : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}
