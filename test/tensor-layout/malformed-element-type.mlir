// XFAIL: *
// BUG: in "tensor<8x16f16>" (the 'x' before the element type is missing)
// the shape parser stops at "16f16" and takes it as the element type, so
// the type reads as a 1-D tensor<8x"16f16"> and the error is a confusing
// rank mismatch:
//   tensor-layout: error: shape [8] has rank 1, but the layout ... has rank 2
// An element type cannot start with a digit; the error should be located
// in -t, as the other malformed types are.

// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16f16>' 2>&1 \
// RUN:   | FileCheck %s
// CHECK: -t:1:{{[0-9]+}}: error:
// CHECK-NEXT: tensor<8x16f16>
