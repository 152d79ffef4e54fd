// Dominance across the blocks of one CFG region: a value defined in a
// block that does not dominate the use is reported as mlir-opt does, with
// the note on the definition. A use in an unreachable block is not checked.

// RUN: layout-opt %s -split-input-file -verify-diagnostics

tt.func @sibling_blocks(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %0 = arith.addi %x, %x : i32
  tt.return %0 : i32
^bb2:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  tt.return %0 : i32
}

// -----

// A diamond: the join block is dominated by the entry only.
tt.func @diamond(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %0 = arith.addi %x, %x : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  tt.return %0 : i32
}

// -----

// A block argument of a sibling block.
// expected-note @+1 {{operand defined as a block argument (block #1 in the same region)}}
tt.func @sibling_arg(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x : i32), ^bb2
^bb1(%a: i32):
  tt.return %a : i32
^bb2:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  tt.return %a : i32
}

// -----

// A use nested in a region of an op in a sibling block.
tt.func @nested_use(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = arith.addi %x, %x : i32
  tt.return %0 : i32
^bb2:
  %1 = scf.if %c -> (i32) {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    scf.yield %0 : i32
  } else {
    scf.yield %x : i32
  }
  tt.return %1 : i32
}

// -----

// Valid: a chain and a loop; the loop header dominates its body and exit,
// and a block reached from no other is not checked.
tt.func @valid(%c: i1, %x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  cf.br ^bb1(%0 : i32)
^bb1(%i: i32):
  %1 = arith.addi %i, %0 : i32
  cf.cond_br %c, ^bb2, ^bb3
^bb2:
  %2 = arith.addi %1, %i : i32
  cf.br ^bb1(%2 : i32)
^bb3:
  tt.return %1 : i32
^bb4:
  tt.return %2 : i32
}
