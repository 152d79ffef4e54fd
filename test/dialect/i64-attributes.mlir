// BUG: integer attributes of type i64 and float attributes of type f64 are
// printed without their type: "arith.constant 7 : i64" prints as
// "arith.constant 7", "{a = 1 : i64}" as "{a = 1}", "2.5 : f64" as
// "2.500000e+00". MLIR elides these types only where the type is implied
// (AttrTypeElision::May), never in attribute dictionaries or in
// arith.constant, so Triton kernels with i64 constants (%c1_i64 = arith.constant
// 1 : i64) do not print back as written. An untyped "2" still means i64 and
// prints as "2 : i64".

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: module attributes {a = 1 : i64, b = 2 : i64, c = 2.500000e+00 : f64} {
// CHECK: %c7_i64 = arith.constant 7 : i64
// CHECK: %cst = arith.constant 1.000000e+00 : f64
// CHECK: %0 = arith.cmpi slt, %c7_i64, %c7_i64 : i64
// GENERIC: "arith.cmpi"(%c7_i64, %c7_i64) <{predicate = 2 : i64}> : (i64, i64) -> i1
module attributes {a = 1 : i64, b = 2, c = 2.5 : f64} {
  tt.func @f() {
    %c7_i64 = arith.constant 7 : i64
    %cst = arith.constant 1.0 : f64
    %0 = arith.cmpi slt, %c7_i64, %c7_i64 : i64
    tt.return
  }
}
