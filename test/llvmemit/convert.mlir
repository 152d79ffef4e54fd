// ttg.convert_layout in its three lowerings: a register permutation (no
// instruction), warp shuffles (shfl.sync.idx, no barrier) and a round trip
// through shared memory (vector stores and loads between barriers).
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#wide = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]}>
#perm = #ttg.linear<{register = [[0, 2], [0, 1], [16, 0], [8, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 0], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#shfl = #ttg.linear<{register = [[0, 4], [0, 2], [8, 0], [16, 0]], lane = [[0, 1], [0, 8], [0, 16], [0, 0], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#trow = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#tcol = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @perm(
  // CHECK-NOT: shfl
  // CHECK-NOT: barrier
  // CHECK: ret void
  tt.func public @perm(%p: !tt.ptr<i32>) {
    %x = tt.splat %p : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %y = ttg.convert_layout %x : tensor<32x32x!tt.ptr<i32>, #rows> -> tensor<32x32x!tt.ptr<i32>, #perm>
    tt.return
  }
  // CHECK-LABEL: define void @shuffle(
  // CHECK-NOT: barrier
  // CHECK: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %{{.*}}, i32 %{{.*}}, i32 31)
  // CHECK-NOT: barrier
  // CHECK: ret void
  tt.func public @shuffle(%v: i32, %p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>> -> tensor<1x32xi32, #rows>
    %b = tt.broadcast %e : tensor<1x32xi32, #rows> -> tensor<32x32xi32, #rows>
    %y = ttg.convert_layout %b : tensor<32x32xi32, #rows> -> tensor<32x32xi32, #shfl>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #shfl>
    tt.store %s, %y : tensor<32x32x!tt.ptr<i32>, #shfl>
    tt.return
  }
  // CHECK-LABEL: define void @shared(
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK: store <4 x i32> %{{.*}}, <4 x i32> addrspace(3)* %{{.*}}, align 16
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK: load <4 x i32>, <4 x i32> addrspace(3)* %{{.*}}, align 16
  // Registers run along different dims on the two sides: 32-bit accesses.
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK: store <1 x i32> %{{.*}}, <1 x i32> addrspace(3)* %{{.*}}, align 4
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK: load <1 x i32>, <1 x i32> addrspace(3)* %{{.*}}, align 4
  tt.func public @shared(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>> -> tensor<1x32xi32, #rows>
    %b = tt.broadcast %e : tensor<1x32xi32, #rows> -> tensor<32x32xi32, #rows>
    %y = ttg.convert_layout %b : tensor<32x32xi32, #rows> -> tensor<32x32xi32, #wide>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #wide>
    tt.store %s, %y : tensor<32x32x!tt.ptr<i32>, #wide>
    %z = ttg.convert_layout %b : tensor<32x32xi32, #rows> -> tensor<32x32xi32, #cols>
    %t = tt.splat %p : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #cols>
    tt.store %t, %z : tensor<32x32x!tt.ptr<i32>, #cols>
    tt.return
  }
  // The f16 transpose's conversion: a thread's registers sit at a stride
  // of 2 rows, and the stores gather every other register into 16-byte
  // vectors (largest vectorisation up to a register permutation, as
  // Triton's), stored as four packed words; the plan's swizzle is for ldmatrix.trans on the load side,
  // which gathers the 32 column elements in 4 instructions (ld.shared
  // would load them one by one). The constant parts of the addresses that
  // the thread's part cannot have are added, not xor-ed, so only a few
  // xors remain.
  // CHECK-LABEL: define void @transpose_f16(
  // CHECK-COUNT-4: store <4 x i32>
  // CHECK-NOT: store <{{[0-9]+}} x half>
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK-NOT: load {{.*}} addrspace(3)
  // CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  // CHECK-NOT: load {{.*}} addrspace(3)
  // CHECK: ret void
  tt.func public @transpose_f16(%v: f16) {
    %x = tt.splat %v : f16 -> tensor<64x64xf16, #tcol>
    %y = ttg.convert_layout %x : tensor<64x64xf16, #tcol> -> tensor<64x64xf16, #trow>
    tt.return
  }
}
