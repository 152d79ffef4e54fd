// Shared-memory buffers at allocate-shared-memory-nv's offsets, cp.async
// with zero fill, and tt.dot on an mma v2 accumulator as inline mma.sync.
// RUN: layout-translate -ttgir-to-llvmir %s -kernel-json %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// JSON: "shared_bytes": 4096

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @mm(
  // CHECK: call void asm sideeffect "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, $2;", "r,l,r"(i8 addrspace(3)* %{{.*}}, half addrspace(1)* %{{.*}}, i32 16)
  // CHECK: call void @llvm.nvvm.cp.async.commit.group()
  // CHECK: call void @llvm.nvvm.cp.async.wait.group(i32 0)
  // CHECK-NEXT: call void @llvm.nvvm.barrier0()
  // A (K contiguous) with ldmatrix, B (N contiguous) with ldmatrix.trans.
  // CHECK: call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r"(i8 addrspace(3)*
  // CHECK: call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r"(i8 addrspace(3)*
  // CHECK: call { float, float, float, float } asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3"
  tt.func public @mm(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %k32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %k32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %ap = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #sh, #smem, mutable>
    %i0 = arith.constant 0 : i32
    %b0 = ttg.memdesc_index %buf[%i0] : !ttg.memdesc<2x32x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ap, %b0 : tensor<32x32x!tt.ptr<f16>, #bl> -> <32x32xf16, #sh, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %x = ttg.local_load %b0 token %w : !ttg.memdesc<32x32xf16, #sh, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.local_load %b0 token %w : !ttg.memdesc<32x32xf16, #sh, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %z = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %d = tt.dot %x, %y, %z : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #mma>
    tt.store %os, %d : tensor<32x32x!tt.ptr<f32>, #mma>
    ttg.local_dealloc %buf : !ttg.memdesc<2x32x32xf16, #sh, #smem, mutable>
    tt.return
  }
}
