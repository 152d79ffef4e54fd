// tt.atomic_cas and atomics read on broadcast layouts: one predicated
// atom per element, issued by the first holder; the old value goes
// through the op's scratch (a predicated st.shared, a barrier, a load) so
// that every holder sees it. A scalar atomic is issued by thread 0; a
// relaxed one whose result is unused is a red (no old value).
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @k(
// CHECK: %[[FIRST:.*]] = icmp eq i32 %{{.*}}, 0
// CHECK: %[[PRED:.*]] = and i1 true, %[[FIRST]]
// CHECK: call i32 asm sideeffect "@$4 atom.acq_rel.gpu.global.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"(i32 addrspace(1)* %{{.*}}, i32 0, i32 %{{.*}}, i1 %[[PRED]])
// CHECK: call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: load i32, i32 addrspace(3)*
// The store of the old values: warps 2 and 3 hold copies and store nothing.
// CHECK: %[[W:.*]] = and i32 %{{.*}}, 64
// CHECK: %[[ONCE:.*]] = icmp eq i32 %[[W]], 0
// CHECK: st.global.b32 {{.*}}, i1 %[[ONCE]])
// CHECK: %[[T0:.*]] = icmp eq i32 %{{.*}}, 0
// CHECK: and i1 true, %[[T0]]
// CHECK: call void asm sideeffect "@$2 red.relaxed.gpu.global.add.f32 [ $0 + 0 ], $1;", "l,f,b"

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<i32>, %f: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #b>
    %pa = tt.addptr %ps, %r : tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>
    %z = arith.constant dense<0> : tensor<64xi32, #b>
    %old = tt.atomic_cas acq_rel, gpu, %pa, %z, %r : (tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    tt.store %pa, %old : tensor<64x!tt.ptr<i32>, #b>
    %one = arith.constant 1.000000e+00 : f32
    %s = tt.atomic_rmw fadd, relaxed, gpu, %f, %one : (!tt.ptr<f32>, f32) -> f32
    tt.return
  }
}
