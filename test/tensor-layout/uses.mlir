// With -i and no -t, every layout alias of the file is shown on each tensor
// shape the file uses it with, in the order first used; an alias no tensor
// type uses directly gets a note on stderr that names it.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 4 : i32} {
  tt.func @f(%a: tensor<4xf16, #blocked>, %b: tensor<2x2x!tt.ptr<f16>, #blocked1>, %c: tensor<8xi32, #blocked>, %d: tensor<4xi32, #blocked>) -> tensor<4xi32, #ttg.slice<{dim = 1, parent = #parent}>> {
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 1, parent = #parent}>>
    tt.return %0 : tensor<4xi32, #ttg.slice<{dim = 1, parent = #parent}>>
  }
}

// RUN: tensor-layout -i %s 2>%t.err | FileCheck %s --match-full-lines --strict-whitespace
// RUN: FileCheck %s --check-prefix=NOTE < %t.err
// CHECK:Print layout attribute: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>
// CHECK-NEXT:Tensor shape: 4
// CHECK-NEXT:[T0:0, T1:0, T2:0, T3:0]
// CHECK-NEXT:Tensor shape: 8
// CHECK-NEXT:[T0:0, T1:0, T2:0, T3:0, T0:1, T1:1, T2:1, T3:1]
// CHECK-NEXT:Print layout attribute: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-NEXT:Tensor shape: 2x2
// CHECK-NEXT:{{\[\[}}T0:0, T1:0]
// CHECK-NEXT:[ T2:0, T3:0]]
// CHECK-EMPTY:
// CHECK-NOT:{{.}}
// NOTE: tensor-layout: note: #parent is not the encoding of any tensor type in {{.*}}uses.mlir; show it with -l '#parent' -t TYPE
// NOTE-NOT: note

// -view linear gives one line per alias and shape.
// RUN: tensor-layout -i %s -view linear 2>/dev/null | FileCheck %s --check-prefix=LINEAR --match-full-lines
// LINEAR:      #blocked 4: #ttg.linear<{register = [], lane = {{\[\[}}1], [2]], warp = [], block = []}>
// LINEAR-NEXT: #blocked 8: #ttg.linear<{register = {{\[\[}}4]], lane = {{\[\[}}1], [2]], warp = [], block = []}>
// LINEAR-NEXT: #blocked1 2x2: #ttg.linear<{register = [], lane = {{\[\[}}0, 1], [1, 0]], warp = [], block = []}>
// LINEAR-EMPTY:

// With -t, an alias of another rank is skipped with a note naming it, and
// the others are printed.
// RUN: tensor-layout -i %s -t 'tensor<4xf16>' 2>%t.err2 | FileCheck %s --check-prefix=RANK
// RUN: FileCheck %s --check-prefix=RANK-NOTE < %t.err2
// RANK: Print layout attribute: #blocked = #ttg.blocked<{sizePerThread = [1]
// RANK-NOT: #blocked1
// RANK-NOTE: tensor-layout: note: #blocked1 not shown on tensor<4xf16>: shape [4] has rank 1, but the layout {{.*}} has rank 2
// RANK-NOTE: tensor-layout: note: #parent not shown on tensor<4xf16>: {{.*}}rank 2

// When no alias can be shown on the -t type, that is an error.
// RUN: not tensor-layout -i %s -t 'tensor<2x2x2xf16>' 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: tensor-layout: error: none of the 3 layout aliases of {{.*}}uses.mlir can be shown on tensor<2x2x2xf16>
