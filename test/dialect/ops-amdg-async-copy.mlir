// amdg.buffer_load_to_local and amdg.async_tdm_copy_global_to_local print back
// as Triton 3.6 writes them: the pointer and memdesc types without their
// dialect prefix, the optional mask, other and stride operands by keyword.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @f(%arg0: !tt.ptr<f16>, %arg1: tensor<128x16xi32, #blocked>, %arg4: !ttg.memdesc<128x16xf16, #shared, #smem, mutable>, %m: tensor<128x16xi1, #blocked>, %o: tensor<128x16xf16, #blocked>, %d: !tt.tensordesc<tensor<128x16xf16>>, %c: i32, %p: i1) {
    // CHECK: %0 = amdg.buffer_load_to_local %arg0[%arg1] into %arg2 : <f16>[tensor<128x16xi32, #blocked>]  -> <128x16xf16, #shared, #smem, mutable>
    %0 = amdg.buffer_load_to_local %arg0[%arg1] into %arg4 : <f16>[tensor<128x16xi32, #blocked>]  -> <128x16xf16, #shared, #smem, mutable>
    // CHECK: %1 = amdg.buffer_load_to_local %arg0[%arg1] mask = %m other = %o stride = %c cacheModifier = cg into %arg2 : <f16>[tensor<128x16xi32, #blocked>] tensor<128x16xf16, #blocked> -> <128x16xf16, #shared, #smem, mutable>
    %1 = amdg.buffer_load_to_local %arg0[%arg1] mask = %m other = %o stride = %c cacheModifier = cg into %arg4 : <f16>[tensor<128x16xi32, #blocked>] tensor<128x16xf16, #blocked> -> <128x16xf16, #shared, #smem, mutable>
    // CHECK: %2 = amdg.async_tdm_copy_global_to_local %d[%c, %c] into %arg2, %p : !tt.tensordesc<tensor<128x16xf16>> -> !ttg.memdesc<128x16xf16, #shared, #smem, mutable>
    %2 = amdg.async_tdm_copy_global_to_local %d[%c, %c] into %arg4, %p : !tt.tensordesc<tensor<128x16xf16>> -> !ttg.memdesc<128x16xf16, #shared, #smem, mutable>
    tt.return
  }
}
