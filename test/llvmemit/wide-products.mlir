// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// One Philox round (tl.rand): the high and the low half of each product
// of the same operands, tt.mulhiui a, b and arith.muli b, a, are one
// mul.wide.u32 per register; a high half whose low half is not taken stays
// an LLVM multiplication (mul.hi.u32 once llc has it). The load carries
// l2-prefetch's attribute, written by hand: inline ld.global with the
// 256-byte prefetch size, no predicate.
// CHECK-LABEL: define void @round(
// CHECK:         call { i32, i32, i32, i32 } asm sideeffect "ld.global.L2::256B.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"
// CHECK-COUNT-4: call { i32, i32 } asm "{\0A\09.reg .b64 w;\0A\09mul.wide.u32 w, $2, $3;\0A\09mov.b64 {$0, $1}, w;\0A\09}", "=r,=r,r,r"(i32 -766435501, i32 %{{.*}})
// CHECK-NOT:     mul.wide.u32
// CHECK:         mul i64
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @round(%in: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %key: i32) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #b>
    %ia = tt.addptr %ip, %r : tensor<512x!tt.ptr<i32>, #b>, tensor<512xi32, #b>
    %c0 = tt.load %ia {layoutopt.l2_prefetch_bytes = 256 : i32} : tensor<512x!tt.ptr<i32>, #b>
    %a = arith.constant dense<-766435501> : tensor<512xi32, #b>
    %hi = tt.mulhiui %a, %c0 : tensor<512xi32, #b>
    %lo = arith.muli %c0, %a : tensor<512xi32, #b>
    %k = tt.splat %key : i32 -> tensor<512xi32, #b>
    %x = arith.xori %hi, %k : tensor<512xi32, #b>
    %sq = tt.mulhiui %x, %lo : tensor<512xi32, #b>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #b>
    %oa = tt.addptr %op, %r : tensor<512x!tt.ptr<i32>, #b>, tensor<512xi32, #b>
    tt.store %oa, %sq : tensor<512x!tt.ptr<i32>, #b>
    tt.return
  }
}
