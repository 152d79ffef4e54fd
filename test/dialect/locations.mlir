// Every location kind (unknown, file:line:col, names with and without a
// child, callsites, fused with and without metadata, aliases defined before
// and after the module) reads and prints back with -mlir-print-debuginfo,
// in custom and generic form; without it no location is printed.

// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo -mlir-print-op-generic | layout-opt -keep-ssa-names -mlir-print-debuginfo | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | FileCheck %s --check-prefix=NOLOC --implicit-check-not='loc('

// CHECK:      #loc = loc("kernel.py":1:2)
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @f(%a: i32 loc("a"(#loc))) {
// CHECK-NEXT:     %0 = arith.addi %a, %a : i32 loc(unknown)
// CHECK-NEXT:     %1 = arith.addi %0, %a : i32 loc("kernel.py":7:12)
// CHECK-NEXT:     %2 = arith.addi %1, %a : i32 loc("sum")
// CHECK-NEXT:     %3 = arith.addi %2, %a : i32 loc(fused["a.py":1:2, callsite("g"(#loc) at unknown)])
// CHECK-NEXT:     %4 = arith.addi %3, %a : i32 loc(fused<"meta">[#loc])
// CHECK-NEXT:     %5 = arith.addi %4, %a : i32 loc(callsite(#loc at #loc1))
// CHECK-NEXT:     %6 = arith.addi %5, %a : i32 loc(#loc2)
// CHECK-NEXT:     tt.return loc(#loc)
// CHECK-NEXT:   } loc(#loc)
// CHECK-NEXT: } loc(#loc)
// CHECK-NEXT: #loc1 = loc("caller.py":3:4)
// CHECK-NEXT: #loc2 = loc("late"(#loc1))

// NOLOC:      tt.func @f(%a: i32) {
// NOLOC:        %6 = arith.addi %5, %a : i32
// NOLOC-NEXT:   tt.return

#loc = loc("kernel.py":1:2)
module {
  tt.func @f(%a: i32 loc("a"(#loc))) {
    %0 = arith.addi %a, %a : i32 loc(unknown)
    %1 = arith.addi %0, %a : i32 loc("kernel.py":7:12)
    %2 = arith.addi %1, %a : i32 loc("sum")
    %3 = arith.addi %2, %a : i32 loc(fused["a.py":1:2, callsite("g"(#loc) at unknown)])
    %4 = arith.addi %3, %a : i32 loc(fused<"meta">[#loc])
    %5 = arith.addi %4, %a : i32 loc(callsite(#loc at #loc1))
    %6 = arith.addi %5, %a : i32 loc(#loc2)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("caller.py":3:4)
#loc2 = loc("late"(#loc1))
