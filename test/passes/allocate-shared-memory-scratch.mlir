// RUN: layout-opt %s -split-input-file -allocate-shared-memory | FileCheck %s
// RUN: layout-opt %s -split-input-file -allocate-shared-memory-nv=compute-capability=90 | FileCheck %s --check-prefix=NV

// Scratch sizes of single ops, each the ttg.shared that Triton 3.6.0's
// allocate_shared_memory (generic) and allocate_shared_memory_nv (cc 90)
// printed for the same module on the device machine.

// A gather whose columns cross warps keeps the whole f32 source: 4096.
// CHECK: ttg.shared = 4096 : i32
// NV: ttg.shared = 4096 : i32
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#h = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #ttg.slice<{dim = 0, parent = #AL}>
#r4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @g(%s: tensor<32x32xf32, #b>, %i: tensor<32x32xi32, #c>) -> tensor<32x32xf32, #c> {
    %r = tt.gather %s[%i] {axis = 0 : i32} : (tensor<32x32xf32, #b>, tensor<32x32xi32, #c>) -> tensor<32x32xf32, #c>
    tt.return %r : tensor<32x32xf32, #c>
  }
}

// -----

// An atomic whose 64 results are held by 128 threads broadcasts them: 256.
// CHECK: ttg.shared = 256 : i32
// NV: ttg.shared = 256 : i32
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#h = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #ttg.slice<{dim = 0, parent = #AL}>
#r4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @a(%p: tensor<64x!tt.ptr<f32>, #h>, %v: tensor<64xf32, #h>) -> tensor<64xf32, #h> {
    %r = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (tensor<64x!tt.ptr<f32>, #h>, tensor<64xf32, #h>) -> tensor<64xf32, #h>
    tt.return %r : tensor<64xf32, #h>
  }
}

// -----

// A reduction of an f32 and an i32 tensor across 4 warps: [4, 16] x 8 bytes.
// CHECK: ttg.shared = 512 : i32
// NV: ttg.shared = 512 : i32
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#h = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #ttg.slice<{dim = 0, parent = #AL}>
#r4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @r(%x: tensor<16x16xf32, #AL>, %y: tensor<16x16xi32, #AL>) -> (tensor<16xf32, #s0>, tensor<16xi32, #s0>) {
    %r:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: i32, %c2: f32, %d: i32):
      %e = arith.addf %a, %c2 : f32
      %f = arith.addi %b, %d : i32
      tt.reduce.return %e, %f : f32, i32
    }) : (tensor<16x16xf32, #AL>, tensor<16x16xi32, #AL>) -> (tensor<16xf32, #s0>, tensor<16xi32, #s0>)
    tt.return %r#0, %r#1 : tensor<16xf32, #s0>, tensor<16xi32, #s0>
  }
}

// -----

// A 32x32 f32 transpose: the generic swizzle keeps the whole tile (4096);
// at cc 90 the instruction-aware plan repeats a half tile (2048).
// CHECK: ttg.shared = 4096 : i32
// NV: ttg.shared = 2048 : i32
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#h = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #ttg.slice<{dim = 0, parent = #AL}>
#r4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @v(%x: tensor<32x32xf32, #r4>) -> tensor<32x32xf32, #b> {
    %r = ttg.convert_layout %x : tensor<32x32xf32, #r4> -> tensor<32x32xf32, #b>
    tt.return %r : tensor<32x32xf32, #b>
  }
}
