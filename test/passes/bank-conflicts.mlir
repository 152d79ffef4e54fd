// RUN: layout-opt %s -split-input-file -bank-conflicts -verify-diagnostics | FileCheck %s
// RUN: layout-opt %s -split-input-file -insert-shared-round-trips -bank-conflicts 2>&1 | FileCheck %s --check-prefix=TRIP

// The analysis changes nothing.
// CHECK-LABEL: tt.func @local_ops
// CHECK: ttg.local_alloc %arg0
// CHECK-LABEL: tt.func @conversions
// CHECK-COUNT-3: ttg.convert_layout

// A 32x32 f32 tile of rows of 4 elements per thread, stored row-major: each
// quarter-warp of st.shared.v4 writes 64 bytes of two rows, which share
// their banks (1 conflict, Triton's value). A warp reading a column of the
// row-major tile hits one bank 32 times; swizzling each row by its index
// (maxPhase = 32) spreads the column over all banks.

#row4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#swz = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>
#flat1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @local_ops(%x: tensor<32x32xf32, #row4>, %y: tensor<32x32xf32, #col>, %t: tensor<16xf32, #b1>) {
    // expected-remark @below {{store: 1 bank conflict (2 wavefronts, 128-bit vectors, st.shared)}}
    %a = ttg.local_alloc %x : (tensor<32x32xf32, #row4>) -> !ttg.memdesc<32x32xf32, #flat, #smem>
    // expected-remark @below {{load: 31 bank conflicts (32 wavefronts, 32-bit vectors, ld.shared)}}
    %b = ttg.local_load %a : !ttg.memdesc<32x32xf32, #flat, #smem> -> tensor<32x32xf32, #col>
    // No operand, nothing stored.
    %m = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #swz, #smem, mutable>
    // expected-remark @below {{store: 0 bank conflicts (1 wavefront, 32-bit vectors, st.shared)}}
    ttg.local_store %y, %m : tensor<32x32xf32, #col> -> !ttg.memdesc<32x32xf32, #swz, #smem, mutable>
    // Smaller than one vector times one 128-byte line: Triton aborts.
    // expected-remark @below {{store: bank conflicts not counted: smem: the tensor has 16 elements, fewer than a vector of 4 times a bank line of 8}}
    %e = ttg.local_alloc %t : (tensor<16xf32, #b1>) -> !ttg.memdesc<16xf32, #flat1, #smem>
    tt.return
  }
}

// -----

// A conversion through shared memory gets the round trip its lowering
// would use: at cc80 st.shared and ld.shared of 64 bits through Triton's
// optimal swizzle. A no-op and a warp shuffle get nothing.

#row4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#same = #ttg.linear<{register = [[0, 1], [0, 2], [0, 16]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @conversions(%x: tensor<32x32xf32, #row4>, %v: tensor<32xf32, #b1>) {
    // Once materialised (second RUN line), the round trip keeps its
    // conflict-free sides; the remarks point at the conversion it replaces.
    // TRIP: :[[@LINE+3]]:10: remark: store: 0 bank conflicts (1 wavefront, 64-bit vectors, st.shared)
    // TRIP: :[[@LINE+2]]:10: remark: load: 0 bank conflicts (1 wavefront, 64-bit vectors, ld.shared)
    // expected-remark @below {{store: 0 bank conflicts (1 wavefront, 64-bit vectors, st.shared); load: 0 bank conflicts (1 wavefront, 64-bit vectors, ld.shared); 1 round, 4096 bytes of scratch}}
    %c = ttg.convert_layout %x : tensor<32x32xf32, #row4> -> tensor<32x32xf32, #col>
    %d = ttg.convert_layout %x : tensor<32x32xf32, #row4> -> tensor<32x32xf32, #same>
    %e = ttg.convert_layout %v : tensor<32xf32, #b1> -> tensor<32xf32, #b2>
    tt.return
  }
}

// -----

// At cc90 the same transpose stores with stmatrix in 2 rounds of 2 KiB.

#row4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @hopper(%x: tensor<32x32xf32, #row4>) {
    // Materialised as a whole-tensor buffer, both sides use st/ld.shared.
    // TRIP: :[[@LINE+3]]:10: remark: store: 0 bank conflicts (1 wavefront, 32-bit vectors, st.shared)
    // TRIP: :[[@LINE+2]]:10: remark: load: 0 bank conflicts (1 wavefront, 128-bit vectors, ld.shared)
    // expected-remark @below {{store: 0 bank conflicts (1 wavefront, 128-bit vectors, stmatrix); load: 0 bank conflicts (1 wavefront, 128-bit vectors, ld.shared); 2 rounds, 2048 bytes of scratch}}
    %c = ttg.convert_layout %x : tensor<32x32xf32, #row4> -> tensor<32x32xf32, #col>
    tt.return
  }
}
