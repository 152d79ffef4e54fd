// RUN: layout-opt %s -split-input-file -triton-nvidia-optimize-descriptor-encoding | FileCheck %s
// RUN: layout-opt %s -split-input-file -triton-nvidia-optimize-descriptor-encoding -triton-nvidia-tma-lowering | FileCheck %s --check-prefix=TMA

// Triton's own test is ../shared/triton36/lit/TritonNvidiaGPU/optimize_descriptor_encoding.mlir
// (the conformance suite runs it); these cases cover the rest of the pass.

// A descriptor carried by an scf.for: the load in the loop is stored to
// shared memory in a 64-byte swizzle, which the descriptor made before the
// loop, the iteration argument and the loop's result all take (one type
// through the loop). Without such a wish the default of a 64x64 f16 block
// is a 128-byte swizzle. The TMA lowering then accepts the module.
// CHECK-DAG: #[[S64:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @for_loop
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[S64]]>>
// CHECK: scf.for {{.*}} iter_args(%[[D:.+]] = %{{.+}}) -> (!tt.tensordesc<tensor<64x64xf16, #[[S64]]>>)
// CHECK: tt.descriptor_load %[[D]]
// CHECK: scf.yield %[[D]] : !tt.tensordesc<tensor<64x64xf16, #[[S64]]>>
// TMA-LABEL: tt.func public @for_loop
// TMA: ttng.tensormap_create
// TMA: ttng.async_tma_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @for_loop(%p: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %c1_i64 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1_i64] : <f16>, <tensor<64x64xf16>>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %d) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      %v = tt.descriptor_load %a[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %b = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #s64, #smem>
      scf.yield %a : !tt.tensordesc<tensor<64x64xf16>>
    }
    tt.return
  }
}

// -----

// Two loads of one descriptor stored in different encodings: the wishes
// clash, so the descriptor takes the default (128-byte swizzle for 64 f16
// a row). The encoding it had before the pass is replaced, as in Triton.
// CHECK-DAG: #[[S128:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @clash
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[S128]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s32 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#s64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @clash(%p: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64) {
    %c0 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1_i64] : <f16>, <tensor<64x64xf16, #s32>>
    %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16, #s32>> -> tensor<64x64xf16, #blocked>
    %a = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #s32, #smem>
    %w = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16, #s32>> -> tensor<64x64xf16, #blocked>
    %b = ttg.local_alloc %w : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #s64, #smem>
    tt.return
  }
}

// -----

// A device function's descriptor parameter and result, and a descriptor
// passed to a call, are forced to the default of their block (here a
// 32x16 f32 block: 64 bytes a row, a 64-byte swizzle); a store through it
// wishes nothing else. A descriptor parameter of a kernel (public) follows
// its uses instead. The signatures follow their arguments.
// CHECK-DAG: #[[D64:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[K128:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-LABEL: tt.func private @device
// CHECK-SAME: (%arg0: !tt.tensordesc<tensor<32x16xf32, #[[D64]]>>, %arg1: tensor<32x16xf32, #{{.+}}>) -> !tt.tensordesc<tensor<32x16xf32, #[[D64]]>>
// CHECK-LABEL: tt.func public @kernel
// CHECK-SAME: (%arg0: !tt.tensordesc<tensor<32x16xf32, #[[K128]]>>
// CHECK: tt.call @device(%arg1, %{{.+}}) : (!tt.tensordesc<tensor<32x16xf32, #[[D64]]>>, tensor<32x16xf32, #{{.+}}>) -> !tt.tensordesc<tensor<32x16xf32, #[[D64]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#k128 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @device(%d: !tt.tensordesc<tensor<32x16xf32>>, %v: tensor<32x16xf32, #blocked>) -> !tt.tensordesc<tensor<32x16xf32>> {
    %c0 = arith.constant 0 : i32
    tt.descriptor_store %d[%c0, %c0], %v : !tt.tensordesc<tensor<32x16xf32>>, tensor<32x16xf32, #blocked>
    tt.return %d : !tt.tensordesc<tensor<32x16xf32>>
  }
  tt.func public @kernel(%k: !tt.tensordesc<tensor<32x16xf32>>, %d: !tt.tensordesc<tensor<32x16xf32>>) {
    %c0 = arith.constant 0 : i32
    %v = tt.descriptor_load %k[%c0, %c0] : !tt.tensordesc<tensor<32x16xf32>> -> tensor<32x16xf32, #blocked>
    %a = ttg.local_alloc %v : (tensor<32x16xf32, #blocked>) -> !ttg.memdesc<32x16xf32, #k128, #smem>
    %r = tt.call @device(%d, %v) : (!tt.tensordesc<tensor<32x16xf32>>, tensor<32x16xf32, #blocked>) -> !tt.tensordesc<tensor<32x16xf32>>
    tt.return
  }
}

// -----

// scf.if: a descriptor chosen by a branch takes, in both branches and as
// the if's result, the encoding its load is stored in. A block of fewer
// than 8 rows gets no swizzle by default (the descriptor %e, used only by
// a store of 4x64 f16).
// CHECK-DAG: #[[S32:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S0:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @branch
// CHECK: %[[X:.+]] = tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[S32]]>>
// CHECK: %[[Y:.+]] = tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[S32]]>>
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<4x64xf16, #[[S0]]>>
// CHECK: scf.if {{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #[[S32]]>>)
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s32 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @branch(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64, %c: i1, %v: tensor<4x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %x = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1_i64] : <f16>, <tensor<64x64xf16>>
    %y = tt.make_tensor_descriptor %q, [%m, %n], [%s, %c1_i64] : <f16>, <tensor<64x64xf16>>
    %e = tt.make_tensor_descriptor %q, [%m, %n], [%s, %c1_i64] : <f16>, <tensor<4x64xf16>>
    tt.descriptor_store %e[%c0, %c0], %v : !tt.tensordesc<tensor<4x64xf16>>, tensor<4x64xf16, #blocked>
    %d = scf.if %c -> (!tt.tensordesc<tensor<64x64xf16>>) {
      scf.yield %x : !tt.tensordesc<tensor<64x64xf16>>
    } else {
      scf.yield %y : !tt.tensordesc<tensor<64x64xf16>>
    }
    %w = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %a = ttg.local_alloc %w : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #s32, #smem>
    tt.return
  }
}

