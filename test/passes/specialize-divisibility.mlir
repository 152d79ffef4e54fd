// RUN: layout-opt %s -split-input-file -specialize-divisibility -verify-diagnostics | FileCheck %s
// RUN: layout-opt %s -split-input-file -specialize-divisibility=divisor=8 -verify-diagnostics=false 2>&1 | FileCheck %s --check-prefix=EIGHT
// RUN: not layout-opt %s -split-input-file -specialize-divisibility=divisor=12 2>&1 | FileCheck %s --check-prefix=BAD

// Triton's 64x64 f16 transpose compiled without tt.divisibility: one
// element per access. The kernel tests at run time that x, y, sxm and sym
// are divisible by 16 (M and N, unused, are not tested) and then runs a
// copy of its body coalesced for that: 16-byte loads and stores along rows,
// one conversion through shared memory between them. Otherwise it runs its
// body as it was.
// CHECK-DAG: #[[$W:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$ROW:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func public @transpose_kernel(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32)
// CHECK-NEXT:  %[[XI:.*]] = tt.ptr_to_int %arg0 : !tt.ptr<f16> -> i64
// CHECK-NEXT:  %[[C15:.*]] = arith.constant 15 : i64
// CHECK-NEXT:  %[[XL:.*]] = arith.andi %[[XI]], %[[C15]] : i64
// CHECK-NEXT:  %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT:  %[[XOK:.*]] = arith.cmpi eq, %[[XL]], %[[Z]] : i64
// CHECK:       arith.andi %arg4, %{{.*}} : i32
// CHECK:       arith.andi %arg5, %{{.*}} : i32
// CHECK-NOT:   %arg2
// CHECK-NOT:   %arg3
// CHECK:       %[[OK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:  scf.if %[[OK]] {
// CHECK-NEXT:    %[[XI2:.*]] = tt.ptr_to_int %arg0 : !tt.ptr<f16> -> i64
// CHECK-NEXT:    %[[M16:.*]] = arith.constant -16 : i64
// CHECK-NEXT:    %[[XA:.*]] = arith.andi %[[XI2]], %[[M16]] : i64
// CHECK-NEXT:    %[[X:.*]] = tt.int_to_ptr %[[XA]] : i64 -> !tt.ptr<f16>
// CHECK:         tt.splat %[[X]] : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #[[$W]]>
// CHECK:         tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$W]]>
// CHECK:         ttg.convert_layout
// CHECK-NEXT:    tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$W]]>
// CHECK-NEXT:  } else {
// CHECK:         tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #[[$ROW]]>
// CHECK:         tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$ROW]]>
// CHECK:         tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$ROW]]>
// CHECK-NEXT:  }
// CHECK-NEXT:  tt.return
// EIGHT: remark: divisibility: specialized for %x, %y, %sxm, %sym divisible: 16 global accesses per thread instead of 64
// EIGHT: arith.constant 7 : i64
// EIGHT: arith.constant -8 : i64
// BAD: error: specialize-divisibility: divisor 12 is not a power of two greater than 1
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{divisibility: specialized for %x, %y, %sxm, %sym divisible: 8 global accesses per thread instead of 64}}
  tt.func public @transpose_kernel(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %M: i32, %N: i32, %sxm: i32, %sym: i32) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %rm = arith.muli %pm, %c64_i32 : i32
    %rm_0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_2 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_3 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_4 = arith.addi %rm_2, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_5 = arith.addi %rm_3, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn = arith.muli %pn, %c64_i32 : i32
    %rn_6 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_7 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn_8 = arith.addi %rn_6, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_9 = arith.addi %rn_7, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %v = tt.expand_dims %rm_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %v_10 = tt.splat %sxm : i32 -> tensor<64x1xi32, #blocked>
    %v_11 = arith.muli %v, %v_10 : tensor<64x1xi32, #blocked>
    %v_12 = tt.splat %x : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %v_13 = tt.addptr %v_12, %v_11 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %v_14 = tt.expand_dims %rn_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %v_15 = tt.broadcast %v_13 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %v_16 = tt.broadcast %v_14 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %v_17 = tt.addptr %v_15, %v_16 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %v_18 = tt.load %v_17 : tensor<64x64x!tt.ptr<f16>, #blocked>
    %t = tt.trans %v_18 {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %0 = tt.expand_dims %rn_9 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %1 = tt.splat %sym : i32 -> tensor<64x1xi32, #blocked>
    %2 = arith.muli %0, %1 : tensor<64x1xi32, #blocked>
    %3 = tt.splat %y : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %5 = tt.expand_dims %rm_5 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %6 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %7 = tt.broadcast %5 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %8 = tt.addptr %6, %7 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %9 = ttg.convert_layout %t : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    tt.store %8, %9 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Every argument is annotated: nothing to assume.
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @annotated
  // CHECK-NOT: scf.if
  // expected-remark @below {{divisibility: not specialized: every pointer and integer argument has tt.divisibility}}
  tt.func public @annotated(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tt.load %a : tensor<512x!tt.ptr<f32>, #b>
    tt.store %a, %v : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
  // A device function runs with its caller's arguments.
  // CHECK-LABEL: tt.func private @helper
  // CHECK-NOT: scf.if
  // expected-remark @below {{divisibility: not specialized: not a kernel: private}}
  tt.func private @helper(%p: !tt.ptr<f32>) {
    tt.return
  }
}

// -----

// Shared memory already allocated (ttg.shared, allocation.offset): a new
// body's buffers would have no offsets, so the kernel is left alone.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.shared = 0 : i32} {
  // CHECK-LABEL: tt.func public @allocated
  // CHECK-NOT: scf.if
  // expected-remark @below {{divisibility: not specialized: the module's shared memory is already allocated (ttg.shared)}}
  tt.func public @allocated(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tt.load %a : tensor<512x!tt.ptr<f32>, #b>
    tt.store %a, %v : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// A kernel that calls a device function is specialized like any other: the
// clone's call still finds its callee.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{divisibility: not specialized: not a kernel: private}}
  tt.func private @twice(%x: f32) -> f32 {
    %y = arith.addf %x, %x : f32
    tt.return %y : f32
  }
  // CHECK-LABEL: tt.func public @calls
  // CHECK:       scf.if
  // CHECK-COUNT-2: tt.call @twice
  // expected-remark @below {{divisibility: specialized for %p divisible: 2 global accesses per thread instead of 8}}
  tt.func public @calls(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tt.load %a : tensor<512x!tt.ptr<f32>, #b>
    %c = arith.constant 1.0 : f32
    %t = tt.call @twice(%c) : (f32) -> f32
    %ts = tt.splat %t : f32 -> tensor<512xf32, #b>
    %w = arith.addf %v, %ts : tensor<512xf32, #b>
    tt.store %a, %w : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}
