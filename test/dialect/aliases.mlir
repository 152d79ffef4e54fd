// Aliases: the names of attribute aliases in the input are kept (#my_layout,
// #sl), encodings written inline get Triton-style names (#blocked,
// #blocked1, ...), an alias may use another (#sl's parent), type aliases in
// use are kept (!ptr), and location aliases defined after
// the module (#loc1 ...) are resolved; with -mlir-print-debuginfo they are
// printed after the module again, #loc (used by another alias) before it.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s --match-full-lines
// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG --match-full-lines
// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo | layout-opt -keep-ssa-names -mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG --match-full-lines

// CHECK:      !ptr = !tt.ptr<f32>
// CHECK-NEXT: #blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #my_layout = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #sl = #ttg.slice<{dim = 0, parent = #blocked1}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-NEXT:   tt.func @f(%p: !ptr, %x: tensor<128xf32, #blocked>) {
// CHECK-NEXT:     %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #my_layout>
// CHECK-NEXT:     %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #sl>
// CHECK-NEXT:     %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked2>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NOT: {{.}}

// DEBUG:      #sl = #ttg.slice<{dim = 0, parent = #blocked1}>
// DEBUG-NEXT: #loc = loc("kernel.py":3:0)
// DEBUG-NEXT: module attributes {{.*}} {
// DEBUG-NEXT:   tt.func @f(%p: !ptr loc("p"(#loc)), %x: tensor<128xf32, #blocked> loc("{{.*}}aliases.mlir":[[@LINE+18]]:39)) {
// DEBUG-NEXT:     %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #my_layout> loc(#loc2)
// DEBUG-NEXT:     %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #sl> loc(#loc3)
// DEBUG-NEXT:     %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked2> loc(#loc3)
// DEBUG-NEXT:     tt.return loc(#loc4)
// DEBUG-NEXT:   } loc(#loc1)
// DEBUG-NEXT: } loc(#loc)
// DEBUG-NEXT: #loc1 = loc("kernel.py":3:0)
// DEBUG-NEXT: #loc2 = loc("kernel.py":4:10)
// DEBUG-NEXT: #loc3 = loc("offs"(#loc2))
// DEBUG-NEXT: #loc4 = loc(callsite(#loc2 at #loc1))
// DEBUG-EMPTY:

!ptr = !tt.ptr<f32>
#my_layout = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sl = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#loc = loc("kernel.py":3:0)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: !ptr loc("p"(#loc)), %x: tensor<128xf32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #my_layout> loc(#loc2)
    %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #sl> loc(#loc3)
    %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> loc(#loc3)
    tt.return loc(#loc4)
  } loc(#loc1)
} loc(#loc)
#loc1 = loc("kernel.py":3:0)
#loc2 = loc("kernel.py":4:10)
#loc3 = loc("offs"(#loc2))
#loc4 = loc(callsite(#loc2 at #loc1))
