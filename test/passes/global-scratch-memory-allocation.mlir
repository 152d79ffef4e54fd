// RUN: layout-opt %s -split-input-file -tritongpu-global-scratch-memory-allocation | FileCheck %s

// Offsets in post-order, each aligned, nothing reused; a callee's frame is
// allocated first and placed like one allocation of its size and alignment.
// The kernel's totals go to the module.

// CHECK: module attributes {ttg.global_scratch_memory_alignment = 64 : i32, ttg.global_scratch_memory_size = 256 : i32, "ttg.num-warps" = 4 : i32}
// CHECK-LABEL: tt.func private @leaf
// CHECK-SAME: attributes {ttg.global_scratch_memory_alignment = 16 : i32, ttg.global_scratch_memory_size = 48 : i32}
// CHECK: nbytes = 20 : i32, ttg.global_scratch_memory_offset = 0 : i32
// CHECK: nbytes = 8 : i32, ttg.global_scratch_memory_offset = 32 : i32
// CHECK-LABEL: tt.func @kernel
// CHECK-SAME: attributes {ttg.global_scratch_memory_alignment = 64 : i32, ttg.global_scratch_memory_size = 256 : i32}
// CHECK: nbytes = 1 : i32, ttg.global_scratch_memory_offset = 0 : i32
// CHECK: scf.for
// CHECK: nbytes = 100 : i32, ttg.global_scratch_memory_offset = 64 : i32
// CHECK: tt.call @leaf() {ttg.global_scratch_memory_offset = 176 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func private @leaf() {
    %a = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 20 : i32} : !tt.ptr<i8>
    %b = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 8 : i32} : !tt.ptr<i8>
    tt.return
  }
  tt.func @kernel(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 1 : i32} : !tt.ptr<i8>
    scf.for %i = %c0 to %n step %c1 {
      %y = ttg.global_scratch_alloc {alignment = 64 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    }
    tt.call @leaf() : () -> ()
    tt.return
  }
}

// -----

// Without allocations: size 0, alignment 1.
// CHECK: module attributes {ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32}
// CHECK: tt.func @empty() attributes {ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32}
module {
  tt.func @empty() {
    tt.return
  }
}
