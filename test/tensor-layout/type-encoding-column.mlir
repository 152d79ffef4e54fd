// An error in an encoding written inside -t is located in the -t value:
// the column is that of the field within the whole -t text (29 here, not
// the 15 it has within the encoding alone), and the echoed line is the -t
// value.

// RUN: not tensor-layout -t 'tensor<8xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' 2>&1 \
// RUN:   | FileCheck %s --match-full-lines --strict-whitespace
// CHECK:-t:1:29: error: sizePerThread[0] = 3 is not a power of two
// CHECK-NEXT:tensor<8xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-NEXT:                            ^
