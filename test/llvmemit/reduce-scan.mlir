// tt.reduce: within the thread, butterflies over the lanes along the axis
// (shfl.sync.bfly 16, 8, ... clamp 31), then across warps through the
// op's scratch (allocation.offset from allocate-shared-memory-nv: the
// tool runs it). tt.scan: Hillis-Steele over the lanes with shfl.sync.up.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s -kernel-json %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// JSON: "name": "red"
// JSON: "shared_bytes": 16

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @red(
  // CHECK: fadd float
  // CHECK: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
  // CHECK: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 1, i32 31)
  // The scratch's first use: Membar puts no barrier before the store, the
  // reduction one between the store and the loads.
  // CHECK-NOT: call void @llvm.nvvm.barrier0()
  // CHECK: store float %{{.*}}, float addrspace(3)*
  // CHECK: call void @llvm.nvvm.barrier0()
  // The four warps' partials are one 16-byte vector (ld.shared.v4).
  // CHECK-NOT: load float, float addrspace(3)*
  // CHECK: load <4 x float>, <4 x float> addrspace(3)* %{{.*}}, align 16
  // CHECK-COUNT-3: fadd float
  // CHECK-NOT: load float, float addrspace(3)*
  // The scalar result is stored by thread 0 only.
  // CHECK: icmp eq i32 %{{.*}}, 0
  // CHECK: st.global.b32
  tt.func public @red(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %pa = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %x = tt.load %pa : tensor<512x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.reduce.return %t : f32
    }) : (tensor<512xf32, #b>) -> f32
    tt.store %p, %s : !tt.ptr<f32>
    tt.return
  }
  // CHECK-LABEL: define void @cumsum(
  // CHECK: add i32
  // The lanes along the axis are lane bits 0-4, so each step reads the
  // lane 2^j back with shfl.sync.up (as Triton's warpScan), without lane
  // arithmetic; then the lane before (exclusive). The lane at the last
  // position (31) alone stores the warp's total for the exchange across
  // warps (Triton's storeWarpAccumulator): no shfl.sync.idx. Each step
  // combines, then selects with selp.b32 (as Triton's PTX: LLVM would
  // turn a select after the add into the identity selected into it).
  // CHECK-NOT: shfl.sync.idx
  // CHECK: call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %{{.*}}, i32 1, i32 0)
  // CHECK-NEXT: icmp uge i32 %{{.*}}, 1
  // CHECK: call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %{{.*}}, i32 16, i32 0)
  // CHECK: %[[INCL:.*]] = call i32 asm "selp.b32 $0, $1, $2, $3;", "=r,r,r,b"(i32 %{{.*}}, i32 %{{.*}}, i1 %{{.*}})
  // CHECK-NEXT: %[[EXCL:.*]] = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %[[INCL]], i32 1, i32 0)
  // CHECK-NOT: shfl.sync.idx
  // CHECK: icmp eq i32 %{{.*}}, 31
  // CHECK-NEXT: br i1 %{{.*}}, label %[[ST:scan.total[0-9]+]], label %[[END:scan.total.end[0-9]+]]
  // CHECK: [[ST]]:
  // CHECK: store i32 %[[INCL]], i32 addrspace(3)*
  // CHECK: [[END]]:
  // CHECK-NEXT: call void @llvm.nvvm.barrier0()
  // The four warps' totals are read as one vector.
  // CHECK-NOT: load i32, i32 addrspace(3)*
  // CHECK: load <4 x i32>, <4 x i32> addrspace(3)* %{{.*}}, align 16
  // The thread's last register is the earlier warps' totals (run) plus
  // INCL; the carry of the other three, run then the earlier lanes'
  // (EXCL), is combined once and then added to each, as Triton's scan
  // does: (run + excl) + v.
  // CHECK: add i32 %{{.*}}, %[[INCL]]
  // CHECK: add i32 %{{.*}}, %[[EXCL]]
  // CHECK-NEXT: call i32 asm "selp.b32
  // CHECK-NEXT: %[[CARRY:.*]] = call i32 asm "selp.b32 $0, $1, $2, $3;", "=r,r,r,b"(i32 %{{.*}}, i32 %{{.*}}, i1 %{{.*}})
  // CHECK-COUNT-3: add i32 %[[CARRY]], %{{.*}}
  // CHECK-NOT: add i32
  tt.func public @cumsum(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %c: i32):
      %t = arith.addi %a, %c : i32
      tt.scan.return %t : i32
    }) : (tensor<512xi32, #b>) -> tensor<512xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #b>
    %pa = tt.addptr %ps, %r : tensor<512x!tt.ptr<i32>, #b>, tensor<512xi32, #b>
    tt.store %pa, %s : tensor<512x!tt.ptr<i32>, #b>
    tt.return
  }
}
