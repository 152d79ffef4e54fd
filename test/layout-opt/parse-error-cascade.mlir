// RUN: layout-opt %s -split-input-file -verify-diagnostics
// A parse error is the only diagnostic, as in MLIR, whose parser stops at
// the first error: recovery (which lets layout-opt report independent
// errors together) never adds a cascade, such as a spurious "expected '}'
// to end region" after an error on a line that also closes the module.

// expected-error @+1 {{'foo.bar' op created with unregistered dialect}}
module { "foo.bar"() : () -> () }

// -----

// expected-error @+1 {{expected non-function type}}
module { tt.func @f( }

// -----

// An error in the header of an op with a region skips the whole op, region
// included: its '}' does not close the function.
tt.func @header(%a: i32) -> i32 {
  // expected-error @+1 {{expected non-function type}}
  %0 = scf.for %i = %a to %a step %a iter_args(%x = %a) -> (i32) : bad {
    scf.yield %x : i32
  }
  tt.return %a : i32
}

// -----

// Recovery is sound across independent ops: both errors are reported.
tt.func @two(%a: i32) {
  // expected-error @+1 {{expected ','}}
  %0 = arith.addi %a %a : i32
  // expected-error @+1 {{use of undeclared SSA value name '%b'}}
  %1 = arith.addi %a, %b : i32
  tt.return
}
