// RUN: layout-opt %s -split-input-file -allocate-shared-memory -test-print-membar | FileCheck %s

// Triton 3.6's Membar: a ttg.local_barrier wherever a shared-memory access
// conflicts with one since the last barrier. The cases follow Triton's own
// membar tests (test/Analysis/test-membar.mlir), on structured control flow.

#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sliceAd0 = #ttg.slice<{dim = 0, parent = #AL}>
#S = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#ST = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// Read after write.
// CHECK-LABEL: tt.func @raw
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
tt.func @raw(%x: tensor<128x32xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  %y = ttg.local_load %a : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
  tt.return
}

// Write after read: the second allocation reuses the first one's bytes.
// CHECK-LABEL: tt.func @war
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_alloc
tt.func @war(%x: tensor<128x32xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  %y = ttg.local_load %a : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
  %b = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  tt.return
}

// The same through a local_store of a mutable buffer.
// CHECK-LABEL: tt.func @war_store
// CHECK: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_store
tt.func @war_store(%x: tensor<128x32xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  %y = ttg.local_load %a : !ttg.memdesc<128x32xf16, #S, #smem, mutable> -> tensor<128x32xf16, #AL>
  ttg.local_store %x, %a : tensor<128x32xf16, #AL> -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  tt.return
}

// A reduction across warps writes its scratch, which overlaps the buffer
// just read.
// CHECK-LABEL: tt.func @scratch
// CHECK: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: "tt.reduce"
tt.func @scratch(%x: tensor<16x16xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
  %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  %r = "tt.reduce"(%y) <{axis = 0 : i32}> ({
  ^bb0(%p: f16, %q: f16):
    %s = arith.addf %p, %q : f16
    tt.reduce.return %s : f16
  }) : (tensor<16x16xf16, #AL>) -> tensor<16xf16, #sliceAd0>
  tt.return
}

// A barrier after every async wait not already followed by one.
// CHECK-LABEL: tt.func @async_wait
// CHECK: ttg.async_wait
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: ttg.async_wait
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NOT: ttg.local_barrier
tt.func @async_wait(%x: tensor<32x16xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<32x16xf16, #AL>) -> !ttg.memdesc<32x16xf16, #S, #smem>
  ttg.async_wait {num = 4 : i32}
  %y = ttg.local_load %a : !ttg.memdesc<32x16xf16, #S, #smem> -> tensor<32x16xf16, #AL>
  ttg.async_wait {num = 0 : i32}
  ttg.local_barrier
  %z = ttg.local_load %a : !ttg.memdesc<32x16xf16, #S, #smem> -> tensor<32x16xf16, #AL>
  tt.return
}

// An async copy into a view writes the viewed buffer.
// CHECK-LABEL: tt.func @async_copy
// CHECK: ttg.async_copy_global_to_local
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
tt.func @async_copy(%p: tensor<16x16x!tt.ptr<f16>, #AL>) {
  %c0 = arith.constant 0 : i32
  %a = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  %v = ttg.memdesc_index %a[%c0] : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable> -> !ttg.memdesc<16x16xf16, #S, #smem, mutable>
  %t = ttg.async_copy_global_to_local %p, %v : tensor<16x16x!tt.ptr<f16>, #AL> -> <16x16xf16, #S, #smem, mutable>
  %y = ttg.local_load %v : !ttg.memdesc<16x16xf16, #S, #smem, mutable> -> tensor<16x16xf16, #AL>
  tt.return
}

// Views are not accesses.
// CHECK-LABEL: tt.func @trans
// CHECK-NOT: ttg.local_barrier
// CHECK: tt.return
tt.func @trans(%a: !ttg.memdesc<16x32xf16, #S, #smem>) {
  %b = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<16x32xf16, #S, #smem> -> !ttg.memdesc<32x16xf16, #ST, #smem>
  tt.return
}

// The then-branch synchronises, the else-branch does not: the read after
// the if needs its own barrier.
// CHECK-LABEL: tt.func @if_one_branch
// CHECK: scf.if
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: } else {
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
tt.func @if_one_branch(%c: i1, %x: tensor<16x16xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
  scf.if %c {
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  } else {
    %b = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
  }
  %z = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  tt.return
}

// Both branches synchronise: nothing is pending at the join.
// CHECK-LABEL: tt.func @if_both_branches
// CHECK: scf.if
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: } else {
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: }
// CHECK-NEXT: ttg.local_load
tt.func @if_both_branches(%c: i1, %x: tensor<16x16xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
  scf.if %c {
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  } else {
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  }
  %z = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  tt.return
}

// Without an else, the branch may not be taken.
// CHECK-LABEL: tt.func @if_no_else
// CHECK: scf.if
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: }
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
tt.func @if_no_else(%c: i1, %x: tensor<16x16xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
  scf.if %c {
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  }
  %z = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  tt.return
}

// A value yielded by an scf.if aliases both branches' buffers.
// CHECK-LABEL: tt.func @if_yield
// CHECK: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: } else {
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: scf.yield
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
tt.func @if_yield(%c: i1, %x: tensor<16x16xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
  %r = scf.if %c -> (!ttg.memdesc<16x16xf16, #S, #smem>) {
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
    %b = ttg.local_alloc %y : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    scf.yield %b : !ttg.memdesc<16x16xf16, #S, #smem>
  } else {
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
    %b = ttg.local_alloc %y : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    scf.yield %b : !ttg.memdesc<16x16xf16, #S, #smem>
  }
  %z = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  %w = ttg.local_load %r : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
  tt.return
}

