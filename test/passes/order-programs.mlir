// RUN: layout-opt %s -split-input-file -order-programs -verify-diagnostics | FileCheck %s

// A 2-D tile copy: pid x picks rows (a runtime stride apart), pid y columns
// (64 elements apart): the programs are renumbered with y fastest from the
// launch position, and every read of a program id uses the new numbering.
// CHECK-LABEL: tt.func public @copy2d
// CHECK-NEXT:    %[[X:.*]] = tt.get_program_id x : i32
// CHECK-NEXT:    %[[Y:.*]] = tt.get_program_id y : i32
// CHECK-NEXT:    %[[NX:.*]] = tt.get_num_programs x : i32
// CHECK-NEXT:    %[[NY:.*]] = tt.get_num_programs y : i32
// CHECK-NEXT:    %[[T:.*]] = arith.muli %[[Y]], %[[NX]] : i32
// CHECK-NEXT:    %[[LIN:.*]] = arith.addi %[[X]], %[[T]] : i32
// CHECK-NEXT:    %[[QX:.*]] = arith.divui %[[LIN]], %[[NY]] : i32
// CHECK-NEXT:    %[[QY:.*]] = arith.remui %[[LIN]], %[[NY]] : i32
// CHECK-NEXT:    %[[LIM:.*]] = arith.constant 65535 : i32
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ule, %[[NX]], %[[LIM]] : i32
// CHECK-NEXT:    %[[PX:.*]] = arith.select %[[OK]], %[[QX]], %[[X]] : i32
// CHECK-NEXT:    %[[PY:.*]] = arith.select %[[OK]], %[[QY]], %[[Y]] : i32
// CHECK-NOT:     tt.get_program_id
// CHECK:         arith.muli %[[PX]], %c64_i32
// CHECK-NOT:     tt.get_program_id
// CHECK:         arith.muli %[[PY]], %c64_i32
// CHECK-NOT:     tt.get_program_id
// CHECK:         tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{program order: y fastest (stores move by 128 bytes with y, a runtime stride with x)}}
  tt.func public @copy2d(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %sxm: i32 {tt.divisibility = 16 : i32}, %sym: i32 {tt.divisibility = 16 : i32}) {
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

// The same tile stored transposed (y[col][row]): the store moves with pid x
// by 64 elements and with pid y by a runtime stride, so the launch order
// (x fastest) already makes neighbouring programs store side by side.
// CHECK-LABEL: tt.func public @transposed
// CHECK:         tt.get_program_id x
// CHECK-NEXT:    tt.get_program_id y
// CHECK-NOT:     tt.get_num_programs
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark-re @below {{program order: launch order (a store at {{.*}}:{{[0-9]+}}:5 moves with program id y by a step not known at compile time)}}
  tt.func public @transposed(%y: !tt.ptr<f32>, %sym: i32) {
    %c64_i32 = arith.constant 64 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %m = arith.muli %pm, %c64_i32 : i32
    %n = arith.muli %pn, %c64_i32 : i32
    %row = arith.muli %n, %sym : i32
    %o = arith.addi %row, %m : i32
    %os = tt.splat %o : i32 -> tensor<128xi32, #blocked>
    %off = arith.addi %os, %r : tensor<128xi32, #blocked>
    %base = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %base, %off : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = arith.sitofp %off : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
    tt.store %p, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Loop-carried pointers are not analysed: launch order.
// CHECK-LABEL: tt.func public @loop
// CHECK-NOT:     tt.get_num_programs
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark-re @below {{program order: launch order (a store at {{.*}} moves with program id y by a step not known at compile time)}}
  tt.func public @loop(%y: !tt.ptr<f32>, %sym: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %row = arith.muli %pm, %sym : i32
    %o = arith.addi %row, %pn : i32
    %p0 = tt.addptr %y, %o : !tt.ptr<f32>, i32
    %f = arith.constant 1.0 : f32
    %p = scf.for %i = %c0 to %c4 step %c1 iter_args(%q = %p0) -> (!tt.ptr<f32>) : i32 {
      tt.store %q, %f : !tt.ptr<f32>
      %q1 = tt.addptr %q, %c1 : !tt.ptr<f32>, i32
      scf.yield %q1 : !tt.ptr<f32>
    }
    tt.return
  }
}
