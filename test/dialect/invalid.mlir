// The parser's and the verifier's diagnostics, checked with
// -verify-diagnostics as MLIR's invalid.mlir tests do: each chunk is parsed
// and verified on its own, and every error (and note) must be expected by an
// expected-* comment on its line.

// RUN: layout-opt %s -split-input-file -verify-diagnostics

// Syntax errors.

tt.func @missing_comma(%a: i32) {
  // expected-error @+1 {{expected ','}}
  %0 = arith.addi %a %a : i32
  tt.return
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  // expected-error @+1 {{custom op 'tt.frobnicate' is unknown}}
  tt.frobnicate
}

// -----

tt.func @result_count(%a: i32) {
  // expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = arith.addi %a, %a : i32
  tt.return
}

// -----

// expected-error @+1 {{expected '"' in string literal}}
module attributes {s = "unterminated} {}

// -----

// SSA values.

tt.func @undefined_value(%a: i32) {
  // expected-error @+1 {{use of undeclared SSA value name '%b'}}
  %0 = arith.addi %a, %b : i32
  tt.return
}

// -----

// expected-note @+1 {{previously defined here}}
tt.func @redefinition(%a: i32) {
  // expected-error @+1 {{redefinition of SSA value '%a'}}
  %a = arith.addi %a, %a : i32
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @type_mismatch(%a: i32) {
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'f32' vs 'i32'}}
  %0 = arith.addf %a, %a : f32
  tt.return
}

// -----

tt.func @use_before_def(%a: i32) {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %0 = arith.addi %1, %a : i32
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %1 = arith.addi %a, %a : i32
  tt.return
}

// -----

// Aliases and locations.

tt.func @undefined_alias() {
  // expected-error @+1 {{undefined symbol alias id 'nope'}}
  %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #nope>
  tt.return
}

// -----

// expected-error @+2 {{operation location alias was never defined: #loc9}}
module {
} loc(#loc9)

// -----

// Encodings.

// expected-error @+1 {{unexpected key: bogus}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>

// -----

// expected-error @+1 {{threadsPerWarp[0] = 3 is not a power of two}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [3], warpsPerCTA = [4], order = [0]}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @num_warps_mismatch() {
    // expected-error @+1 {{'tt.make_range' op invalid encoding #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>: Layout has 4 warps per CTA, but the context requires 8 warps per CTA}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @threads_per_warp_mismatch() {
    // expected-error @+1 {{Layout has 16 threads per warp, but the context requires 32 threads per warp}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-note @+1 {{prior use here}}
  tt.func @encoding_mismatch(%a: tensor<128xi32, #blocked>, %b: tensor<128xi32, #blocked1>) {
    // expected-error @+1 {{use of value '%b' expects different type than prior uses}}
    %0 = arith.addi %a, %b : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// Op verifiers.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_range_size() {
    // expected-error @+1 {{'tt.make_range' op number of elements in returned tensor, 128, must match size of range, 64}}
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// As MLIR: the error is at the block's last op.
tt.func @no_terminator() {
  // expected-error @+1 {{block with no terminator, has %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32}}
  %0 = arith.constant 0 : i32
}

// -----

tt.func @unregistered(%a: i32) {
  // expected-error @+1 {{'foo.bar' op created with unregistered dialect}}
  %0 = "foo.bar"(%a) : (i32) -> i32
  tt.return
}

// -----

tt.func @unregistered_in_known_dialect(%a: i32) {
  // expected-error @+1 {{unregistered operation 'tt.bar' found in dialect ('tt') that does not allow unknown operations}}
  %0 = "tt.bar"(%a) : (i32) -> i32
  tt.return
}

// -----

// expected-error @+1 {{'tt.func' op has a tt.return whose operand types do not match the function result types}}
tt.func @return_type(%a: i32) -> i64 {
  tt.return %a : i32
}

// -----

tt.func @generic_operand_types(%a: i32, %b: i64) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_shape(%a: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{'ttg.convert_layout' op requires the same shape for all operands and results}}
    %0 = ttg.convert_layout %a : tensor<128xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return
  }
}

// -----

tt.func @for_yield_type(%n: i32) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{'scf.for' op expects the yielded values to match the result types}}
  %r = scf.for %i = %c0 to %n step %c0 iter_args(%x = %c0) -> (i32)  : i32 {
    %f = arith.constant 1.000000e+00 : f32
    scf.yield %f : f32
  }
  tt.return
}

// -----

// Limits: attributes and regions nest at most 512 deep.

// expected-error @+1 {{nesting too deep (limit 512)}}
module attributes {x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} {}

// -----

// A memdesc type needs its encoding and memory space (MemDescType::parse).
tt.func @memdesc_no_encoding(%arg0: !ttg.memdesc<8x16xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory>) {
  // expected-error @+1 {{expected ','}}
  %a = ttg.memdesc_subslice %arg0 [0, 0] : !ttg.memdesc<8x16xf32> -> !ttg.memdesc<8x16xf32>
  tt.return
}

// -----

// expected-error @below {{rank 0 memdesc is not allowed}}
!memdesc = !ttg.memdesc<i64, #ttg.shared_memory, #ttg.shared_memory>
