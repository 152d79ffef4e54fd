// The printing flags: -mlir-print-debuginfo prints every op's location
// (its source position where the input had none), -mlir-print-op-generic prints the
// generic form, -mlir-print-local-scope writes attributes inline instead
// of through aliases. They combine.

// RUN: layout-opt %s | FileCheck %s --check-prefix=PLAIN
// PLAIN:     #blocked = #ttg.blocked
// PLAIN:     tt.func @f(%arg0: tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked> {
// PLAIN-NEXT:  %0 = arith.addi %arg0, %arg0 : tensor<128xi32, #blocked>{{$}}
// PLAIN-NOT: loc(

// RUN: layout-opt %s -mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// DEBUG:      %0 = arith.addi %arg0, %arg0 : tensor<128xi32, #blocked> loc("kernel.py":7:3)
// DEBUG-NEXT: tt.return %0 : tensor<128xi32, #blocked> loc("{{.*}}print-flags.mlir":41:5)
// DEBUG-NEXT: } loc("{{.*}}print-flags.mlir":39:3)
// DEBUG-NEXT: } loc("{{.*}}print-flags.mlir":38:1)

// RUN: layout-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "tt.func"() <{function_type = (tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>, sym_name = "f"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: tensor<128xi32, #blocked>):
// GENERIC-NEXT:     %0 = "arith.addi"(%arg0, %arg0) : (tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
// GENERIC-NEXT:     "tt.return"(%0) : (tensor<128xi32, #blocked>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) {{{.*}}"ttg.num-warps" = 4 : i32{{.*}}} : () -> (){{$}}

// RUN: layout-opt %s -mlir-print-op-generic -mlir-print-debuginfo | FileCheck %s --check-prefix=BOTH
// BOTH: %0 = "arith.addi"(%arg0, %arg0) : {{.*}} loc("kernel.py":7:3)

// RUN: layout-opt %s -mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// LOCAL-NOT: #blocked
// LOCAL:     %0 = arith.addi %arg0, %arg0 : tensor<128xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>

// The generic form reads back to the same module.
// RUN: layout-opt %s -mlir-print-op-generic | layout-opt | FileCheck %s --check-prefix=PLAIN

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%arg0: tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked> {
    %0 = arith.addi %arg0, %arg0 : tensor<128xi32, #blocked> loc("kernel.py":7:3)
    tt.return %0 : tensor<128xi32, #blocked>
  }
}
