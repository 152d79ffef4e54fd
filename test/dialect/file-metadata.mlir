// A file metadata dictionary ({-# ... #-}), as in MLIR crash reproducers
// (Triton's reproducer.mlir): external resources print back after the
// module as mlir-opt prints them, and the output is a fixed point.

// RUN: layout-opt %s | FileCheck %s
// RUN: layout-opt %s | layout-opt | FileCheck %s

// CHECK:      {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {-#
// CHECK-NEXT:   external_resources: {
// CHECK-NEXT:     mlir_reproducer: {
// CHECK-NEXT:       pipeline: "builtin.module(cse)",
// CHECK-NEXT:       disable_threading: false,
// CHECK-NEXT:       verify_each: false
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @f() {
    tt.return
  }
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(cse)",
      disable_threading: false,
      verify_each: false
    }
  }
#-}
