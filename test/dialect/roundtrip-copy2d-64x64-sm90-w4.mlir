// Round trips of copy2d_64x64_sm90_w4.ttgir, printed by Triton 3.6 (a copy of
// shared/triton36/ttgir/copy2d_64x64_sm90_w4.ttgir). Triton printed it with locations and
// MLIR's -mlir-use-nameloc-as-prefix: with -mlir-print-debuginfo and
// -keep-ssa-names the output is the input, byte for byte;
// so it is with Triton's own flags, every name coming from a location;
// by default values are named as mlir-opt names them and printing is a
// fixed point; the generic form reads back to the same module; without
// debuginfo no location is printed.

// RUN: layout-opt %S/Inputs/copy2d_64x64_sm90_w4.ttgir -mlir-print-debuginfo -keep-ssa-names | diff %S/Inputs/copy2d_64x64_sm90_w4.ttgir -
// RUN: layout-opt %S/Inputs/copy2d_64x64_sm90_w4.ttgir -mlir-print-debuginfo -mlir-use-nameloc-as-prefix | diff %S/Inputs/copy2d_64x64_sm90_w4.ttgir -
// RUN: layout-opt %S/Inputs/copy2d_64x64_sm90_w4.ttgir -o %t.custom
// RUN: layout-opt %t.custom | diff %t.custom -
// RUN: layout-opt %S/Inputs/copy2d_64x64_sm90_w4.ttgir -mlir-print-op-generic -mlir-print-debuginfo -keep-ssa-names -o %t.generic
// RUN: layout-opt %t.generic -mlir-print-debuginfo -keep-ssa-names | diff %S/Inputs/copy2d_64x64_sm90_w4.ttgir -
// RUN: layout-opt %t.generic -mlir-print-op-generic -mlir-print-debuginfo -keep-ssa-names | diff %t.generic -
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic
// RUN: FileCheck %s --check-prefix=NOLOC --implicit-check-not='loc(' < %t.custom

// GENERIC: "builtin.module"() {{[(][{]$}}
// GENERIC-NEXT: "tt.func"() {{<[{](arg_attrs = .*, )?}}function_type = ({{.*}}) -> (), sym_name = "copy2d_kernel", sym_visibility = "public"}> {{[(][{]$}}
// GENERIC-NOT: {{^ *}}tt.
// GENERIC: "tt.return"() : () -> ()
// GENERIC: }) {{.*}}"ttg.num-warps" = {{[0-9]+}} : i32{{.*}} : () -> () loc(#loc){{$}}

// NOLOC: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// NOLOC: tt.func public @copy2d_kernel(
// NOLOC: tt.return
