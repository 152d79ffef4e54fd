// Where a masked load sets its masked-off words: before the load, as
// Triton does, except in a loop of a function without a dot, where they are
// set after it under the negated predicate (ptxas then keeps the loop's
// loads in flight; see llvmemit's loadHints.fillAfter).
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @straight(
// CHECK: "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];"
// CHECK-NOT: @!$
// CHECK: ret void

// CHECK-LABEL: define void @loop(
// CHECK: for.body
// CHECK: "@$2 ld.global.b32 { $0 }, [ $1 + 0 ];\0A\09@!$2 mov.u32 $0, 0x3f800000;"
// CHECK: ret void

// CHECK-LABEL: define void @loop_dot(
// CHECK: for.body
// CHECK: "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];"
// CHECK-NOT: @!$
// CHECK: ret void

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#L = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @straight(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %xp = tt.addptr %xs, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %v = tt.load %xp, %m : tensor<128x!tt.ptr<f32>, #b>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %yp = tt.addptr %ys, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    tt.store %yp, %v, %m : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
  tt.func public @loop(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<128xf32, #b>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %acc = scf.for %i = %c0 to %n step %c128 iter_args(%a = %zero) -> (tensor<128xf32, #b>)  : i32 {
      %is = tt.splat %i : i32 -> tensor<128xi32, #b>
      %o = arith.addi %is, %r : tensor<128xi32, #b>
      %m = arith.cmpi slt, %o, %ns : tensor<128xi32, #b>
      %xp = tt.addptr %xs, %o : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
      %v = tt.load %xp, %m, %one : tensor<128x!tt.ptr<f32>, #b>
      %s = arith.addf %a, %v : tensor<128xf32, #b>
      scf.yield %s : tensor<128xf32, #b>
    }
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %yp = tt.addptr %ys, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    tt.store %yp, %acc : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
  tt.func public @loop_dot(%pa: !tt.ptr<f32>, %pb: !tt.ptr<f32>, %pc: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x16xf32, #L>
    %ns = tt.splat %n : i32 -> tensor<32x8xi32, #ttg.dot_op<{opIdx = 0, parent = #L}>>
    %a0 = tt.splat %pa : !tt.ptr<f32> -> tensor<32x8x!tt.ptr<f32>, #ttg.dot_op<{opIdx = 0, parent = #L}>>
    %b0 = tt.splat %pb : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>, #ttg.dot_op<{opIdx = 1, parent = #L}>>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<32x16xf32, #L>)  : i32 {
      %is = tt.splat %i : i32 -> tensor<32x8xi32, #ttg.dot_op<{opIdx = 0, parent = #L}>>
      %m = arith.cmpi slt, %is, %ns : tensor<32x8xi32, #ttg.dot_op<{opIdx = 0, parent = #L}>>
      %a = tt.load %a0, %m : tensor<32x8x!tt.ptr<f32>, #ttg.dot_op<{opIdx = 0, parent = #L}>>
      %b = tt.load %b0 : tensor<8x16x!tt.ptr<f32>, #ttg.dot_op<{opIdx = 1, parent = #L}>>
      %d = tt.dot %a, %b, %c : tensor<32x8xf32, #ttg.dot_op<{opIdx = 0, parent = #L}>> * tensor<8x16xf32, #ttg.dot_op<{opIdx = 1, parent = #L}>> -> tensor<32x16xf32, #L>
      scf.yield %d : tensor<32x16xf32, #L>
    }
    %p = tt.splat %pc : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #L>
    tt.store %p, %acc : tensor<32x16x!tt.ptr<f32>, #L>
    tt.return
  }
}
