// -pass-pipeline (and its short form -p) takes MLIR's textual pipeline:
// an anchor op with the passes that run on it, nested pipelines for nested
// ops, and pass options in braces.

// RUN: layout-opt %s -dump-pass-pipeline -o %t \
// RUN:   -pass-pipeline='builtin.module(tt.func(remove-redundant-conversions),canonicalize-layouts{form=linear})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DUMP
// RUN: layout-opt %s -dump-pass-pipeline -o %t \
// RUN:   -p='builtin.module(tt.func(remove-redundant-conversions),canonicalize-layouts{form=linear})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DUMP
// DUMP: builtin.module(tt.func(remove-redundant-conversions),canonicalize-layouts{form=linear})

// Blanks around names and options, and quoted option values, are accepted;
// the pipeline is printed back canonically.
// RUN: layout-opt %s -dump-pass-pipeline -o %t \
// RUN:   -pass-pipeline='builtin.module( tt.func( remove-redundant-conversions ) , canonicalize-layouts{ form="named" } )' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPACES
// SPACES: builtin.module(tt.func(remove-redundant-conversions),canonicalize-layouts{form=named})

// A pass anchored on tt.func given at module level is nested implicitly.
// RUN: layout-opt %s -dump-pass-pipeline -mlir-print-ir-after-all -o %t \
// RUN:   -pass-pipeline='builtin.module(remove-redundant-conversions)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IMPLICIT
// IMPLICIT:      builtin.module(remove-redundant-conversions)
// IMPLICIT-NEXT: // -----// IR Dump After RemoveRedundantConversions (remove-redundant-conversions) //----- //
// IMPLICIT-NEXT: tt.func @round_trip(

// The pipeline runs, and both passes did their work: no conversion is
// left and every layout is written as #ttg.linear.
// RUN: layout-opt %s \
// RUN:   -pass-pipeline='builtin.module(tt.func(remove-redundant-conversions),canonicalize-layouts{form=linear})' \
// RUN:   | FileCheck %s --check-prefix=OUT
// OUT-NOT: #ttg.blocked
// OUT:     tt.func @round_trip
// OUT-NOT: ttg.convert_layout
// OUT:     arith.addf %arg1, %arg1 : tensor<128xf32, #linear>
// OUT-NOT: ttg.convert_layout
// OUT:     tt.return

// Pass flags and the same pipeline spelled with -pass-pipeline give the
// same output.
// RUN: layout-opt %s -remove-redundant-conversions -canonicalize-layouts=form=linear -o %t.flags
// RUN: layout-opt %s -pass-pipeline='builtin.module(tt.func(remove-redundant-conversions),canonicalize-layouts{form=linear})' -o %t.pipeline
// RUN: diff %t.flags %t.pipeline

// An empty pipeline is allowed and changes nothing.
// RUN: layout-opt %s -pass-pipeline='builtin.module()' -o %t.empty
// RUN: layout-opt %s -o %t.none
// RUN: diff %t.empty %t.none

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @round_trip(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>) {
    %0 = ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #linear>
    %1 = arith.addf %0, %0 : tensor<128xf32, #linear>
    %2 = ttg.convert_layout %1 : tensor<128xf32, #linear> -> tensor<128xf32, #blocked>
    tt.store %arg0, %2 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
