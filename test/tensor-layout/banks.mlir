// -view banks: warp 0's first access instruction of -l REG against -shared
// SHARED as text, one line per lane (its vector's elements and offsets, the
// banks of its words, its wavefront), ending with exactly one line
// "bank conflicts: N", N as Triton 3.6's get_shared_bank_conflicts counts
// it. The values below were measured with Triton 3.6.0 (the research note's
// worked example and table, and rows of the bank-conflict oracle).

// Storing a 32×32 f32 tile row-major: 128-bit vectors, quarter warps of 8
// lanes, rows r and r+1 of each quarter warp on the same banks (Triton: 1).
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>' -t 'tensor<32x32xf32>' -view banks \
// RUN:   | FileCheck %s --check-prefix=ROWMAJOR
// ROWMAJOR: warp 0, first access instruction: 128-bit vectors (4 × 32-bit elements per lane); 4 lane group(s) of 8 lanes, served one after the other
// ROWMAJOR-NEXT: lane  group  elements                         offsets  banks  wavefront
// ROWMAJOR-NEXT: 0     0      (0, 0) (0, 1) (0, 2) (0, 3)      0-3      0-3    0
// ROWMAJOR-NEXT: 1     0      (0, 4) (0, 5) (0, 6) (0, 7)      4-7      4-7    0
// ROWMAJOR:      4     0      (1, 0) (1, 1) (1, 2) (1, 3)      32-35    0-3    1
// ROWMAJOR:      31    3      (7, 12) (7, 13) (7, 14) (7, 15)  236-239  12-15  7
// ROWMAJOR-NEXT: wavefronts: 8 for 4 lane group(s)
// ROWMAJOR-NEXT: bank conflicts: 1
// ROWMAJOR-EMPTY:

// A warp reading a column of a row-major tile: a 32-way conflict (Triton:
// 31); the swizzle with maxPhase = 32 removes it (Triton: 0).
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>' -t 'tensor<32x32xf32>' -view banks \
// RUN:   | FileCheck %s --check-prefix=COLUMN
// COLUMN: 32-bit vectors (1 × 32-bit elements per lane); 1 lane group(s) of 32 lanes
// COLUMN: 1     0      (1, 0)    32       0      1
// COLUMN: 31    0      (31, 0)   992      0      31
// COLUMN-NEXT: wavefronts: 32 for 1 lane group(s)
// COLUMN-NEXT: bank conflicts: 31
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>' -t 'tensor<32x32xf32>' -view banks \
// RUN:   | FileCheck %s --check-prefix=SWIZZLED
// SWIZZLED: 1     0      (1, 0)    33       1      0
// SWIZZLED: wavefronts: 1 for 1 lane group(s)
// SWIZZLED-NEXT: bank conflicts: 0
// SWIZZLED-NOT: bank conflicts

// The element width comes from the type: the same layouts on f16 and on i8.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>' \
// RUN:   -shared '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>' -t 'tensor<64x64xf16>' -view banks \
// RUN:   | FileCheck %s --check-prefix=NVMMA
// NVMMA: 128-bit vectors (8 × 16-bit elements per lane); 4 lane group(s) of 8 lanes
// NVMMA: bank conflicts: 0

// Triton's count is a formula over the lanes' span, not a count of lines per
// bank: on this oracle row Triton says 0 where two lines share a bank, and
// the view says so before the count.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [0, 1]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 2, order = [0, 1]}>' -t 'tensor<64x64xi8>' -view banks \
// RUN:   | FileCheck %s --check-prefix=FORMULA
// FORMULA: wavefronts: 2 for 1 lane group(s) (counting lines per bank; Triton's formula below counts 0 excess per group)
// FORMULA-NEXT: bank conflicts: 0

// Errors are located in the flag they come from, and exit 1.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>' -t 'tensor<16xf32>' -view banks 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL --match-full-lines --strict-whitespace
// SMALL:-t:1:8: error: smem: the tensor has 16 elements, fewer than a vector of 4 times a bank line of 8: Triton aborts (reshapeIns)
// SMALL-NEXT:tensor<16xf32>
// SMALL-NEXT:       ^
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>' -t 'tensor<256xf32>' -view banks 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANK
// RANK: -shared:1:1: error: shape [256] has rank 1, but the layout #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}> has rank 2
// RUN: not tensor-layout -l '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>' -t 'tensor<256xf32>' -view banks 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-REG
// NOT-REG: -l:1:1: error: -view banks needs a distributed (register) layout here; #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}> is not
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], vek = 2}>' -t 'tensor<256xf32>' -view banks 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-SHARED
// BAD-SHARED: -shared:1:
// BAD-SHARED-SAME: error: unexpected key: vek
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<256xf32>' -view banks 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-SHARED
// NO-SHARED: tensor-layout: error: -view banks shows an access to shared memory: give -l REG -shared SHARED -t TYPE
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>' -t 'tensor<256xf32>' -view hw 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG-VIEW
// WRONG-VIEW: tensor-layout: error: -shared shows one access: give -view banks (text) or -view svg

// Rank-3 nvmma_shared (a leading batch dimension): Triton 3.6 needs
// `rank = 3` in the attribute (it prints it so); its count for this oracle
// row is 1. Without it Triton aborts, and we point at the missing rank.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [4, 4, 2], warpsPerCTA = [2, 1, 1], order = [0, 2, 1]}>' \
// RUN:   -shared '#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 32, rank = 3}>' -t 'tensor<4x4x64xf32>' -view banks \
// RUN:   | FileCheck %s --check-prefix=RANK3
// RANK3: 64-bit vectors (2 × 32-bit elements per lane); 2 lane group(s) of 16 lanes
// RANK3: bank conflicts: 1
// RUN: tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32, rank = 3}>' -t 'tensor<32x4x64xf32>' -view linear \
// RUN:   | FileCheck %s --check-prefix=RANK3-LL
// RANK3-LL: #ttg.shared_linear<{offset = {{\[\[}}0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 1, 0], [0, 2, 4], [1, 0, 8], [2, 0, 0], [4, 0, 0], [8, 0, 0], [16, 0, 0], [0, 0, 16], [0, 0, 32]]}, alignment = 512>
// RUN: not tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>' -t 'tensor<32x4x64xf32>' -view linear 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANK3-MISSING
// RANK3-MISSING: error: shape [32, 4, 64] has rank 3, but the layout #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}> has rank 2 (write rank = 3 in the attribute, as Triton prints a rank-3 nvmma_shared layout)
