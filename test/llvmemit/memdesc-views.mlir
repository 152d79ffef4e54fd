// ttg.memdesc_trans and ttg.memdesc_reshape are views: no code of their
// own, the loads through them use the source buffer's addressing with the
// coordinates permuted or regrouped.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @k(
// CHECK: store <4 x i32>
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: load <4 x i32>, <4 x i32> addrspace(3)*
// CHECK: load <4 x i32>, <4 x i32> addrspace(3)*
// CHECK: ret void

#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#flat = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sht = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#shr = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<i32>) {
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %x = tt.load %ps : tensor<32x32x!tt.ptr<i32>, #rows>
    %m = ttg.local_alloc %x : (tensor<32x32xi32, #rows>) -> !ttg.memdesc<32x32xi32, #sh, #smem>
    %mt = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xi32, #sh, #smem> -> !ttg.memdesc<32x32xi32, #sht, #smem>
    %y = ttg.local_load %mt : !ttg.memdesc<32x32xi32, #sht, #smem> -> tensor<32x32xi32, #cols>
    %pc = tt.splat %p : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #cols>
    tt.store %pc, %y : tensor<32x32x!tt.ptr<i32>, #cols>
    %mr = ttg.memdesc_reshape %m : !ttg.memdesc<32x32xi32, #sh, #smem> -> !ttg.memdesc<16x64xi32, #shr, #smem>
    %z = ttg.local_load %mr : !ttg.memdesc<16x64xi32, #shr, #smem> -> tensor<16x64xi32, #flat>
    %pf = tt.splat %p : !tt.ptr<i32> -> tensor<16x64x!tt.ptr<i32>, #flat>
    tt.store %pf, %z : tensor<16x64x!tt.ptr<i32>, #flat>
    tt.return
  }
}
