// An op without a lowering, or a case a lowering does not support, is an
// error located at the op, never a wrong program; so is a buffer that was
// not allocated.
// RUN: not layout-translate -ttgir-to-llvmir %s -o %t.ll 2>&1 | FileCheck %s
// RUN: not layout-translate -ttgir-to-llvmir %s -no-allocate-shared-memory 2>&1 | FileCheck %s --check-prefix=NOALLOC
// RUN: not layout-translate %s 2>&1 | FileCheck %s --check-prefix=MODE

// CHECK: errors.mlir:[[# @LINE + 12]]:10: error: cannot lower 'tt.make_tensor_ptr': no lowering for this op
// CHECK-NEXT: {{^}}    %d = tt.make_tensor_ptr
// CHECK-NEXT: {{^}}         ^
// NOALLOC: error: cannot lower 'ttg.local_alloc': the buffer has no allocation.offset: run -allocate-shared-memory first
// MODE: layout-translate: error: give exactly one of -ttgir-to-llvmir and -ttgir-to-ptx

#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f16>, %n: i32) {
    %m = ttg.local_alloc : () -> !ttg.memdesc<64xf16, #sh, #smem, mutable>
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_ptr %p, [%c1], [%c1], [%n] {order = array<i32: 0>} : <tensor<64xf16>>
    tt.return
  }
}
