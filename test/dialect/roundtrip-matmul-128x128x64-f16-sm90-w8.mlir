// Round trips of matmul_128x128x64_f16_sm90_w8.ttgir, printed by Triton 3.6 (a copy of
// shared/triton36/ttgir/matmul_128x128x64_f16_sm90_w8.ttgir). Triton printed it with locations and
// MLIR's -mlir-use-nameloc-as-prefix: with -mlir-print-debuginfo and
// -keep-ssa-names the output is the input, byte for byte;
// with Triton's own flags it is too up to the first scf.for, whose region
// arguments Triton named after name locations that scf.for's syntax does
// not print, so that from the text they are %argN (as in MLIR);
// by default values are named as mlir-opt names them and printing is a
// fixed point; the generic form reads back to the same module; without
// debuginfo no location is printed.

// RUN: layout-opt %S/Inputs/matmul_128x128x64_f16_sm90_w8.ttgir -mlir-print-debuginfo -keep-ssa-names | diff %S/Inputs/matmul_128x128x64_f16_sm90_w8.ttgir -
// RUN: layout-opt %S/Inputs/matmul_128x128x64_f16_sm90_w8.ttgir -mlir-print-debuginfo -mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=TRITON
// RUN: layout-opt %S/Inputs/matmul_128x128x64_f16_sm90_w8.ttgir -o %t.custom
// RUN: layout-opt %t.custom | diff %t.custom -
// RUN: layout-opt %S/Inputs/matmul_128x128x64_f16_sm90_w8.ttgir -mlir-print-op-generic -mlir-print-debuginfo -keep-ssa-names -o %t.generic
// RUN: layout-opt %t.generic -mlir-print-debuginfo -keep-ssa-names | diff %S/Inputs/matmul_128x128x64_f16_sm90_w8.ttgir -
// RUN: layout-opt %t.generic -mlir-print-op-generic -mlir-print-debuginfo -keep-ssa-names | diff %t.generic -
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic
// RUN: FileCheck %s --check-prefix=NOLOC --implicit-check-not='loc(' < %t.custom

// GENERIC: "builtin.module"() {{[(][{]$}}
// GENERIC-NEXT: "tt.func"() {{<[{](arg_attrs = .*, )?}}function_type = ({{.*}}) -> (), sym_name = "matmul_kernel", sym_visibility = "public"}> {{[(][{]$}}
// GENERIC-NOT: {{^ *}}tt.
// GENERIC: "tt.return"() : () -> ()
// GENERIC: }) {{.*}}"ttg.num-warps" = {{[0-9]+}} : i32{{.*}} : () -> () loc(#loc){{$}}

// NOLOC: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// NOLOC: tt.func public @matmul_kernel(
// NOLOC: tt.return

// TRITON: tt.func public @matmul_kernel(%a: !tt.ptr<f16> loc("a"(#loc)), %b: !tt.ptr<f16
// TRITON: %acc:3 = scf.for %arg12 = %c0_i32 to %1 step %c1_i32 iter_args(%arg13 = %cst, %arg14 = %ap_30, %arg15 = %bp_41)
