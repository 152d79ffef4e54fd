// RUN: layout-opt %s -split-input-file -remove-redundant-conversions | FileCheck %s

// Rule 3: the layout of anchors (loads here) flows forward through
// element-wise ops, reductions, expand_dims, broadcast and scf control flow.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// A softmax-like row computation: everything stays in the load's #blocked.
// CHECK-LABEL: tt.func @row_max
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[L:.*]] = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK: "tt.reduce"(%[[L]]) <{axis = 1 : i32}>
// CHECK: (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: tt.expand_dims {{.*}} -> tensor<64x1xf32, #blocked>
// CHECK: tt.broadcast {{.*}} -> tensor<64x64xf32, #blocked>
// CHECK: arith.subf {{.*}} : tensor<64x64xf32, #blocked>
// CHECK: math.exp {{.*}} : tensor<64x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %arg1, {{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked>
  tt.func @row_max(%arg0: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x64x!tt.ptr<f32>, #blocked>) {
    %0 = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %2 = "tt.reduce"(%1) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<64x64xf32, #blocked1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xf32, #blocked1>
    %4 = tt.broadcast %3 : tensor<64x1xf32, #blocked1> -> tensor<64x64xf32, #blocked1>
    %5 = arith.subf %1, %4 : tensor<64x64xf32, #blocked1>
    %6 = math.exp %5 : tensor<64x64xf32, #blocked1>
    %7 = ttg.convert_layout %6 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %arg1, %7 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A loop-carried accumulator follows the layout of the load it adds: the
// loop carries #blocked, its initial constant is re-created in #blocked, and
// no conversion is left inside or around the loop.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @loop
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #blocked>)
// CHECK: arith.addf {{.*}} : tensor<64x64xf32, #blocked>
// CHECK: scf.yield {{.*}} : tensor<64x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
  tt.func @loop(%arg0: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x64x!tt.ptr<f32>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<64x64xf32, #blocked1>)  : i32 {
      %l = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
      %lc = ttg.convert_layout %l : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
      %s = arith.addf %acc, %lc : tensor<64x64xf32, #blocked1>
      scf.yield %s : tensor<64x64xf32, #blocked1>
    }
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %arg1, %1 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Both branches of an scf.if yield the load's layout; the conversions on
// the branches and after the if go away. (The final clean-up hoists the
// constant to the function's entry, as MLIR's greedy driver does.)

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @branches
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked>
// CHECK: scf.if %arg2 -> (tensor<64x64xf32, #blocked>)
// CHECK: scf.yield {{.*}} : tensor<64x64xf32, #blocked>
// CHECK: } else {
// CHECK: scf.yield {{.*}} : tensor<64x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
  tt.func @branches(%arg0: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg2: i1) {
    %0 = scf.if %arg2 -> (tensor<64x64xf32, #blocked1>) {
      %l = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
      %lc = ttg.convert_layout %l : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
      scf.yield %lc : tensor<64x64xf32, #blocked1>
    } else {
      %cst = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked1>
      scf.yield %cst : tensor<64x64xf32, #blocked1>
    }
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %arg1, %1 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// scf.while: the "before" and "after" arguments and the results follow the
// load too.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @while_loop
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.while (%{{.*}}) : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
// CHECK: scf.condition(%arg2) %{{.*}} : tensor<64x64xf32, #blocked>
// CHECK: ^bb0(%{{.*}}: tensor<64x64xf32, #blocked>):
// CHECK: arith.addf {{.*}} : tensor<64x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
  tt.func @while_loop(%arg0: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x64x!tt.ptr<f32>, #blocked>, %arg2: i1) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %0 = scf.while (%acc = %cst) : (tensor<64x64xf32, #blocked1>) -> tensor<64x64xf32, #blocked1> {
      scf.condition(%arg2) %acc : tensor<64x64xf32, #blocked1>
    } do {
    ^bb0(%x: tensor<64x64xf32, #blocked1>):
      %l = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, #blocked>
      %lc = ttg.convert_layout %l : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
      %s = arith.addf %x, %lc : tensor<64x64xf32, #blocked1>
      scf.yield %s : tensor<64x64xf32, #blocked1>
    }
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %arg1, %1 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
