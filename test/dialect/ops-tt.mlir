// The custom syntax of the tt ops: each prints back as written (SSA names,
// optional operands, cache and eviction keywords, attribute dictionaries),
// printing is a fixed point, and the generic form reads back to the same
// custom form.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Optional operands and enum keywords become properties in generic form.
// GENERIC-LABEL: "tt.func"() <{arg_attrs = [{tt.divisibility = 16 : i32}, {}], function_type = (!tt.ptr<f32>, i32) -> (), sym_name = "program", sym_visibility = "public"}>
// GENERIC: %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
// GENERIC: %pidy = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
// GENERIC: %num = "tt.get_num_programs"() <{axis = 2 : i32}> : () -> i32
// GENERIC: %v0 = "tt.load"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tt.ptr<f32>, #blocked2>) -> tensor<128xf32, #blocked2>
// GENERIC: %v1 = "tt.load"(%a, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tt.ptr<f32>, #blocked2>, tensor<128xi1, #blocked2>) -> tensor<128xf32, #blocked2>
// GENERIC: %v2 = "tt.load"(%a, %m, %other) <{cache = 2 : i32, evict = 3 : i32, isVolatile = true, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tt.ptr<f32>, #blocked2>, tensor<128xi1, #blocked2>, tensor<128xf32, #blocked2>) -> tensor<128xf32, #blocked2>
// GENERIC: "tt.store"(%a, %v1) <{cache = 4 : i32}> : (tensor<128x!tt.ptr<f32>, #blocked2>, tensor<128xf32, #blocked2>) -> ()
// GENERIC: "tt.reduce.return"(%z) : (f32) -> ()
// GENERIC-LABEL: sym_name = "shapes"
// GENERIC: %f8 = "tt.fp_to_fp"(%u) <{rounding = 1 : i32}> : (tensor<64x64xf16, #blocked>) -> tensor<64x64xf8E5M2, #blocked>
// GENERIC-LABEL: sym_name = "dot"
// GENERIC: %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32}>
// GENERIC: %e = "tt.call"(%d) <{callee = @id}> : (tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @program(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
// CHECK-NEXT:  %pid = tt.get_program_id x : i32
// CHECK-NEXT:  %pidy = tt.get_program_id y : i32
// CHECK-NEXT:  %num = tt.get_num_programs z : i32
// CHECK-NEXT:  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked2>
// CHECK-NEXT:  %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked2>
// CHECK-NEXT:  %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked2>, tensor<128xi32, #blocked2>
// CHECK-NEXT:  %ns = tt.splat %n : i32 -> tensor<128xi32, #blocked2>
// CHECK-NEXT:  %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked2>
// CHECK-NEXT:  %other = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked2>
// CHECK-NEXT:  %v0 = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked2>
// CHECK-NEXT:  %v1 = tt.load %a, %m : tensor<128x!tt.ptr<f32>, #blocked2>
// CHECK-NEXT:  %v2 = tt.load %a, %m, %other cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>, #blocked2>
// CHECK-NEXT:  tt.store %a, %v2, %m : tensor<128x!tt.ptr<f32>, #blocked2>
// CHECK-NEXT:  tt.store %a, %v1 cacheModifier = wb : tensor<128x!tt.ptr<f32>, #blocked2>
// CHECK-NEXT:  %sum = "tt.reduce"(%v0) <{axis = 0 : i32}> ({
// CHECK-NEXT:  ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:  %z = arith.addf %x, %y : f32
// CHECK-NEXT:  tt.reduce.return %z : f32
// CHECK-NEXT:  }) : (tensor<128xf32, #blocked2>) -> f32
// CHECK-NEXT:  %q = tt.addptr %p, %pid : !tt.ptr<f32>, i32
// CHECK-NEXT:  tt.store %q, %sum : !tt.ptr<f32>
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func public @program(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
    %pid = tt.get_program_id x : i32
    %pidy = tt.get_program_id y : i32
    %num = tt.get_num_programs z : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked2>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked2>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked2>, tensor<128xi32, #blocked2>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #blocked2>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked2>
    %other = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked2>
    %v0 = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked2>
    %v1 = tt.load %a, %m : tensor<128x!tt.ptr<f32>, #blocked2>
    %v2 = tt.load %a, %m, %other cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>, #blocked2>
    tt.store %a, %v2, %m : tensor<128x!tt.ptr<f32>, #blocked2>
    tt.store %a, %v1 cacheModifier = wb : tensor<128x!tt.ptr<f32>, #blocked2>
    %sum = "tt.reduce"(%v0) <{axis = 0 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      tt.reduce.return %z : f32
    }) : (tensor<128xf32, #blocked2>) -> f32
    %q = tt.addptr %p, %pid : !tt.ptr<f32>, i32
    tt.store %q, %sum : !tt.ptr<f32>
    tt.return
  }
// CHECK-LABEL: tt.func private @shapes(%t: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %u: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked1> {
// CHECK-NEXT:  %e = tt.expand_dims %t {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
// CHECK-NEXT:  %b = tt.broadcast %e : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
// CHECK-NEXT:  %tr = tt.trans %u {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT:  %rs = tt.reshape %u : tensor<64x64xf16, #blocked> -> tensor<4096xf16, #blocked2>
// CHECK-NEXT:  %c = tt.bitcast %u : tensor<64x64xf16, #blocked> -> tensor<64x64xi16, #blocked>
// CHECK-NEXT:  %f8 = tt.fp_to_fp %u, rounding = rtne : tensor<64x64xf16, #blocked> -> tensor<64x64xf8E5M2, #blocked>
// CHECK-NEXT:  tt.return %tr : tensor<64x64xf16, #blocked1>
// CHECK-NEXT:  }
  tt.func private @shapes(%t: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %u: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked1> {
    %e = tt.expand_dims %t {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %b = tt.broadcast %e : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %tr = tt.trans %u {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %rs = tt.reshape %u : tensor<64x64xf16, #blocked> -> tensor<4096xf16, #blocked2>
    %c = tt.bitcast %u : tensor<64x64xf16, #blocked> -> tensor<64x64xi16, #blocked>
    %f8 = tt.fp_to_fp %u, rounding = rtne : tensor<64x64xf16, #blocked> -> tensor<64x64xf8E5M2, #blocked>
    tt.return %tr : tensor<64x64xf16, #blocked1>
  }
// CHECK-LABEL: tt.func @dot(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
// CHECK-NEXT:  %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK-NEXT:  %e = tt.call @id(%d) : (tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma>
// CHECK-NEXT:  tt.return %e : tensor<64x64xf32, #mma>
// CHECK-NEXT:  }
  tt.func @dot(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %e = tt.call @id(%d) : (tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma>
    tt.return %e : tensor<64x64xf32, #mma>
  }
// CHECK-LABEL: tt.func private @id(%x: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
// CHECK-NEXT:  tt.return %x : tensor<64x64xf32, #mma>
// CHECK-NEXT:  }
  tt.func private @id(%x: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    tt.return %x : tensor<64x64xf32, #mma>
  }
}
