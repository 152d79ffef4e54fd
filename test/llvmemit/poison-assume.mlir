// ub.poison is LLVM's poison in every register; llvm.intr.assume is a call
// of llvm.assume; an assume without its i1 is a located error.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s
// RUN: sed -e 's/llvm.intr.assume %c : i1/llvm.intr.assume %n : i32/' %s | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: define void @k(
// CHECK: %[[C:.*]] = icmp sgt i32 %n, 0
// CHECK-NEXT: call void @llvm.assume(i1 %[[C]])
// CHECK: phi float [ poison, %entry ]
// CHECK-NEXT: phi float [ poison, %entry ]
// CHECK: declare void @llvm.assume(i1
// ERR: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error:

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c = arith.cmpi sgt, %n, %c0 : i32
    llvm.intr.assume %c : i1
    %p = ub.poison : tensor<256xf32, #b>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p) -> (tensor<256xf32, #b>)  : i32 {
      %z = arith.constant dense<1.000000e+00> : tensor<256xf32, #b>
      scf.yield %z : tensor<256xf32, #b>
    }
    %o = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
    %xp = tt.addptr %xs, %o : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
    tt.store %xp, %r : tensor<256x!tt.ptr<f32>, #b>
    tt.return
  }
}
