// tritongpu-decompose-scaled-blocked: Triton's DecomposeScaledBlocked, the
// rewrite of a tt.dot_scaled without an MMA layout into upcasts, scale
// multiplications and a tt.dot (the kernels of Triton's
// accelerate-matmul.mlir that Hopper cannot run natively); layout-translate
// runs it before lowering.
// RUN: layout-opt -tritongpu-decompose-scaled-blocked %s | FileCheck %s

// CHECK-LABEL: tt.func @dot_scaled(
// CHECK: %[[A:.*]] = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<128x32xi8, #blocked> -> tensor<128x64xbf16, #linear>
// CHECK-NEXT: %[[E:.*]] = arith.extui %arg1 : tensor<128x2xi8, #blocked1> to tensor<128x2xi16, #blocked1>
// CHECK-NEXT: %[[C7:.*]] = arith.constant 7 : i16
// CHECK-NEXT: %[[S7:.*]] = tt.splat %[[C7]]
// CHECK-NEXT: %[[SH:.*]] = arith.shli %[[E]], %[[S7]]
// CHECK-NEXT: %[[BC:.*]] = tt.bitcast %[[SH]] : tensor<128x2xi16, #blocked1> -> tensor<128x2xbf16, #blocked1>
// CHECK-NEXT: %[[SL:.*]] = ttg.convert_layout %[[BC]] : tensor<128x2xbf16, #blocked1> -> tensor<128x2xbf16, #ttg.slice<{dim = 2, parent = #[[B3:.*]]}>>
// CHECK-NEXT: %[[EX:.*]] = tt.expand_dims %[[SL]] {axis = 2 : i32}
// CHECK-NEXT: %[[BR:.*]] = tt.broadcast %[[EX]] : tensor<128x2x1xbf16, #[[B3]]> -> tensor<128x2x32xbf16, #[[B3]]>
// CHECK-NEXT: %[[RS:.*]] = tt.reshape %[[BR]] : tensor<128x2x32xbf16, #[[B3]]> -> tensor<128x64xbf16
// CHECK-NEXT: %[[CV:.*]] = ttg.convert_layout %[[RS]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[CV]] : tensor<128x64xbf16, #linear>
// CHECK-NEXT: %[[FF:.*]] = arith.constant dense<-1> : tensor<128x2xi8, #blocked1>
// CHECK-NEXT: arith.cmpi eq, %arg1, %[[FF]]
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7FC0> : tensor<128x64xbf16, #linear>
// CHECK-NEXT: %[[SEL:.*]] = arith.select %{{.*}}, %[[NAN]], %[[M]]
// CHECK-NEXT: %[[DA:.*]] = ttg.convert_layout %[[SEL]] : tensor<128x64xbf16, #linear> -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK-NEXT: %[[DB:.*]] = ttg.convert_layout %arg2 : tensor<64x128xbf16, #blocked2> -> tensor<64x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// CHECK-NEXT: %[[D:.*]] = tt.dot %[[DA]], %[[DB]], %cst
// CHECK-NEXT: tt.return %[[D]]
// fastMath: no NaN masking; an fp8 operand upcast with tt.fp_to_fp.
// CHECK-LABEL: tt.func @dot_scaled_fp8(
// CHECK: tt.fp_to_fp %arg2 : tensor<64x128xf8E4M3FN, #blocked2> -> tensor<64x128xbf16, #blocked2>
// CHECK-NOT: arith.select
// CHECK: tt.dot


#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_scaled(
    %a: tensor<128x32xi8, #blocked2>,
    %scale: tensor<128x2xi8, #blocked1>,
    %b_bf16: tensor<64x128xbf16, #blocked>
    ) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %result = tt.dot_scaled %a scale %scale, %b_bf16, %cst lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8, #blocked2>, tensor<128x2xi8, #blocked1> * tensor<64x128xbf16, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %result : tensor<128x128xf32, #blocked>
  }

  tt.func @dot_scaled_fp8(
    %a: tensor<128x32xi8, #blocked2>,
    %scale: tensor<128x2xi8, #blocked1>,
    %b_fp8: tensor<64x128xf8E4M3FN, #blocked>
    ) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %result = tt.dot_scaled %a scale %scale, %b_fp8, %cst lhs = e2m1 rhs = e4m3 {fastMath = true} : tensor<128x32xi8, #blocked2>, tensor<128x2xi8, #blocked1> * tensor<64x128xf8E4M3FN, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %result : tensor<128x128xf32, #blocked>
  }
}

