// Shared-memory layouts, in Triton's format: the tensor view lays the
// offsets out in the tensor's shape (offset 8r+c at row r, column c of a
// 4x8 tensor) and gives the element stored at each, "(i:j)" with each index
// padded to the width of its dimension's size, separated by ","; the hw
// view has one line per offset, "Offset: o -> (i,j)", under "Block: b:";
// -view linear gives the #ttg.shared_linear form with the alignment Triton
// gives the encoding.

// swizzled_shared: vec 2, maxPhase 4. The offset bases are [0,1], [0,2],
// [0,4], [1,2], [2,4] (encodings.mlir): offset 8r+c holds row r, column c
// XOR 2r, so the column pairs of row r are XORed with r.
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' -t 'tensor<4x8xf16>' \
// RUN:   | FileCheck %s --check-prefix=SWIZZLED --match-full-lines --strict-whitespace
// SWIZZLED:Print layout attribute: #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
// SWIZZLED-NEXT:{{\[\[}}(0:0),(0:1),(0:2),(0:3),(0:4),(0:5),(0:6),(0:7)]
// SWIZZLED-NEXT:[ (1:2),(1:3),(1:0),(1:1),(1:6),(1:7),(1:4),(1:5)]
// SWIZZLED-NEXT:[ (2:4),(2:5),(2:6),(2:7),(2:0),(2:1),(2:2),(2:3)]
// SWIZZLED-NEXT:[ (3:6),(3:7),(3:4),(3:5),(3:2),(3:3),(3:0),(3:1)]]
// SWIZZLED-EMPTY:
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' -t 'tensor<4x8xf16>' -view hw \
// RUN:   | FileCheck %s --check-prefix=SWIZZLED-HW --match-full-lines --strict-whitespace
// SWIZZLED-HW:Print layout attribute: {{.*}}
// SWIZZLED-HW-NEXT:Block: 0:
// SWIZZLED-HW-NEXT:Offset: 0 -> (0,0)
// SWIZZLED-HW-NEXT:Offset: 1 -> (0,1)
// SWIZZLED-HW:Offset: 7 -> (0,7)
// SWIZZLED-HW-NEXT:Offset: 8 -> (1,2)
// SWIZZLED-HW-NEXT:Offset: 9 -> (1,3)
// SWIZZLED-HW-NEXT:Offset: 10 -> (1,0)
// SWIZZLED-HW:Offset: 16 -> (2,4)
// SWIZZLED-HW:Offset: 30 -> (3,0)
// SWIZZLED-HW-NEXT:Offset: 31 -> (3,1)
// SWIZZLED-HW-EMPTY:

// nvmma_shared, 32-byte swizzle of f16: rows 4..7 swap their 16-byte halves
// (the last offset basis is [4, 8]). Column indices are padded to the
// width of 16.
// A !ttg.memdesc type gives the shape as well as a tensor type does.
// RUN: tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>' -t 'tensor<8x16xf16>' \
// RUN:   | FileCheck %s --check-prefix=NVMMA --match-full-lines --strict-whitespace
// NVMMA:Print layout attribute: #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// NVMMA-NEXT:{{\[\[}}(0: 0),(0: 1),(0: 2),(0: 3),(0: 4),(0: 5),(0: 6),(0: 7),(0: 8),(0: 9),(0:10),(0:11),(0:12),(0:13),(0:14),(0:15)]
// NVMMA-NEXT:[ (1: 0),{{.*}},(1:15)]
// NVMMA-NEXT:[ (2: 0),{{.*}},(2:15)]
// NVMMA-NEXT:[ (3: 0),{{.*}},(3:15)]
// NVMMA-NEXT:[ (4: 8),(4: 9),(4:10),(4:11),(4:12),(4:13),(4:14),(4:15),(4: 0),(4: 1),(4: 2),(4: 3),(4: 4),(4: 5),(4: 6),(4: 7)]
// NVMMA-NEXT:[ (5: 8),{{.*}},(5: 7)]
// NVMMA-NEXT:[ (6: 8),{{.*}},(6: 7)]
// NVMMA-NEXT:[ (7: 8),(7: 9),(7:10),(7:11),(7:12),(7:13),(7:14),(7:15),(7: 0),(7: 1),(7: 2),(7: 3),(7: 4),(7: 5),(7: 6),(7: 7)]]
// RUN: tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>' -t '!ttg.memdesc<8x16xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=NVMMA-LINEAR --match-full-lines
// NVMMA-LINEAR: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8]]}, alignment = 256>

