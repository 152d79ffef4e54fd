// RUN: layout-opt %s -split-input-file -canonicalize | FileCheck %s

// Integer folds and identities; the folded constant is uniqued with the
// existing one and constants gather at the start of the function.

// CHECK-LABEL: tt.func @arith
// CHECK-NEXT: %[[C:.+]] = arith.constant 5 : i32
// CHECK-NEXT: %[[M:.+]] = arith.muli %arg0, %[[C]] : i32
// CHECK-NEXT: tt.return %arg0, %[[C]], %[[M]], %arg0 :
tt.func @arith(%arg0: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %arg0, %c0 : i32
  %1 = arith.addi %c2, %c3 : i32
  %c5 = arith.constant 5 : i32
  %2 = arith.muli %c5, %arg0 : i32
  %3 = arith.subi %arg0, %arg0 : i32
  %4 = arith.addi %arg0, %3 : i32
  tt.return %0, %1, %2, %4 : i32, i32, i32, i32
}

// Comparisons and selects of constants; dead pure ops go, stores stay.

// CHECK-LABEL: tt.func @cmp_select
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK: tt.store %arg0, %arg1
// CHECK-NEXT: tt.return %arg1
tt.func @cmp_select(%p: !tt.ptr<i32>, %arg1: i32, %arg2: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %unused = arith.muli %arg1, %arg2 : i32
  %0 = arith.cmpi slt, %c1, %c2 : i32
  %1 = arith.select %0, %arg1, %arg2 : i32
  tt.store %p, %1 : !tt.ptr<i32>
  tt.return %1 : i32
}

// -----

// Chains of conversions fold, a conversion to the same type goes, and a
// conversion of a splat becomes a splat; a load is not moved or merged.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @converts
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked2>
// CHECK-NEXT: %[[S:.+]] = tt.splat %arg1 : f32 -> tensor<256xf32, #blocked2>
// CHECK-NEXT: %[[A:.+]] = arith.addf %[[C]], %[[S]] : tensor<256xf32, #blocked2>
// CHECK-NEXT: tt.return %[[A]], %arg0
  tt.func @converts(%arg0: tensor<256xf32, #blocked>, %arg1: f32) -> (tensor<256xf32, #blocked2>, tensor<256xf32, #blocked>) {
    %0 = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    %1 = ttg.convert_layout %0 : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked2>
    %2 = tt.splat %arg1 : f32 -> tensor<256xf32, #blocked1>
    %3 = ttg.convert_layout %2 : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked2>
    %4 = arith.addf %1, %3 : tensor<256xf32, #blocked2>
    %5 = ttg.convert_layout %arg0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return %4, %5 : tensor<256xf32, #blocked2>, tensor<256xf32, #blocked>
  }

// A constant inside a loop body is hoisted to the function's entry and
// uniqued there; the loop stays (its body stores).

// CHECK-LABEL: tt.func @hoist
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<1.000000e+00> : tensor<256xf32, #blocked>
// CHECK: scf.for
// CHECK-NEXT: tt.store %arg0, %[[C]]
  tt.func @hoist(%arg0: tensor<256x!tt.ptr<f32>, #blocked>, %lb: i32, %ub: i32, %st: i32) -> tensor<256xf32, #blocked> {
    %c = arith.constant dense<1.0> : tensor<256xf32, #blocked>
    scf.for %i = %lb to %ub step %st : i32 {
      %d = arith.constant dense<1.0> : tensor<256xf32, #blocked>
      tt.store %arg0, %d : tensor<256x!tt.ptr<f32>, #blocked>
    }
    tt.return %c : tensor<256xf32, #blocked>
  }

// A loop whose body has no effect and whose results are unused is dead.

// CHECK-LABEL: tt.func @dead_loop
// CHECK-NEXT: tt.return
  tt.func @dead_loop(%lb: i32, %ub: i32, %st: i32) {
    %c0 = arith.constant 0 : i32
    %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %c0) -> (i32) : i32 {
      %n = arith.addi %acc, %i : i32
      scf.yield %n : i32
    }
    tt.return
  }
}

// -----

