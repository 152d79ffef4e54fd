// Each encoding kind on a tensor, -view linear. The expected bases are
// those of the named case of Triton's LinearLayoutConversionsTest.cpp
// (shared/vectors/triton_linear_layout.json), where one exists.

// blocked, several CTAs: CTAsPerCGA = [4] split over 2 CTAs, so two CTAs hold the same half (CTADuplication, case 1).
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [4], order = [0], CTAsPerCGA = [4], CTASplitNum = [2], CTAOrder = [0]}>' \
// RUN:   -t 'tensor<32xf32>' -view linear | FileCheck %s --check-prefix=BLOCKED-CTA --match-full-lines
// BLOCKED-CTA: #ttg.linear<{register = [], lane = {{\[\[}}1], [2]], warp = {{\[\[}}4], [8]], block = {{\[\[}}16], [0]]}>

// nvidia_mma v2 (MMAv2_32x32, case 1).
// RUN: tensor-layout -l '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>' \
// RUN:   -t 'tensor<32x32xf32>' -view linear | FileCheck %s --check-prefix=MMAV2 --match-full-lines
// MMAV2: #ttg.linear<{register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [16, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>

// nvidia_mma v3 (wgmma): 4x2 warps, repeated along M (MMAv3_4x2Warps, case 4).
// RUN: tensor-layout -l '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>' \
// RUN:   -t 'tensor<256x64xf32>' -view linear | FileCheck %s --check-prefix=MMAV3 --match-full-lines
// MMAV3: #ttg.linear<{register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [64, 0], [128, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0], [0, 32]], block = []}>

// dot_op A of mma v2, kWidth 8 (DotMMAv2_tile_kwidth8, case 1).
// RUN: tensor-layout -l '#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>' \
// RUN:   -t 'tensor<16x64xf16>' -view linear | FileCheck %s --check-prefix=DOT-A --match-full-lines
// DOT-A: #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [8, 0], [0, 32]], lane = {{\[\[}}0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>

// dot_op B of mma v2, kWidth 8 (DotMMAv2_tile_kwidth8, case 2).
// RUN: tensor-layout -l '#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>' \
// RUN:   -t 'tensor<64x8xf16>' -view linear | FileCheck %s --check-prefix=DOT-B --match-full-lines
// DOT-B: #ttg.linear<{register = {{\[\[}}1, 0], [2, 0], [4, 0], [32, 0]], lane = {{\[\[}}8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], warp = [], block = []}>

// dot_op A of mma v3, kWidth 2 (DotMMAv3_warp4_kwidth2, case 3).
// RUN: tensor-layout -l '#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 8]}>, kWidth = 2}>' \
// RUN:   -t 'tensor<128x32xf16>' -view linear | FileCheck %s --check-prefix=DOT-V3 --match-full-lines
// DOT-V3: #ttg.linear<{register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [64, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]], block = []}>

// slice of a dot_op (SliceDot, case 1).
// RUN: tensor-layout -l '#ttg.slice<{dim = 1, parent = #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>}>' \
// RUN:   -t 'tensor<16xf16>' -view linear | FileCheck %s --check-prefix=SLICE-DOT --match-full-lines
// SLICE-DOT: #ttg.linear<{register = {{\[\[}}8]], lane = {{\[\[}}0], [0], [1], [2], [4]], warp = [], block = []}>

// amd_mfma 32x32 (MFMA32_2x4Warps, case 2).
// RUN: tensor-layout -l '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = false}>' \
// RUN:   -t 'tensor<64x32xf32>' -view linear | FileCheck %s --check-prefix=MFMA --match-full-lines
// MFMA: #ttg.linear<{register = {{\[\[}}1, 0], [2, 0], [8, 0], [16, 0]], lane = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], warp = {{\[\[}}0, 0], [0, 0], [32, 0]], block = []}>

// dot_op A of amd_mfma, kWidth 4 (MFMA32_dot_op_lhs_kwidth4, case 1).
// RUN: tensor-layout -l '#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = false}>, kWidth = 4}>' \
// RUN:   -t 'tensor<128x128xf16>' -view linear | FileCheck %s --check-prefix=MFMA-DOT --match-full-lines
// MFMA-DOT: #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [64, 0]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], warp = {{\[\[}}0, 0], [0, 0], [32, 0]], block = []}>