// padded_shared with an identity order: offsets before padding, row-major.
// RUN: tensor-layout -l '#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [2, 8]}>' -t 'tensor<2x8xf16>' -view hw \
// RUN:   | FileCheck %s --check-prefix=PADDED --match-full-lines
// PADDED:      Print layout attribute: #ttg.padded_shared<[4:+2] {order = [1, 0], shape = [2, 8]}>
// PADDED-NEXT: Block: 0:
// PADDED-NEXT: Offset: 0 -> (0,0)
// PADDED-NEXT: Offset: 1 -> (0,1)
// PADDED:      Offset: 7 -> (0,7)
// PADDED-NEXT: Offset: 8 -> (1,0)
// PADDED:      Offset: 15 -> (1,7)
// PADDED-EMPTY:
// RUN: tensor-layout -l '#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 32]}>' -t 'tensor<16x32xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=PADDED-LINEAR --match-full-lines
// PADDED-LINEAR: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0]]}, alignment = 16>
// padded_shared with explicit linear bases: offsets 0..3 hold row 0,
// columns 0..3, offsets 4..7 row 1 (basis [1, 0]), and offsets 8..15 the
// same for columns 4..7 (basis [0, 4]).
// RUN: tensor-layout -l '#ttg.padded_shared<[4:+2] {offset = [[0, 1], [0, 2], [1, 0], [0, 4]], block = []}>' -t 'tensor<2x8xf16>' \
// RUN:   | FileCheck %s --check-prefix=PADDED-BASES --match-full-lines --strict-whitespace
// PADDED-BASES:Print layout attribute: #ttg.padded_shared<[4:+2] {offset = {{\[\[}}0, 1], [0, 2], [1, 0], [0, 4]], block = []}>
// PADDED-BASES-NEXT:{{\[\[}}(0:0),(0:1),(0:2),(0:3),(1:0),(1:1),(1:2),(1:3)]
// PADDED-BASES-NEXT:[ (0:4),(0:5),(0:6),(0:7),(1:4),(1:5),(1:6),(1:7)]]

// shared_linear: the bases as given; its own alignment is kept. Offset 4
// (basis [1, 2]) holds (1,2), offset 8 (basis [2, 0]) holds (2,0), offset
// 12 holds their XOR (3,2).
// RUN: tensor-layout -l '#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>' -t 'tensor<4x4xf16>' \
// RUN:   | FileCheck %s --check-prefix=SHLINEAR --match-full-lines --strict-whitespace
// SHLINEAR:Print layout attribute: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>
// SHLINEAR-NEXT:{{\[\[}}(0:0),(0:1),(0:2),(0:3)]
// SHLINEAR-NEXT:[ (1:2),(1:3),(1:0),(1:1)]
// SHLINEAR-NEXT:[ (2:0),(2:1),(2:2),(2:3)]
// SHLINEAR-NEXT:[ (3:2),(3:3),(3:0),(3:1)]]
// RUN: tensor-layout -l '#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>' -t 'tensor<4x4xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=SHLINEAR-LINEAR --match-full-lines
// SHLINEAR-LINEAR: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>
// RUN: tensor-layout -l '#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>' -t 'tensor<4x4xf16>' -view json \
// RUN:   | FileCheck %s --check-prefix=SHLINEAR-JSON --match-full-lines
// SHLINEAR-JSON: {"layout":"#ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 64>","shape":[4,4],"in_dims":[{"name":"offset","size":16,"bases":{{\[\[}}0,1],[0,2],[1,2],[2,0]]},{"name":"block","size":1,"bases":[]}],"out_dims":[{"name":"dim0","size":4},{"name":"dim1","size":4}]}

// Two CTAs, each holding its half: the tensor view lays out block 0's
// offsets, then block 1's; the hw view has a "Block: b:" section for each.
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]}>' -t 'tensor<8xf16>' \
// RUN:   | FileCheck %s --check-prefix=CTAS --match-full-lines --strict-whitespace
// CTAS:Print layout attribute: #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = {{\[\[}}1]]}>
// CTAS-NEXT:[(0),(1),(2),(3),(4),(5),(6),(7)]
// CTAS-EMPTY:
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]}>' -t 'tensor<8xf16>' -view hw \
// RUN:   | FileCheck %s --check-prefix=CTAS-HW --match-full-lines --strict-whitespace
// CTAS-HW:Block: 0:
// CTAS-HW-NEXT:Offset: 0 -> (0)
// CTAS-HW-NEXT:Offset: 1 -> (1)
// CTAS-HW-NEXT:Offset: 2 -> (2)
// CTAS-HW-NEXT:Offset: 3 -> (3)
// CTAS-HW-NEXT:Block: 1:
// CTAS-HW-NEXT:Offset: 0 -> (4)
// CTAS-HW-NEXT:Offset: 1 -> (5)
// CTAS-HW-NEXT:Offset: 2 -> (6)
// CTAS-HW-NEXT:Offset: 3 -> (7)
// CTAS-HW-EMPTY:
