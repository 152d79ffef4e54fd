// The custom syntax of the ttg and ttng ops (layout conversion, shared
// memory, async copies and tokens, Hopper warp-group MMA): each prints back
// as written, printing is a fixed point, and the generic form reads back.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// The "-> <...>" of async_copy_global_to_local is a memdesc type, the
// "token" keyword an operand; tokens are !ttg.async.token values.
// GENERIC: %view = "ttg.memdesc_index"(%buf, %c0_i32) : (!ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>, i32) -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// GENERIC: %tok = "ttg.async_copy_global_to_local"(%p, %view, %m) <{contiguity = 8 : i32}> : (tensor<64x64x!tt.ptr<f16>, #blocked>, !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>, tensor<64x64xi1, #blocked>) -> !ttg.async.token
// GENERIC: %grp = "ttg.async_commit_group"(%tok) : (!ttg.async.token) -> !ttg.async.token
// GENERIC: %done = "ttg.async_wait"(%grp) <{num = 0 : i32}> : (!ttg.async.token) -> !ttg.async.token
// GENERIC: %y = "ttg.local_load"(%view, %done) : (!ttg.memdesc<64x64xf16, #shared1, #smem, mutable>, !ttg.async.token) -> tensor<64x64xf16, #blocked1>
// GENERIC: "gpu.barrier"() : () -> ()
// GENERIC: "ttng.fence_async_shared"() <{bCluster = false}> : () -> ()
// GENERIC: %e:3 = "ttng.warp_group_dot_wait"(%d, %a, %b) <{pendings = 0 : i32}> : (tensor<64x64xf32, #mma>, {{.*}}) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>)

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @convert(%x: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked1> {
// CHECK-NEXT:  %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT:  tt.return %0 : tensor<64x64xf16, #blocked1>
// CHECK-NEXT:  }
  tt.func public @convert(%x: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked1> {
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    tt.return %0 : tensor<64x64xf16, #blocked1>
  }
// CHECK-LABEL: tt.func public @shared_memory(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>) {
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>
// CHECK-NEXT:  %init = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK-NEXT:  %view = ttg.memdesc_index %buf[%c0_i32] : !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK-NEXT:  ttg.local_store %x, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK-NEXT:  %tok = ttg.async_copy_global_to_local %p, %view mask %m {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared1, #smem, mutable>
// CHECK-NEXT:  %grp = ttg.async_commit_group tokens %tok
// CHECK-NEXT:  %done = ttg.async_wait %grp {num = 0 : i32}
// CHECK-NEXT:  %y = ttg.local_load %view token %done : !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT:  %z = ttg.local_load %init : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  ttg.local_dealloc %buf : !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func public @shared_memory(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>) {
    %c0_i32 = arith.constant 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>
    %init = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %view = ttg.memdesc_index %buf[%c0_i32] : !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
    ttg.local_store %x, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
    %tok = ttg.async_copy_global_to_local %p, %view mask %m {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared1, #smem, mutable>
    %grp = ttg.async_commit_group tokens %tok
    %done = ttg.async_wait %grp {num = 0 : i32}
    %y = ttg.local_load %view token %done : !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf16, #blocked1>
    %z = ttg.local_load %init : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    gpu.barrier
    ttg.local_dealloc %buf : !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>
    tt.return
  }
// CHECK-LABEL: tt.func public @wgmma(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
// CHECK-NEXT:  ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT:  %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
// CHECK-NEXT:  %e:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK-NEXT:  tt.return %e#0 : tensor<64x64xf32, #mma>
// CHECK-NEXT:  }
  tt.func public @wgmma(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %e:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return %e#0 : tensor<64x64xf32, #mma>
  }
}
