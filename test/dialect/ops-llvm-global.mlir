// llvm.mlir.global prints back as MLIR writes it: the linkage keyword, the
// symbol, the empty value parentheses, the attributes and the type; the
// linkage is the property #llvm.linkage<...>.

// RUN: layout-opt %s | FileCheck %s
// RUN: layout-opt -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

module {
  // CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  // GENERIC: linkage = #llvm.linkage<external>, sym_name = "global_smem"
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  // CHECK: llvm.mlir.global internal constant @c(1 : i32) : i32
  llvm.mlir.global internal constant @c(1 : i32) : i32
}
