// RUN: layout-opt %s -split-input-file -coalesce | FileCheck %s
// RUN: layout-opt %s -split-input-file -tritongpu-coalesce -remove-redundant-conversions | FileCheck %s --check-prefix=PROP

// Triton's 64x64 f16 transpose as Triton 3.6 compiled it without
// tt.divisibility: nothing is known about the alignment of x, y and the
// strides, so every access stays one element wide; the load and the store
// both get the builder's layout for one element per thread along rows,
// which is the load's own: the load is left between identity conversions.
// CHECK:     #[[$ROW:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NOT: sizePerThread = [1, 8]
// CHECK-LABEL: tt.func public @transpose_kernel
// CHECK:     %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64x!tt.ptr<f16>, #{{.*}}> -> tensor<64x64x!tt.ptr<f16>, #[[$ROW]]>
// CHECK-NEXT: %[[V:.*]] = tt.load %[[P]] : tensor<64x64x!tt.ptr<f16>, #[[$ROW]]>
// CHECK-NEXT: tt.trans %[[V]]
// CHECK:     tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$ROW]]>
// PROP-LABEL: tt.func public @transpose_kernel
// PROP-NOT:  sizePerThread = [1, 8]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transpose_kernel(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %M: i32, %N: i32, %sxm: i32, %sym: i32) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %rm = arith.muli %pm, %c64_i32 : i32
    %rm_0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_2 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_3 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_4 = arith.addi %rm_2, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_5 = arith.addi %rm_3, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn = arith.muli %pn, %c64_i32 : i32
    %rn_6 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_7 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn_8 = arith.addi %rn_6, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_9 = arith.addi %rn_7, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %v = tt.expand_dims %rm_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %v_10 = tt.splat %sxm : i32 -> tensor<64x1xi32, #blocked>
    %v_11 = arith.muli %v, %v_10 : tensor<64x1xi32, #blocked>
    %v_12 = tt.splat %x : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %v_13 = tt.addptr %v_12, %v_11 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %v_14 = tt.expand_dims %rn_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %v_15 = tt.broadcast %v_13 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %v_16 = tt.broadcast %v_14 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %v_17 = tt.addptr %v_15, %v_16 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %v_18 = tt.load %v_17 : tensor<64x64x!tt.ptr<f16>, #blocked>
    %t = tt.trans %v_18 {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %0 = tt.expand_dims %rn_9 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %1 = tt.splat %sym : i32 -> tensor<64x1xi32, #blocked>
    %2 = arith.muli %0, %1 : tensor<64x1xi32, #blocked>
    %3 = tt.splat %y : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %5 = tt.expand_dims %rm_5 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %6 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %7 = tt.broadcast %5 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %8 = tt.addptr %6, %7 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %9 = ttg.convert_layout %t : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    tt.store %8, %9 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// The same kernel with 16-byte aligned pointers and strides divisible by 16
// (what Triton's JIT assumes of such arguments): the load reads 8 f16 (16
// bytes) per thread along a row, the store writes 8 per thread along a row
// of the output, and, propagated, one conversion between them is left (the
// transpose goes through shared memory).
// PROP:      #[[$W:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// PROP:      #[[$T:.*]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// PROP-LABEL: tt.func public @transpose_kernel
// PROP:      tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$W]]>
// PROP-NEXT: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<64x64xf16, #[[$W]]> -> tensor<64x64xf16, #[[$T]]>
// PROP:      %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64xf16, #[[$T]]> -> tensor<64x64xf16, #[[$W]]>
// PROP-NEXT: tt.store %{{.*}}, %[[C]] : tensor<64x64x!tt.ptr<f16>, #[[$W]]>
// PROP-NOT:  ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transpose_kernel(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %M: i32, %N: i32, %sxm: i32 {tt.divisibility = 16 : i32}, %sym: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %rm = arith.muli %pm, %c64_i32 : i32
    %rm_0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_2 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_3 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_4 = arith.addi %rm_2, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_5 = arith.addi %rm_3, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn = arith.muli %pn, %c64_i32 : i32
    %rn_6 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_7 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn_8 = arith.addi %rn_6, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_9 = arith.addi %rn_7, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %v = tt.expand_dims %rm_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %v_10 = tt.splat %sxm : i32 -> tensor<64x1xi32, #blocked>
    %v_11 = arith.muli %v, %v_10 : tensor<64x1xi32, #blocked>
    %v_12 = tt.splat %x : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %v_13 = tt.addptr %v_12, %v_11 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %v_14 = tt.expand_dims %rn_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %v_15 = tt.broadcast %v_13 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %v_16 = tt.broadcast %v_14 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %v_17 = tt.addptr %v_15, %v_16 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %v_18 = tt.load %v_17 : tensor<64x64x!tt.ptr<f16>, #blocked>
    %t = tt.trans %v_18 {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %0 = tt.expand_dims %rn_9 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %1 = tt.splat %sym : i32 -> tensor<64x1xi32, #blocked>
    %2 = arith.muli %0, %1 : tensor<64x1xi32, #blocked>
    %3 = tt.splat %y : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %5 = tt.expand_dims %rm_5 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %6 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %7 = tt.broadcast %5 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %8 = tt.addptr %6, %7 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %9 = ttg.convert_layout %t : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    tt.store %8, %9 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Loads through scalar pointers and block pointers are not distributed
// accesses: nothing changes. A 64-bit store may write 2 elements (128 bits)
// per thread, though the load beside it, connected through the offsets,
// reads 4 f32.
// CHECK-DAG: #[[$L4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$S2:.*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @mixed
// PROP-LABEL: tt.func public @mixed
// CHECK:     tt.load %arg0 : !tt.ptr<f32>
// CHECK:     tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[$L4]]>
// CHECK:     tt.store %{{.*}}, %{{.*}} : tensor<512x!tt.ptr<i64>, #[[$S2]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mixed(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i64> {tt.divisibility = 16 : i32}) {
    %s = tt.load %arg0 : !tt.ptr<f32>
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %3 = tt.load %2 : tensor<512x!tt.ptr<f32>, #blocked>
    %4 = tt.splat %s : f32 -> tensor<512xf32, #blocked>
    %5 = arith.addf %3, %4 : tensor<512xf32, #blocked>
    %6 = arith.fptosi %5 : tensor<512xf32, #blocked> to tensor<512xi64, #blocked>
    %7 = tt.splat %arg1 : !tt.ptr<i64> -> tensor<512x!tt.ptr<i64>, #blocked>
    %8 = tt.addptr %7, %0 : tensor<512x!tt.ptr<i64>, #blocked>, tensor<512xi32, #blocked>
    tt.store %8, %6 : tensor<512x!tt.ptr<i64>, #blocked>
    tt.return
  }
}
