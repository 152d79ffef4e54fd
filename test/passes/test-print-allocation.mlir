// RUN: layout-opt %s -test-print-allocation -verify-diagnostics -o /dev/null

// Triton 3.6's shared-memory allocation reported as its TestAllocation pass
// does. The expected offsets are those of Triton's own allocation tests
// (test/Analysis/test-allocation.mlir) for the same liveness structure:
// explicit buffers only, so no scratch-size model is involved, plus a
// cross-warp reduction and a scalar atomic.

#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sliceAd0 = #ttg.slice<{dim = 0, parent = #AL}>
#S = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#ST = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
#bs = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#bh = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// Buffers sorted by size are placed first-fit; one freed early lets a later
// one take its place.
// expected-remark @below {{staggered}}
// expected-remark @below {{size = 12288}}
tt.func @staggered() {
  // expected-remark @below {{offset = 2048, size = 512}}
  %p0 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 3072, size = 512}}
  %p1 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 3584, size = 512}}
  %p2 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 1024}}
  %q0 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 1024, size = 1024}}
  %q1 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %p0 : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 2048, size = 1024}}
  %q2 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %p1 : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %p2 : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 3072, size = 1024}}
  %q3 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 4096, size = 2048}}
  %r0 = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %q0 : !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 6144, size = 2048}}
  %r1 = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %q1 : !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 8192, size = 2048}}
  %r2 = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %q3 : !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %q2 : !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 10240, size = 2048}}
  %r3 = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 4096}}
  %s0 = ttg.local_alloc : () -> !ttg.memdesc<128x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %r0 : !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 4096}}
  %s1 = ttg.local_alloc : () -> !ttg.memdesc<128x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %r1 : !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 4096}}
  %s2 = ttg.local_alloc : () -> !ttg.memdesc<128x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %r2 : !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %r3 : !ttg.memdesc<64x16xf16, #S, #smem, mutable>
  tt.return
}

// A buffer nobody uses is live at its definition only.
// expected-remark @below {{dead_buffers}}
// expected-remark @below {{size = 1024}}
tt.func @dead_buffers() {
  %cst = arith.constant dense<0.000000e+00> : tensor<32x16xf16, #AL>
  // expected-remark @below {{offset = 0, size = 1024}}
  %x = ttg.local_alloc %cst : (tensor<32x16xf16, #AL>) -> !ttg.memdesc<32x16xf16, #S, #smem>
  // expected-remark @below {{offset = 0, size = 512}}
  %y = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 512}}
  %z = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  tt.return
}

// One buffer live to the end of the function; the others come and go.
// expected-remark @below {{long_lived}}
// expected-remark @below {{size = 2560}}
tt.func @long_lived() {
  // expected-remark @below {{offset = 2048, size = 512}}
  %keep = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 1024, size = 512}}
  %a1 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 1536, size = 512}}
  %a2 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 1024}}
  %a3 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %a1 : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %a2 : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 1024, size = 512}}
  %b1 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 1536, size = 512}}
  %b2 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 1024}}
  %b3 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 512}}
  %b4 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 512}}
  %b5 = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 1024}}
  %b6 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %b1 : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %b2 : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 1024}}
  %b7 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %keep : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  tt.return
}

// A reduction across the 4 warps of its axis keeps a [4, 16] tile of f16.
// expected-remark @below {{reduce_scratch}}
// expected-remark @below {{size = 128}}
tt.func @reduce_scratch() {
  %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16, #AL>
  // expected-remark @below {{scratch offset = 0, size = 128}}
  %r = "tt.reduce"(%cst) <{axis = 0 : i32}> ({
  ^bb0(%x: f16, %y: f16):
    %s = arith.addf %x, %y : f16
    tt.reduce.return %s : f16
  }) : (tensor<16x16xf16, #AL>) -> tensor<16xf16, #sliceAd0>
  tt.return
}

// Views share their source's buffer.
// expected-remark @below {{views}}
// expected-remark @below {{size = 1024}}
tt.func @views() {
  // expected-remark @below {{offset = 0, size = 1024}}
  %t = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #S, #smem, mutable>
  %v = ttg.memdesc_trans %t {order = array<i32: 1, 0>} : !ttg.memdesc<16x32xf16, #S, #smem, mutable> -> !ttg.memdesc<32x16xf16, #ST, #smem, mutable>
  tt.return
}

// A scalar atomic whose result is used broadcasts it through 4 bytes of
// scratch (aligned to 128); unused, it needs none.
// expected-remark @below {{atomic_scalar}}
// expected-remark @below {{size = 8196}}
tt.func @atomic_scalar(%p: !tt.ptr<i32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %one = arith.constant dense<1.000000e+00> : tensor<128x32xf16, #AL>
  // expected-remark @below {{offset = 0, size = 8192}}
  %buf = ttg.local_alloc %one : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #S, #smem>
  // expected-remark @below {{scratch offset = 8192, size = 4}}
  %old = tt.atomic_cas acq_rel, gpu, %p, %c0, %c0 : (!tt.ptr<i32>, i32, i32) -> i32
  %unused = tt.atomic_cas acq_rel, gpu, %p, %c0, %c0 : (!tt.ptr<i32>, i32, i32) -> i32
  %back = ttg.local_load %buf : !ttg.memdesc<128x32xf16, #S, #smem> -> tensor<128x32xf16, #AL>
  tt.return %old : i32
}

// Buffers inside an scf.if die at its end; those live across it cannot be
// reused inside.
// expected-remark @below {{if_then}}
// expected-remark @below {{size = 2048}}
tt.func @if_then(%c: i1) {
  // expected-remark @below {{offset = 1024, size = 512}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 1536, size = 512}}
  %b = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  scf.if %c {
    // expected-remark @below {{offset = 0, size = 1024}}
    %x = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
    // expected-remark @below {{offset = 0, size = 1024}}
    %y = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  }
  // expected-remark @below {{offset = 1024, size = 512}}
  %d = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 1536, size = 512}}
  %e = ttg.local_alloc : () -> !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 0, size = 1024}}
  %f = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %d : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  ttg.local_dealloc %e : !ttg.memdesc<1x16x16xf16, #S, #smem, mutable>
  tt.return
}

