// Operations of unregistered dialects: an error at each op without
// -allow-unregistered-dialect (and no output); with it they are kept in
// generic form, regions, attributes and uses included, through a round trip
// and the generic printer. An unknown op written in custom form is an error
// either way.

// RUN: not layout-opt -keep-ssa-names %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: rm -f %t.out
// RUN: not layout-opt -keep-ssa-names %s -o %t.out 2>&1
// RUN: not cat %t.out
// RUN: layout-opt -keep-ssa-names %s -allow-unregistered-dialect | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -allow-unregistered-dialect | layout-opt -keep-ssa-names -allow-unregistered-dialect | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -allow-unregistered-dialect -mlir-print-op-generic | layout-opt -keep-ssa-names -allow-unregistered-dialect | FileCheck %s
// RUN: not layout-opt -keep-ssa-names %S/Inputs/unregistered-custom.mlir -allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=CUSTOM

// ERR: unregistered.mlir:[[@LINE+11]]:8: error: 'foo.bar' op created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
// ERR: unregistered.mlir:[[@LINE+11]]:3: error: 'foo.region' op created with unregistered dialect

// CHECK-LABEL: tt.func @f(%a: i32) {
// CHECK-NEXT:    %0 = "foo.bar"(%a) {k = 1 : i32} : (i32) -> i32
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      "foo.inner"(%0) : (i32) -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    tt.return
// CHECK-NEXT:  }
tt.func @f(%a: i32) {
  %0 = "foo.bar"(%a) {k = 1 : i32} : (i32) -> i32
  "foo.region"() ({
    "foo.inner"(%0) : (i32) -> ()
  }) : () -> ()
  tt.return
}

// CUSTOM: unregistered-custom.mlir:2:8: error: custom op 'foo.bar' is unknown
