// arith and math ops, one LLVM instruction (or a short sequence) per
// register (bf16 addf, subf and mulf one fma.rn.bf16x2 for two registers,
// truncf to bf16 one cvt.rn.bf16x2.f32); exp and
// log use ex2.approx/lg2.approx (exp as Triton does, exp2 with .ftz; Triton's log calls
// libdevice); divf is div.full.f32 and
// maxnumf llvm.maxnum, as in Triton; hex float splats.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @ops(
  tt.func public @ops(%p: !tt.ptr<f32>, %q: !tt.ptr<bf16>, %i: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b>
    %pa = tt.addptr %ps, %r : tensor<64x!tt.ptr<f32>, #b>, tensor<64xi32, #b>
    %x = tt.load %pa : tensor<64x!tt.ptr<f32>, #b>
    // CHECK: fadd float
    %a = arith.addf %x, %x : tensor<64xf32, #b>
    // CHECK: fmul float %{{.*}}, 0x3FF7154760000000
    // CHECK-NEXT: call float @llvm.nvvm.ex2.approx.f(float
    %e = math.exp %a : tensor<64xf32, #b>
    // CHECK: call float @llvm.nvvm.lg2.approx.f(float
    %l = math.log2 %e : tensor<64xf32, #b>
    // exp2 flushes subnormals, as Triton's ex2.approx.ftz.f32.
    // CHECK: call float @llvm.nvvm.ex2.approx.ftz.f(float
    %e2 = math.exp2 %l : tensor<64xf32, #b>
    // CHECK: call float @llvm.nvvm.sqrt.approx.ftz.f(float
    %s0 = math.sqrt %e2 : tensor<64xf32, #b>
    // rsqrt is Triton's rsqrt.approx.ftz.f32 too.
    // CHECK: call float @llvm.nvvm.rsqrt.approx.ftz.f(float
    %s = math.rsqrt %s0 : tensor<64xf32, #b>
    // maxnumf is one PTX max.f32 (llvm.maxnum), as in Triton.
    // CHECK: call float @llvm.maxnum.f32(float
    %m = arith.maxnumf %s, %x : tensor<64xf32, #b>
    // divf is Triton's div.full.f32; precise_divf stays IEEE (div.rn.f32).
    // CHECK: call float asm "div.full.f32 $0, $1, $2;", "=f,f,f"(float
    // CHECK-NOT: fdiv
    %dv = arith.divf %m, %x : tensor<64xf32, #b>
    // CHECK: fdiv float
    %pd = tt.precise_divf %dv, %x : tensor<64xf32, #b>
    tt.store %pa, %pd : tensor<64x!tt.ptr<f32>, #b>
    // CHECK: fcmp olt float {{.*}}, 0xFFF0000000000000
    %ninf = arith.constant dense<0xFF800000> : tensor<64xf32, #b>
    %c = arith.cmpf olt, %m, %ninf : tensor<64xf32, #b>
    // CHECK: select i1
    %sel = arith.select %c, %x, %m : tensor<64xi1, #b>, tensor<64xf32, #b>
    // CHECK: fptosi float %{{.*}} to i32
    %fi = arith.fptosi %sel : tensor<64xf32, #b> to tensor<64xi32, #b>
    // CHECK: sdiv i32
    %d = arith.divsi %fi, %r : tensor<64xi32, #b>
    // CHECK: icmp sgt i32
    %mx = arith.maxsi %d, %r : tensor<64xi32, #b>
    %f = arith.sitofp %mx : tensor<64xi32, #b> to tensor<64xf32, #b>
    // CHECK: call i32 asm "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f"(float
    %bf = arith.truncf %f : tensor<64xf32, #b> to tensor<64xbf16, #b>
    // x·1 + y, two registers at a time (1.0 is 0x3f80 in each half):
    // CHECK: call i32 asm "fma.rn.bf16x2 $0, $1, $2, $3;", "=r,r,r,r"(i32 %{{.*}}, i32 1065369472, i32
    %bb = arith.addf %bf, %bf : tensor<64xbf16, #b>
    %qs = tt.splat %q : !tt.ptr<bf16> -> tensor<64x!tt.ptr<bf16>, #b>
    %qa = tt.addptr %qs, %r : tensor<64x!tt.ptr<bf16>, #b>, tensor<64xi32, #b>
    // CHECK: store i16
    tt.store %qa, %bb : tensor<64x!tt.ptr<bf16>, #b>
    tt.return
  }
}
