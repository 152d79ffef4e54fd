// RUN: layout-opt %s -split-input-file -tritongpu-remove-layout-conversions | FileCheck %s

// #a and #b are two spellings of one layout of 1x256 (and of 1x1): they
// differ only in order, which no dimension of size 1 or single register
// can show. Rule 1 cannot drop the conversions before the load (the load's
// other operands keep #b), so, as Triton prices them, the address and mask
// chains are recomputed in #b, the index shared by both cloned once.

// CHECK-LABEL: tt.func @spellings
// CHECK: scf.for
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.yield
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @spellings(%p: !tt.ptr<f32>, %n: i32) -> tensor<1x256xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %bound = arith.constant dense<1000> : tensor<1x256xi32, #a>
    %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32, #b>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #a}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #a}>> -> tensor<1x256xi32, #a>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<1x256x!tt.ptr<f32>, #a>
    %acc = scf.for %i = %c0 to %n step %c256 iter_args(%x = %zero) -> (tensor<1x256xf32, #b>) : i32 {
      %s = tt.splat %i : i32 -> tensor<1x256xi32, #a>
      %o = arith.addi %s, %e : tensor<1x256xi32, #a>
      %m = arith.cmpi slt, %o, %bound : tensor<1x256xi32, #a>
      %ptrs = tt.addptr %ptr, %o : tensor<1x256x!tt.ptr<f32>, #a>, tensor<1x256xi32, #a>
      %pc = ttg.convert_layout %ptrs : tensor<1x256x!tt.ptr<f32>, #a> -> tensor<1x256x!tt.ptr<f32>, #b>
      %mc = ttg.convert_layout %m : tensor<1x256xi1, #a> -> tensor<1x256xi1, #b>
      %v = tt.load %pc, %mc : tensor<1x256x!tt.ptr<f32>, #b>
      %y = arith.addf %x, %v : tensor<1x256xf32, #b>
      scf.yield %y : tensor<1x256xf32, #b>
    }
    tt.return %acc : tensor<1x256xf32, #b>
  }
}

// -----

// The conversion before the store cannot be recomputed through the loop
// cheaply: as Triton's hoistConvertOnTopOfExtOrBroadcast, whose slices stop
// at loop results, it goes above the tt.expand_dims — and stays there,
// though it only re-spells one layout, as Triton's does.

// CHECK-LABEL: tt.func @hoist_from_loop
// CHECK: %[[R:.+]] = "tt.reduce"
// CHECK: %[[C:.+]] = ttg.convert_layout %[[R]] : tensor<1xf32, #ttg.slice<{dim = 1, parent = #[[B:.+]]}>> -> tensor<1xf32, #ttg.slice<{dim = 1, parent = #[[A:.+]]}>>
// CHECK-NEXT: %[[E:.+]] = tt.expand_dims %[[C]] {axis = 1 : i32} : {{.*}} -> tensor<1x1xf32, #[[A]]>
// CHECK-NEXT: arith.divf %[[E]]
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @hoist_from_loop(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32, #b>
    %two = arith.constant dense<2.000000e+00> : tensor<1x1xf32, #b>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<1x256x!tt.ptr<f32>, #b>
    %acc = scf.for %i = %c0 to %n step %c256 iter_args(%x = %zero) -> (tensor<1x256xf32, #b>) : i32 {
      %v = tt.load %ptr : tensor<1x256x!tt.ptr<f32>, #b>
      %y = arith.addf %x, %v : tensor<1x256xf32, #b>
      scf.yield %y : tensor<1x256xf32, #b>
    }
    %red = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1x256xf32, #b>) -> tensor<1xf32, #ttg.slice<{dim = 1, parent = #b}>>
    %ex = tt.expand_dims %red {axis = 1 : i32} : tensor<1xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<1x1xf32, #b>
    %d = arith.divf %ex, %two : tensor<1x1xf32, #b>
    %dc = ttg.convert_layout %d : tensor<1x1xf32, #b> -> tensor<1x1xf32, #a>
    %qq = tt.splat %q : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>, #a>
    tt.store %qq, %dc : tensor<1x1x!tt.ptr<f32>, #a>
    tt.return
  }
}
