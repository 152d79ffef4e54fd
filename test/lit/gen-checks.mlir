// gen-checks drafts FileCheck lines from a tool's output, as MLIR's
// generate-test-checks.py does: a label per function, its arguments on
// CHECK-SAME lines, SSA values and attribute aliases captured. (The
// drafted lines are FileCheck patterns themselves, so GEN{LITERAL} checks
// them as plain text.)

// RUN: layout-opt %s -remove-redundant-conversions > %t.out
// RUN: gen-checks %t.out > %t.chk
// RUN: FileCheck %s --check-prefix=GEN --input-file %t.chk
// GEN{LITERAL}:      // CHECK: #[[$BLOCKED:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// GEN-NEXT{LITERAL}: // CHECK-LABEL: tt.func @round_trip(
// GEN-NEXT{LITERAL}: // CHECK-SAME:  %[[ARG0:[a-zA-Z0-9$._-]+]]: tensor<128x!tt.ptr<f32>, #[[$BLOCKED]]>,
// GEN-NEXT{LITERAL}: // CHECK-SAME:  %[[ARG1:[a-zA-Z0-9$._-]+]]: tensor<128xf32, #[[$BLOCKED]]>) {
// GEN-NEXT{LITERAL}: // CHECK:           %[[VAL_0:.*]] = arith.addf %[[ARG1]], %[[ARG1]] : tensor<128xf32, #[[$BLOCKED]]>
// GEN-NEXT{LITERAL}: // CHECK:           tt.store %[[ARG0]], %[[VAL_0]] : tensor<128x!tt.ptr<f32>, #[[$BLOCKED]]>
// GEN-NEXT{LITERAL}: // CHECK:           tt.return
// GEN-NEXT{LITERAL}: // CHECK:         }

// The drafted checks pass on the output they came from and fail on other
// output (here the input, before the pass).
// RUN: FileCheck %t.chk --input-file %t.out --enable-var-scope
// RUN: layout-opt %s > %t.orig
// RUN: not FileCheck %t.chk --input-file %t.orig --enable-var-scope

// Reading standard input, with another prefix and comment leader.
// RUN: gen-checks -check-prefix=OUT -comment=';' < %t.out | FileCheck %s --check-prefix=PREFIX
// PREFIX: ; OUT-LABEL: tt.func @round_trip(

// --source FILE -i puts the checks into a test (a copy of
// Inputs/gen-source.mlir, which has none), before the function, and the
// updated test passes; running it again changes nothing.
// RUN: cat %S/Inputs/gen-source.mlir > %t.mlir
// RUN: not FileCheck %t.mlir --input-file %t.out
// RUN: layout-opt %t.mlir -remove-redundant-conversions | gen-checks --source %t.mlir -i
// RUN: FileCheck %t.mlir --input-file %t.out --enable-var-scope
// RUN: FileCheck %s --check-prefix=UPDATED --input-file %t.mlir
// UPDATED{LITERAL}: // CHECK-LABEL: tt.func @round_trip(
// UPDATED{LITERAL}: // CHECK:         }
// UPDATED-NEXT:     tt.func @round_trip(
// RUN: cat %t.mlir > %t.once
// RUN: layout-opt %t.mlir -remove-redundant-conversions | gen-checks --source %t.mlir -i
// RUN: diff %t.once %t.mlir

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
