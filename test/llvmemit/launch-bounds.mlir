// layout-translate's launch bounds. By default (-min-ctas-per-sm auto) a
// kernel that reads no program id (every program computes the same, so a
// launch is one program) and has no dot, atomics or inline asm gets
// minctasm 1 (.minnctapersm 1: ptxas may spend registers on latency); a
// kernel that reads its program id gets none. A number gives every kernel
// that many (0: none); -maxnreg adds .maxnreg.
// RUN: layout-translate -ttgir-to-llvmir -remarks %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: layout-translate -ttgir-to-llvmir -min-ctas-per-sm=0 %s | FileCheck %s --check-prefix=NONE
// RUN: layout-translate -ttgir-to-llvmir -min-ctas-per-sm=2 -maxnreg=96 %s | FileCheck %s --check-prefix=TWO
// RUN: not layout-translate -ttgir-to-llvmir -min-ctas-per-sm=few %s 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK:     !nvvm.annotations = !{
// CHECK-NOT: @tile, !"minctasm"
// CHECK:     @one, !"minctasm", i32 1}
// CHECK-NOT: @tile, !"minctasm"

// REMARK: remark: launch bounds: .minnctapersm 1 (it reads no program id
// REMARK: remark: launch bounds: none (it reads tt.get_program_id)

// NONE-NOT: minctasm

// TWO-DAG: @one, !"minctasm", i32 2}
// TWO-DAG: @tile, !"minctasm", i32 2}
// TWO-DAG: @one, !"maxnreg", i32 96}
// TWO-DAG: @tile, !"maxnreg", i32 96}

// BAD: layout-translate: error: -min-ctas-per-sm "few": give auto or a number of programs (0: no directive)
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %q : tensor<128x!tt.ptr<f32>, #blocked>
    %s = arith.addf %v, %v : tensor<128xf32, #blocked>
    tt.store %q, %s : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
  tt.func public @tile(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c128 = arith.constant 128 : i32
    %pid = tt.get_program_id x : i32
    %o = arith.muli %pid, %c128 : i32
    %b = tt.addptr %x, %o : !tt.ptr<f32>, i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %p = tt.splat %b : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %q : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %q, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
