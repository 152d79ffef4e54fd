// RUN: layout-opt %s -split-input-file -l2-prefetch -verify-diagnostics | FileCheck %s
// RUN: layout-opt %s -split-input-file -order-programs -l2-prefetch -verify-diagnostics=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ORDERED
// RUN: layout-opt %s -split-input-file -order-programs -l2-prefetch -verify-diagnostics=false 2>/dev/null | FileCheck %s --check-prefix=ORDERED-IR

// A 64x64 f16 tile copy in launch order: each program reads 64 rows of 128
// bytes, a runtime stride apart; the 128 bytes beside each row are read by
// program y+1, a grid row of launches later, while program x+1, launched
// next, reads rows a stride away. The load gets the 256-byte L2 prefetch
// (ld.global.L2::256B once lowered); the store is left alone.
// After order-programs (as layout-translate runs it), the programs run with
// y fastest: program y+1 is launched next, program x+1 reads a stride away,
// and no load is marked.
// CHECK-LABEL: tt.func public @copy2d_f16
// CHECK:         tt.load %{{.*}} {layoutopt.l2_prefetch_bytes = 256 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
// CHECK-NEXT:    tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked>
// ORDERED: remark: program order: y fastest (stores move by 128 bytes with y, a runtime stride with x)
// ORDERED: remark: L2 prefetch: none (rows of 128 bytes, but no program x+1 known to read beside them)
// ORDERED-IR-NOT: l2_prefetch
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark-re @below {{L2 prefetch: 256 B for the loads at {{.*}}l2-prefetch.mlir:{{[0-9]+}}:11 (rows of 128 bytes; program y+1 reads 128 bytes away, program x+1 a runtime stride away)}}
  tt.func public @copy2d_f16(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %sxm: i32 {tt.divisibility = 16 : i32}, %sym: i32 {tt.divisibility = 16 : i32}) {
    %c64_i32 = arith.constant 64 : i32
    %rm = tt.get_program_id x : i32
    %rm_0 = arith.muli %rm, %c64_i32 : i32
    %rm_1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_3 = tt.splat %rm_0 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_4 = arith.addi %rm_3, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn = tt.get_program_id y : i32
    %rn_5 = arith.muli %rn, %c64_i32 : i32
    %rn_6 = tt.splat %rn_5 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_7 = arith.addi %rn_6, %rm_2 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %0 = tt.expand_dims %rm_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %1 = tt.splat %sym : i32 -> tensor<64x1xi32, #blocked>
    %2 = arith.muli %0, %1 : tensor<64x1xi32, #blocked>
    %3 = tt.splat %y : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %5 = tt.expand_dims %rn_7 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %6 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %7 = tt.broadcast %5 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %8 = tt.addptr %6, %7 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %9 = tt.splat %sxm : i32 -> tensor<64x1xi32, #blocked>
    %10 = arith.muli %0, %9 : tensor<64x1xi32, #blocked>
    %11 = tt.splat %x : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %12 = tt.addptr %11, %10 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %13 = tt.broadcast %12 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %14 = tt.addptr %13, %7 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %15 = tt.load %14 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.store %8, %15 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// The same tile of f32: rows of 256 bytes, a whole prefetch block. No mark.
// CHECK-LABEL: tt.func public @copy2d_f32
// CHECK-NOT:     l2_prefetch
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{L2 prefetch: none (rows of 256 bytes)}}
  tt.func public @copy2d_f32(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %sxm: i32 {tt.divisibility = 16 : i32}, %sym: i32 {tt.divisibility = 16 : i32}) {
    %c64_i32 = arith.constant 64 : i32
    %rm = tt.get_program_id x : i32
    %rm_0 = arith.muli %rm, %c64_i32 : i32
    %rm_1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_3 = tt.splat %rm_0 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_4 = arith.addi %rm_3, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn = tt.get_program_id y : i32
    %rn_5 = arith.muli %rn, %c64_i32 : i32
    %rn_6 = tt.splat %rn_5 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_7 = arith.addi %rn_6, %rm_2 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %0 = tt.expand_dims %rm_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %1 = tt.splat %sym : i32 -> tensor<64x1xi32, #blocked>
    %2 = arith.muli %0, %1 : tensor<64x1xi32, #blocked>
    %3 = tt.splat %y : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %5 = tt.expand_dims %rn_7 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %6 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %7 = tt.broadcast %5 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %8 = tt.addptr %6, %7 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %9 = tt.splat %sxm : i32 -> tensor<64x1xi32, #blocked>
    %10 = arith.muli %0, %9 : tensor<64x1xi32, #blocked>
    %11 = tt.splat %x : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %12 = tt.addptr %11, %10 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %13 = tt.broadcast %12 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %14 = tt.addptr %13, %7 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %15 = tt.load %14 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.store %8, %15 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Pointers carried by a loop: their steps with the program ids are not
// known, no mark.
// CHECK-LABEL: tt.func public @loop
// CHECK-NOT:     l2_prefetch
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // expected-remark @below {{L2 prefetch: none (rows of 128 bytes, but no program y+1 known to read beside them)}}
  tt.func public @loop(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %py = tt.get_program_id y : i32
    %o = arith.muli %py, %c32 : i32
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %os = tt.splat %o : i32 -> tensor<32xi32, #blocked>
    %off = arith.addi %os, %r : tensor<32xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %p0 = tt.addptr %xs, %off : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %ys, %off : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %stride = tt.splat %n : i32 -> tensor<32xi32, #blocked>
    %pl = scf.for %i = %c0 to %c32 step %c1 iter_args(%p = %p0) -> (tensor<32x!tt.ptr<f32>, #blocked>) : i32 {
      %v = tt.load %p : tensor<32x!tt.ptr<f32>, #blocked>
      tt.store %q, %v : tensor<32x!tt.ptr<f32>, #blocked>
      %pn = tt.addptr %p, %stride : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
      scf.yield %pn : tensor<32x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}
