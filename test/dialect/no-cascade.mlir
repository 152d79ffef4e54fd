// After an alias definition fails, its uses report nothing more: the
// definition's error stands alone, and the ops that use the alias are
// skipped without errors of their own. An error inside an attribute
// dictionary skips the rest of its op only.

// RUN: layout-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// expected-error @+1 {{unexpected key: bogus}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
// expected-error @+1 {{#ttg.nvmma_shared: missing key 'swizzlingByteWidth'}}
#shared = #ttg.nvmma_shared<{transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{expected integer value}}
!t = !tt.ptr<f16, bad>
tt.func @f(%a: i32) {
  %0 = tt.splat %a : i32 -> tensor<4xi32, #blocked>
  %1 = arith.addi %0, %0 : tensor<4xi32, #blocked>
  %2 = ttg.local_alloc : () -> !ttg.memdesc<4xi32, #shared, #ttg.shared_memory, mutable>
  %3 = "foo.x"() {a = #blocked, b = #foo.bar<#slice>} : () -> !t
  // expected-error @+1 {{use of undeclared SSA value name '%x'}}
  tt.return %x : i32
}

// -----

tt.func @f(%a: i32) {
  // expected-error @+1 {{undefined symbol alias id 'undefined'}}
  %0 = "foo.x"() {a = #undefined, b = 1} : () -> (i32)
  // expected-error @+1 {{use of undeclared SSA value name '%x'}}
  tt.return %x : i32
}
