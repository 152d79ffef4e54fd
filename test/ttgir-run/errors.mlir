// ttgir-run's diagnostics: a located error with a caret for a bad -arg,
// suggestions for misspelt parameters, missing arguments and flags.

// RUN: not ttgir-run %s -grid 1 -arg x=rand:f32:16:lo=1:hi=x -arg n=16 2>&1 | FileCheck %s --check-prefix=OPT
// OPT:      -arg:1:23: error: hi="x" is not a finite number
// OPT-NEXT: x=rand:f32:16:lo=1:hi=x
// OPT-NEXT: {{^                      \^$}}

// RUN: not ttgir-run %s -grid 1 -arg y=zeros:f32:4 -arg n=16 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: -arg:1:1: error: @k has no parameter "y"; did you mean 'x'? (it takes x: !tt.ptr<f32>, n: i32)

// RUN: not ttgir-run %s -grid 1 -arg n=16 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ttgir-run: error: no -arg for x (@k takes x: !tt.ptr<f32>, n: i32)

// RUN: not ttgir-run %s -grid 1 -arg x=rand:bf16:4 -arg n=4 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: x points to f32, not bf16

// RUN: not ttgir-run %s -arg x=zeros:f32:4 -arg n=4 -bench 5 -grid 1 2>&1 | FileCheck %s --check-prefix=BENCH
// BENCH: ttgir-run: error: -bench and -check need -ptx (the GPU kernel)

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    tt.return
  }
}
