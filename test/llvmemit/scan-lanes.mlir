// tt.scan within and across warps.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // Along axis 1 the 16 lanes of a row (lane bits 0-3) hold the whole
  // axis: each of the thread's 4 rows takes 4 shfl.sync.up steps and the
  // lane before (exclusive), 20 shuffles in all, and no shuffle of the
  // warp's total from the last lane (nothing reads it: no warps or chunks
  // follow).
  // CHECK-LABEL: define void @rows(
  // CHECK-COUNT-20: call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %{{.*}}, i32 {{1|2|4|8}}, i32 0)
  // CHECK-NOT: shfl.sync
  // CHECK: ret void
  tt.func public @rows(%x: tensor<32x64xf32, #b>, %out: !tt.ptr<f32>) {
    %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.scan.return %t : f32
    }) : (tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b>
    tt.return
  }
  // Along axis 0 the 4 warps split each column: each warp's totals of a
  // chunk go to the scratch warp-major (warp·4·64 + chunk·64 + column),
  // where a thread's 4 columns are one 16-byte vector, and the thread
  // loads each warp's totals of its 4 columns as one vector.
  // CHECK-LABEL: define void @cols(
  // CHECK-COUNT-4: store <4 x float> %{{.*}}, <4 x float> addrspace(3)* %{{.*}}, align 16
  // CHECK-NOT: store float %{{.*}}, float addrspace(3)*
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK-COUNT-16: load <4 x float>, <4 x float> addrspace(3)* %{{.*}}, align 16
  // CHECK-NOT: load float, float addrspace(3)*
  // CHECK: ret void
  tt.func public @cols(%x: tensor<32x64xf32, #b>, %out: !tt.ptr<f32>) {
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.scan.return %t : f32
    }) : (tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b>
    tt.return
  }
}
