// Attributes: dense elements (splat, nested lists, booleans, hex floats,
// negative integers), dense arrays, nested dictionaries with unit entries,
// the empty dictionary, typed floats, mixed arrays, symbol references,
// strings with escapes (printed as MLIR does: \09 \0A \\), type attributes
// and unit attributes. Printing is a fixed point and the generic form reads
// back.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// GENERIC: %cst_0 = "arith.constant"() <{value = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
// GENERIC: "tt.func"() <{function_type = () -> (), sym_name = "discardable"}> ({
// GENERIC: }) {arr = array<i32: 1, 0>, {{.*}}, unit} : () -> ()

// Escapes in the input are read, whichever way they are written.
// RUN: echo 'module attributes {s = "a\t\"b\"\n\5C"} {}' | layout-opt -keep-ssa-names | FileCheck %s --check-prefix=ESCAPES
// ESCAPES: module attributes {s = "a\09{{(\\22|\\")}}b{{(\\22|\\")}}\0A\\"} {

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @dense() {
// CHECK-NEXT:  %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked>
// CHECK-NEXT:  %cst_0 = arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:  %cst_2 = arith.constant dense<0xFF800000> : tensor<16x16xf32, #blocked>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
// CHECK-NEXT:  %cst_4 = arith.constant dense<-7> : tensor<16x16xi8, #blocked>
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @dense() {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked>
    %cst_0 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %cst_1 = arith.constant dense<[true, false]> : tensor<2xi1>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<16x16xf32, #blocked>
    %cst_3 = arith.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
    %cst_4 = arith.constant dense<-7> : tensor<16x16xi8, #blocked>
    tt.return
  }
// CHECK-LABEL: tt.func @discardable() attributes {arr = array<i32: 1, 0>, arr64 = array<i64>, bool = false, dict = {inner = {deep = 1 : i32}, x}, empty = {}, float = 2.500000e-01 : f32, list = [1 : i32, "two", @sym, [unit]], nested = @outer::@inner, str = "tab\09backslash\\newline\0A", ty = tensor<4xf16>, unit} {
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @discardable() attributes {arr = array<i32: 1, 0>, arr64 = array<i64>, bool = false, dict = {inner = {deep = 1 : i32}, x}, empty = {}, float = 2.500000e-01 : f32, list = [1 : i32, "two", @sym, [unit]], nested = @outer::@inner, str = "tab\09backslash\\newline\0A", ty = tensor<4xf16>, unit} {
    tt.return
  }
}
