// layout-translate renumbers the programs of a 2-D tile kernel whose store
// moves by a constant step with pid y and a runtime stride with pid x (the
// order-programs pass): y fastest, from the launch position
// ctaid.x + ctaid.y * nctaid.x. -program-order=launch keeps ctaid as is.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s
// RUN: layout-translate -ttgir-to-llvmir %s -program-order=launch | FileCheck %s --check-prefix=LAUNCH
// RUN: not layout-translate -ttgir-to-llvmir %s -program-order=y 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: define void @tile
// CHECK-DAG:     %[[X:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK-DAG:     %[[Y:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
// CHECK-DAG:     %[[NX:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
// CHECK-DAG:     %[[NY:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
// CHECK:         %[[T:[0-9]+]] = mul i32 %[[Y]], %[[NX]]
// CHECK-NEXT:    %[[LIN:[0-9]+]] = add i32 %[[X]], %[[T]]
// CHECK-NEXT:    udiv i32 %[[LIN]], %[[NY]]
// CHECK-NEXT:    urem i32 %[[LIN]], %[[NY]]
// CHECK-NEXT:    icmp ule i32 %[[NX]], {{65535|u0xFFFF}}

// LAUNCH-LABEL: define void @tile
// LAUNCH-NOT:     nctaid
// LAUNCH-NOT:     udiv
// LAUNCH:         ret void

// BAD: layout-translate: error: -program-order "y": give auto or launch
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tile(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %c128 = arith.constant 128 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %row = arith.muli %pm, %stride : i32
    %col = arith.muli %pn, %c128 : i32
    %o = arith.addi %row, %col : i32
    %base = tt.addptr %out, %o : !tt.ptr<f32>, i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %base : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = arith.sitofp %r : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
    tt.store %p, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
