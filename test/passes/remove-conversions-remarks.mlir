// RUN: layout-opt %s -split-input-file -tritongpu-remove-layout-conversions=remarks=true -verify-diagnostics | FileCheck %s

// remarks=true says, for each conversion left, why it stays.

// The source is a function argument, whose layout is fixed.
// CHECK-LABEL: tt.func @anchor
// CHECK: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @anchor(%a: tensor<1024xf32, #b1>) -> tensor<1024xf32, #b4> {
    %0 = ttg.convert_layout %a : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
    // expected-remark @below {{conversion kept: anchor: the source comes from an argument of tt.func, whose layout is fixed}}
    tt.return %0 : tensor<1024xf32, #b4>
  }
}

// -----

// Recomputing the exponential in the other layout would keep the original
// too (it is returned) and still convert the loaded tile: dearer than
// converting once.
// CHECK-LABEL: tt.func @cost
// CHECK: math.exp
// CHECK: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cost(%p: tensor<1024x!tt.ptr<f32>, #b1>) -> (tensor<1024xf32, #b1>, tensor<1024xf32, #b4>) {
    %a = tt.load %p : tensor<1024x!tt.ptr<f32>, #b1>
    %e = math.exp %a : tensor<1024xf32, #b1>
    %0 = ttg.convert_layout %e : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
    // The conversion left is the one the return needs (8 x 4096 bytes of
    // exponentials plus the loaded tile's conversion, against one conversion).
    // expected-remark @below {{conversion kept: cost: recomputing the source in the target layout costs 65792, the conversion 33024}}
    tt.return %e, %0 : tensor<1024xf32, #b1>, tensor<1024xf32, #b4>
  }
}

// -----

// The sum of a tile and its transpose needs the tile in two layouts.
// CHECK-LABEL: tt.func @conflict
// CHECK-COUNT-2: ttg.convert_layout
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#other = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @conflict(%p: tensor<32x32x!tt.ptr<f32>, #row>) -> tensor<32x32xf32, #other> {
    %a = tt.load %p : tensor<32x32x!tt.ptr<f32>, #row>
    %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
    %tc = ttg.convert_layout %t : tensor<32x32xf32, #col> -> tensor<32x32xf32, #row>
    // Converting the loaded tile instead would cost as much.
    // expected-remark @below {{conversion kept: cost: recomputing the source in the target layout costs 33024, the conversion 33024}}
    %s = arith.addf %a, %tc : tensor<32x32xf32, #row>
    %0 = ttg.convert_layout %s : tensor<32x32xf32, #row> -> tensor<32x32xf32, #other>
    // expected-remark @below {{conversion kept: conflict: a value (from tt.load) is needed in two layouts}}
    tt.return %0 : tensor<32x32xf32, #other>
  }
}

// -----

// Conversions to dot operands stay by the dot, as in Triton, unless they
// can move up to the loads that feed them (then they go right after each
// load, for the pipeliner: @dot_operand_after_load).
// CHECK-LABEL: tt.func @dot_operand
// CHECK: arith.addf
// CHECK: ttg.convert_layout
// CHECK-LABEL: tt.func @dot_operand_after_load
// CHECK: tt.load
// CHECK-NEXT: ttg.convert_layout
// CHECK-NEXT: arith.addf
#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_operand(%x: tensor<64x32xf16, #bl>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %y = arith.addf %x, %x : tensor<64x32xf16, #bl>
    %a = ttg.convert_layout %y : tensor<64x32xf16, #bl> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    // expected-remark @below {{conversion kept: dot operand: a conversion to #ttg.dot_op is only folded into cheap producers (or hoisted into a branch), as Triton leaves it to the dot}}
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }

  tt.func @dot_operand_after_load(%p: tensor<64x32x!tt.ptr<f16>, #bl>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #bl>
    // expected-remark @above {{conversion kept: anchor: the source comes from tt.load, whose layout is fixed}}
    %y = arith.addf %x, %x : tensor<64x32xf16, #bl>
    %a = ttg.convert_layout %y : tensor<64x32xf16, #bl> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// Placed above the tt.expand_dims (see remove-conversions-spellings.mlir).
// CHECK-LABEL: tt.func @hoist_from_loop
// CHECK: ttg.convert_layout
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @hoist_from_loop(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32, #b>
    %two = arith.constant dense<2.000000e+00> : tensor<1x1xf32, #b>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<1x256x!tt.ptr<f32>, #b>
    %acc = scf.for %i = %c0 to %n step %c256 iter_args(%x = %zero) -> (tensor<1x256xf32, #b>) : i32 {
      %v = tt.load %ptr : tensor<1x256x!tt.ptr<f32>, #b>
      %y = arith.addf %x, %v : tensor<1x256xf32, #b>
      scf.yield %y : tensor<1x256xf32, #b>
    }
    %red = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1x256xf32, #b>) -> tensor<1xf32, #ttg.slice<{dim = 1, parent = #b}>>
    // expected-remark @below {{conversion kept: hoisted above a widening op, where Triton leaves it (it hoists after its last rematerialization)}}
    %ex = tt.expand_dims %red {axis = 1 : i32} : tensor<1xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<1x1xf32, #b>
    %d = arith.divf %ex, %two : tensor<1x1xf32, #b>
    %dc = ttg.convert_layout %d : tensor<1x1xf32, #b> -> tensor<1x1xf32, #a>
    %qq = tt.splat %q : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>, #a>
    tt.store %qq, %dc : tensor<1x1x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// A floating-point sum kept for the return would be computed a second time
// in the other layout, in another order: Triton's isRematBeneficial refuses
// (ReduceOpHelper::isAssociative), and so do we. A maximum is computed again
// (@associative): the reduction costs the lanes plus 8 times the warps along
// its axis, 1 + 8 here, less than the conversion.
// CHECK-LABEL: tt.func @non_associative
// CHECK-COUNT-1: "tt.reduce"
// CHECK: ttg.convert_layout
// CHECK-LABEL: tt.func @associative
// CHECK-COUNT-2: "tt.reduce"
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#other = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @non_associative(%f: f32) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #other}>>) {
    %x = tt.splat %f : f32 -> tensor<128x64xf32, #blocked>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      tt.reduce.return %t : f32
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = ttg.convert_layout %s : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #other}>>
    // expected-remark @above {{conversion kept: non-associative: the chain would compute a floating-point sum or product again in another layout, which may round differently}}
    tt.return %s, %c : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #other}>>
  }
  tt.func @associative(%f: f32) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #other}>>) {
    %x = tt.splat %f : f32 -> tensor<128x64xf32, #blocked>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %t = arith.maxnumf %l, %r : f32
      tt.reduce.return %t : f32
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = ttg.convert_layout %s : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #other}>>
    tt.return %s, %c : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #other}>>
  }
}