// Loop-carried buffers are aliases: the three initial buffers stay live
// over the whole loop, and a buffer used inside the loop through a view
// cannot be released inside it.
// expected-remark @below {{loop_carried}}
// expected-remark @below {{size = 32768}}
tt.func @loop_carried(%lb: index, %ub: index, %st: index) {
  // expected-remark @below {{offset = 0, size = 8192}}
  %a0 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 8192, size = 8192}}
  %b0 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 16384, size = 8192}}
  %c0 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  %ra, %rb = scf.for %i = %lb to %ub step %st iter_args(%a = %a0, %b = %b0) -> (!ttg.memdesc<128x32xf16, #S, #smem, mutable>, !ttg.memdesc<128x32xf16, #S, #smem, mutable>) {
    %t = ttg.memdesc_trans %c0 {order = array<i32: 1, 0>} : !ttg.memdesc<128x32xf16, #S, #smem, mutable> -> !ttg.memdesc<32x128xf16, #ST, #smem, mutable>
    // expected-remark @below {{offset = 24576, size = 8192}}
    %tmp = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
    scf.yield %b, %a : !ttg.memdesc<128x32xf16, #S, #smem, mutable>, !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  }
  tt.return
}

// Values yielded out of an scf.if inside nested loops alias the buffers
// allocated in its branches.
// expected-remark @below {{nested_loops}}
// expected-remark @below {{size = 40960}}
tt.func @nested_loops(%lb: index, %ub: index, %st: index, %c: i1) {
  // expected-remark @below {{offset = 0, size = 8192}}
  %a0 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 8192, size = 8192}}
  %b0 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  // expected-remark @below {{offset = 16384, size = 8192}}
  %c0 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  %ra, %rb, %rc = scf.for %i = %lb to %ub step %st iter_args(%a = %a0, %b = %b0, %cc = %c0) -> (!ttg.memdesc<128x32xf16, #S, #smem, mutable>, !ttg.memdesc<128x32xf16, #S, #smem, mutable>, !ttg.memdesc<128x32xf16, #S, #smem, mutable>) {
    %next = scf.for %j = %lb to %ub step %st iter_args(%n = %cc) -> (!ttg.memdesc<128x32xf16, #S, #smem, mutable>) {
      %pick = scf.if %c -> !ttg.memdesc<128x32xf16, #S, #smem, mutable> {
        // expected-remark @below {{offset = 24576, size = 8192}}
        %t0 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
        scf.yield %t0 : !ttg.memdesc<128x32xf16, #S, #smem, mutable>
      } else {
        // expected-remark @below {{offset = 32768, size = 8192}}
        %t1 = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
        scf.yield %t1 : !ttg.memdesc<128x32xf16, #S, #smem, mutable>
      }
      scf.yield %pick : !ttg.memdesc<128x32xf16, #S, #smem, mutable>
    }
    scf.yield %a, %b, %next : !ttg.memdesc<128x32xf16, #S, #smem, mutable>, !ttg.memdesc<128x32xf16, #S, #smem, mutable>, !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  }
  // expected-remark @below {{offset = 0, size = 8192}}
  %after = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  ttg.local_dealloc %after : !ttg.memdesc<128x32xf16, #S, #smem, mutable>
  tt.return
}

// Scan and histogram scratch (Triton 3.6.0: 128 and 256 bytes).
// expected-remark @below {{scan_scratch}}
// expected-remark @below {{size = 128}}
tt.func @scan_scratch(%x: tensor<256x4xf32, #bs>) -> tensor<256x4xf32, #bs> {
  // expected-remark @below {{scratch offset = 0, size = 128}}
  %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%p: f32, %q: f32):
    %z = arith.addf %p, %q : f32
    tt.scan.return %z : f32
  }) : (tensor<256x4xf32, #bs>) -> tensor<256x4xf32, #bs>
  tt.return %r : tensor<256x4xf32, #bs>
}

// expected-remark @below {{histogram_scratch}}
// expected-remark @below {{size = 256}}
tt.func @histogram_scratch(%x: tensor<128xi32, #bh>) -> tensor<64xi32, #bh> {
  // expected-remark @below {{scratch offset = 0, size = 256}}
  %r = tt.histogram %x : tensor<128xi32, #bh> -> tensor<64xi32, #bh>
  tt.return %r : tensor<64xi32, #bh>
}

}
