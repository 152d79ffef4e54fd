// The barriers of a conversion through shared memory, as Triton 3.6's
// transferWithinBlockSwizzling: between its stores and its loads (and
// between its rounds) a warp barrier, bar.warp.sync -1, when every warp
// reads back only what it wrote itself (isCvtWarpSync: the conversion is
// trivial over warps and neither layout broadcasts over warps), else a CTA
// barrier, bar.sync 0 (llvm.nvvm.barrier0). Membar does not count a warp
// barrier as a barrier: a later op that reuses the scratch still gets a
// CTA barrier before it.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s
// The proof's attention_32x32x16_sm80_w2.post: Triton 3.6's PTX has
// bar.sync 0 ×2, bar.warp.sync -1, bar.sync 0 ×3, bar.warp.sync -1.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %S/Inputs/attention-w2.mlir | FileCheck %s --check-prefix=ATT

#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>
#ra = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#rb = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // Rows 16-31 are warp 1's in both layouts: the mma A operand.
  // CHECK-LABEL: define void @within_warps(
  // CHECK-NOT: barrier0
  // CHECK: store <4 x i32> %{{.*}}, <4 x i32> addrspace(3)*
  // CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
  // CHECK-NOT: barrier0
  // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK-NOT: barrier0
  // CHECK: ret void
  tt.func public @within_warps(%p: !tt.ptr<f16>) {
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>, #blk>
    %x = tt.load %ps : tensor<32x16x!tt.ptr<f16>, #blk>
    %y = ttg.convert_layout %x : tensor<32x16xf16, #blk> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return
  }
  // The mma B operand: both warps hold the whole tensor (a broadcast over
  // warps), so each reads what the other wrote.
  // CHECK-LABEL: define void @broadcast_over_warps(
  // CHECK: store <4 x i32> %{{.*}}, <4 x i32> addrspace(3)*
  // CHECK-NEXT: call void @llvm.nvvm.barrier0()
  // CHECK-NOT: bar.warp.sync
  // CHECK: ret void
  tt.func public @broadcast_over_warps(%p: !tt.ptr<f16>) {
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>, #blk>
    %x = tt.load %ps : tensor<32x16x!tt.ptr<f16>, #blk>
    %y = ttg.convert_layout %x : tensor<32x16xf16, #blk> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return
  }
  // Rows are split between the warps on one side, columns on the other.
  // CHECK-LABEL: define void @across_warps(
  // CHECK: store {{.*}} addrspace(3)*
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK-NOT: bar.warp.sync
  // CHECK: ret void
  tt.func public @across_warps(%p: !tt.ptr<f16>) {
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>, #blk>
    %x = tt.load %ps : tensor<32x16x!tt.ptr<f16>, #blk>
    %y = ttg.convert_layout %x : tensor<32x16xf16, #blk> -> tensor<32x16xf16, #cols>
    tt.return
  }
  // Two conversions within warps through the same scratch: the second's
  // stores overwrite what the first loaded, and Membar orders them with a
  // CTA barrier (it does not track warps); inside each, a warp barrier.
  // CHECK-LABEL: define void @reuse(
  // CHECK-NOT: barrier0
  // CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
  // CHECK: ldmatrix
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK-NOT: bar.warp.sync
  // CHECK: store <4 x i32> %{{.*}}, <4 x i32> addrspace(3)*
  // CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
  // CHECK-NOT: barrier0
  // CHECK: ret void
  tt.func public @reuse(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>) {
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>, #blk>
    %x = tt.load %ps : tensor<32x16x!tt.ptr<f16>, #blk>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>, #blk>
    %z = tt.load %qs : tensor<32x16x!tt.ptr<f16>, #blk>
    %y = ttg.convert_layout %x : tensor<32x16xf16, #blk> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %w = ttg.convert_layout %z : tensor<32x16xf16, #blk> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return
  }
  // Eight rounds (rows 8, 16 and 32 are register bits on both sides),
  // warp w holding rows 4w..4w+3 of every 8 on both sides: warp barriers
  // between the stores and the loads of each round and between rounds.
  // CHECK-LABEL: define void @rounds(
  // CHECK-NOT: barrier0
  // CHECK-COUNT-15: call void @llvm.nvvm.bar.warp.sync(i32 -1)
  // CHECK-NOT: barrier0
  // CHECK: ret void
  tt.func public @rounds(%p: !tt.ptr<i32>) {
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x32x!tt.ptr<i32>, #ra>
    %x = tt.load %ps : tensor<64x32x!tt.ptr<i32>, #ra>
    %y = ttg.convert_layout %x : tensor<64x32xi32, #ra> -> tensor<64x32xi32, #rb>
    tt.return
  }
}

// ATT-LABEL: define void @attention(
// k, blocked to #linear (a broadcast over warps): a CTA barrier.
// ATT: store <4 x i32>
// ATT-NEXT: call void @llvm.nvvm.barrier0()
// ATT-NOT: bar.warp.sync
// Membar's barrier: q's stores overwrite what k's loads read. q, blocked
// to the mma A operand: within warps.
// ATT: call void @llvm.nvvm.barrier0()
// ATT-NOT: barrier0
// ATT: store <4 x i32>
// ATT-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
// ATT-NOT: bar.warp.sync
// Membar's barrier before v's stores; v, blocked to the mma B operand (a
// broadcast over warps): a CTA barrier.
// ATT: call void @llvm.nvvm.barrier0()
// ATT-NOT: bar.warp.sync
// ATT: store <4 x i32>
// ATT-NEXT: call void @llvm.nvvm.barrier0()
// ATT-NOT: bar.warp.sync
// Membar's barrier before o's stores; o, the mma result to the blocked
// store layout: within warps.
// ATT: call void @llvm.nvvm.barrier0()
// ATT-NOT: barrier0
// ATT: store <2 x half>
// ATT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
// ATT-NOT: barrier0
// ATT-NOT: bar.warp.sync
// ATT: ret void
