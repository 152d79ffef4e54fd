// ttgir-run on the CPU: a kernel run through the reference interpreter,
// with scalars, iota and constant buffers, a 2-D grid, and -print.

// RUN: ttgir-run %s -grid 2,3 -arg x=iota:i32:8:start=10 -arg out=full:i32:24:value=-1 -arg k=100 -print 24 -q \
// RUN:   | FileCheck %s
// CHECK: @axpb on the interpreter: grid 2,3,1
// CHECK-NEXT: x: [10 11 12 13 14 15 16 17] (8 i32)
// Program (i, j) writes out[4·(3i + j) + e] = 100·(i + 1) + j + x[4i + e]:
// CHECK-NEXT: out: [110 111 112 113 111 112 113 114 112 113 114 115 214 215 216 217 215 216 217 218 216 217 218 219] (24 i32)

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @axpb(%x: !tt.ptr<i32>, %out: !tt.ptr<i32>, %k: i32) {
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %i = tt.get_program_id x : i32
    %j = tt.get_program_id y : i32
    %i1 = arith.addi %i, %c1 : i32
    %ki = arith.muli %k, %i1 : i32
    %b = arith.addi %ki, %j : i32
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked>
    %xo = arith.muli %i, %c4 : i32
    %xs = tt.splat %xo : i32 -> tensor<4xi32, #blocked>
    %xoffs = arith.addi %xs, %r : tensor<4xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #blocked>
    %xps = tt.addptr %xp, %xoffs : tensor<4x!tt.ptr<i32>, #blocked>, tensor<4xi32, #blocked>
    %xv = tt.load %xps : tensor<4x!tt.ptr<i32>, #blocked>
    %bs = tt.splat %b : i32 -> tensor<4xi32, #blocked>
    %v = arith.addi %xv, %bs : tensor<4xi32, #blocked>
    %i3 = arith.muli %i, %c3 : i32
    %p = arith.addi %i3, %j : i32
    %oo = arith.muli %p, %c4 : i32
    %os = tt.splat %oo : i32 -> tensor<4xi32, #blocked>
    %ooffs = arith.addi %os, %r : tensor<4xi32, #blocked>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #blocked>
    %ops = tt.addptr %op, %ooffs : tensor<4x!tt.ptr<i32>, #blocked>, tensor<4xi32, #blocked>
    tt.store %ops, %v : tensor<4x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
