// In "tensor<8x16f16>" the 'x' before the element type is missing. An
// element type never starts with a digit, so this is an error located in
// -t at the character after the dimension (it was once read as the 1-D
// tensor<8x"16f16"> and reported as a rank mismatch).

// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16f16>' 2>&1 \
// RUN:   | FileCheck %s --match-full-lines --strict-whitespace
// CHECK:-t:1:12: error: expected 'x' after the dimension 16
// CHECK-NEXT:tensor<8x16f16>
// CHECK-NEXT:           ^
// CHECK-EMPTY:
// A dimension with no element type after it is the same error.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8x16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-ELEM
// NO-ELEM: -t:1:12: error: expected 'x' after the dimension 16
