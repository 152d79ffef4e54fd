// -mlir-print-local-scope prints without aliases, as mlir-opt does (it
// then prints without an alias state): attributes, types and, with
// -mlir-print-debuginfo, locations are written inline, and no alias is
// defined.

// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --implicit-check-not='#loc' --implicit-check-not='#blocked'
// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo -mlir-print-local-scope -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC --implicit-check-not='#loc'

// CHECK:      module {
// CHECK-NEXT:   tt.func @f(%a: i32 loc("a"("kernel.py":1:2))) {
// CHECK-NEXT:     %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> loc(callsite("kernel.py":1:2 at "caller.py":3:4))
// CHECK-NEXT:     tt.return loc("late"("caller.py":3:4))
// CHECK-NEXT:   } loc("kernel.py":1:2)
// CHECK-NEXT: } loc(fused["kernel.py":1:2, "caller.py":3:4])

// GENERIC: "tt.return"() : () -> () loc("late"("caller.py":3:4))

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#loc = loc("kernel.py":1:2)
module {
  tt.func @f(%a: i32 loc("a"(#loc))) {
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked> loc(callsite(#loc at #loc1))
    tt.return loc(#loc2)
  } loc(#loc)
} loc(fused[#loc, #loc1])
#loc1 = loc("caller.py":3:4)
#loc2 = loc("late"(#loc1))
