// -view linear against Triton 3.6's own toLinearLayout: each case is one row
// of shared/triton36/oracles/to_linear_layout.jsonl (line number given), its
// "layout" and "shape" as -l and -t, its "linear" text as the check.

// to_linear_layout.jsonl line 1:
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [0, 1]}>' \
// RUN:   -t 'tensor<8x16xf16>' -view linear | FileCheck %s --check-prefix=ROW1 --match-full-lines
// ROW1: #ttg.linear<{register = {{\[\[}}1, 0], [2, 0], [4, 0]], lane = {{\[\[}}0, 0], [0, 0], [0, 1], [0, 2], [0, 4]], warp = {{\[\[}}0, 0], [0, 8]], block = []}>

// to_linear_layout.jsonl line 4:
// RUN: tensor-layout -l '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2], instrShape = [16, 8]}>' \
// RUN:   -t 'tensor<128x128xf16>' -view linear | FileCheck %s --check-prefix=ROW4 --match-full-lines
// ROW4: #ttg.linear<{register = {{\[\[}}0, 1], [8, 0], [0, 16], [0, 32], [0, 64], [16, 0], [32, 0], [64, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}0, 8]], block = []}>

// to_linear_layout.jsonl line 6:
// RUN: tensor-layout -l '#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 4}>' \
// RUN:   -t 'tensor<64x8xf16>' -view linear | FileCheck %s --check-prefix=ROW6 --match-full-lines
// ROW6: #ttg.linear<{register = {{\[\[}}1, 0], [2, 0], [16, 0], [32, 0]], lane = {{\[\[}}4, 0], [8, 0], [0, 1], [0, 2], [0, 4]], warp = [], block = []}>

// to_linear_layout.jsonl line 7:
// RUN: tensor-layout -l '#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [2, 2, 1], threadsPerWarp = [8, 4, 1], warpsPerCTA = [1, 1, 1], order = [0, 2, 1]}>}>' \
// RUN:   -t 'tensor<4x8xf16>' -view linear | FileCheck %s --check-prefix=ROW7 --match-full-lines
// ROW7: #ttg.linear<{register = {{\[\[}}1, 0], [0, 1], [0, 2], [0, 4]], lane = {{\[\[}}2, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [], block = []}>

// to_linear_layout.jsonl line 12:
// RUN: tensor-layout -l '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>' \
// RUN:   -t 'tensor<128x256xf16>' -view linear | FileCheck %s --check-prefix=ROW12 --match-full-lines
// ROW12: #ttg.linear<{register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128], [64, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]], block = []}>
