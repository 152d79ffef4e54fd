// Types in function signatures: integer, index and float kinds (fp8 ones
// included), pointers with address spaces (1, the global default, is not
// printed), tensors of pointers, memory descriptors with their encoding,
// memory space, mutability and allocation shape, tensor descriptors and
// async tokens. Printing is a fixed point and the generic form reads back.
// An encoding written inline gets an alias, named as Triton names them.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL

// CHECK:      #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes

// With -mlir-print-local-scope, no alias: every attribute is written inline.
// LOCAL-NOT: #blocked =
// LOCAL-LABEL: tt.func @memdescs
// LOCAL-SAME: %a: !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
// LOCAL-SAME: %d: !ttg.memdesc<2x16xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory>
// LOCAL-NOT: #shared

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @scalars(%a: i1, %b: i8, %c: i16, %d: i32, %e: i64, %f: index, %g: f16, %h: bf16, %i: f32, %j: f64, %k: tf32) {
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @scalars(%a: i1, %b: i8, %c: i16, %d: i32, %e: i64, %f: index, %g: f16, %h: bf16, %i: f32, %j: f64, %k: tf32) {
    tt.return
  }
// CHECK-LABEL: tt.func @fp8(%a: f8E4M3FN, %b: f8E5M2, %c: f8E4M3FNUZ, %d: f8E5M2FNUZ, %e: f8E4M3B11FNUZ, %f: tensor<16x16xf8E4M3FN, #blocked>) {
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @fp8(%a: f8E4M3FN, %b: f8E5M2, %c: f8E4M3FNUZ, %d: f8E5M2FNUZ, %e: f8E4M3B11FNUZ, %f: tensor<16x16xf8E4M3FN, #blocked>) {
    tt.return
  }
// CHECK-LABEL: tt.func @pointers(%a: !tt.ptr<f16>, %b: !tt.ptr<f16, 3>, %c: !tt.ptr<i8>, %d: tensor<16x16x!tt.ptr<bf16>, #blocked>, %e: !tt.ptr<!tt.ptr<f32>>) {
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @pointers(%a: !tt.ptr<f16>, %b: !tt.ptr<f16, 3>, %c: !tt.ptr<i8, 1>, %d: tensor<16x16x!tt.ptr<bf16>, #blocked>, %e: !tt.ptr<!tt.ptr<f32>>) {
    tt.return
  }
// CHECK-LABEL: tt.func @memdescs(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %c: !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 3x64x64>, %d: !ttg.memdesc<2x16xi32, #shared1, #smem>) {
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @memdescs(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %c: !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 3x64x64>, %d: !ttg.memdesc<2x16xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #smem>) {
    tt.return
  }
// CHECK-LABEL: tt.func @descriptors(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16, #shared>>, %t: !ttg.async.token) {
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @descriptors(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16, #shared>>, %t: !ttg.async.token) {
    tt.return
  }
// CHECK-LABEL: tt.func @tensors(%a: tensor<1xf32, #blocked>, %b: tensor<16x16xi1, #blocked>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, i32) {
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  tt.return %c, %c0_i32 : tensor<4x8xf32>, i32
// CHECK-NEXT:  }
  tt.func @tensors(%a: tensor<1xf32, #blocked>, %b: tensor<16x16xi1, #blocked>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, i32) {
    %c0_i32 = arith.constant 0 : i32
    tt.return %c, %c0_i32 : tensor<4x8xf32>, i32
  }
}
