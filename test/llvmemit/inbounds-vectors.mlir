// A masked global access whose vector width only the mask's constancy
// limits (a bounds check against a size not known to be a multiple of the
// vector) is made whole where the thread's elements are all in bounds and
// element by element, as Triton makes it everywhere, where they are not:
// one branch on the AND of the thread's masks, a phi per loaded register.
// Sub-word elements are loaded as 32-bit words (llc-14 splits a load of
// <8 x i16> in two), and sub-word integers stored as words through inline
// PTX (opt folds a bitcast to words back into <8 x i8>).
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // A row of 512 f16 and one of 512 i8 copied under the bound n: 8 f16
  // (16 bytes) and 8 i8 (8 bytes) per thread.
  // CHECK-LABEL: define void @rows(
  // CHECK: br i1 %{{.*}}, label %[[LF:ld.full[0-9]+]], label %[[LM:ld.masked[0-9]+]]
  // CHECK: [[LF]]:
  // CHECK-NEXT: bitcast
  // CHECK-NEXT: load <4 x i32>, <4 x i32> addrspace(1)* %{{.*}}, align 16
  // CHECK: [[LM]]:
  // CHECK-COUNT-8: @$2 ld.global.b16
  // CHECK: ld.join{{[0-9]+}}:
  // CHECK-COUNT-8: phi half
  // CHECK: br i1 %{{.*}}, label %[[SF:st.full[0-9]+]], label %[[SM:st.masked[0-9]+]]
  // CHECK: [[SF]]:
  // CHECK: store <8 x half> %{{.*}}, <8 x half> addrspace(1)* %{{.*}}, align 16
  // CHECK: [[SM]]:
  // CHECK-COUNT-8: @$2 st.global.b16
  // CHECK: load <2 x i32>, <2 x i32> addrspace(1)* %{{.*}}, align 8
  // CHECK-COUNT-8: @$2 ld.global.b8
  // CHECK: call void asm sideeffect "st.global.v2.b32 [ $2 + 0 ], { $0, $1 };", "r,r,l"(i32 %{{.*}}, i32 %{{.*}}, i8 addrspace(1)* %{{.*}})
  // CHECK-COUNT-8: @$2 st.global.b8
  tt.func public @rows(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %p: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %n: i32) {
    %z = arith.constant dense<0.000000e+00> : tensor<512xf16, #b>
    %c = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b>
    %m = arith.cmpi slt, %c, %ns : tensor<512xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>, #b>
    %xp = tt.addptr %xs, %c : tensor<512x!tt.ptr<f16>, #b>, tensor<512xi32, #b>
    %v = tt.load %xp, %m, %z : tensor<512x!tt.ptr<f16>, #b>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>, #b>
    %yp = tt.addptr %ys, %c : tensor<512x!tt.ptr<f16>, #b>, tensor<512xi32, #b>
    tt.store %yp, %v, %m : tensor<512x!tt.ptr<f16>, #b>
    %ps = tt.splat %p : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>, #b>
    %pp = tt.addptr %ps, %c : tensor<512x!tt.ptr<i8>, #b>, tensor<512xi32, #b>
    %i = tt.load %pp, %m : tensor<512x!tt.ptr<i8>, #b>
    %qs = tt.splat %q : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>, #b>
    %qp = tt.addptr %qs, %c : tensor<512x!tt.ptr<i8>, #b>, tensor<512xi32, #b>
    tt.store %qp, %i, %m : tensor<512x!tt.ptr<i8>, #b>
    tt.return
  }

  // The mask's constancy already allows the whole vector (a size that is a
  // multiple of 8): no branch.
  // CHECK-LABEL: define void @multiple(
  // CHECK-NOT: ld.full
  // CHECK: @$5 ld.global.v4.b32
  // CHECK-NOT: st.full
  // CHECK: @$3 st.global.v2.b32
  // CHECK: ret void
  tt.func public @multiple(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %z = arith.constant dense<0.000000e+00> : tensor<512xf16, #b>
    %c = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b>
    %m = arith.cmpi slt, %c, %ns : tensor<512xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>, #b>
    %xp = tt.addptr %xs, %c : tensor<512x!tt.ptr<f16>, #b>, tensor<512xi32, #b>
    %v = tt.load %xp, %m, %z : tensor<512x!tt.ptr<f16>, #b>
    %i = arith.fptosi %v : tensor<512xf16, #b> to tensor<512xi8, #b>
    %qs = tt.splat %q : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>, #b>
    %qp = tt.addptr %qs, %c : tensor<512x!tt.ptr<i8>, #b>, tensor<512xi32, #b>
    tt.store %qp, %i, %m : tensor<512x!tt.ptr<i8>, #b>
    tt.return
  }
}
