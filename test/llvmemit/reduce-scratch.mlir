// The scratch of a reduction across warps, laid out as Triton linearizes
// it: warp-major (warp·numel + element) when the reduced axis is not the
// layout's fastest dimension. Here 8 warps reduce a 64×128 tile along
// axis 0 and neighbouring lanes hold neighbouring columns: each partial
// goes to slot warp·128 + column (warp-minor slots, column·8 + warp, would
// put a warp's 32 stores 128 bytes apart, all in one bank), and each
// thread loads its column's 8 partials 512 bytes apart.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @colsum(
// CHECK: %[[W:.*]] = shl i32 %{{.*}}, 7
// CHECK-NEXT: %[[SLOT:.*]] = or i32 %[[W]], %{{.*}}
// CHECK-NEXT: %[[OFF:.*]] = shl i32 %[[SLOT]], 2
// CHECK-NEXT: getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 %[[OFF]]
// CHECK: store float
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK-NOT: load <4 x float>
// CHECK: or i32 %[[E:.*]], 896
// CHECK-NOT: load <4 x float>
// CHECK: ret void
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @colsum(%x: tensor<64x128xf32, #b>, %out: !tt.ptr<f32>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #b>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #b}>>
    tt.return
  }
}
