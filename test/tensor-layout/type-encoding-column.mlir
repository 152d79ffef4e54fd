// XFAIL: *
// BUG: an error in an encoding written inside -t is reported with the
// column inside the encoding text and with the encoding alone as the echoed
// line, while it is labeled "-t":
//   -t:1:15: error: sizePerThread[0] = 3 is not a power of two
//   #ttg.blocked<{sizePerThread = [3], ...}>
//                 ^
// Column 15 of the -t value is the '#'; the field is at column 29. The
// location should be in the -t value, which is the line to echo.

// RUN: not tensor-layout -t 'tensor<8xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' 2>&1 \
// RUN:   | FileCheck %s --match-full-lines --strict-whitespace
// CHECK:-t:1:29: error: sizePerThread[0] = 3 is not a power of two
// CHECK-NEXT:tensor<8xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-NEXT:                            ^
