// RUN: layout-opt %s -split-input-file -allocate-shared-memory | FileCheck %s
// RUN: layout-opt %S/../dialect/Inputs/jit_matmul_128x128x64_w8_s3.ttgir -allocate-shared-memory-nv=compute-capability=90 | FileCheck %s --check-prefix=WGMMA
// RUN: layout-opt %S/../dialect/Inputs/matmul_64x64x32_f16_sm80_w4.ttgir -allocate-shared-memory-nv=compute-capability=80 | FileCheck %s --check-prefix=MMAV2
// RUN: layout-opt %S/../dialect/Inputs/softmax_b1024_sm90_w4.ttgir -allocate-shared-memory-nv=compute-capability=90 | FileCheck %s --check-prefix=SOFTMAX
// RUN: layout-opt %S/../dialect/Inputs/add_b1024_sm90_w4.ttgir -allocate-shared-memory | FileCheck %s --check-prefix=NONE

// The attributes Triton writes: allocation.offset on the ops that own a
// buffer, ttg.shared on the module (sorted among its attributes).

// A call reserves its callee's frame (a virtual buffer, 128-aligned). The
// caller's buffer is live across the call, so it goes above the callee's
// 1024 bytes; the module needs the larger root frame.
// CHECK: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 1536 : i32, "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func private @callee
// CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
// CHECK-LABEL: tt.func @caller
// CHECK: ttg.local_alloc {allocation.offset = 1024 : i32}
// CHECK: tt.call @callee() {allocation.offset = 0 : i32}
// CHECK-NOT: allocation.offset
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @callee() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<32x16xf16, #S, #smem, mutable>
    tt.return
  }
  tt.func @caller() {
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #S, #smem, mutable>
    tt.call @callee() : () -> ()
    ttg.local_dealloc %b : !ttg.memdesc<16x16xf16, #S, #smem, mutable>
    tt.return
  }
}

// -----

// nvmma_shared buffers are aligned to 128 bytes times the swizzle's
// maxPhase (256 for a 32-byte swizzle; Triton 3.6.0 gives the same offsets
// and ttg.shared for this function). The larger buffer is placed first
// (640 bytes at 0); the swizzled tile goes to the next multiple of 256.
// CHECK: ttg.shared = 1024 : i32
// CHECK-LABEL: tt.func @aligned
// CHECK: ttg.local_alloc {allocation.offset = 768 : i32} : () -> !ttg.memdesc<8x16xf16
// CHECK: ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<5x8x8xf16
#N = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#S3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @aligned() {
    %t = ttg.local_alloc : () -> !ttg.memdesc<8x16xf16, #N, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<5x8x8xf16, #S3, #smem, mutable>
    ttg.local_dealloc %t : !ttg.memdesc<8x16xf16, #N, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<5x8x8xf16, #S3, #smem, mutable>
    tt.return
  }
}

// -----

// Scratch of a scan across 4 warps (blocked layouts: warps x non-axis
// threads and elements x blocks along and across the axis, f32) and of a
// histogram (max(bins, threads per warp) i32). Triton 3.6.0's
// allocate-shared-memory-nv gives 128 and 256 for these functions alone.
// CHECK: ttg.shared = 256 : i32
// CHECK-LABEL: tt.func @scan
// CHECK: }) {allocation.offset = 0 : i32} : (tensor<256x4xf32
// CHECK-LABEL: tt.func @histogram
// CHECK: tt.histogram %{{.*}} {allocation.offset = 0 : i32}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#h = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scan(%x: tensor<256x4xf32, #b>) -> tensor<256x4xf32, #b> {
    %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%p: f32, %q: f32):
      %z = arith.addf %p, %q : f32
      tt.scan.return %z : f32
    }) : (tensor<256x4xf32, #b>) -> tensor<256x4xf32, #b>
    tt.return %r : tensor<256x4xf32, #b>
  }
  tt.func @histogram(%x: tensor<128xi32, #h>) -> tensor<64xi32, #h> {
    %r = tt.histogram %x : tensor<128xi32, #h> -> tensor<64xi32, #h>
    tt.return %r : tensor<64xi32, #h>
  }
}

// The values Triton 3.6.0 printed for these kernels (allocate_shared_memory_nv).

// WGMMA: ttg.shared = 98304 : i32
// WGMMA: ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<3x128x64xf16
// WGMMA: ttg.local_alloc {allocation.offset = 49152 : i32} : () -> !ttg.memdesc<3x64x128xf16
// WGMMA: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32} : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>

// MMAV2: ttg.shared = 8192 : i32
// MMAV2: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
// MMAV2: ttg.local_alloc %{{.*}} {allocation.offset = 4096 : i32}
// MMAV2: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}

// SOFTMAX: ttg.shared = 16 : i32
// SOFTMAX-COUNT-2: {allocation.offset = 0 : i32} : (tensor<1024xf32, #blocked>) -> f32

// NONE: ttg.shared = 0 : i32
// NONE-NOT: allocation.offset
