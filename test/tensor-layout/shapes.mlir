// Tensors smaller than the layout's tile (elements broadcast to several
// threads, joined by "|"), larger than it (registers repeat the tile),
// 1-D and 3-D tensors, and layouts over several CTAs ("B<block>:").

// A 1-D tile of 16 elements: 2 registers x 4 lanes x 2 warps.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>' -t 'tensor<16xf32>' \
// RUN:   | FileCheck %s --check-prefix=EXACT --match-full-lines
// EXACT:      Print layout attribute: #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>
// EXACT-NEXT: [T0:0, T0:1, T1:0, T1:1, T2:0, T2:1, T3:0, T3:1, T4:0, T4:1, T5:0, T5:1, T6:0, T6:1, T7:0, T7:1]
// EXACT-EMPTY:

// Smaller: 4 elements, each held by 4 threads (lane bit 1 and the warp
// bit are broadcast).
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>' -t 'tensor<4xf32>' \
// RUN:   | FileCheck %s --check-prefix=SMALL --match-full-lines
// SMALL:      Print layout attribute: {{.*}}
// SMALL-NEXT: [T0:0|T2:0|T4:0|T6:0, T0:1|T2:1|T4:1|T6:1, T1:0|T3:0|T5:0|T7:0, T1:1|T3:1|T5:1|T7:1]
// SMALL-EMPTY:
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>' -t 'tensor<4xf32>' -view linear \
// RUN:   | FileCheck %s --check-prefix=SMALL-LINEAR --match-full-lines
// SMALL-LINEAR: #ttg.linear<{register = {{\[\[}}1]], lane = {{\[\[}}2], [0]], warp = {{\[\[}}0]], block = []}>

// Larger: 32 elements, the tile repeats in registers 2 and 3.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>' -t 'tensor<32xf32>' \
// RUN:   | FileCheck %s --check-prefix=LARGE --match-full-lines
// LARGE:      Print layout attribute: {{.*}}
// LARGE-NEXT: [T0:0, T0:1, T1:0, {{.*}}, T7:0, T7:1, T0:2, T0:3, T1:2, T1:3, {{.*}}, T7:2, T7:3]
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>' -t 'tensor<32xf32>' -view hw \
// RUN:   | FileCheck %s --check-prefix=LARGE-HW --match-full-lines
// LARGE-HW:      Warp0:
// LARGE-HW-NEXT: ( 0), ( 2), ( 4), ( 6)
// LARGE-HW-NEXT: ( 1), ( 3), ( 5), ( 7)
// LARGE-HW-NEXT: (16), (18), (20), (22)
// LARGE-HW-NEXT: (17), (19), (21), (23)
// LARGE-HW-NEXT: Warp1:
// LARGE-HW-NEXT: ( 8), (10), (12), (14)
// LARGE-HW-NEXT: ( 9), (11), (13), (15)
// LARGE-HW-NEXT: (24), (26), (28), (30)
// LARGE-HW-NEXT: (25), (27), (29), (31)
// LARGE-HW-EMPTY:

// 3-D: brackets nest once per dimension; each line starts with the
// brackets that open on it, then a space per dimension not opened.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 2, 2], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>' -t 'tensor<2x2x4xf32>' \
// RUN:   | FileCheck %s --check-prefix=RANK3 --match-full-lines --strict-whitespace
// RANK3:Print layout attribute: {{.*}}
// RANK3-NEXT:{{\[\[\[}}T0:0, T0:1, T1:0, T1:1]
// RANK3-NEXT:[  T2:0, T2:1, T3:0, T3:1]]
// RANK3-NEXT:{{\[\[}} T4:0, T4:1, T5:0, T5:1]
// RANK3-NEXT:[  T6:0, T6:1, T7:0, T7:1]]]
// RANK3-EMPTY:

// Two CTAs, each holding its own half: the tensor view prefixes "B<block>:",
// the hw view has one section per block. The legacy CTA parameters are
// printed as the equivalent CGALayout.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0], CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]}>' -t 'tensor<8xf32>' \
// RUN:   | FileCheck %s --check-prefix=CTAS --match-full-lines
// CTAS:      Print layout attribute: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0], CGALayout = {{\[\[}}1]]}>
// CTAS-NEXT: [B0:T0:0, B0:T1:0, B0:T2:0, B0:T3:0, B1:T0:0, B1:T1:0, B1:T2:0, B1:T3:0]
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0], CGALayout = [[1]]}>' -t 'tensor<8xf32>' -view hw \
// RUN:   | FileCheck %s --check-prefix=CTAS-HW --match-full-lines
// CTAS-HW:      Block0:
// CTAS-HW-NEXT: Warp0:
// CTAS-HW-NEXT: (0), (1), (2), (3)
// CTAS-HW-NEXT: Block1:
// CTAS-HW-NEXT: Warp0:
// CTAS-HW-NEXT: (4), (5), (6), (7)

// Two CTAs that are not split: both hold the whole tensor.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0], CTAsPerCGA = [2], CTASplitNum = [1], CTAOrder = [0]}>' -t 'tensor<4xf32>' \
// RUN:   | FileCheck %s --check-prefix=CTAS-BCAST --match-full-lines
// CTAS-BCAST:      Print layout attribute: {{.*}}, CGALayout = {{\[\[}}0]]}>
// CTAS-BCAST-NEXT: [B0:T0:0|B1:T0:0, B0:T1:0|B1:T1:0, B0:T2:0|B1:T2:0, B0:T3:0|B1:T3:0]
