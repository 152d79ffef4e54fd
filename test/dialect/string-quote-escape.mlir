// BUG: a double quote inside a string attribute prints as \" ; MLIR's
// printer (llvm::printEscapedString) writes every '"' as \22, so
// mlir-opt prints the attribute below as "say \22hi\22".

// RUN: layout-opt %s | FileCheck %s
// CHECK: module attributes {s = "say \22hi\22"} {
module attributes {s = "say \"hi\""} {
}
