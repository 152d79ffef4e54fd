// XFAIL: *
// BUG: since uses across blocks verify, a use that no definition dominates
// does too: %0 is defined in ^bb1 and used in its sibling ^bb2 (reached
// only from the entry block), and layout-opt prints the function back
// without a diagnostic. MLIR reports
//   error: 'tt.return' op operand #0 does not dominate this use

// RUN: layout-opt %s -verify-diagnostics

tt.func @sibling_blocks(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %0 = arith.addi %x, %x : i32
  tt.return %0 : i32
^bb2:
  // expected-error @+1 {{'tt.return' op operand #0 does not dominate this use}}
  tt.return %0 : i32
}