// An immutable ttg.local_alloc not yet placed has no effects, as in Triton,
// and goes when unused; a mutable one allocates and writes, and stays. A
// ttg.memdesc_reinterpret to its source's type folds to the source.

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @alloc_effects
// CHECK-NEXT: ttg.local_alloc %arg0 : {{.*}} -> !ttg.memdesc<16x16xf16, {{.*}}, mutable>
// CHECK-NEXT: tt.return %arg1
  tt.func @alloc_effects(%x: tensor<16x16xf16, #b>, %m: !ttg.memdesc<16x16xf16, #sh, #smem>) -> !ttg.memdesc<16x16xf16, #sh, #smem> {
    %a = ttg.local_alloc %x : (tensor<16x16xf16, #b>) -> !ttg.memdesc<16x16xf16, #sh, #smem>
    %b = ttg.local_alloc %x : (tensor<16x16xf16, #b>) -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
    %r = ttg.memdesc_reinterpret %m : !ttg.memdesc<16x16xf16, #sh, #smem> -> !ttg.memdesc<16x16xf16, #sh, #smem>
    tt.return %r : !ttg.memdesc<16x16xf16, #sh, #smem>
  }
}

// -----

// An amdg.extract_slice of exactly one source of an amdg.concat is that
// source (row-major over the tiles); an unaligned slice stays. A concat of
// one source is that source.

#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
// CHECK-LABEL: tt.func @slice_of_concat
// CHECK-NEXT: amdg.concat
// CHECK-NEXT: %[[U:.*]] = amdg.extract_slice %{{.*}} [0, 32]
// CHECK-NEXT: tt.return %arg1, %[[U]], %arg0
  tt.func @slice_of_concat(%a: tensor<32x64xf32, #b>, %b: tensor<32x64xf32, #b>) -> (tensor<32x64xf32, #b>, tensor<32x64xf32, #b>, tensor<32x64xf32, #b>) {
    %c = amdg.concat %a, %b : tensor<32x64xf32, #b>, tensor<32x64xf32, #b> -> tensor<32x128xf32, #b>
    %s = amdg.extract_slice %c [0, 64] : tensor<32x128xf32, #b> to tensor<32x64xf32, #b>
    %u = amdg.extract_slice %c [0, 32] : tensor<32x128xf32, #b> to tensor<32x64xf32, #b>
    %one = amdg.concat %a : tensor<32x64xf32, #b> -> tensor<32x64xf32, #b>
    tt.return %s, %u, %one : tensor<32x64xf32, #b>, tensor<32x64xf32, #b>, tensor<32x64xf32, #b>
  }
}

// -----

// A conversion before ttng.tmem_store goes only when its source is a layout
// a tcgen05.st of the buffer takes as it is: the 32x32b layout of 4 warps
// (a row per thread) does; a row per warp does not.

#row = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#any = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @tmem_store_of_convert
  // CHECK-NEXT: %[[T:.+]] = arith.constant true
  // CHECK-NEXT: ttng.tmem_store %arg0, %arg2, %[[T]] : tensor<128x128xf32, #row>
  // CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %arg1 : tensor<128x128xf32, #col> -> tensor<128x128xf32, #any>
  // CHECK-NEXT: ttng.tmem_store %[[C]], %arg2, %[[T]] : tensor<128x128xf32, #any>
  tt.func @tmem_store_of_convert(%arg0: tensor<128x128xf32, #row>, %arg1: tensor<128x128xf32, #col>, %arg2: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %0 = ttg.convert_layout %arg0 : tensor<128x128xf32, #row> -> tensor<128x128xf32, #any>
    ttng.tmem_store %0, %arg2, %true : tensor<128x128xf32, #any> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %1 = ttg.convert_layout %arg1 : tensor<128x128xf32, #col> -> tensor<128x128xf32, #any>
    ttng.tmem_store %1, %arg2, %true : tensor<128x128xf32, #any> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// In a ttg.warp_specialize partition the warps are the partition's (4 here, 8
// in the module): the 4-warp layout is the one tcgen05.st takes.

#row = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#any = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @tmem_store_in_partition
  // CHECK: partition0
  // CHECK-NOT: ttg.convert_layout
  // CHECK: ttng.tmem_store %{{.*}} : tensor<128x128xf32, #row>
  tt.func @tmem_store_in_partition(%arg0: !tt.ptr<f32>, %arg1: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    ttg.warp_specialize(%arg0, %arg1)
    default {
      ttg.warp_yield
    }
    partition0(%p: !tt.ptr<f32>, %m: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) num_warps(4) {
      %true = arith.constant true
      %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #row>
      %v = tt.load %s : tensor<128x128x!tt.ptr<f32>, #row>
      %c = ttg.convert_layout %v : tensor<128x128xf32, #row> -> tensor<128x128xf32, #any>
      ttng.tmem_store %c, %m, %true : tensor<128x128xf32, #any> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      ttg.warp_return
    } : (!tt.ptr<f32>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) -> ()
    tt.return
  }
}
