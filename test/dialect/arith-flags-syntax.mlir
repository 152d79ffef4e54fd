// The arith custom syntax for integer overflow flags and float fast-math
// flags (checked against Triton 3.6's printer): the flags follow the
// operands as `overflow<...>` / `fastmath<...>`, in MLIR's order and
// spelling, and are the dialect attributes #arith.overflow<...> and
// #arith.fastmath<...> in generic form.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: tt.func @flags
// CHECK-NEXT: %0 = arith.addi %a, %b overflow<nsw> : i32
// CHECK-NEXT: %1 = arith.muli %a, %b overflow<nsw, nuw> : i32
// CHECK-NEXT: %2 = arith.mulf %x, %y fastmath<fast> : f32
// CHECK-NEXT: %3 = arith.divf %x, %y fastmath<nnan,ninf> : f32
// CHECK-NEXT: %4 = math.sqrt %x fastmath<afn> : f32
// CHECK-NEXT: %5 = arith.subf %x, %y : f32
// CHECK-NEXT: %6 = arith.addf %x, %y fastmath<nnan,ninf> : f32
// CHECK-NEXT: %7 = arith.mulf %x, %y fastmath<fast> : f32
// GENERIC: "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
// GENERIC: "arith.mulf"(%x, %y) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
// GENERIC: "arith.divf"(%x, %y) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
// GENERIC: "arith.subf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
tt.func @flags(%a: i32, %b: i32, %x: f32, %y: f32) {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.muli %a, %b overflow<nsw, nuw> : i32
  %2 = arith.mulf %x, %y fastmath<fast> : f32
  %3 = arith.divf %x, %y fastmath<nnan,ninf> : f32
  %4 = math.sqrt %x fastmath<afn> : f32
  %5 = arith.subf %x, %y fastmath<none> : f32
  %6 = arith.addf %x, %y fastmath<ninf, nnan> : f32
  %7 = arith.mulf %x, %y fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  tt.return
}
