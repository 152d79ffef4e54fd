// The verifiers of ttg.memdesc_subslice and ttg.memdesc_index, with
// Triton's messages (MemDescSubsliceOp::verify, MemDescIndexOp::verify).

// RUN: layout-opt %s -split-input-file -verify-diagnostics

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @subslice_ok(%arg0: !ttg.memdesc<8x16xf32, #shared, #smem>) {
  %a = ttg.memdesc_subslice %arg0 [0, 8] : !ttg.memdesc<8x16xf32, #shared, #smem> -> !ttg.memdesc<8x8xf32, #shared, #smem, 8x16>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @subslice_offsets(%arg0: !ttg.memdesc<8x16xf32, #shared, #smem>) {
  // expected-error @+1 {{offsets must have the same rank as input}}
  %a = ttg.memdesc_subslice %arg0 [0] : !ttg.memdesc<8x16xf32, #shared, #smem> -> !ttg.memdesc<8x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @subslice_offset_in_unsplit_dim(%arg0: !ttg.memdesc<8x16xf32, #shared, #smem>) {
  // expected-error @+1 {{A non zero offset found in a dimension that is not being split}}
  %a = ttg.memdesc_subslice %arg0 [2, 8] : !ttg.memdesc<8x16xf32, #shared, #smem> -> !ttg.memdesc<8x8xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @index_shape(%arg0: !ttg.memdesc<2x8x16xf32, #shared, #smem>) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{result shape must equal to srcShape[1:]}}
  %a = ttg.memdesc_index %arg0[%c0] : !ttg.memdesc<2x8x16xf32, #shared, #smem> -> !ttg.memdesc<8x8xf32, #shared, #smem>
  tt.return
}

// -----

// A view's operand and result must be memory descriptors (ODS's type
// constraint); a fuzzed module with `-> !.` reached the lowering before.
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @index_not_memdesc(%arg0: !ttg.memdesc<2x16xf32, #shared, #smem>, %i: i32) {
  // expected-error @+1 {{result #0 must be memory descriptor type, but got 'i32'}}
  %a = ttg.memdesc_index %arg0[%i] : !ttg.memdesc<2x16xf32, #shared, #smem> -> i32
  tt.return
}

// -----

tt.func @subslice_not_memdesc(%arg0: i32) {
  // expected-error @+1 {{operand #0 must be memory descriptor type, but got 'i32'}}
  %a = ttg.memdesc_subslice %arg0 [0, 8] : i32 -> i32
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @trans_not_memdesc(%arg0: !ttg.memdesc<8x16xf32, #shared, #smem>) {
  // expected-error @+1 {{result #0 must be memory descriptor type, but got 'i32'}}
  %a = ttg.memdesc_trans %arg0 {order = array<i32: 1, 0>} : !ttg.memdesc<8x16xf32, #shared, #smem> -> i32
  tt.return
}
