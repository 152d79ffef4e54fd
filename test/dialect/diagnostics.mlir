// Diagnostics as the user sees them: "FILE:LINE:COL: error: MESSAGE", the
// source line and a caret under the column, notes after their error,
// several errors of one file at once (the parser recovers at the next
// line), exit status 1 and no output.

// RUN: split-file %s %t
// RUN: not layout-opt %t/encoding.mlir 2>&1 | FileCheck %s --check-prefix=ENCODING --match-full-lines --strict-whitespace
// RUN: not layout-opt %t/several.mlir 2>&1 | FileCheck %s --check-prefix=SEVERAL
// RUN: not layout-opt %t/verifier.mlir 2>&1 | FileCheck %s --check-prefix=VERIFIER
// RUN: not layout-opt %t/several.mlir 2>/dev/null | count 0
// RUN: not layout-opt %S/Inputs/deep-regions.mlir 2>&1 | FileCheck %s --check-prefix=DEEP

// A bad field of an encoding is located at the field.
// ENCODING:{{.*}}encoding.mlir:2:96: error: unexpected key: bogus
// ENCODING-NEXT:#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>
// ENCODING-NEXT:                                                                                               ^
// ENCODING-EMPTY:

// SEVERAL:      several.mlir:2:23: error: use of undeclared SSA value name '%x'
// SEVERAL-NEXT:   %0 = arith.addi %a, %x : i32
// SEVERAL-NEXT:                       ^
// SEVERAL-NEXT: several.mlir:3:19: error: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'
// SEVERAL-NEXT:   %1 = arith.muli %a, %a : f32
// SEVERAL-NEXT:                   ^
// SEVERAL-NEXT: several.mlir:1:12: note: prior use here
// SEVERAL-NEXT: tt.func @f(%a: i32) {
// SEVERAL-NEXT:            ^
// SEVERAL-NEXT: several.mlir:4:22: error: expected ','
// SEVERAL-NOT:  error

// Verifier errors come with the op in generic form as a note.
// VERIFIER:      verifier.mlir:5:10: error: 'tt.make_range' op invalid encoding #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>: Layout has 4 warps per CTA, but the context requires 8 warps per CTA
// VERIFIER:      verifier.mlir:5:10: note: see current operation: %0 = "tt.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>

// Regions nest at most 512 deep; the first error says so.
// DEEP: deep-regions.mlir:2:{{[0-9]+}}: error: nesting too deep (limit 512)

//--- encoding.mlir
// A comment line, then the bad alias.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>
//--- several.mlir
tt.func @f(%a: i32) {
  %0 = arith.addi %a, %x : i32
  %1 = arith.muli %a, %a : f32
  %2 = arith.subi %a %a : i32
  tt.return
}
//--- verifier.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    // The layout has 4 warps, the module 8.
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}
