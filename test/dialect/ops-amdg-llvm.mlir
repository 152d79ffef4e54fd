// The amdg ops declared in dialect/amdg and llvm.intr.assume
// (dialect/llvm), in Triton 3.6's syntax: printing is a fixed point and
// the generic form reads back.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @amdg
  // CHECK-NEXT: %0 = amdg.extract_slice %a [0, 32] : tensor<128x64xf32, #blocked> to tensor<32x32xf32, #blocked>
  // CHECK-NEXT: %1 = amdg.concat %0, %0 : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked> -> tensor<64x32xf32, #blocked>
  // CHECK-NEXT: llvm.intr.assume %c : i1
  // GENERIC: "amdg.extract_slice"(%a) <{static_offsets = array<i64: 0, 32>}>
  // GENERIC: "llvm.intr.assume"(%c) <{operandSegmentSizes = array<i32: 1, 0>}> : (i1) -> ()
  tt.func @amdg(%a: tensor<128x64xf32, #blocked>, %c: i1) {
    %0 = amdg.extract_slice %a [0,32] : tensor<128x64xf32, #blocked> to tensor<32x32xf32, #blocked>
    %1 = amdg.concat %0, %0: tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked> -> tensor<64x32xf32, #blocked>
    llvm.intr.assume %c : i1
    tt.return
  }
}
