// Host-side tensor descriptors (TMA) on sm_90, as Triton 3.6 lowers them:
// each !tt.tensordesc parameter is the CUtensorMap by value (byval
// [128 x i8], align 64: .param .align 64 .b8 NAME_param_N[128]), addressed
// through cvta.param; layout-translate runs triton-nvidia-tma-lowering
// first. A 64x128 f16 block with the 128-byte swizzle is two boxes of 64x64:
// two messages, from lanes 0 of warps 0 and 1, coordinates innermost first,
// the second box 64 columns on and 8192 bytes into the buffer; the load waits
// on an mbarrier that expects the block's 16384 bytes, the store is a bulk
// group committed and waited for. As Triton 3.6 (its PTX of this kernel on an
// H100, proof/results/h100-r22), the store's shared buffer is the load's.
// RUN: layout-translate -ttgir-to-ptx -kernel-json %t.json %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: sed -e 's/swizzlingByteWidth = 128/swizzlingByteWidth = 0/' %s | layout-translate -ttgir-to-ptx - | FileCheck %s --check-prefix=NOSWIZZLE
// RUN: sed -e 's/transposed = false/transposed = true/' %s | not layout-translate -ttgir-to-ptx - 2>&1 | FileCheck %s --check-prefix=TRANSPOSED

// CHECK: .version 8.0
// CHECK: .target sm_90a
// CHECK-LABEL: .entry tma_copy(
// CHECK-NEXT: .param .align 64 .b8 tma_copy_param_0[128],
// CHECK-NEXT: .param .u32 tma_copy_param_1,
// CHECK: .param .align 64 .b8 tma_copy_param_5[128],
// CHECK: mov.b64 [[IN:%rd[0-9]+]], tma_copy_param_0;
// CHECK-NEXT: cvta.param.u64 [[IN]], [[IN]];
// CHECK: mov.b64 [[OUT:%rd[0-9]+]], tma_copy_param_5;
// CHECK-NEXT: cvta.param.u64 [[OUT]], [[OUT]];
// CHECK: mov.u32 [[SMEM:%r[0-9]+]], global_smem;
// CHECK: mbarrier.init.shared::cta.b64 [[[BAR:%r[0-9]+]]], 1;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [[[BAR]]], 16384;
// CHECK: @[[P0:%p[0-9]+]] cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [[[SMEM]]], [[[IN]], {[[COL:%r[0-9]+]], [[ROW:%r[0-9]+]]}], [[[BAR]]];
// CHECK: or.b32 [[COL2:%r[0-9]+]], [[COL]], 64;
// CHECK: setp.eq.s32 [[P1:%p[0-9]+]], {{%r[0-9]+}}, 32;
// CHECK: add.s32 [[SMEM2:%r[0-9]+]], [[SMEM]], 8192;
// CHECK: @[[P1]] cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [[[SMEM2]]], [[[IN]], {[[COL2]], [[ROW]]}], [[[BAR]]];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// The store takes the load's buffer itself (no round trip through registers).
// CHECK-NOT: ld.shared
// CHECK-NOT: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK: @[[P0]] cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [[[OUT]], {[[COL]], [[ROW]]}], [[[SMEM]]];
// CHECK: @[[P1]] cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [[[OUT]], {[[COL2]], [[ROW]]}], [[[SMEM2]]];
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group.read 0;

// The TMA writes a box with the innermost dimension contiguous.
// TRANSPOSED: error: cannot lower 'ttng.async_tma_copy_global_to_local': TMA copies into a transposed nvmma_shared layout are not supported

// JSON: "name": "in",
// JSON-NEXT: "type": "[128 x i8]* byval"

// Unswizzled, one box of 64x128 (at most 256 a dimension): one message.
// NOSWIZZLE-COUNT-1: cp.async.bulk.tensor.2d.shared::cluster.global
// NOSWIZZLE-NOT: cp.async.bulk.tensor.2d.shared::cluster.global
// NOSWIZZLE-COUNT-1: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// NOSWIZZLE-NOT: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_copy(%in: !tt.tensordesc<tensor<64x128xf16, #shared>>, %in_m: i32, %in_n: i32, %in_sm: i64, %in_sn: i64, %out: !tt.tensordesc<tensor<64x128xf16, #shared>>, %out_m: i32, %out_n: i32, %out_sm: i64, %out_sn: i64) {
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %r = arith.muli %x, %c64 : i32
    %c = arith.muli %y, %c128 : i32
    %t = tt.descriptor_load %in[%r, %c] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blocked>
    tt.descriptor_store %out[%r, %c], %t : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked>
    tt.return
  }
}
