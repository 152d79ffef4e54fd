// Shared-memory layouts: the tensor view gives each element's offset, the hw
// view the elements at each run of offsets, -view linear the
// #ttg.shared_linear form with the alignment Triton gives the encoding.

// swizzled_shared: vec 2, maxPhase 4 XORs row r's column pairs with r.
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' -t 'tensor<4x8xf16>' \
// RUN:   | FileCheck %s --check-prefix=SWIZZLED --match-full-lines
// SWIZZLED:      Print layout attribute: #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
// SWIZZLED-NEXT: {{\[\[}} 0,  1,  2,  3,  4,  5,  6,  7]
// SWIZZLED-NEXT:  [10, 11,  8,  9, 14, 15, 12, 13]
// SWIZZLED-NEXT:  [20, 21, 22, 23, 16, 17, 18, 19]
// SWIZZLED-NEXT:  [30, 31, 28, 29, 26, 27, 24, 25]]
// SWIZZLED-EMPTY:
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' -t 'tensor<4x8xf16>' -view hw \
// RUN:   | FileCheck %s --check-prefix=SWIZZLED-HW --match-full-lines
// SWIZZLED-HW:      Print layout attribute: {{.*}}
// SWIZZLED-HW-NEXT: offset  0: (0,0), (0,1), (0,2), (0,3), (0,4), (0,5), (0,6), (0,7), (1,2), (1,3), (1,0), (1,1), (1,6), (1,7), (1,4), (1,5)
// SWIZZLED-HW-NEXT: offset 16: (2,4), (2,5), (2,6), (2,7), (2,0), (2,1), (2,2), (2,3), (3,6), (3,7), (3,4), (3,5), (3,2), (3,3), (3,0), (3,1)
// SWIZZLED-HW-EMPTY:

// nvmma_shared, 32-byte swizzle of f16: rows 4..7 swap their 16-byte halves.
// A !ttg.memdesc type gives the shape as well as a tensor type does.
// RUN: tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>' -t 'tensor<8x16xf16>' \
// RUN:   | FileCheck %s --check-prefix=NVMMA --match-full-lines
// NVMMA:      Print layout attribute: #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// NVMMA-NEXT: {{\[\[}}  0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,  15]
// NVMMA-NEXT:  [ 16, {{.*}},  31]
// NVMMA-NEXT:  [ 32, {{.*}},  47]
// NVMMA-NEXT:  [ 48, {{.*}},  63]
// NVMMA-NEXT:  [ 72,  73,  74,  75,  76,  77,  78,  79,  64,  65,  66,  67,  68,  69,  70,  71]
// NVMMA-NEXT:  [ 88, {{.*}},  87]
// NVMMA-NEXT:  [104, {{.*}}, 103]
// NVMMA-NEXT:  [120, 121, 122, 123, 124, 125, 126, 127, 112, 113, 114, 115, 116, 117, 118, 119]]
// RUN: tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>' -t '!ttg.memdesc<8x16xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=NVMMA-LINEAR --match-full-lines
// NVMMA-LINEAR: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8]]}, alignment = 256>

// padded_shared with an identity order: offsets before padding.
// RUN: tensor-layout -l '#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [2, 8]}>' -t 'tensor<2x8xf16>' -view hw \
// RUN:   | FileCheck %s --check-prefix=PADDED --match-full-lines
// PADDED:      Print layout attribute: #ttg.padded_shared<[4:+2] {order = [1, 0], shape = [2, 8]}>
// PADDED-NEXT: offset  0: (0,0), (0,1), (0,2), (0,3), (0,4), (0,5), (0,6), (0,7), (1,0), (1,1), (1,2), (1,3), (1,4), (1,5), (1,6), (1,7)
// RUN: tensor-layout -l '#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 32]}>' -t 'tensor<16x32xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=PADDED-LINEAR --match-full-lines
// PADDED-LINEAR: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0]]}, alignment = 16>
// padded_shared with explicit linear bases.
// RUN: tensor-layout -l '#ttg.padded_shared<[4:+2] {offset = [[0, 1], [0, 2], [1, 0], [0, 4]], block = []}>' -t 'tensor<2x8xf16>' \
// RUN:   | FileCheck %s --check-prefix=PADDED-BASES --match-full-lines
// PADDED-BASES:      Print layout attribute: #ttg.padded_shared<[4:+2] {offset = {{\[\[}}0, 1], [0, 2], [1, 0], [0, 4]], block = []}>
// PADDED-BASES-NEXT: {{\[\[}} 0,  1,  2,  3,  8,  9, 10, 11]
// PADDED-BASES-NEXT:  [ 4,  5,  6,  7, 12, 13, 14, 15]]

// shared_linear: the bases as given; its own alignment is kept.
// RUN: tensor-layout -l '#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>' -t 'tensor<4x4xf16>' \
// RUN:   | FileCheck %s --check-prefix=SHLINEAR --match-full-lines
// SHLINEAR:      Print layout attribute: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>
// SHLINEAR-NEXT: {{\[\[}} 0,  1,  2,  3]
// SHLINEAR-NEXT:  [ 6,  7,  4,  5]
// SHLINEAR-NEXT:  [ 8,  9, 10, 11]
// SHLINEAR-NEXT:  [14, 15, 12, 13]]
// RUN: tensor-layout -l '#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>' -t 'tensor<4x4xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=SHLINEAR-LINEAR --match-full-lines
// SHLINEAR-LINEAR: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>
// RUN: tensor-layout -l '#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>' -t 'tensor<4x4xf16>' -view json \
// RUN:   | FileCheck %s --check-prefix=SHLINEAR-JSON --match-full-lines
// SHLINEAR-JSON: {"layout":"#ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>","shape":[4,4],"in_dims":[{"name":"offset","size":16,"bases":{{\[\[}}0,1],[0,2],[1,2],[2,0]]},{"name":"block","size":1,"bases":[]}],"out_dims":[{"name":"dim0","size":4},{"name":"dim1","size":4}]}
