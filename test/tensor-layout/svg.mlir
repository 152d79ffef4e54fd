// -view svg and -view html: pictures of layouts, written to stdout or, with
// -o, to a file (atomically, and only on success).

// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -view svg \
// RUN:   | FileCheck %s --check-prefix=DIST
// DIST: <?xml version="1.0" encoding="UTF-8"?>
// DIST-NEXT: <svg xmlns="http://www.w3.org/2000/svg"
// DIST: tensor 8x16; colour: warp; label T&lt;lane&gt;:R&lt;register&gt; of the lowest holder
// DIST: fill="#CC6677"{{.*}}>T0:R0</text>
// DIST: fill="#332288"{{.*}}>T31:R1</text>
// DIST: >warp 0</text>
// DIST: >warp 1</text>
// DIST: </svg>

// -o writes the same bytes to a file.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -view svg -o %t.svg
// RUN: FileCheck %s --check-prefix=DIST --input-file %t.svg

// Large tensors merge cells into blocks, with a note.
// RUN: tensor-layout -l '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>' -t 'tensor<256x256xf32>' -view svg \
// RUN:   | FileCheck %s --check-prefix=LARGE
// LARGE: large tensor: each cell is a block of 2×2 elements
// LARGE-NOT: T0:R0

// A shared layout: offsets coloured by bank; with -l REG -shared, one access.
// RUN: tensor-layout -l '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' -t 'tensor<4x8xf16>' -view svg \
// RUN:   | FileCheck %s --check-prefix=SHARED
// SHARED: tensor 4x8 of 16-bit elements; colour: the bank of its 4-byte word (32 banks: 0–7 in eight colours, 8–15, 16–23 and 24–31 in darker shades of them); label: offset
// SHARED: <title>(1, 0): offset 10, word 5, bank 5</title>
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>' \
// RUN:   -shared '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>' -t 'tensor<32x32xf32>' -view svg \
// RUN:   | FileCheck %s --check-prefix=BANKS
// BANKS: outlined: warp 0's first access instruction, 4×32 bits per lane, labelled L&lt;lane&gt;; 4 lane group(s) of 8 lanes, 8 wavefront(s)
// BANKS: bank conflicts (smem.BankConflicts, excess wavefronts per instruction): 1
// BANKS: >wavefront 7</text>

// A conversion, coloured by where elements move, with its class.
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>' \
// RUN:   -to '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>' -t 'tensor<32x32xf32>' -view svg \
// RUN:   | FileCheck %s --check-prefix=CVT
// CVT: tensor 32x32; lowering (smem.Classify): shared memory
// CVT: scratch 4096 bytes in 1 round(s)
// CVT: >source (colour: warp)</text>
// CVT: >destination (colour: warp)</text>
// CVT: >class: shared memory</text>
// CVT: >another warp</text>

// A CuTe layout, nested modes outlined.
// RUN: tensor-layout -l '((2,4),(2,3)):((1,8),(2,32))' -view svg | FileCheck %s --check-prefix=CUTE
// CUTE: >(((2, 4), (2, 3)):((1, 8), (2, 32)))</text>
// CUTE: <path stroke="#000" stroke-width="2"

// A kernel as one page.
// RUN: tensor-layout -i %S/../../examples/ttgir/softmax_b1024_sm90_w4.ttgir -view html -o %t.html
// RUN: FileCheck %s --check-prefix=HTML --input-file %t.html
// HTML: <!DOCTYPE html>
// HTML: planned for cuda:90
// HTML: <h2 id="layouts">Layouts</h2>
// HTML: <svg
// HTML: <h2 id="source">Source</h2>
// HTML: </html>

// Errors.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 1, 1, 1], threadsPerWarp = [1, 1, 4, 8], warpsPerCTA = [1, 1, 1, 4], order = [3, 2, 1, 0]}>' -t 'tensor<2x2x8x8xf16>' -view svg 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANK4
// RANK4: tensor-layout: error: -view svg draws tensors of rank 1 to 3; this one has rank 4
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -to '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TO-VIEW
// TO-VIEW: tensor-layout: error: -to draws a conversion: give -view svg
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -to '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>' -t 'tensor<8x16xf16>' -view svg 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TO-SHARED
// TO-SHARED: tensor-layout: error: -to must be a distributed layout; #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}> is not (use -shared for a shared layout)
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -shared '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' -view svg 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHARED-DIST
// SHARED-DIST: tensor-layout: error: -shared must be a shared layout; #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}> is not
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -to '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], ordr = [1, 0]}>' -t 'tensor<8x16xf16>' -view svg 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TO-BAD --match-full-lines --strict-whitespace
// TO-BAD:-to:1:86: error: unexpected key: ordr; did you mean 'order'?
// RUN: not tensor-layout -l '(6,4):(4,1)' -to '(6,4):(1,6)' -view svg 2>&1 | FileCheck %s --check-prefix=CUTE-TO
// CUTE-TO: tensor-layout: error: -to and -shared take TritonGPU encodings, not CuTe layouts
// RUN: not tensor-layout -l '(2,3,4):(1,2,6)' -view svg 2>&1 | FileCheck %s --check-prefix=CUTE-RANK
// CUTE-RANK: tensor-layout: error: a picture needs a rank-2 layout
// RUN: not tensor-layout -view html 2>&1 | FileCheck %s --check-prefix=HTML-NO-I
// HTML-NO-I: tensor-layout: error: -view html needs -i KERNEL (a TTGIR file)
// RUN: not tensor-layout -i %S/../../examples/ttgir/softmax_b1024_sm90_w4.ttgir -view svg 2>&1 | FileCheck %s --check-prefix=SVG-ALL
// SVG-ALL: tensor-layout: error: -view svg draws one layout: give -l '#NAME' -t TYPE, or -view html for every layout of
// A failing run leaves no -o file.
// RUN: rm -f %t.none.svg
// RUN: not tensor-layout -l '(2,3,4):(1,2,6)' -view svg -o %t.none.svg
// RUN: not ls %t.none.svg
