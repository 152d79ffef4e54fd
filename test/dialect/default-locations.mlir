// An op or argument written without a location has, as in mlir-opt, the
// location of its source position (file:line:column of the op name or the
// argument name; "<stdin>" for standard input), which
// -mlir-print-debuginfo prints; an implicit module is at file:0:0.
// Written locations are kept.

// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-debuginfo -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: layout-opt -keep-ssa-names < %s -mlir-print-debuginfo | FileCheck %s --check-prefix=STDIN

// CHECK:      module {
// CHECK-NEXT:   tt.func @f(%a: i32 loc("{{.*}}default-locations.mlir":[[@LINE+21]]:12), %b: i32 loc("b")) -> i32 {
// CHECK-NEXT:     %0 = arith.addi %a, %b : i32 loc("{{.*}}default-locations.mlir":[[@LINE+21]]:8)
// CHECK-NEXT:     %1 = arith.muli %0, %b : i32 loc("kept.py":1:2)
// CHECK-NEXT:     cf.br ^bb1(%1 : i32) loc("{{.*}}default-locations.mlir":[[@LINE+21]]:3)
// CHECK-NEXT:   ^bb1(%2: i32 loc("{{.*}}default-locations.mlir":[[@LINE+21]]:6)):
// CHECK-NEXT:     tt.return %2 : i32 loc(unknown)
// CHECK-NEXT:   } loc("{{.*}}default-locations.mlir":[[@LINE+15]]:1)
// CHECK-NEXT: } loc("{{.*}}default-locations.mlir":0:0)

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "tt.func"() <{{.*}}> ({
// GENERIC-NEXT:   ^bb0(%a: i32 loc("{{.*}}default-locations.mlir":[[@LINE+10]]:12), %b: i32 loc("b")):
// GENERIC-NEXT:     %0 = "arith.addi"(%a, %b) {{.*}} loc("{{.*}}default-locations.mlir":[[@LINE+10]]:8)
// GENERIC:        ^bb1(%2: i32 loc("{{.*}}default-locations.mlir":[[@LINE+12]]:6)):
// GENERIC:      }) : () -> () loc("{{.*}}default-locations.mlir":0:0)

// STDIN:      tt.func @f(%a: i32 loc("<stdin>":[[@LINE+5]]:12), %b: i32 loc("b")) -> i32 {
// STDIN-NEXT:   %0 = arith.addi %a, %b : i32 loc("<stdin>":[[@LINE+5]]:8)
// STDIN:      } loc("<stdin>":[[@LINE+3]]:1)
// STDIN-NEXT: } loc("<stdin>":0:0)

tt.func @f(%a: i32, %b: i32 loc("b")) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %b : i32 loc("kept.py":1:2)
  cf.br ^bb1(%1 : i32)
^bb1(%2: i32):
  tt.return %2 : i32 loc(unknown)
}
