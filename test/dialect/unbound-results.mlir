// An op with results but no `%r =` is accepted, as by mlir-opt (Triton's
// tests write `ttg.async_wait {num = 0 : i32}` and
// `tt.descriptor_load ... -> tensor<...>` without a name); its results
// print with fresh names, and the output is a fixed point.

// RUN: layout-opt -keep-ssa-names %s -allow-unregistered-dialect | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -allow-unregistered-dialect | layout-opt -keep-ssa-names -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: tt.func @f(%a: i32) {
// CHECK-NEXT:    %0 = ttg.async_wait {num = 0 : i32}
// CHECK-NEXT:    %1 = arith.addi %a, %a : i32
// CHECK-NEXT:    %2:2 = "foo.two"(%a) : (i32) -> (i32, i32)
// CHECK-NEXT:    %3 = arith.addi %a, %a : i32
// CHECK-NEXT:    tt.return
tt.func @f(%a: i32) {
  ttg.async_wait {num = 0 : i32}
  arith.addi %a, %a : i32
  "foo.two"(%a) : (i32) -> (i32, i32)
  %0 = arith.addi %a, %a : i32
  tt.return
}
