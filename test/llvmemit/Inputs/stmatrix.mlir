// The sm_90 half of dot-operands.mlir: an mma v3 accumulator (f16) to a
// column-major blocked layout, whose plan stores with stmatrix.
// SM90-LABEL: define void @epilogue(
// SM90-NOT: store <{{.*}}> addrspace(3)
// SM90: call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "r,r,r,r,r"(i8 addrspace(3)* %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}})
// SM90: call void @llvm.nvvm.barrier0()
// SM90: load <8 x half>, <8 x half> addrspace(3)*
// SM90: ret void
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @epilogue(%a: tensor<64x64xf16, #mma>, %o: !tt.ptr<f16>) {
    %b = ttg.convert_layout %a : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #col>
    %os = tt.splat %o : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #col>
    tt.store %os, %b : tensor<64x64x!tt.ptr<f16>, #col>
    tt.return
  }
}
