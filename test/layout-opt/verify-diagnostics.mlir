// RUN: layout-opt %s -split-input-file -verify-diagnostics -o %t
// RUN: layout-opt %s -split-input-file -verify-diagnostics=only-expected -o %t

// -verify-diagnostics checks the diagnostics against the expected-*
// comments of each chunk and succeeds when they match exactly.
// Designators: none (this line), @above, @below, @+N, @-N. Errors and
// their notes are both checked.

module {
  tt.func @f(%arg0: i32) {
    %0 = arith.addi %arg0, %undefined : i32 // expected-error {{use of undeclared SSA value name '%undefined'}}
    tt.return
  }
}

// -----

module {
  tt.func @f(%arg0: i32) {
    %0 = arith.addi %arg0, %undefined : i32
    // expected-error @above {{use of undeclared SSA value name}}
    tt.return
  }
}

// -----

module {
  tt.func @f(%arg0: i32) {
    // expected-note @below {{previously defined here}}
    %0 = arith.addi %arg0, %arg0 : i32
    // expected-error @+1 {{redefinition of SSA value '%0'}}
    %0 = arith.addi %arg0, %arg0 : i32
    tt.return
  }
}

// -----

// @-N counts back from the comment's line; {{...}} in -re patterns are
// regular expressions.
module {
  tt.func @f(%arg0: i32, %arg1: f32) {
    %0 = arith.addi %arg0, %arg1 : i32


    // expected-error-re @-3 {{use of value '%arg{{[0-9]}}' expects different type than prior uses: '{{i|f}}32' vs 'f32'}}
    // expected-note @-5 {{prior use here}}
    tt.return
  }
}

// -----

// A verifier error. As with mlir-opt, the "see current operation" note is
// left out under -verify-diagnostics and needs no expectation.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @h(%arg1: f32) {
    // expected-error @+1 {{'tt.splat' op invalid encoding}}
    %0 = tt.splat %arg1 : f32 -> tensor<128xf32, #blocked>
    tt.return
  }
}

// -----

// A chunk without diagnostics and without expectations passes.
module {
  tt.func @ok() {
    tt.return
  }
}