// amd_wmma v1 (WMMA_v1_2x4Warps, case 2).
// RUN: tensor-layout -l '#ttg.amd_wmma<{version = 1, warpsPerCTA = [2, 4]}>' \
// RUN:   -t 'tensor<32x16xf32>' -view linear | FileCheck %s --check-prefix=WMMA1 --match-full-lines
// WMMA1: #ttg.linear<{register = {{\[\[}}2, 0], [4, 0], [8, 0]], lane = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], warp = {{\[\[}}0, 0], [0, 0], [16, 0]], block = []}>

// amd_wmma v2 (WMMA_v2_2x4Warps, case 2).
// RUN: tensor-layout -l '#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 4]}>' \
// RUN:   -t 'tensor<32x16xf32>' -view linear | FileCheck %s --check-prefix=WMMA2 --match-full-lines
// WMMA2: #ttg.linear<{register = {{\[\[}}1, 0], [2, 0], [4, 0]], lane = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], warp = {{\[\[}}0, 0], [0, 0], [16, 0]], block = []}>

// swizzled_shared: vec 2, maxPhase 4 (SharedSwizzled2D_Vec, case 1).
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' \
// RUN:   -t 'tensor<4x8xf16>' -view linear | FileCheck %s --check-prefix=SWIZZLED --match-full-lines
// SWIZZLED: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [1, 2], [2, 4]]}, alignment = 16>

// nvmma_shared, 64-byte swizzle (LeadingOffset_8x32_2_4, case 1).
// RUN: tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>' \
// RUN:   -t 'tensor<8x32xf16>' -view linear | FileCheck %s --check-prefix=NVMMA --match-full-lines
// NVMMA: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 8], [4, 16]]}, alignment = 512>
// amd_mfma transposed, with 2x2 tiles per warp (MFMA16_2x4Warps_tpw_2_2, case 4).
// RUN: tensor-layout -l '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16, 16], isTransposed = true, tilesPerWarp = [2, 2]}>' \
// RUN:   -t 'tensor<32x32xf32>' -view linear | FileCheck %s --check-prefix=MFMA-TPW --match-full-lines
// MFMA-TPW: #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 16], [16, 0]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]], warp = {{\[\[}}0, 0], [0, 0], [0, 0]], block = []}>

// amd_rotating_shared (AMDRotatingShared2D_64x64, case 1).
// RUN: tensor-layout -l '#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>' \
// RUN:   -t 'tensor<64x64xf16>' -view linear | FileCheck %s --check-prefix=ROTATING --match-full-lines
// ROTATING: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 4], [4, 8], [8, 4], [16, 8], [32, 0]]}, alignment = 16>

// A #ttg.linear encoding is its own linear form.
// RUN: tensor-layout -l '#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0]], block = []}>' \
// RUN:   -t 'tensor<32x8xf32>' -view linear | FileCheck %s --check-prefix=LINEAR --match-full-lines
// LINEAR: #ttg.linear<{register = {{\[\[}}0, 1], [8, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0]], block = []}>

// Tensor memory (TensorMemory_blockM_64, case 1): in-dims row, col, block;
// only -view json shows its bases (see errors.mlir for -view linear).
// RUN: tensor-layout -l '#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>' \
// RUN:   -t 'tensor<128x64xf32>' -view json | FileCheck %s --check-prefix=TMEM --match-full-lines
// TMEM: {"layout":"#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>","shape":[128,64],"in_dims":[{"name":"row","size":128,"bases":{{\[\[}}1,0],[2,0],[4,0],[8,0],[64,0],[16,0],[32,0]]},{"name":"col","size":64,"bases":{{\[\[}}0,1],[0,2],[0,4],[0,8],[0,16],[0,32]]},{"name":"block","size":1,"bases":[]}],"out_dims":[{"name":"dim0","size":128},{"name":"dim1","size":64}]}
// The tensor view gives "row:col" per element; rows 0 and 16 of tensor
// memory hold the same 64-row block element.
// RUN: tensor-layout -l '#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>' -t 'tensor<64x16xf32>' \
// RUN:   | FileCheck %s --check-prefix=TMEM-TENSOR
// TMEM-TENSOR: {{\[\[}}     0:0|16:0,      0:1|16:1,
// TMEM-TENSOR: [     1:0|17:0,
