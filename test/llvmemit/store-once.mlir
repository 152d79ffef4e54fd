// What Triton's code does and ours did not (the speed gaps of issue 13):
// each element is stored by one thread (a scalar by thread 0; a slice
// layout's copies in registers skipped, its copies in lanes and warps
// masked off by tid & mask == 0); a masked load whose `other` is +0 needs
// no select (the predicated load's words start at 0); math.sqrt on f32 is
// sqrt.approx.ftz, tt.precise_sqrt stays sqrt.rn.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @scalar(
  // CHECK: %[[TID:.*]] = and i32 %{{.*}}, 127
  // CHECK: call float @llvm.nvvm.sqrt.approx.ftz.f(float
  // CHECK: call float @llvm.nvvm.sqrt.rn.f(float
  // CHECK: %[[T0:.*]] = icmp eq i32 %[[TID]], 0
  // CHECK-NEXT: bitcast float %{{.*}} to i32
  // CHECK-NEXT: call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %{{.*}}, float addrspace(1)* %{{.*}}, i1 %[[T0]])
  // CHECK-NOT: store float
  tt.func public @scalar(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %v = tt.load %x : !tt.ptr<f32>
    %s = math.sqrt %v : f32
    %p = tt.precise_sqrt %s : f32
    tt.store %y, %p : !tt.ptr<f32>
    tt.return
  }

  // 64 rows of slice(dim 1): each thread holds rows warp*2 + lane/16 + 8k,
  // the same in lanes 0-15 and 16-31 of a half: lane bits 0-3 broadcast.
  // CHECK-LABEL: define void @rows(
  // CHECK: %[[TID:.*]] = and i32 %{{.*}}, 127
  // The loads with other = 0 start from 0, those with other = 1.0 from
  // its bits, as in Triton: no select after either.
  // CHECK-COUNT-8: mov.u32 $0, 0x0;
  // CHECK-NOT: select
  // CHECK: mov.u32 $0, 0x3f800000;
  // CHECK-SAME: @$2 ld.global.b32
  // CHECK-NOT: select
  // CHECK: %[[B:.*]] = and i32 %[[TID]], 15
  // CHECK-NEXT: %[[U:.*]] = icmp eq i32 %[[B]], 0
  // CHECK: and i1 %{{.*}}, %[[U]]
  // CHECK: st.global.b32
  // CHECK-COUNT-7: st.global.b32
  // CHECK-NOT: st.global
  // CHECK: ret void
  tt.func public @rows(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %ns = tt.splat %n : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %m = arith.cmpi slt, %r, %ns : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    %xp = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>, tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %zero = arith.constant dense<0.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    %one = arith.constant dense<1.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    %a = tt.load %xp, %m, %zero : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    %c = tt.load %xp, %m, %one : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    %s = arith.addf %a, %c : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    %yp = tt.addptr %ys, %r : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>, tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.store %yp, %s, %m : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}
