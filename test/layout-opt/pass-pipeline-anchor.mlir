// A pass anchored on builtin.module cannot run inside a tt.func pipeline;
// like mlir-opt, layout-opt rejects the pipeline instead of running the pass
// on nothing.

// RUN: not layout-opt %s -pass-pipeline='builtin.module(tt.func(canonicalize-layouts{form=linear}))' 2>&1 \
// RUN:   | FileCheck %s
// CHECK: error: Can't add pass 'canonicalize-layouts' restricted to 'builtin.module' on a PassManager intended to run on 'tt.func', did you intend to nest?

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%arg0: tensor<128xf32, #blocked>) {
    tt.return
  }
}
