// Dot operands and epilogues through shared memory with the instructions
// Triton 3.6 uses. A blocked -> dot_op conversion reads its scratch with
// ldmatrix (A: K contiguous, plain; B: N contiguous, .trans), not with
// ld.shared; on sm_90 an mma -> blocked conversion whose plan chose
// stmatrix writes with it (and the module is sm_90a's); f32 -> f16 rounds
// two registers per cvt.rn.f16x2.f32.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s
// RUN: layout-translate -ttgir-to-llvmir %S/Inputs/stmatrix.mlir | FileCheck %S/Inputs/stmatrix.mlir --check-prefix=SM90

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @operands(
  // CHECK: store <4 x i32>
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK-NOT: load <{{.*}}> addrspace(3)
  // CHECK: call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r"(i8 addrspace(3)*
  // CHECK: store <4 x i32>
  // CHECK: call void @llvm.nvvm.barrier0()
  // CHECK-NOT: load <{{.*}}> addrspace(3)
  // CHECK: call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r"(i8 addrspace(3)*
  // CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
  // CHECK-NOT: fptrunc
  // CHECK: call i32 asm "cvt.rn.f16x2.f32 $0, $1, $2;", "=r,f,f"(float %{{.*}}, float %{{.*}})
  // CHECK-NOT: fptrunc
  // CHECK: ret void
  tt.func public @operands(%a: tensor<64x64xf16, #bl>, %b: tensor<64x64xf16, #bl>, %o: !tt.ptr<f16>) {
    %x = ttg.convert_layout %a : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.convert_layout %b : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = tt.dot %x, %y, %z : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %h = arith.truncf %d : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %os = tt.splat %o : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #mma>
    tt.store %os, %h : tensor<64x64x!tt.ptr<f16>, #mma>
    tt.return
  }
}
