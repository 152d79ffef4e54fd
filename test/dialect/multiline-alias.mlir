// A layout alias whose value spans several lines, as Triton's
// verify-blocked-layout.mlir writes it, parses and prints on one line; an
// error inside it is reported on its own line.

// RUN: layout-opt %s | FileCheck %s
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: not layout-opt %S/Inputs/multiline-alias-bad.mlir 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK: tt.func @f(%arg0: tensor<8x2xi32, #blocked>)
// ERR: multiline-alias-bad.mlir:4:5: error: unexpected key: bogus
#blocked = #ttg.blocked<{
    sizePerThread=[1, 1],
    threadsPerWarp=[16, 2],
    warpsPerCTA=[4, 1],
    order=[0, 1]
}>
tt.func @f(%arg0: tensor<8x2xi32, #blocked>) {
  tt.return
}
