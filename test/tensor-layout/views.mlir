// Every view of one blocked layout on an 8x16 tensor: 2 warps of 4x8
// lanes, each lane holding 2 consecutive elements of a row.

// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' \
// RUN:   | FileCheck %s --check-prefix=TENSOR --match-full-lines --strict-whitespace
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -view tensor \
// RUN:   | FileCheck %s --check-prefix=TENSOR --match-full-lines --strict-whitespace
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -view hw \
// RUN:   | FileCheck %s --check-prefix=HW
// The spelling of Triton's triton-tensor-layout gives the same view.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -use-hw-view \
// RUN:   | FileCheck %s --check-prefix=HW
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -view linear \
// RUN:   | FileCheck %s --check-prefix=LINEAR --match-full-lines
// --flag=value works as in mlir-opt.
// RUN: tensor-layout --l='#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' --t='tensor<8x16xf16>' --view=json \
// RUN:   | FileCheck %s --check-prefix=JSON --match-full-lines

// Triton's format: rows are nested in brackets, "T<thread>:<register>" per
// element, thread and register padded to the widths of 64 threads and 2
// registers; a line starts with its opening brackets, then a space per
// dimension not opened on it. With --strict-whitespace --match-full-lines
// the pattern starts right after the colon.
// TENSOR:Print layout attribute: #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
// TENSOR-NEXT:{{\[\[}} T0:0,  T0:1,  T1:0,  T1:1,  T2:0,  T2:1,  T3:0,  T3:1,  T4:0,  T4:1,  T5:0,  T5:1,  T6:0,  T6:1,  T7:0,  T7:1]
// TENSOR-NEXT:[  T8:0,  T8:1,  T9:0,  T9:1, T10:0, T10:1, T11:0, T11:1, T12:0, T12:1, T13:0, T13:1, T14:0, T14:1, T15:0, T15:1]
// TENSOR-NEXT:[ T16:0, T16:1, {{.*}}, T23:1]
// TENSOR-NEXT:[ T24:0, T24:1, {{.*}}, T31:1]
// Warp 1 (threads 32..63) holds rows 4..7.
// TENSOR-NEXT:[ T32:0, T32:1, T33:0, {{.*}}, T39:1]
// TENSOR-NEXT:[ T40:0, T40:1, {{.*}}, T47:1]
// TENSOR-NEXT:[ T48:0, T48:1, {{.*}}, T55:1]
// TENSOR-NEXT:[ T56:0, T56:1, T57:0, T57:1, T58:0, T58:1, T59:0, T59:1, T60:0, T60:1, T61:0, T61:1, T62:0, T62:1, T63:0, T63:1]]
// TENSOR-EMPTY:
// TENSOR-NOT: {{.}}

// One block per warp, one line per register: the (row, col) each lane holds.
// HW:      Print layout attribute: #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
// HW-NEXT: Warp0:
// HW-NEXT: {{^}}(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0,10), (0,12), (0,14), (1, 0), (1, 2), {{.*}}, (3,12), (3,14){{$}}
// HW-NEXT: {{^}}(0, 1), (0, 3), (0, 5), (0, 7), (0, 9), (0,11), (0,13), (0,15), (1, 1), {{.*}}, (3,15){{$}}
// HW-NEXT: Warp1:
// HW-NEXT: {{^}}(4, 0), (4, 2), {{.*}}, (7,14){{$}}
// HW-NEXT: {{^}}(4, 1), (4, 3), {{.*}}, (7,15){{$}}
// HW-NOT: Warp2

// LINEAR:      #ttg.linear<{register = {{\[\[}}0, 1]], lane = {{\[\[}}0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], warp = {{\[\[}}4, 0]], block = []}>
// LINEAR-EMPTY:

// JSON: {"layout":"#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>","shape":[8,16],"in_dims":[{"name":"register","size":2,"bases":{{\[\[}}0,1]]},{"name":"lane","size":32,"bases":{{\[\[}}0,2],[0,4],[0,8],[1,0],[2,0]]},{"name":"warp","size":2,"bases":{{\[\[}}4,0]]},{"name":"block","size":1,"bases":[]}],"out_dims":[{"name":"dim0","size":8},{"name":"dim1","size":16}]}

// The hw view of an mma v2 accumulator tile is PTX's m16n8 C fragment:
// lane t holds (t/4, 2*(t%4)) and the next column in registers 0 and 1, the
// same 8 rows down in registers 2 and 3.
// RUN: tensor-layout -l '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>' -t 'tensor<16x8xf32>' -view hw \
// RUN:   | FileCheck %s --check-prefix=MMA-HW --match-full-lines
// MMA-HW:      Warp0:
// MMA-HW-NEXT: ( 0,0), ( 0,2), ( 0,4), ( 0,6), ( 1,0), ( 1,2), {{.*}}, ( 7,4), ( 7,6)
// MMA-HW-NEXT: ( 0,1), ( 0,3), ( 0,5), ( 0,7), ( 1,1), ( 1,3), {{.*}}, ( 7,5), ( 7,7)
// MMA-HW-NEXT: ( 8,0), ( 8,2), ( 8,4), ( 8,6), ( 9,0), ( 9,2), {{.*}}, (15,4), (15,6)
// MMA-HW-NEXT: ( 8,1), ( 8,3), ( 8,5), ( 8,7), ( 9,1), ( 9,3), {{.*}}, (15,5), (15,7)
// MMA-HW-EMPTY:
