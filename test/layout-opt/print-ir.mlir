// The IR printing flags write dumps to standard error, each under MLIR's
// header. A pass anchored on tt.func dumps the function; a module pass
// dumps the module.

// RUN: layout-opt %s -remove-redundant-conversions -canonicalize-layouts=form=linear -o %t \
// RUN:   -mlir-print-ir-before-all -mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=ALL
// ALL:      // -----// IR Dump Before RemoveRedundantConversions (remove-redundant-conversions) //----- //
// ALL-NEXT: tt.func @round_trip(
// ALL-NEXT:   ttg.convert_layout
// ALL:      // -----// IR Dump After RemoveRedundantConversions (remove-redundant-conversions) //----- //
// ALL-NEXT: tt.func @round_trip(
// ALL-NOT:  ttg.convert_layout
// ALL:      // -----// IR Dump Before CanonicalizeLayouts (canonicalize-layouts) //----- //
// ALL-NEXT: #blocked = #ttg.blocked
// ALL-NEXT: module attributes
// ALL:      // -----// IR Dump After CanonicalizeLayouts (canonicalize-layouts) //----- //
// ALL-NEXT: #linear = #ttg.linear
// ALL-NEXT: module attributes
// ALL-NOT:  IR Dump

// Only the dumps asked for: before-all alone has no "After" dump.
// RUN: layout-opt %s -remove-redundant-conversions -canonicalize-layouts -o %t \
// RUN:   -mlir-print-ir-before-all 2>&1 | FileCheck %s --check-prefix=BEFORE
// BEFORE-NOT: IR Dump After
// BEFORE:     IR Dump Before RemoveRedundantConversions
// BEFORE-NOT: IR Dump After
// BEFORE:     IR Dump Before CanonicalizeLayouts
// BEFORE-NOT: IR Dump After

// -mlir-print-ir-after-change skips the passes that changed nothing: the
// second canonicalize-layouts has nothing left to do.
// RUN: layout-opt %s -canonicalize-layouts -remove-redundant-conversions -canonicalize-layouts -o %t \
// RUN:   -mlir-print-ir-after-change 2>&1 | FileCheck %s --check-prefix=CHANGE
// CHANGE:     IR Dump After CanonicalizeLayouts
// CHANGE:     IR Dump After RemoveRedundantConversions
// CHANGE-NOT: IR Dump

// -mlir-print-ir-before=/-after= name the passes (an alias works too).
// RUN: layout-opt %s -remove-redundant-conversions -canonicalize-layouts -o %t \
// RUN:   -mlir-print-ir-before=canonicalize-layouts -mlir-print-ir-after=tritongpu-remove-layout-conversions 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAMED
// NAMED-NOT: IR Dump Before RemoveRedundantConversions
// NAMED:     IR Dump After RemoveRedundantConversions
// NAMED-NEXT: tt.func @round_trip(
// NAMED:     IR Dump Before CanonicalizeLayouts
// NAMED-NOT: IR Dump
// RUN: not layout-opt %s -mlir-print-ir-after=no-such-pass 2>&1 | FileCheck %s --check-prefix=NOPASS
// NOPASS: layout-opt: error: 'no-such-pass' does not refer to a registered pass

// -mlir-print-ir-module-scope dumps the whole module for a function pass
// and names the op in the header.
// RUN: layout-opt %s -remove-redundant-conversions -o %t -mlir-print-ir-after-all -mlir-print-ir-module-scope 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCOPE
// SCOPE:      // -----// IR Dump After RemoveRedundantConversions (remove-redundant-conversions) ('tt.func' operation: @round_trip) //----- //
// SCOPE-NEXT: #blocked = #ttg.blocked
// SCOPE-NEXT: module attributes

// The dumps do not go to standard output.
// RUN: layout-opt %s -remove-redundant-conversions -mlir-print-ir-after-all 2>%t.err | FileCheck %s --check-prefix=STDOUT
// STDOUT-NOT: IR Dump
// STDOUT:     module attributes

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
