// With -i and neither -l nor -alias-names (nor an encoding inside -t), every
// layout alias of the file is printed in turn, as Triton's tool does:
// "Print layout attribute: #NAME = ATTR", then the layout, with no empty
// line between them (-alias-names puts one after each). This file is its
// own alias file; its #loc and memory-space aliases are not layouts and
// are skipped.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>
#loc = loc("kernel.py":1:0)
#smem = #ttg.shared_memory
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>

// RUN: tensor-layout -i %s -t 'tensor<4xf16>' | FileCheck %s --match-full-lines --strict-whitespace
// CHECK:Print layout attribute: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>
// CHECK-NEXT:[T0:0, T1:0, T2:0, T3:0]
// CHECK-NEXT:Print layout attribute: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT:[(0),(1),(2),(3)]
// CHECK-EMPTY:
// CHECK-NOT:{{.}}

// The hw view and -view linear go through the aliases alike.
// RUN: tensor-layout -i %s -t 'tensor<4xf16>' -view hw | FileCheck %s --check-prefix=HW --match-full-lines --strict-whitespace
// HW:Print layout attribute: #blocked = {{.*}}
// HW-NEXT:Warp0:
// HW-NEXT:(0), (1), (2), (3)
// HW-NEXT:Print layout attribute: #shared = {{.*}}
// HW-NEXT:Block: 0:
// HW-NEXT:Offset: 0 -> (0)
// RUN: tensor-layout -i %s -t 'tensor<4xf16>' -view linear | FileCheck %s --check-prefix=LINEAR --match-full-lines
// LINEAR:      #ttg.linear<{register = [], lane = {{\[\[}}1], [2]], warp = [], block = []}>
// LINEAR-NEXT: #ttg.shared_linear<{offset = {{\[\[}}1], [2]]}, alignment = 16>
// LINEAR-EMPTY:

// A file with no layout aliases is an error.
// RUN: split-file %s %t
// RUN: not tensor-layout -i %t/none.mlir -t 'tensor<4xf16>' 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: tensor-layout: error: {{.*}}none.mlir defines no layout aliases

//--- none.mlir
#smem = #ttg.shared_memory
