// XFAIL: *
// BUG: the encoding of a !ttg.memdesc type given with -t (and no -l) is
// read together with the memory space after it, so the usual memdesc
// spelling fails with
//   -t:1:87: error: unexpected ", #ttg.shared_memory" after the attribute
// The first encoding parameter is the layout; the memory space (and
// "mutable") should be skipped, as the package doc says -t accepts
// "!ttg.memdesc<64x64xf16, #shared, #smem>".

// RUN: tensor-layout -t '!ttg.memdesc<8x16xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>' -view linear \
// RUN:   | FileCheck %s --match-full-lines
// CHECK: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8]]}, alignment = 256>
