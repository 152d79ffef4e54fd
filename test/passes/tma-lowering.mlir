// RUN: layout-opt %s -split-input-file -triton-nvidia-tma-lowering | FileCheck %s
// RUN: layout-opt %s -split-input-file -triton-nvidia-tma-lowering -allocate-shared-memory -test-print-membar | FileCheck %s --check-prefix=BAR

// A load through a descriptor: buffer and mbarrier, expect the block's
// bytes (64x32 f16 = 4096), copy, wait, invalidate. The local_alloc of the
// result in the descriptor's encoding becomes the buffer itself; the other
// use reads it back.
// CHECK-LABEL: tt.func @load
// CHECK-NEXT: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK-NEXT: %[[MBAR:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %[[MBAR]], 1
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: ttng.barrier_expect %[[MBAR]], 4096, %true
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg2] %[[BUF]], %[[MBAR]], %true
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: ttng.wait_barrier %[[MBAR]], %c0_i32
// CHECK-NEXT: ttng.inval_barrier %[[MBAR]]
// CHECK-NEXT: %[[V:.+]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: ttg.local_load %[[BUF]]
// CHECK-NEXT: tt.return %[[V]]
// Membar then puts barriers between the mbarrier's initialisation and the
// expect, and between the wait and the invalidation; the buffer's reads
// after the wait need none (canSkipBarSync).
// BAR-LABEL: tt.func @load
// BAR: ttng.init_barrier
// BAR-NEXT: %true = arith.constant true
// BAR-NEXT: ttg.local_barrier
// BAR-NEXT: ttng.barrier_expect
// BAR-NEXT: ttng.async_tma_copy_global_to_local
// BAR-NEXT: %c0_i32 = arith.constant 0 : i32
// BAR-NEXT: ttng.wait_barrier
// BAR-NEXT: ttg.local_barrier
// BAR-NEXT: ttng.inval_barrier
// BAR-NEXT: ttg.local_load
// BAR-NEXT: ttg.local_load
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load(%d: !tt.tensordesc<tensor<64x32xf16, #nvmma>>, %i: i32, %j: i32) -> tensor<64x32xf16, #blocked> {
    %x = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x32xf16, #nvmma>> -> tensor<64x32xf16, #blocked>
    %s = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #nvmma, #smem>
    %y = ttg.local_load %s : !ttg.memdesc<64x32xf16, #nvmma, #smem> -> tensor<64x32xf16, #blocked>
    tt.return %x : tensor<64x32xf16, #blocked>
  }
}

// -----

// A store: the value goes to shared memory in the descriptor's encoding, a
// proxy fence, the TMA store and a wait for it.
// CHECK-LABEL: tt.func @store
// CHECK-NEXT: %[[S:.+]] = ttg.local_alloc %arg3 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg2] %[[S]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tt.return
// BAR-LABEL: tt.func @store
// BAR: ttng.fence_async_shared
// BAR-NEXT: ttg.local_barrier
// BAR-NEXT: ttng.async_tma_copy_local_to_global
// BAR-NEXT: ttng.async_tma_store_wait
// BAR-NEXT: ttg.local_barrier
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store(%d: !tt.tensordesc<tensor<64x32xf16, #nvmma>>, %i: i32, %j: i32, %v: tensor<64x32xf16, #blocked>) {
    tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<tensor<64x32xf16, #nvmma>>, tensor<64x32xf16, #blocked>
    tt.return
  }
}
