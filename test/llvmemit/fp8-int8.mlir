// fp8 values are their bits (i8) and convert in software valid on sm_80:
// upcasts rebias with one f32 multiplication (exact), downcasts round in
// integer arithmetic (add.rz.f32 below the normal range under rtz) and
// saturate. int8 dots on mma v2 are mma.sync m16n8k32 with i32
// accumulators, four operands packed per register.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @fp8(i8 addrspace(1)* %p, float addrspace(1)* %q,
// CHECK: %[[B:.*]] = load i8, i8 addrspace(1)*
// CHECK: %[[W:.*]] = zext i8 %[[B]] to i32
// CHECK: fmul float %{{.*}}, 0x4770000000000000
// CHECK: select i1 %{{.*}}, float 0x7FF8000000000000, float
// CHECK: call float asm "add.rz.f32 $0, $1, $2;", "=f,f,f"
// CHECK: select i1 %{{.*}}, i32 126, i32
// CHECK: store i8
// CHECK-LABEL: define void @int8_dot(
// CHECK: bitcast <4 x i8> %{{.*}} to i32
// CHECK: call { i32, i32, i32, i32 } asm "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=r,=r,=r,=r,r,r,r,r,r,r,0,1,2,3"

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8(%p: !tt.ptr<f8E4M3FN>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>, #b>
    %pa = tt.addptr %ps, %r : tensor<128x!tt.ptr<f8E4M3FN>, #b>, tensor<128xi32, #b>
    %x = tt.load %pa : tensor<128x!tt.ptr<f8E4M3FN>, #b>
    %f = tt.fp_to_fp %x : tensor<128xf8E4M3FN, #b> -> tensor<128xf32, #b>
    %g = arith.mulf %f, %f : tensor<128xf32, #b>
    %y = tt.fp_to_fp %g, rounding = rtz : tensor<128xf32, #b> -> tensor<128xf8E4M3FN, #b>
    tt.store %pa, %y : tensor<128x!tt.ptr<f8E4M3FN>, #b>
    tt.return
  }
  tt.func public @int8_dot(%pa: !tt.ptr<i8>, %pc: !tt.ptr<i32>) {
    %a0 = tt.splat %pa : !tt.ptr<i8> -> tensor<32x32x!tt.ptr<i8>, #bl>
    %a = tt.load %a0 : tensor<32x32x!tt.ptr<i8>, #bl>
    %ad = ttg.convert_layout %a : tensor<32x32xi8, #bl> -> tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %bd = ttg.convert_layout %a : tensor<32x32xi8, #bl> -> tensor<32x32xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %c = arith.constant dense<0> : tensor<32x32xi32, #mma>
    %d = tt.dot %ad, %bd, %c : tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x32xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<32x32xi32, #mma>
    %p = tt.splat %pc : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #mma>
    tt.store %p, %d : tensor<32x32x!tt.ptr<i32>, #mma>
    tt.return
  }
}
