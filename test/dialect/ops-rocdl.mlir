// rocdl.workitem.id.x and rocdl.s.setprio (an i16 priority) print back as
// Triton 3.6 writes them; amdg.cond_barrier takes an i1.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: tt.func @f
tt.func @f() {
  // CHECK: %0 = rocdl.workitem.id.x : i32
  %0 = rocdl.workitem.id.x : i32
  // CHECK: rocdl.s.setprio 1
  // GENERIC: "rocdl.s.setprio"() <{priority = 1 : i16}>
  rocdl.s.setprio 1
  %c = arith.constant true
  // CHECK: amdg.cond_barrier %c
  amdg.cond_barrier %c
  tt.return
}
