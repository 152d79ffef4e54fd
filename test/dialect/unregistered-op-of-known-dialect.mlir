// BUG: with -allow-unregistered-dialect, an unknown op of a registered
// dialect ("tt.bar") is accepted. MLIR allows unregistered ops only in
// dialects that are not loaded (or that allow unknown operations, which tt,
// ttg, ttng, arith, math, scf and cf do not), so mlir-opt still reports
//   error: unregistered operation 'tt.bar' found in dialect ('tt') that does not allow unknown operations

// RUN: not layout-opt %s -allow-unregistered-dialect 2>&1 | FileCheck %s
// CHECK: unregistered-op-of-known-dialect.mlir:[[@LINE+3]]:8: error: unregistered operation 'tt.bar' found in dialect ('tt') that does not allow unknown operations
// CHECK-NOT: tt.func
tt.func @f(%a: i32) {
  %0 = "tt.bar"(%a) : (i32) -> i32
  tt.return
}
