// Ops of unregistered dialects are errors unless -allow-unregistered-dialect
// is given; then they survive, printed in generic form, and passes leave
// them alone.

// RUN: not layout-opt %s 2>&1 | FileCheck %s --check-prefix=ERR
// ERR:      allow-unregistered-dialect.mlir:[[# @LINE + 12]]:10: error: 'mydialect.op' op created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
// ERR-NEXT: "mydialect.op"(%arg0) {note = "kept"} : (i32) -> i32
// ERR-NOT:  error

// RUN: layout-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: layout-opt %s -allow-unregistered-dialect -canonicalize-layouts -remove-redundant-conversions | FileCheck %s
// CHECK:      tt.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:   %0 = "mydialect.op"(%arg0) {note = "kept"} : (i32) -> i32
// CHECK-NEXT:   tt.return %0 : i32

module {
  tt.func @f(%arg0: i32) -> i32 {
    %0 = "mydialect.op"(%arg0) {note = "kept"} : (i32) -> i32
    tt.return %0 : i32
  }
}
