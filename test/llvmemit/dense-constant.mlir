// Non-splat dense constants: a register that holds the same element in
// every thread is a constant; the others load their element from the
// tensor, put once in constant memory (addrspace 4), at the row-major
// index of their coordinates.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// CHECK: @cst.{{[0-9]+}} = internal addrspace(4) constant [8 x i32] [i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7], align 4
// CHECK-NOT: [4 x i32]
// CHECK-LABEL: define void @k(
// CHECK: %[[P:.*]] = getelementptr [8 x i32], [8 x i32] addrspace(4)* @cst.{{[0-9]+}}, i32 0, i32 %{{.*}}
// CHECK-NEXT: load i32, i32 addrspace(4)* %[[P]]
// CHECK: insertelement <4 x i32> undef, i32 10, i32 0
// CHECK-NEXT: insertelement <4 x i32> %{{.*}}, i32 11, i32 1
// CHECK-NEXT: insertelement <4 x i32> %{{.*}}, i32 12, i32 2
// CHECK-NEXT: insertelement <4 x i32> %{{.*}}, i32 13, i32 3

#lanes = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#regs = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %a = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32, #lanes>
    %b = arith.constant dense<[10, 11, 12, 13]> : tensor<4xi32, #regs>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #lanes>
    %pa = tt.splat %p : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>, #lanes>
    %qa = tt.addptr %pa, %r : tensor<8x!tt.ptr<i32>, #lanes>, tensor<8xi32, #lanes>
    tt.store %qa, %a : tensor<8x!tt.ptr<i32>, #lanes>
    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #regs>
    %pb = tt.splat %p : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #regs>
    %qb = tt.addptr %pb, %r4 : tensor<4x!tt.ptr<i32>, #regs>, tensor<4xi32, #regs>
    tt.store %qb, %b : tensor<4x!tt.ptr<i32>, #regs>
    tt.return
  }
}
