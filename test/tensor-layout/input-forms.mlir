// Every way to give the layout: attribute text with -l, an alias of an -i
// file with -l '#name', FILE#name, -alias-names (each alias in turn), and
// an encoding written inside the -t type. This file is its own alias file;
// the lines other than alias definitions (comments, the module, #loc
// aliases) are skipped.

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>
#loc = loc("kernel.py":1:0)
module attributes {"ttg.num-warps" = 2 : i32} {
}

// RUN: tensor-layout -i %s -l '#blocked' -t 'tensor<8x16xf16>' -view linear | FileCheck %s --check-prefix=BLOCKED
// RUN: tensor-layout -l %s#blocked -t 'tensor<8x16xf16>' -view linear | FileCheck %s --check-prefix=BLOCKED
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=BLOCKED
// RUN: tensor-layout -t 'tensor<8x16xf16, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>>' -view linear \
// RUN:   | FileCheck %s --check-prefix=BLOCKED
// An alias inside the -t type resolves against the -i file.
// RUN: tensor-layout -i %s -t 'tensor<8x16xf16, #blocked>' -view linear | FileCheck %s --check-prefix=BLOCKED
// BLOCKED: #ttg.linear<{register = {{\[\[}}0, 1]], lane = {{\[\[}}0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], warp = {{\[\[}}4, 0]], block = []}>

// An alias may use the ones defined before it: the slice of #blocked.
// RUN: tensor-layout -i %s -l '#slice' -t 'tensor<8xf32>' -view linear | FileCheck %s --check-prefix=SLICE
// RUN: tensor-layout -i %s -l '#ttg.slice<{dim = 1, parent = #blocked}>' -t 'tensor<8xf32>' -view linear | FileCheck %s --check-prefix=SLICE
// SLICE: #ttg.linear<{register = [], lane = {{\[\[}}0], [0], [0], [1], [2]], warp = {{\[\[}}4]], block = []}>

// The tensor view names the attribute as written, aliases resolved. Each
// of the 8 lanes that hold an element is padded to the width of 64 threads.
// RUN: tensor-layout -l %s#slice -t 'tensor<8xf32>' | FileCheck %s --check-prefix=SLICE-TENSOR --match-full-lines --strict-whitespace
// SLICE-TENSOR:Print layout attribute: #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>}>
// SLICE-TENSOR-NEXT:[ T0:0| T1:0| T2:0| T3:0| T4:0| T5:0| T6:0| T7:0,  T8:0| T9:0|T10:0|T11:0|T12:0|T13:0|T14:0|T15:0, {{.*}}, T56:0|T57:0|T58:0|T59:0|T60:0|T61:0|T62:0|T63:0]
// SLICE-TENSOR-EMPTY:

// -alias-names prints each alias in turn, with or without its '#'.
// RUN: tensor-layout -i %s -alias-names 'blocked, #mma' -t 'tensor<16x16xf32>' -view linear | FileCheck %s --check-prefix=NAMES
// NAMES:      #ttg.linear<{register = {{\[\[}}0, 1], [8, 0]], lane = {{\[\[}}0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], warp = {{\[\[}}4, 0]], block = []}>
// NAMES-NEXT: #ttg.linear<{register = {{\[\[}}0, 1], [8, 0], [0, 8]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}0, 0]], block = []}>
// NAMES-EMPTY:
// The tensor and hw views name each alias and end it with an empty line,
// as Triton's tool does.
// RUN: tensor-layout -i %s -alias-names blocked,mma -t 'tensor<16x16xf32>' | FileCheck %s --check-prefix=NAMES-TENSOR
// NAMES-TENSOR:      Print layout attribute: #blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
// NAMES-TENSOR:      {{\]\]$}}
// NAMES-TENSOR-EMPTY:
// NAMES-TENSOR-NEXT: Print layout attribute: #mma = #ttg.nvidia_mma<{
// NAMES-TENSOR:      {{\]\]$}}
// NAMES-TENSOR-EMPTY:
// NAMES-TENSOR-NOT:  {{.}}
