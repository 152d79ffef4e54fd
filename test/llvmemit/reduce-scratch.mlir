// The scratch of a reduction across warps: warp-major (warp·numel +
// element) when the reduced axis is not the layout's fastest dimension.
// Here 8 warps reduce a 64×128 tile along axis 0 and neighbouring lanes
// hold neighbouring columns, 4 each: each warp's partials go to slots
// warp·128 + column (warp-minor slots, column·8 + warp, would put a
// warp's 32 stores 128 bytes apart, all in one bank). A thread's 4
// columns are 4 consecutive slots, stored as one vector, and it loads
// each warp's partials of them as one vector, 512 bytes apart (scalar
// accesses took 4 stores and 32 loads, each lane 16 bytes from the next:
// 4-way bank conflicts).
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @colsum(
// CHECK: %[[W:.*]] = shl i32 %{{.*}}, 7
// CHECK-NEXT: %[[SLOT:.*]] = or i32 %[[W]], %{{.*}}
// CHECK: %[[OFF:.*]] = shl i32 %[[SLOT]], 2
// CHECK-NEXT: %[[P:.*]] = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 %[[OFF]]
// CHECK-NEXT: %[[VP:.*]] = bitcast i8 addrspace(3)* %[[P]] to <4 x float> addrspace(3)*
// CHECK-NEXT: store <4 x float> %{{.*}}, <4 x float> addrspace(3)* %[[VP]], align 16
// CHECK-NOT: store
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: %[[V0:.*]] = load <4 x float>
// CHECK-NEXT: %[[W0:.*]] = extractelement <4 x float> %[[V0]], i32 0
// CHECK: add i32 %{{.*}}, 512
// CHECK: %[[V1:.*]] = load <4 x float>
// CHECK-NEXT: %[[W1:.*]] = extractelement <4 x float> %[[V1]], i32 0
// CHECK: add i32 %{{.*}}, 1024
// CHECK: %[[V2:.*]] = load <4 x float>
// CHECK-NEXT: %[[W2:.*]] = extractelement <4 x float> %[[V2]], i32 0
// CHECK: add i32 %{{.*}}, 1536
// CHECK: %[[V3:.*]] = load <4 x float>
// CHECK-NEXT: %[[W3:.*]] = extractelement <4 x float> %[[V3]], i32 0
// CHECK: add i32 %{{.*}}, 2048
// CHECK: %[[V4:.*]] = load <4 x float>
// CHECK-NEXT: %[[W4:.*]] = extractelement <4 x float> %[[V4]], i32 0
// CHECK: add i32 %{{.*}}, 2560
// CHECK: %[[V5:.*]] = load <4 x float>
// CHECK-NEXT: %[[W5:.*]] = extractelement <4 x float> %[[V5]], i32 0
// CHECK: add i32 %{{.*}}, 3072
// CHECK: %[[V6:.*]] = load <4 x float>
// CHECK-NEXT: %[[W6:.*]] = extractelement <4 x float> %[[V6]], i32 0
// CHECK: add i32 %{{.*}}, 3584
// CHECK: %[[V7:.*]] = load <4 x float>
// CHECK-NEXT: %[[W7:.*]] = extractelement <4 x float> %[[V7]], i32 0
// CHECK-NOT: load
// The warps' partials of an element combine as Triton's shuffles do, a
// butterfly from the highest warp bit down (3 dependent adds, not 7).
// CHECK: %[[A0:.*]] = fadd float %[[W0]], %[[W4]]
// CHECK-NEXT: %[[A1:.*]] = fadd float %[[W1]], %[[W5]]
// CHECK-NEXT: %[[A2:.*]] = fadd float %[[W2]], %[[W6]]
// CHECK-NEXT: %[[A3:.*]] = fadd float %[[W3]], %[[W7]]
// CHECK-NEXT: %[[B0:.*]] = fadd float %[[A0]], %[[A2]]
// CHECK-NEXT: %[[B1:.*]] = fadd float %[[A1]], %[[A3]]
// CHECK-NEXT: fadd float %[[B0]], %[[B1]]
// CHECK-NOT: load
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