// Loop-carried buffers: the first read in the body meets the writes before
// the loop (first iteration) and nothing else.
// CHECK-LABEL: tt.func @loop
// CHECK: scf.for
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: scf.yield
tt.func @loop(%lb: index, %ub: index, %st: index, %x: tensor<128x32xf16, #AL>) {
  %a0 = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  %b0 = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  %ra, %rb = scf.for %i = %lb to %ub step %st iter_args(%a = %a0, %b = %b0) -> (!ttg.memdesc<128x32xf16, #S, #smem>, !ttg.memdesc<128x32xf16, #S, #smem>) {
    %y = ttg.local_load %a : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
    %z = ttg.local_load %b : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
    scf.yield %b, %a : !ttg.memdesc<128x32xf16, #S, #smem>, !ttg.memdesc<128x32xf16, #S, #smem>
  }
  tt.return
}

// %keep takes the bytes of %a, which died before it: a barrier between
// reading %a and writing %keep. In the loop, the barrier at the top (the
// write of %keep on the first iteration) also orders the previous
// iteration's read of %t before its next write; after the loop, %t's
// pending read does not touch %keep, but the write of %keep may still be
// pending when the loop runs no iteration.
// CHECK-LABEL: tt.func @loop_reuse
// CHECK: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: scf.for
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
tt.func @loop_reuse(%lb: index, %ub: index, %st: index, %x: tensor<128x32xf16, #AL>) {
  %a = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  %y = ttg.local_load %a : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
  %keep = ttg.local_alloc %y : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  scf.for %i = %lb to %ub step %st {
    %v = ttg.local_load %keep : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
    %t = ttg.local_alloc %v : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
    %u = ttg.local_load %t : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
  }
  %z = ttg.local_load %keep : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
  tt.return
}

}

// -----

// mbarrier ops (Triton's membar.mlir and NVIDIA::canSkipBarSync): a
// barrier between initialising an mbarrier and waiting on it and between
// two waits, none between two initialisations.
// CHECK-LABEL: tt.func @mbarriers
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttng.init_barrier
// CHECK-NEXT: ttng.init_barrier
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.wait_barrier
#B = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @mbarriers(%phase: i32) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #B, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #B, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #B, #smem, mutable>
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #B, #smem, mutable>
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #B, #smem, mutable>
    tt.return
  }
}

// -----

// A call carries what its callee leaves pending: the callee writes a
// buffer, the caller's first access after the call conflicts with it.
// CHECK-LABEL: tt.func private @writer
// CHECK-NOT: ttg.local_barrier
// CHECK-LABEL: tt.func @calls
// CHECK: tt.call @writer
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_alloc
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func private @writer(%x: tensor<16x16xf16, #AL>) {
    %a = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    tt.return
  }
  tt.func @calls(%x: tensor<16x16xf16, #AL>) {
    tt.call @writer(%x) : (tensor<16x16xf16, #AL>) -> ()
    %b = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    tt.return
  }
}

// -----

// scf.while: the store in the after-region follows the read in the
// before-region (WAR), and the next read follows the store over the back
// edge (RAW).
// CHECK-LABEL: tt.func @loop_while
// CHECK: scf.while
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: scf.condition
// CHECK: ^bb0
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_store
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @loop_while(%c: i1, %x: tensor<16x16xf16, #AL>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #S, #smem, mutable>
    %r = scf.while (%arg = %c) : (i1) -> i1 {
      %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem, mutable> -> tensor<16x16xf16, #AL>
      scf.condition(%arg) %arg : i1
    } do {
    ^bb0(%b: i1):
      ttg.local_store %x, %a : tensor<16x16xf16, #AL> -> !ttg.memdesc<16x16xf16, #S, #smem, mutable>
      scf.yield %b : i1
    }
    tt.return
  }
}

// -----

// A conversion through shared memory synchronises its own threads: one
// that stays within warps (the same warp bases on both sides, Triton's
// isCvtWarpSync) only with warp.sync, so the write of %a is still pending
// after it; one across warps uses a CTA barrier, which orders it.
// CHECK-LABEL: tt.func @warp_sync
// CHECK: ttg.convert_layout
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-LABEL: tt.func @cross_warp
// CHECK: ttg.convert_layout
// CHECK-NEXT: ttg.local_load
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#dst = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#xw = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @warp_sync(%x: tensor<16x16xf16, #src>, %t: tensor<128x4xf32, #src>) {
    %a = ttg.local_alloc %x : (tensor<16x16xf16, #src>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    %c = ttg.convert_layout %t : tensor<128x4xf32, #src> -> tensor<128x4xf32, #dst>
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #src>
    tt.return
  }
  tt.func @cross_warp(%x: tensor<16x16xf16, #src>, %t: tensor<128x4xf32, #src>) {
    %a = ttg.local_alloc %x : (tensor<16x16xf16, #src>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    %c = ttg.convert_layout %t : tensor<128x4xf32, #src> -> tensor<128x4xf32, #xw>
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #src>
    tt.return
  }
}

// -----

// Unstructured control flow (cf branches, as after scf-to-cf): %a is live
// through ^bb2 into ^bb3 (MLIR liveness over the CFG), so %b can only take
// its bytes after the last read; both paths into ^bb3 may carry the write.
// CHECK-LABEL: tt.func @branches
// CHECK: ^bb1:
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: ^bb2:
// CHECK-NEXT: cf.br
// CHECK: ^bb3:
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_alloc %arg1 {allocation.offset = 0 : i32}
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @branches(%c: i1, %x: tensor<16x16xf16, #AL>) {
    %a = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %y = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
    cf.br ^bb3
  ^bb2:
    cf.br ^bb3
  ^bb3:
    %z = ttg.local_load %a : !ttg.memdesc<16x16xf16, #S, #smem> -> tensor<16x16xf16, #AL>
    %b = ttg.local_alloc %x : (tensor<16x16xf16, #AL>) -> !ttg.memdesc<16x16xf16, #S, #smem>
    tt.return
  }
}
