// When the diagnostics do not match the expected-* comments,
// -verify-diagnostics fails and says why: each diagnostic nobody expected
// ("unexpected error"), and each expectation that was not met, located at
// its comment. -verify-diagnostics=only-expected ignores the unexpected
// ones but still reports unmet expectations.

// RUN: not layout-opt %S/Inputs/verify-unmet.mlir -split-input-file -verify-diagnostics -o %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ALL
// RUN: not layout-opt %S/Inputs/verify-unmet.mlir -split-input-file -verify-diagnostics=only-expected -o %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ONLY

// ALL:       verify-unmet.mlir:3:28: error: unexpected error: use of undeclared SSA value name '%undefined'
// ALL-NEXT:      %0 = arith.addi %arg0, %undefined : i32
// ALL-NEXT:                             ^
// ONLY-NOT:  unexpected
// CHECK:      verify-unmet.mlir:4:8: error: expected error "use of an undeclared value" was not produced
// CHECK-NEXT:     // expected-error @above {{[{][{]}}use of an undeclared value}}
// CHECK-NEXT:        ^~~~~~~~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT: verify-unmet.mlir:5:8: error: expected warning "a warning that never comes" was not produced
// CHECK:      verify-unmet.mlir:7:8: error: expected remark "a remark that never comes" was not produced
// CHECK:      verify-unmet.mlir:14:6: error: expected note "a note that never comes" was not produced
// An @unknown expectation is reported at <unknown>:0, as MLIR does.
// CHECK:      <unknown>:0: error: expected error "a diagnostic without a location" was not produced
// CHECK-NOT:  error

// An invalid -verify-diagnostics mode is an error of its own.
// RUN: not layout-opt %S/Inputs/verify-unmet.mlir -verify-diagnostics=some 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: layout-opt: error: invalid value "some" for -verify-diagnostics: want all or only-expected
