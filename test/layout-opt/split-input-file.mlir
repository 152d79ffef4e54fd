// -split-input-file processes each chunk between marker lines (five
// dashes after two slashes) on its own and joins the outputs with the
// marker. Diagnostics keep the line numbers of the whole file, and a
// failing chunk does not stop the others (but makes the run fail).

// RUN: not layout-opt %s -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// CHECK:      module {
// CHECK-NEXT:   tt.func @first() {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // {{-----}}
// CHECK-EMPTY:
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @third(%arg0: i32) -> i32 {
// CHECK-NEXT:     tt.return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  {{.}}

// ERR:      split-input-file.mlir:[[# @LINE + 20]]:28: error: use of undeclared SSA value name '%undefined'
// ERR-NEXT:     %0 = arith.addi %arg0, %undefined : i32
// ERR-NOT:  error:

// Without -split-input-file the markers are plain comments: the second
// module's function makes the whole file fail, and nothing is printed.
// RUN: not layout-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE: split-input-file.mlir:[[# @LINE + 13]]:28: error: use of undeclared SSA value name '%undefined'
// WHOLE-NOT: tt.func

module {
  tt.func @first() {
    tt.return
  }
}

// -----

module {
  tt.func @second(%arg0: i32) {
    %0 = arith.addi %arg0, %undefined : i32
    tt.return
  }
}

// -----

module {
  tt.func @third(%arg0: i32) -> i32 {
    tt.return %arg0 : i32
  }
}
