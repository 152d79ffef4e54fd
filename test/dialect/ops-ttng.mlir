// The ttng ops declared in dialect/ttng, in Triton 3.6's syntax: tcgen05
// MMAs with tokens and barriers, their commit, TMA copies, gathers and
// scatters, and the mbarrier ops. Printing is a fixed point, the generic
// form reads back, and the operand segments follow the declarations.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @mma
  // CHECK-NEXT: %result, %token = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
  // CHECK-NEXT: %0 = ttng.tc_gen5_mma %a, %b, %result[%token], %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  // CHECK-NEXT: %1 = ttng.tc_gen5_mma %a, %b, %result[%0], %p, %p, %bar[%p], %bar[%q] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.tc_gen5_mma %a, %b, %result, %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  // CHECK-NEXT: %2 = ttng.tc_gen5_mma_scaled %a8, %b8, %result[%1], %as, %bs, %p, %p lhs = e5m2 rhs = e2m1 : !ttg.memdesc<128x64xf8E5M2, #shared, #smem>, !ttg.memdesc<64x128xf8E5M2, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #shared1, #smem>, !ttg.memdesc<128x2xi8, #shared1, #smem>
  // CHECK-NEXT: ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.tc_gen5_commit %bar, %q : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // GENERIC: "ttng.tc_gen5_mma"(%a, %b, %result, %{{[0-9]+}}, %p, %p, %bar, %bar, %p, %q) <{is_async, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 2, 2>}>
  // GENERIC: "ttng.tc_gen5_mma_scaled"({{.*}}) <{a_type = 1 : i32, b_type = 4 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>}>
  tt.func @mma(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared, #smem>,
               %a8: !ttg.memdesc<128x64xf8E5M2, #shared, #smem>, %b8: !ttg.memdesc<64x128xf8E5M2, #shared, #smem>,
               %as: !ttg.memdesc<128x2xi8, #shared1, #smem>, %bs: !ttg.memdesc<128x2xi8, #shared1, #smem>,
               %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %p: i1, %q: i1) {
    %result, %token = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %0 = ttng.tc_gen5_mma %a, %b, %result[%token], %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %1 = ttng.tc_gen5_mma %a, %b, %result[%0], %p, %p, %bar[%p], %bar[%q] {is_async} :
       !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>,
       !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>,
       !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.tc_gen5_mma %a, %b, %result, %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %2 = ttng.tc_gen5_mma_scaled %a8, %b8, %result[%1], %as, %bs, %p, %p lhs = e5m2 rhs = e2m1 : !ttg.memdesc<128x64xf8E5M2, #shared, #smem>, !ttg.memdesc<64x128xf8E5M2, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #shared1, #smem>, !ttg.memdesc<128x2xi8, #shared1, #smem>
    ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.tc_gen5_commit %bar, %q : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @tma
  // CHECK-NEXT: %0 = ttng.reinterpret_tensor_descriptor %raw : !tt.ptr<i8, 0> to !tt.tensordesc<tensor<64x64xf16, #shared>>
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local %0[%i, %i] %dst, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local %0[%i, %i] %dst, %bar, %p cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttng.async_tma_copy_local_to_global %0[%i, %i] %dst : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttng.async_tma_gather %0[%x, %i] %dst, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64xi32, #blocked>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, i1
  // CHECK-NEXT: ttng.async_tma_scatter %0[%x, %i] %dst : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64xi32, #blocked>, i32, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK-NEXT: ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.arrive_barrier %bar, 1, %p : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // GENERIC: "ttng.async_tma_copy_global_to_local"({{.*}}) <{cache = 3 : i32, evict = 3 : i32}>
  tt.func @tma(%raw: !tt.ptr<i8, 0>, %i: i32, %x: tensor<64xi32, #blocked>, %p: i1,
               %dst: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>) {
    %0 = ttng.reinterpret_tensor_descriptor %raw : !tt.ptr<i8, 0> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    ttng.async_tma_copy_global_to_local %0[%i, %i] %dst, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_global_to_local %0[%i, %i] %dst, %bar, %p cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_local_to_global %0[%i, %i] %dst : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.async_tma_gather %0[%x, %i] %dst, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64xi32, #blocked>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, i1
    ttng.async_tma_scatter %0[%x, %i] %dst : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64xi32, #blocked>, i32, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.arrive_barrier %bar, 1, %p : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    tt.return
  }
}
