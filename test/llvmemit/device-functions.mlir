// Device functions as Triton 3.6 lowers them: a private tt.func (or one
// returning values) is an internal noinline function taking its tensors
// register by register, then its shared-memory frame (an i32 offset in
// global_smem: LLVM 14 passes a short shared pointer as .b32 to a .b64
// parameter, which ptxas rejects) and the two scratch
// pointers, and returning its registers; tt.call passes the caller's frame
// plus the call's allocation.offset.
// RUN: layout-translate -specialize-divisibility=off -min-ctas-per-sm=0 -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @k(float addrspace(1)* %p, i8 addrspace(1)* %global_scratch, i8 addrspace(1)* %profile_scratch)
// CHECK: call {{[{] (float, ){16}float [}]}} @f(float %{{.*}}, float 2.0, i32 {{[0-9]+}}, i8 addrspace(1)* %global_scratch, i8 addrspace(1)* %profile_scratch)
// CHECK: extractvalue {{[{] (float, ){16}float [}]}} %{{.*}}, 16
// CHECK-LABEL: define internal {{[{] (float, ){16}float [}]}} @f(float %x.0,
// CHECK-SAME: float %s, i32 %shared_frame, i8 addrspace(1)* %global_scratch, i8 addrspace(1)* %profile_scratch) nounwind noinline
// CHECK: %[[OFF:.*]] = add i32 %shared_frame, %{{[0-9]+}}
// CHECK: getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 %[[OFF]]
// CHECK: insertvalue {{[{] (float, ){16}float [}]}} %{{.*}}, float %{{.*}}, 16
// CHECK: ret {{[{] (float, ){16}float [}]}}
// CHECK: !nvvm.annotations = !{!0, !1}

#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #rows>
    %x = tt.load %ps : tensor<32x32x!tt.ptr<f32>, #rows>
    %c = arith.constant 2.000000e+00 : f32
    %y:2 = tt.call @f(%x, %c) : (tensor<32x32xf32, #rows>, f32) -> (tensor<32x32xf32, #cols>, f32)
    %s = tt.splat %y#1 : f32 -> tensor<32x32xf32, #cols>
    %z = arith.addf %y#0, %s : tensor<32x32xf32, #cols>
    %pc = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #cols>
    tt.store %pc, %z : tensor<32x32x!tt.ptr<f32>, #cols>
    tt.return
  }
  tt.func private @f(%x: tensor<32x32xf32, #rows>, %s: f32) -> (tensor<32x32xf32, #cols>, f32) {
    %y = ttg.convert_layout %x : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #cols>
    %t = arith.mulf %s, %s : f32
    tt.return %y, %t : tensor<32x32xf32, #cols>, f32
  }
}
