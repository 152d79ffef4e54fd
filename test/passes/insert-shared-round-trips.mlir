// RUN: layout-opt %s -split-input-file -insert-shared-round-trips | FileCheck %s
// RUN: layout-opt %s -split-input-file -insert-shared-round-trips=compute-capability=90 | FileCheck %s --check-prefix=CC90
// RUN: layout-opt %s -split-input-file -insert-shared-round-trips=swizzle=none | FileCheck %s --check-prefix=NONE
// RUN: layout-opt %s -split-input-file -insert-shared-round-trips='min-bytes=8192 dot-operands-only=true' | FileCheck %s --check-prefix=SOME

// A 32x32 f32 transpose (rows of 4 per thread -> one column per warp) goes
// through shared memory. At cc80 Triton's plan is st/ld.shared of 64 bits
// through the swizzle of the note's example (vector (0,16), bank (0,4),
// (0,8), (1,0), (2,0), segment (16,0), (0,1), (0,2), (4,4), (8,8)); no
// #ttg.swizzled_shared states it, so it is a #ttg.shared_linear. At cc90 the
// plan stores with stmatrix in 2 rounds; materialised, the buffer holds the
// whole tensor (the reps basis (0,16) is its last offset bit).
// A conversion within a warp (a shuffle) stays. A blocked -> dot operand
// conversion gets the swizzle of its own plan.

// CHECK: #[[S0:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[}}[0, 16], [0, 4], [0, 8], [1, 0], [2, 0], [16, 0], [0, 1], [0, 2], [4, 4], [8, 8]]}, alignment = 16>
// CHECK: #[[S1:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [8, 0], [16, 0], [1, 8], [2, 16], [4, 32], [32, 0], [64, 0]]}, alignment = 16>
// CHECK-LABEL: tt.func @f
// CHECK: %[[A:.+]] = ttg.local_alloc %arg0 : (tensor<32x32xf32, #{{.+}}>) -> !ttg.memdesc<32x32xf32, #[[S0]], #smem>
// CHECK: %[[L:.+]] = ttg.local_load %[[A]] : !ttg.memdesc<32x32xf32, #[[S0]], #smem> -> tensor<32x32xf32, #{{.+}}>
// CHECK: %[[E:.+]] = ttg.convert_layout %arg1
// CHECK: %[[B:.+]] = ttg.local_alloc %arg2 : (tensor<128x64xf16, #{{.+}}>) -> !ttg.memdesc<128x64xf16, #[[S1]], #smem>
// CHECK: %[[M:.+]] = ttg.local_load %[[B]] : !ttg.memdesc<128x64xf16, #[[S1]], #smem> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: tt.return %[[L]], %[[E]], %[[M]]

// CC90: #[[S0:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[}}[0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 1], [0, 2], [0, 16]]}, alignment = 16>
// CC90: ttg.local_alloc %arg0 : {{.*}} -> !ttg.memdesc<32x32xf32, #[[S0]], #smem>

// Without swizzling, rows of the source's memory order.
// NONE: #[[S:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// NONE-NOT: #shared
// NONE: ttg.local_alloc %arg0 : {{.*}} -> !ttg.memdesc<32x32xf32, #[[S]], #smem>
// NONE: ttg.local_alloc %arg2 : {{.*}} -> !ttg.memdesc<128x64xf16, #[[S]], #smem>

// Only the 16 KiB dot operand.
// SOME: ttg.convert_layout %arg0
// SOME: ttg.convert_layout %arg1
// SOME: ttg.local_alloc %arg2
// SOME-NOT: ttg.local_alloc

#row4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @f(%x: tensor<32x32xf32, #row4>, %v: tensor<32xf32, #b1>, %a: tensor<128x64xf16, #blocked>) -> (tensor<32x32xf32, #col>, tensor<32xf32, #b2>, tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
    %c = ttg.convert_layout %x : tensor<32x32xf32, #row4> -> tensor<32x32xf32, #col>
    %e = ttg.convert_layout %v : tensor<32xf32, #b1> -> tensor<32xf32, #b2>
    %d = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %c, %e, %d : tensor<32x32xf32, #col>, tensor<32xf32, #b2>, tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}

// -----

// A warp shuffle and a no-op stay; a module without ttg.target is planned
// for cc80.
// CHECK-LABEL: tt.func @stay
// CHECK-NOT: ttg.local_alloc
// CHECK-COUNT-2: ttg.convert_layout
// CHECK-NOT: ttg.local_alloc
#a = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 1]}>
#same = #ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [2, 0], [4, 0], [8, 0]], warp = [[16, 0], [32, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @stay(%x: tensor<64x8xf32, #a>) -> (tensor<64x8xf32, #b>, tensor<64x8xf32, #same>) {
    %0 = ttg.convert_layout %x : tensor<64x8xf32, #a> -> tensor<64x8xf32, #b>
    %1 = ttg.convert_layout %x : tensor<64x8xf32, #a> -> tensor<64x8xf32, #same>
    tt.return %0, %1 : tensor<64x8xf32, #b>, tensor<64x8xf32, #same>
  }
}
