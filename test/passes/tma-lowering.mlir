// RUN: layout-opt %s -split-input-file -triton-nvidia-tma-lowering | FileCheck %s
// RUN: layout-opt %s -split-input-file -triton-nvidia-tma-lowering -allocate-shared-memory -test-print-membar | FileCheck %s --check-prefix=BAR

// A load through a descriptor: buffer and mbarrier, expect the block's
// bytes (64x32 f16 = 4096), copy, wait, invalidate. The local_alloc of the
// result in the descriptor's encoding becomes the buffer itself; the other
// use reads it back.
// As Triton's pass, the lowering ends with the greedy driver, which hoists
// the constants to the function's entry and erases dead ops.
// CHECK-LABEL: tt.func @load
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK-NEXT: %[[MBAR:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %[[MBAR]], 1
// CHECK-NEXT: ttng.barrier_expect %[[MBAR]], 4096, %true
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg2] %[[BUF]], %[[MBAR]], %true
// CHECK-NEXT: ttng.wait_barrier %[[MBAR]], %c0_i32
// CHECK-NEXT: ttng.inval_barrier %[[MBAR]]
// CHECK-NEXT: %[[V:.+]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: %[[W:.+]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: tt.return %[[V]], %[[W]]
// Membar then puts barriers between the mbarrier's initialisation and the
// expect, and between the wait and the invalidation; the buffer's reads
// after the wait need none (canSkipBarSync).
// BAR-LABEL: tt.func @load
// BAR: ttng.init_barrier
// BAR-NEXT: ttg.local_barrier
// BAR-NEXT: ttng.barrier_expect
// BAR-NEXT: ttng.async_tma_copy_global_to_local
// BAR-NEXT: ttng.wait_barrier
// BAR-NEXT: ttg.local_barrier
// BAR-NEXT: ttng.inval_barrier
// BAR-NEXT: ttg.local_load
// BAR-NEXT: ttg.local_load
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load(%d: !tt.tensordesc<tensor<64x32xf16, #nvmma>>, %i: i32, %j: i32) -> (tensor<64x32xf16, #blocked>, tensor<64x32xf16, #blocked>) {
    %x = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x32xf16, #nvmma>> -> tensor<64x32xf16, #blocked>
    %s = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #nvmma, #smem>
    %y = ttg.local_load %s : !ttg.memdesc<64x32xf16, #nvmma, #smem> -> tensor<64x32xf16, #blocked>
    tt.return %x, %y : tensor<64x32xf16, #blocked>, tensor<64x32xf16, #blocked>
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

// -----

// tt.make_tensor_descriptor writes a TMA descriptor to 128 bytes of global
// scratch (createTMADesc): the box is the block shape innermost first, the
// contiguous dimension the swizzle width (128 B of f16: 64); the global
// dims and the strides but the last go innermost first, the strides in
// bytes; f16 is element type 6, 128 B swizzling mode 3.
// CHECK-LABEL: tt.func @make_desc
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : i32
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : i32
// CHECK: %[[P:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %[[S:.+]] = arith.muli %arg3, %[[C2]] : i64
// CHECK-NEXT: ttng.tensormap_create %[[P]], %arg0, [%[[C64]], %[[C16]]], [%arg2, %arg1], [%[[S]]], [%[[C1]], %[[C1]]] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[P]]
// CHECK-NEXT: %[[D:.+]] = ttng.reinterpret_tensor_descriptor %[[P]] : !tt.ptr<i8> to !tt.tensordesc<tensor<16x128xf16, #shared>>
// CHECK-NEXT: tt.return %[[D]]
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_desc(%p: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64) -> !tt.tensordesc<tensor<16x128xf16, #nvmma>> {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] : !tt.ptr<f16>, !tt.tensordesc<tensor<16x128xf16, #nvmma>>
    tt.return %d : !tt.tensordesc<tensor<16x128xf16, #nvmma>>
  }
}

// -----

// A copy through two descriptors: the stores are lowered first, so the
// local_alloc the store makes of the loaded value is a user of the load and
// takes its buffer: one buffer, no local_load (Triton 3.6's output on an H100
// for proof/kernels/tma_copy2d.ttgir is the same).
// CHECK-LABEL: tt.func @copy
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%arg2, %arg2] %[[BUF]]
// CHECK-NOT: ttg.local_load
// CHECK-NOT: ttg.local_alloc
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg1[%arg2, %arg2] %[[BUF]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @copy(%in: !tt.tensordesc<tensor<64x128xf16, #shared>>, %out: !tt.tensordesc<tensor<64x128xf16, #shared>>, %i: i32) {
    %t = tt.descriptor_load %in[%i, %i] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blocked>
    tt.descriptor_store %out[%i, %i], %t : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked>
    tt.return
  }
}
