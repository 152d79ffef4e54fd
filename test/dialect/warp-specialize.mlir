// ttg.warp_specialize as Triton 3.6 prints it: the default region, then one
// `partitionN(args) num_warps(n)` region per partition on lines of their
// own at the op's indentation, then the functional type. The partition
// regions are isolated from above and live in the holder op
// ttg.warp_specialize.partitions (seen in the generic form); their
// arguments are numbered on from the function's (%arg2 after %arg0, %arg1),
// as MLIR numbers values in isolated regions too. The generic form numbers
// values uniquely across the module, regions in MLIR's naming order (the
// last region of an op first), so partition0's argument is %arg3 there and
// partition1's %arg2. Encodings in a partition
// verify against its num_warps, encodings in a function against its
// "ttg.num-warps".

// RUN: layout-opt %s | FileCheck %s
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s -mlir-print-op-generic | layout-opt | FileCheck %s
// RUN: layout-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// GENERIC: %1 = "ttg.warp_specialize"(%arg0) <{partitionNumWarps = array<i32: 2, 1>, warpGroupStartIds = array<i32: 4, 6>}> ({
// GENERIC: "ttg.warp_yield"(%arg1) : (i64) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: "ttg.warp_specialize.partitions"() ({
// GENERIC-NEXT: ^bb0(%arg3: i32):
// GENERIC: "ttg.warp_return"() : () -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: ^bb0(%arg2: i32):

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#b8 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: tt.func @ws(%arg0: i32, %arg1: i64) -> i64 attributes {"ttg.num-warps" = 8 : i32} {
// CHECK-NEXT:    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b8>
// CHECK-NEXT:    %1 = ttg.warp_specialize(%arg0) attributes {warpGroupStartIds = array<i32: 4, 6>}
// CHECK-NEXT:    default {
// CHECK-NEXT:      ttg.warp_yield %arg1 : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    partition0(%arg2: i32) num_warps(2) {
// CHECK-NEXT:      %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b2>
// CHECK-NEXT:      %3 = arith.addi %arg2, %arg2 : i32
// CHECK-NEXT:      ttg.warp_return
// CHECK-NEXT:    }
// CHECK-NEXT:    partition1(%arg2: i32) num_warps(1) {
// CHECK-NEXT:      %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
// CHECK-NEXT:      ttg.warp_return
// CHECK-NEXT:    } : (i32) -> i64
// CHECK-NEXT:    tt.return %1 : i64
tt.func @ws(%arg0: i32, %arg1: i64) -> i64 attributes {"ttg.num-warps" = 8 : i32} {
  %7 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b8>
  %8 = ttg.warp_specialize(%arg0) attributes {warpGroupStartIds = array<i32: 4, 6>}
  default {
    ttg.warp_yield %arg1 : i64
  }
  partition0(%arg5: i32) num_warps(2) {
    %9 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b2>
    %10 = arith.addi %arg5, %arg5 : i32
    ttg.warp_return
  }
  partition1(%arg6: i32) num_warps(1) {
    %12 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
    ttg.warp_return
  } : (i32) -> i64
  tt.return %8 : i64
}
}
