// Bad input: a located message on stderr (MLIR's "-l:1:COL: error:" with the
// flag's text and a caret under the column for errors in a flag's value,
// "FILE:LINE:COL: error:" for errors in an -i file, "tensor-layout: error:"
// otherwise), nothing on stdout, and exit status 1 (`not` checks it).

// RUN: split-file %s %t

// --- Attributes, located in -l.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], ordr = [1, 0]}>' -t 'tensor<8x16xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN-KEY --match-full-lines --strict-whitespace
// UNKNOWN-KEY:-l:1:86: error: unexpected key: ordr; did you mean 'order'?
// UNKNOWN-KEY-NEXT:#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], ordr = [1, 0]}>
// UNKNOWN-KEY-NEXT:                                                                                     ^
// UNKNOWN-KEY-EMPTY:

// Non-power-of-two fields are located at their field.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x16xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=POW2 --match-full-lines --strict-whitespace
// POW2:-l:1:15: error: sizePerThread[1] = 3 is not a power of two
// POW2-NEXT:#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
// POW2-NEXT:              ^

// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]' -t 'tensor<8x16xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNCLOSED
// UNCLOSED: -l:1:100: error: expected ',' or '}', found end of input
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>' -t 'tensor<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING-KEY
// MISSING-KEY: -l:1:1: error: #ttg.blocked: missing key 'order'
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = 1, threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-ARRAY
// NOT-ARRAY: -l:1:31: error: expected an array for sizePerThread
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [1]}>' -t 'tensor<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ORDER
// ORDER: -l:1:78: error: order [1] is not a permutation of 0..0
// RUN: not tensor-layout -l '#ttg.dot_op<{opIdx = 2, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>' -t 'tensor<16x16xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPIDX
// OPIDX: -l:1:14: error: ttg.dot_op opIdx parameter can be 0 or 1, got: 2
// RUN: not tensor-layout -l '#ttg.linear<{register = [[3]], lane = [], warp = [], block = []}>' -t 'tensor<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SURJECTIVE
// SURJECTIVE: -l:1:14: error: the layout must be surjective: every tensor element must be held somewhere
// RUN: not tensor-layout -l '#ttg.foo<{}>' -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-ATTR
// UNKNOWN-ATTR: -l:1:1: error: unknown attribute #ttg.foo
// RUN: not tensor-layout -l '#blocked' -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=UNDEFINED-ALIAS
// UNDEFINED-ALIAS: -l:1:1: error: undefined attribute alias #blocked
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> junk' -t 'tensor<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRAILING --match-full-lines --strict-whitespace
// The caret is under the "junk", not the space before it.
// TRAILING:-l:1:92: error: unexpected "junk" after the attribute
// TRAILING-NEXT:#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> junk
// TRAILING-NEXT:                                                                                           ^
// RUN: not tensor-layout -l '#ttg.shared_memory' -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=MEMSPACE
// MEMSPACE: tensor-layout: error: #ttg.shared_memory is a memory space, not a layout
// nvmma_shared needs at least 8 rows of its swizzle width.
// RUN: not tensor-layout -l '#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>' -t 'tensor<4x16xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NVMMA-SMALL
// NVMMA-SMALL: tensor-layout: error: illegal shared layout: expected the collapsed shape per CTA to be at least [8, 16], got [4, 16]

// Tensor memory has no #ttg.linear form.
// RUN: not tensor-layout -l '#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>' -t 'tensor<128x64xf32>' -view linear 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TMEM-LINEAR
// TMEM-LINEAR: tensor-layout: error: tensor memory layouts (row, col, block) have no #ttg.linear form; use -view json

// --- Types, located in -t.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'vector<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-TENSOR --match-full-lines --strict-whitespace
// NOT-TENSOR:-t:1:1: error: expected a tensor type such as tensor<64x64xf16>, got "vector<8xf32>"
// NOT-TENSOR-NEXT:vector<8xf32>
// NOT-TENSOR-NEXT:^
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8x?xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DYNAMIC --match-full-lines --strict-whitespace
// DYNAMIC:-t:1:10: error: dynamic dimensions ('?') are not supported
// DYNAMIC-NEXT:tensor<8x?xf32>
// DYNAMIC-NEXT:         ^
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<0xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO
// ZERO: -t:1:8: error: invalid dimension "0"
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8xf32' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-CLOSE
// NO-CLOSE: -t:1:13: error: expected '>' at the end of the type
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-SHAPE
// NO-SHAPE: -t:1:8: error: expected a shape such as 64x64x before the element type
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8xf32 junk>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-ELEM
// BAD-ELEM: -t:1:10: error: expected an element type such as f16
// An encoding inside -t: the message (see type-encoding-column.mlir for its column).
// RUN: not tensor-layout -t 'tensor<8xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TYPE-ENC
// TYPE-ENC: -t:1:{{[0-9]+}}: error: sizePerThread[0] = 3 is not a power of two
// Shapes must be powers of two and match the layout's rank.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8x12xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHAPE-POW2
// SHAPE-POW2: tensor-layout: error: shape [8, 12]: every dimension must be a power of two
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>' -t 'tensor<8xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANK
// RANK: tensor-layout: error: shape [8] has rank 1, but the layout #ttg.blocked<{{.*}}> has rank 2

