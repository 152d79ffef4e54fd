// With no -l, the layout of a !ttg.memdesc type given with -t is its
// encoding: the first parameter after the element type. The memory space
// (and "mutable", and an allocation shape) after it are skipped; this was
// once read together with the encoding and failed with
//   -t:1:87: error: unexpected ", #ttg.shared_memory" after the attribute

// RUN: tensor-layout -t '!ttg.memdesc<8x16xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>' -view linear \
// RUN:   | FileCheck %s --match-full-lines
// CHECK: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8]]}, alignment = 256>

// "mutable" and an allocation shape are skipped too; so is a memory space
// given as an alias.
// RUN: tensor-layout -t '!ttg.memdesc<8x16xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>, #smem, mutable, 2x8x16>' -view linear \
// RUN:   | FileCheck %s --match-full-lines

// A tensor type has a single encoding: a second parameter is an error,
// located at its comma.
// RUN: not tensor-layout -t 'tensor<8x16xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TENSOR-TWO
// TENSOR-TWO: -t:1:104: error: unexpected ", #ttg.shared_memory" after the encoding
