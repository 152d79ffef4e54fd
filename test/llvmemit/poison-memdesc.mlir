// ub.poison of a shared-memory descriptor (Triton's pipeline-assign-latencies
// test has one as a loop's initial value) is a located error, not a value of
// the element type.
// RUN: not layout-translate -ttgir-to-llvmir %s 2>&1 | FileCheck %s

// CHECK: poison-memdesc.mlir:[[# @LINE + 7]]:15: error: cannot lower 'ub.poison': ub.poison of !ttg.memdesc<2x2xf16, {{.*}}> is not supported (only scalars and tensors in registers)

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%lb: i32, %ub: i32) {
    %c1 = arith.constant 1 : i32
    %poison = ub.poison : !ttg.memdesc<2x2xf16, #shared, #smem, mutable>
    %normal = ttg.local_alloc : () -> !ttg.memdesc<2x2xf16, #shared, #smem, mutable>
    %result = scf.for %i = %lb to %ub step %c1 iter_args(%current = %poison) -> !ttg.memdesc<2x2xf16, #shared, #smem, mutable> : i32 {
      scf.yield %normal : !ttg.memdesc<2x2xf16, #shared, #smem, mutable>
    }
    tt.return
  }
}