// --- Views and flags.
// A tensor too large to print element by element: the linear view still works.
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<1048576xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOO-LARGE
// TOO-LARGE: tensor-layout: error: the layout is too large to print as a table (1048576 hardware locations, 1048576 elements); use -view linear or -view json
// RUN: tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<1048576xf32>' -view linear \
// RUN:   | FileCheck %s --check-prefix=LARGE-LINEAR
// LARGE-LINEAR: #ttg.linear<{register = {{\[\[}}128], [256], {{.*}}, [524288]], lane = {{\[\[}}1], [2], [4], [8], [16]], warp = {{\[\[}}32], [64]], block = []}>

// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8xf32>' -view bogus 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-VIEW
// BAD-VIEW: tensor-layout: error: unknown view "bogus" (want tensor, hw, linear, json, table, svg, banks or html)
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8xf32>' -view table 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TABLE-VIEW
// TABLE-VIEW: tensor-layout: error: -view table is for CuTe layouts; TritonGPU encodings have the views tensor, hw, linear, json, svg, banks and html
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8xf32>' -use-hw-view -view linear 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HW-CONFLICT
// HW-CONFLICT: tensor-layout: error: -use-hw-view conflicts with -view linear
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' 2>&1 | FileCheck %s --check-prefix=NO-TYPE
// NO-TYPE: tensor-layout: error: missing -t TYPE (a tensor type such as tensor<64x64xf16>)
// RUN: not tensor-layout -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=NO-LAYOUT
// NO-LAYOUT: tensor-layout: error: missing -l ATTR (or an encoding inside the -t type)
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<8xf32>' extra 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXTRA-ARG
// EXTRA-ARG: tensor-layout: error: unexpected argument "extra"
// RUN: not tensor-layout -bogus-flag 2>&1 | FileCheck %s --check-prefix=BAD-FLAG
// BAD-FLAG:      flag provided but not defined: -bogus-flag
// BAD-FLAG-NOT: did you mean
// BAD-FLAG: usage: tensor-layout -l ATTR -t TYPE [-view tensor|hw|linear|json|svg] [-o FILE]
// -help prints the usage and succeeds.
// RUN: tensor-layout -help 2>&1 | FileCheck %s --check-prefix=HELP
// HELP: usage: tensor-layout -l ATTR -t TYPE
// HELP: -alias-names
// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -alias-names blocked -t 'tensor<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOTH
// BOTH: tensor-layout: error: give either -l or -alias-names, not both
// RUN: not tensor-layout -alias-names blocked -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=NO-FILE
// NO-FILE: tensor-layout: error: alias #blocked is not defined (no -i file given)

// --- Alias files: unreadable, undefined names, bad definitions located in the file.
// RUN: not tensor-layout -i %t/missing.mlir -l '#blocked' -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=NO-SUCH-FILE
// NO-SUCH-FILE: tensor-layout: error: cannot read the alias file {{.*}}missing.mlir: no such file or directory
// RUN: not tensor-layout -i %t -l '#blocked' -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: tensor-layout: error: cannot read the alias file {{.*}}: is a directory
// RUN: not tensor-layout -i %t/good.mlir -alias-names blocked,nope -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=UNDEFINED-NAME
// UNDEFINED-NAME: tensor-layout: error: alias #nope is not defined in {{.*}}good.mlir
// RUN: not tensor-layout -i %t/bad.mlir -l '#ok' -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=BAD-DEF
// BAD-DEF: {{.*}}bad.mlir:3:96: error: unexpected key: bogus
// -l FILE#name with a FILE that cannot be read says so (it once fell
// through to the CuTe parser); with -i as well it is ambiguous.
// RUN: not tensor-layout -l %t/missing.mlir#blocked -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=NO-SUCH-FILE
// RUN: not tensor-layout -i %t/good.mlir -l %t/good.mlir#blocked -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=FILE-AND-I
// FILE-AND-I: tensor-layout: error: -l {{.*}}good.mlir#blocked names an alias file, and so does -i {{.*}}good.mlir; give -l '#blocked' with -i
// An empty name in -alias-names is located there (it once read as "alias # is not defined").
// RUN: not tensor-layout -i %t/good.mlir -alias-names 'blocked,,blocked' -t 'tensor<8xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY-NAME --match-full-lines --strict-whitespace
// EMPTY-NAME:-alias-names:1:9: error: expected an alias name (names are separated by single commas)
// EMPTY-NAME-NEXT:blocked,,blocked
// EMPTY-NAME-NEXT:        ^
// RUN: not tensor-layout -i %t/good.mlir -alias-names 'blocked, ' -t 'tensor<8xf32>' 2>&1 | FileCheck %s --check-prefix=EMPTY-LAST
// EMPTY-LAST: -alias-names:1:10: error: expected an alias name

//--- good.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
//--- bad.mlir
// A comment, then a good alias and a bad one.
#ok = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>
