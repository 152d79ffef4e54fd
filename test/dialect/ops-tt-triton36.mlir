// The custom syntax of the Triton 3.6 ops added with ops_tt_more.go and
// ops_ttng.go (clamps, atomics, block pointers, tensor descriptors, scaled
// dots, inline asm, print/assert, memdesc subslices, tensor memory with
// tokens, mbarriers): each prints back as written (types that ODS prints
// unqualified, like the `<f16>` of tt.make_tensor_descriptor, included),
// printing is a fixed point, and the generic form reads back. Enum
// properties are I32EnumAttr: plain integers in generic form. Triton 3.6
// printed the same text for each op (device check); it names the results
// of ttng.tmem_alloc and ttng.tmem_load %result and %token
// (getAsmResultNames).

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// GENERIC: "tt.clampf"(%x, %x, %x) <{propagateNan = 65535 : i32}> {a = 1 : i32}
// GENERIC: "tt.atomic_rmw"(%pi, %i) <{atomic_rmw_op = 10 : i32, scope = 3 : i32, sem = 4 : i32}> : (!tt.ptr<i32>, i32) -> i32
// GENERIC: "tt.make_tensor_ptr"(%h, %l, %l, %l, %l, %i, %i) <{order = array<i32: 1, 0>}> : (!tt.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tt.ptr<tensor<64x64xf16>>
// GENERIC: "tt.descriptor_load"(%{{[0-9]+}}, %i, %i) <{cache = 3 : i32, evict = 3 : i32}>
// GENERIC: "tt.elementwise_inline_asm"(%x) <{asm_string = "mov.b32 $0, $2; mov.b32 $1, $2;", constraints = "=r,=r,r", packed_element = 1 : i32, pure = true}>
// GENERIC: "tt.print"() <{hex = false, isSigned = array<i32>, prefix = "done"}> : () -> ()
// GENERIC: "tt.dot_scaled"(%a, %b, %c, %bs) <{a_elem_type = 0 : i32, b_elem_type = 1 : i32, fastMath = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}>
// GENERIC: "ttg.memdesc_subslice"(%buf) <{offsets = array<i32: 1, 0, 0>}>
// GENERIC: "ttng.tmem_store"(%result_0, %token, %t, %c) : (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token, tensor<128x128xf32, #blocked>, i1) -> !ttg.async.token
// GENERIC: "ttng.barrier_expect"(%bar, %c) <{size = 16384 : i32}>
// GENERIC: "ttng.wait_barrier"(%bar, %i, %c, %buf) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}>
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-NEXT:   tt.func @tt_ops(%x: tensor<16x16xf32, #blocked>, %p: !tt.ptr<f32>, %q: tensor<16x16x!tt.ptr<f32>, #blocked>, %m: tensor<16x16xi1, #blocked>, %i: i32, %l: i64, %c: i1, %h: !tt.ptr<f16>, %pi: !tt.ptr<i32>) {
// CHECK-NEXT:     %0 = tt.clampf %x, %x, %x, propagateNan = none : tensor<16x16xf32, #blocked>
// CHECK-NEXT:     %1 = tt.clampf %x, %x, %x, propagateNan = all {a = 1 : i32} : tensor<16x16xf32, #blocked>
// CHECK-NEXT:     %2 = tt.atomic_rmw fadd, relaxed, gpu, %q, %x, %m : (tensor<16x16x!tt.ptr<f32>, #blocked>, tensor<16x16xf32, #blocked>, tensor<16x16xi1, #blocked>) -> tensor<16x16xf32, #blocked>
// CHECK-NEXT:     %3 = tt.atomic_rmw exch, acq_rel, sys, %pi, %i : (!tt.ptr<i32>, i32) -> i32
// CHECK-NEXT:     %4 = tt.atomic_cas acq_rel, cta, %q, %x, %x : (tensor<16x16x!tt.ptr<f32>, #blocked>, tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>
// CHECK-NEXT:     %5 = tt.make_tensor_ptr %h, [%l, %l], [%l, %l], [%i, %i] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
// CHECK-NEXT:     %6 = tt.advance %5, [%i, %i] : <tensor<64x64xf16>>
// CHECK-NEXT:     %7 = tt.make_tensor_descriptor %h, [%i, %i], [%l, %l] : <f16>, <tensor<64x64xf16, #shared>>
// CHECK-NEXT:     %8 = tt.descriptor_load %7[%i, %i] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT:     %9 = tt.descriptor_load %7[%i, %i] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT:     tt.descriptor_store %7[%i, %i], %8 : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>
// CHECK-NEXT:     %10 = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>
// CHECK-NEXT:     %11:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>
// CHECK-NEXT:     tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<16x16xf32, #blocked>
// CHECK-NEXT:     tt.print "done" {hex = false, isSigned = array<i32>}
// CHECK-NEXT:     tt.assert %m, "out of bounds" : tensor<16x16xi1, #blocked>
// CHECK-NEXT:     %12 = tt.fp_to_fp %x {a = 1 : i32}, rounding = rtz : tensor<16x16xf32, #blocked> -> tensor<16x16xf16, #blocked>
// CHECK-NEXT:     %13 = tt.precise_sqrt %x : tensor<16x16xf32, #blocked>
// CHECK-NEXT:     %14 = tt.precise_divf %x, %x : tensor<16x16xf32, #blocked>
// CHECK-NEXT:     %15 = tt.mulhiui %i, %i : i32
// CHECK-NEXT:     %16 = tt.bitcast %x : tensor<16x16xf32, #blocked> -> tensor<16x16xi32, #blocked>
// CHECK-NEXT:     %17 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
// CHECK-NEXT:     %18 = tt.int_to_ptr %17 : i64 -> !tt.ptr<f32>
// CHECK-NEXT:     %19 = tt.cat %x, %x : tensor<16x16xf32, #blocked> -> tensor<32x16xf32, #blocked>
// CHECK-NEXT:     %20 = tt.get_num_programs z : i32
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT:   tt.func @dot_scaled(%a: tensor<128x64xf8E4M3FN, #blocked>, %b: tensor<64x128xf8E4M3FN, #blocked>, %c: tensor<128x128xf32, #blocked>, %as: tensor<128x2xi8, #blocked>, %bs: tensor<128x2xi8, #blocked>) {
// CHECK-NEXT:     %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     %1 = tt.dot_scaled %a, %b scale %bs, %c lhs = e4m3 rhs = e5m2 {fastMath = true} : tensor<128x64xf8E4M3FN, #blocked> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     %2 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked> * tensor<64x128xf8E4M3FN, #blocked> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT:   tt.func @memory(%t: tensor<128x128xf32, #blocked>, %c: i1, %i: i32, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %buf: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
// CHECK-NEXT:     %0 = ttg.memdesc_subslice %buf[1, 0, 0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable, 2x64x64>
// CHECK-NEXT:     %1 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 4096 : i32} : !tt.ptr<i8>
// CHECK-NEXT:     %result = ttng.tmem_alloc %t : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
// CHECK-NEXT:     %result_0, %token = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK-NEXT:     %2 = ttng.tmem_store %t, %result_0[%token], %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %result_1, %token_2 = ttng.tmem_load %result_0[%2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     %result_3 = ttng.tmem_load %result : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     ttng.tmem_store %t, %result_0, %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %3 = ttng.tmem_store %t, %result_0[], %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.barrier_expect %bar, 16384, %c : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.wait_barrier %bar, %i : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.wait_barrier %bar, %i, %c deps %buf : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     gpu.barrier
// CHECK-NEXT:     %4 = ub.poison : tensor<16x16xf32, #blocked>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tt_ops(%x: tensor<16x16xf32, #blocked>, %p: !tt.ptr<f32>, %q: tensor<16x16x!tt.ptr<f32>, #blocked>, %m: tensor<16x16xi1, #blocked>, %i: i32, %l: i64, %c: i1, %h: !tt.ptr<f16>, %pi: !tt.ptr<i32>) {
    %0 = tt.clampf %x, %x, %x, propagateNan = none : tensor<16x16xf32, #blocked>
    %1 = tt.clampf %x, %x, %x, propagateNan = all {a = 1 : i32} : tensor<16x16xf32, #blocked>
    %2 = tt.atomic_rmw fadd, relaxed, gpu, %q, %x, %m : (tensor<16x16x!tt.ptr<f32>, #blocked>, tensor<16x16xf32, #blocked>, tensor<16x16xi1, #blocked>) -> tensor<16x16xf32, #blocked>
    %3 = tt.atomic_rmw exch, acq_rel, sys, %pi, %i : (!tt.ptr<i32>, i32) -> i32
    %4 = tt.atomic_cas acq_rel, cta, %q, %x, %x : (tensor<16x16x!tt.ptr<f32>, #blocked>, tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>
    %5 = tt.make_tensor_ptr %h, [%l, %l], [%l, %l], [%i, %i] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
    %6 = tt.advance %5, [%i, %i] : <tensor<64x64xf16>>
    %7 = tt.make_tensor_descriptor %h, [%i, %i], [%l, %l] : <f16>, <tensor<64x64xf16, #shared>>
    %8 = tt.descriptor_load %7[%i, %i] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    %9 = tt.descriptor_load %7[%i, %i] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %7[%i, %i], %8 : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>
    %10 = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>
    %11:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<16x16xf32, #blocked>
    tt.print "done" {hex = false, isSigned = array<i32>}
    tt.assert %m, "out of bounds" : tensor<16x16xi1, #blocked>
    %12 = tt.fp_to_fp %x {a = 1 : i32}, rounding = rtz : tensor<16x16xf32, #blocked> -> tensor<16x16xf16, #blocked>
    %13 = tt.precise_sqrt %x : tensor<16x16xf32, #blocked>
    %14 = tt.precise_divf %x, %x : tensor<16x16xf32, #blocked>
    %15 = tt.mulhiui %i, %i : i32
    %16 = tt.bitcast %x : tensor<16x16xf32, #blocked> -> tensor<16x16xi32, #blocked>
    %17 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %18 = tt.int_to_ptr %17 : i64 -> !tt.ptr<f32>
    %19 = tt.cat %x, %x : tensor<16x16xf32, #blocked> -> tensor<32x16xf32, #blocked>
    %20 = tt.get_num_programs z : i32
    tt.return
  }
  tt.func @dot_scaled(%a: tensor<128x64xf8E4M3FN, #blocked>, %b: tensor<64x128xf8E4M3FN, #blocked>, %c: tensor<128x128xf32, #blocked>, %as: tensor<128x2xi8, #blocked>, %bs: tensor<128x2xi8, #blocked>) {
    %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> -> tensor<128x128xf32, #blocked>
    %1 = tt.dot_scaled %a, %b scale %bs, %c lhs = e4m3 rhs = e5m2 {fastMath = true} : tensor<128x64xf8E4M3FN, #blocked> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked> -> tensor<128x128xf32, #blocked>
    %2 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked> * tensor<64x128xf8E4M3FN, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return
  }
  tt.func @memory(%t: tensor<128x128xf32, #blocked>, %c: i1, %i: i32, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %buf: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    %0 = ttg.memdesc_subslice %buf[1, 0, 0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable, 2x64x64>
    %1 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 4096 : i32} : !tt.ptr<i8>
    %result = ttng.tmem_alloc %t : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
    %result_0, %token = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %2 = ttng.tmem_store %t, %result_0[%token], %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %result_1, %token_2 = ttng.tmem_load %result_0[%2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
    %result_3 = ttng.tmem_load %result : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x128xf32, #blocked>
    ttng.tmem_store %t, %result_0, %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %3 = ttng.tmem_store %t, %result_0[], %c : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %c : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.wait_barrier %bar, %i : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.wait_barrier %bar, %i, %c deps %buf : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    gpu.barrier
    %4 = ub.poison : tensor<16x16xf32, #blocked>
    tt.return
  }
}
