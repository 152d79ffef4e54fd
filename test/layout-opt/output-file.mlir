// -o writes the output to a file, and only when everything succeeded: on
// any error, an existing file is left untouched. "-o -" is standard output.

// RUN: layout-opt %s -canonicalize-layouts -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK: tt.func @f(%arg0: i32) -> i32

// Nothing goes to standard output with -o.
// RUN: layout-opt %s -o %t.mlir | count 0

// RUN: layout-opt %s -o - | FileCheck %s

// Errors: bad input, a bad pipeline, a failing -verify-diagnostics run and a
// bad option all leave the existing file as it was.
// RUN: echo "previous contents" > %t.keep
// RUN: not layout-opt %S/Inputs/verify-unmet.mlir -o %t.keep 2>%t.err
// RUN: not layout-opt %s -pass-pipeline='builtin.module(nope)' -o %t.keep 2>%t.err
// RUN: not layout-opt %S/Inputs/verify-unmet.mlir -split-input-file -verify-diagnostics -o %t.keep 2>%t.err
// RUN: not layout-opt %s -canonicalize-layouts=form=none -o %t.keep 2>%t.err
// RUN: cat %t.keep | FileCheck %s --check-prefix=KEPT
// KEPT:     previous contents
// KEPT-NOT: {{.}}

// A successful run replaces it.
// RUN: layout-opt %s -o %t.keep
// RUN: FileCheck %s < %t.keep

// An output that cannot be written is an error.
// RUN: not layout-opt %s -o %t.nodir/out.mlir 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: layout-opt: error: cannot write output file '{{.*}}.nodir/out.mlir': no such file or directory
// RUN: not layout-opt %s -o %S 2>&1 | FileCheck %s --check-prefix=ISDIR
// ISDIR: layout-opt: error: cannot write output file '{{.*}}': is a directory

module {
  tt.func @f(%arg0: i32) -> i32 {
    tt.return %arg0 : i32
  }
}
