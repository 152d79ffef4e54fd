// Passes given as flags run in command-line order, each with the options
// given on its flag; a pass may be given twice.

// RUN: layout-opt %s -canonicalize-layouts=form=linear -remove-redundant-conversions \
// RUN:   -dump-pass-pipeline -mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s --check-prefix=ORDER1
// ORDER1:      builtin.module(canonicalize-layouts{form=linear},remove-redundant-conversions)
// ORDER1-NEXT: // -----// IR Dump After CanonicalizeLayouts (canonicalize-layouts) //----- //
// ORDER1-NOT:  IR Dump
// ORDER1:      // -----// IR Dump After RemoveRedundantConversions (remove-redundant-conversions) //----- //
// ORDER1-NOT:  IR Dump

// RUN: layout-opt %s -remove-redundant-conversions --canonicalize-layouts='form=linear' \
// RUN:   -dump-pass-pipeline -mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s --check-prefix=ORDER2
// ORDER2:      builtin.module(remove-redundant-conversions,canonicalize-layouts{form=linear})
// ORDER2-NEXT: // -----// IR Dump After RemoveRedundantConversions (remove-redundant-conversions) //----- //
// ORDER2-NOT:  IR Dump
// ORDER2:      // -----// IR Dump After CanonicalizeLayouts (canonicalize-layouts) //----- //
// ORDER2-NOT:  IR Dump

// RUN: layout-opt %s -canonicalize-layouts -canonicalize-layouts=form=linear -dump-pass-pipeline -o %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// TWICE: builtin.module(canonicalize-layouts,canonicalize-layouts{form=linear})

// No pass at all: the input is parsed, verified and printed back.
// RUN: layout-opt %s | FileCheck %s --check-prefix=NONE
// NONE:      #blocked = #ttg.blocked<{{.*}}>
// NONE-NEXT: #linear = #ttg.linear<{{.*}}>
// NONE:      ttg.convert_layout %arg1 : tensor<128xf32, #blocked> -> tensor<128xf32, #linear>

// The option on the flag reaches the pass: form=linear writes every layout
// as #ttg.linear, the default (form=named) keeps the named one.
// RUN: layout-opt %s -canonicalize-layouts=form=linear | FileCheck %s --check-prefix=LINEAR
// LINEAR-NOT: #ttg.blocked
// LINEAR:     tt.func @round_trip(%arg0: tensor<128x!tt.ptr<f32>, #linear>, %arg1: tensor<128xf32, #linear>)
// RUN: layout-opt %s -canonicalize-layouts=form=named | FileCheck %s --check-prefix=NAMED
// RUN: layout-opt %s -canonicalize-layouts | FileCheck %s --check-prefix=NAMED
// NAMED-NOT: #ttg.linear
// NAMED:     tt.func @round_trip(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>)

// Bad option values and unknown options on a flag are errors, and nothing
// is written to standard output.
// RUN: not layout-opt %s -canonicalize-layouts=form=weird 2>&1 | FileCheck %s --check-prefix=BADVAL
// BADVAL: layout-opt: error: invalid options for -canonicalize-layouts="form=weird": pass 'canonicalize-layouts': invalid value "weird" for option 'form' (allowed: named, linear)
// RUN: not layout-opt %s -canonicalize-layouts='nope=1' 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: layout-opt: error: invalid options for -canonicalize-layouts="nope=1": pass 'canonicalize-layouts' has no option 'nope' (options: form)
// RUN: not layout-opt %s -canonicalize-layouts=form=weird 2>%t.err | count 0

// An unknown pass flag.
// RUN: not layout-opt %s -remove-every-conversion 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: layout-opt: error: unknown command line argument '-remove-every-conversion': not a flag or a registered pass (see -help and -list-passes)

// Pass flags cannot be mixed with -pass-pipeline.
// RUN: not layout-opt %s -canonicalize-layouts -pass-pipeline='builtin.module(canonicalize-layouts)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MIXED
// MIXED: layout-opt: error: '-pass-pipeline' option can't be used with individual pass options

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
