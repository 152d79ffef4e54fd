// Op verifiers with the messages of MLIR's and Triton's: HasParent /
// ParentOneOf of the terminators, tt.call against its callee's signature,
// the shared-memory type checks of ttg.local_alloc / local_load / local_store and
// tt.addptr's result type.

// RUN: layout-opt %s -split-input-file -verify-diagnostics

tt.func private @callee(i32) -> i32

tt.func @call_operand_count(%a: i32) {
  // expected-error @+1 {{'tt.call' op incorrect number of operands for callee}}
  %0 = tt.call @callee(%a, %a) : (i32, i32) -> i32
  tt.return
}

// -----

tt.func private @callee(i32) -> i32

tt.func @call_operand_type(%a: i64) {
  // expected-error @+1 {{'tt.call' op operand type mismatch: expected operand type i32, but provided i64 for operand number 0}}
  %0 = tt.call @callee(%a) : (i64) -> i32
  tt.return
}

// -----

tt.func private @callee(i32) -> i32

tt.func @call_result_type(%a: i32) {
  // expected-error @+1 {{'tt.call' op result type mismatch at index 0}}
  %0 = tt.call @callee(%a) : (i32) -> i64
  tt.return
}

// -----

tt.func private @callee(i32) -> i32

tt.func @call_result_count(%a: i32) {
  // expected-error @+1 {{'tt.call' op incorrect number of results for callee}}
  tt.call @callee(%a) : (i32) -> ()
  tt.return
}

// -----

tt.func @return_in_if(%c: i1) {
  scf.if %c {
    // expected-error @+1 {{'tt.return' op expects parent op 'tt.func'}}
    tt.return
  }
  tt.return
}

// -----

tt.func @condition_in_for(%c: i1, %lb: i32) {
  scf.for %i = %lb to %lb step %lb  : i32 {
    // expected-error @+1 {{'scf.condition' op expects parent op 'scf.while'}}
    scf.condition(%c)
  }
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_load_shape(%m: !ttg.memdesc<32x16xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_load' op source shape [32, 16] must match [destination shape 16, 32]}}
    %0 = ttg.local_load %m : !ttg.memdesc<32x16xf16, #shared, #smem> -> tensor<16x32xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_load_elem(%m: !ttg.memdesc<16x16xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_load' op source element type !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory> must match destination element type f32}}
    %0 = ttg.local_load %m : !ttg.memdesc<16x16xf16, #shared, #smem> -> tensor<16x16xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_store_immutable(%t: tensor<16x16xf16, #blocked>, %m: !ttg.memdesc<16x16xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_store' op Cannot store into immutable memory}}
    ttg.local_store %t, %m : tensor<16x16xf16, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_alloc_element_type(%t: tensor<16x16xf32, #blocked>) {
    // expected-error @+1 {{must match destination element type i32}}
    %m = ttg.local_alloc %t : (tensor<16x16xf32, #blocked>) -> !ttg.memdesc<16x16xi32, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_alloc_shape(%t: tensor<16x16xf32, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op source shape [16, 16] must match [destination shape 16, 32]}}
    %m = ttg.local_alloc %t : (tensor<16x16xf32, #blocked>) -> !ttg.memdesc<16x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_alloc_uninitialized_immutable() {
    // expected-error @+1 {{'ttg.local_alloc' op uninitialized alloc must have a mutable memdesc type}}
    %m = ttg.local_alloc : () -> !ttg.memdesc<16x16xf32, #shared, #smem>
    tt.return
  }
}

// -----

tt.func @addptr_result(%p: !tt.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tt.addptr' op failed to verify that result type matches ptr type}}
  %0 = "tt.addptr"(%p, %o) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>
  tt.return
}
