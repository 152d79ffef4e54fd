// Triton's name of the pass, -tritongpu-remove-layout-conversions, is an
// alias of -remove-redundant-conversions: as a flag and in a pipeline, it
// runs the same pass (printed under its own name) with the same result.
// The input is a Triton 3.6 kernel (transpose, before the pass).

// RUN: layout-opt %S/Inputs/transpose_64x64_f32_sm90_w4.pre.ttgir -tritongpu-remove-layout-conversions -o %t.alias
// RUN: layout-opt %S/Inputs/transpose_64x64_f32_sm90_w4.pre.ttgir -remove-redundant-conversions -o %t.name
// RUN: diff %t.alias %t.name
// RUN: layout-opt %S/Inputs/transpose_64x64_f32_sm90_w4.pre.ttgir -o %t.pipeline \
// RUN:   -pass-pipeline='builtin.module(tt.func(tritongpu-remove-layout-conversions))'
// RUN: diff %t.alias %t.pipeline

// The alias did remove conversions: the input has fourteen, only the one
// after the transpose is left.
// RUN: FileCheck %s --check-prefix=BEFORE < %S/Inputs/transpose_64x64_f32_sm90_w4.pre.ttgir
// BEFORE-COUNT-14: ttg.convert_layout
// BEFORE-NOT:      ttg.convert_layout
// RUN: FileCheck %s --check-prefix=AFTER < %t.alias
// AFTER:     tt.func public @transpose_kernel
// AFTER-NOT: ttg.convert_layout
// AFTER:     %[[T:[0-9]+]] = tt.trans
// AFTER-NOT: ttg.convert_layout
// Aliases are regenerated as MLIR prints them: the input's #blocked5 and
// #blocked4 are the only blocked layouts left, now #blocked1 and #blocked —
// the same line as in Triton's own output.
// AFTER:     ttg.convert_layout %[[T]] : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
// AFTER-NOT: ttg.convert_layout
// AFTER:     tt.return

// RUN: layout-opt %S/Inputs/transpose_64x64_f32_sm90_w4.pre.ttgir -tritongpu-remove-layout-conversions \
// RUN:   -dump-pass-pipeline -o %t 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: builtin.module(remove-redundant-conversions)

// -help lists the alias under the pass.
// RUN: layout-opt -help | FileCheck %s --check-prefix=HELP
// HELP:      --remove-redundant-conversions
// HELP-NEXT: --tritongpu-remove-layout-conversions - Alias for --remove-redundant-conversions
