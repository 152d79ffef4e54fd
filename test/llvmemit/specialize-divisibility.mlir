// layout-translate runs specialize-divisibility by default: Triton's 64x64
// f16 transpose, compiled without tt.divisibility, gets a body for x, y and
// the strides divisible by 16 (16-byte loads and stores) beside its own
// (2-byte accesses), chosen by one branch at the start of the kernel.
// -specialize-divisibility=off lowers the body as given. By default, the
// loads of both bodies then get a 256-byte L2 prefetch (l2-prefetch: rows
// of 128 bytes, the 128 bytes beside them read by program y+1, program x+1
// a stride away): Triton's inline ld.global with the 256-byte prefetch size
// qualifier (PTX ISA 7.4).
// RUN: layout-translate -ttgir-to-llvmir %s -l2-prefetch=off | FileCheck %s
// RUN: layout-translate -ttgir-to-llvmir %s -specialize-divisibility=off -l2-prefetch=off | FileCheck %s --check-prefix=OFF
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s --check-prefix=L2
// RUN: not layout-translate -ttgir-to-llvmir %s -l2-prefetch=on 2>&1 | FileCheck %s --check-prefix=BADL2
// RUN: not layout-translate -ttgir-to-llvmir %s -specialize-divisibility=on 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: layout-translate -ttgir-to-llvmir %s -remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: layout-translate -ttgir-to-llvmir %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// CHECK-LABEL: define void @transpose_kernel(half addrspace(1)* %x, half addrspace(1)* %y, i32 %M, i32 %N, i32 %sxm, i32 %sym,
// CHECK:       br i1 %{{.*}}, label %[[FAST:if.then[0-9]*]], label %[[GIVEN:if.else[0-9]*]]
// CHECK:       [[FAST]]:
// CHECK-COUNT-4: load <4 x i32>, <4 x i32> addrspace(1)* %{{.*}}, align 16
// CHECK-COUNT-4: store <8 x half> %{{.*}}, <8 x half> addrspace(1)* %{{.*}}, align 16
// CHECK:       [[GIVEN]]:
// CHECK-COUNT-32: load half, half addrspace(1)* %{{.*}}, align 2
// OFF-LABEL:   define void @transpose_kernel(
// OFF-NOT:     addrspace(1)* %{{.*}}, align 16
// OFF-COUNT-32: load half, half addrspace(1)* %{{.*}}, align 2
// OFF-NOT:     addrspace(1)* %{{.*}}, align 16
// L2-LABEL:   define void @transpose_kernel(
// L2:          br i1 %{{.*}}, label %[[FAST:if.then[0-9]*]], label %[[GIVEN:if.else[0-9]*]]
// L2:          [[FAST]]:
// L2-COUNT-4:  call { i32, i32, i32, i32 } asm sideeffect "ld.global.L2::256B.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(half addrspace(1)* %{{.*}})
// L2-NOT:      ld.global
// L2:          [[GIVEN]]:
// L2-COUNT-32: call i16 asm sideeffect "ld.global.L2::256B.b16 { $0 }, [ $1 + 0 ];", "=h,l"(half addrspace(1)* %{{.*}})
// L2-NOT:      load half
// BAD: layout-translate: error: -specialize-divisibility "on": give auto or off
// BADL2: layout-translate: error: -l2-prefetch "on": give auto or off
// REMARK: specialize-divisibility.mlir:[[@LINE+8]]:3: remark: program order: launch order (a store at {{.*}} moves with program id y by a step not known at compile time)
// REMARK: specialize-divisibility.mlir:[[@LINE+7]]:3: remark: divisibility: specialized for %x, %y, %sxm, %sym divisible: 8 global accesses per thread instead of 64
// REMARK: specialize-divisibility.mlir:[[@LINE+6]]:3: remark: L2 prefetch: 256 B for the loads at {{.*}}specialize-divisibility.mlir:[[@LINE+31]]:13 (rows of 128 bytes; program y+1 reads 128 bytes away, program x+1 a runtime stride away)
// QUIET-NOT: remark

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transpose_kernel(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %M: i32, %N: i32, %sxm: i32, %sym: i32) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %rm = arith.muli %pm, %c64_i32 : i32
    %rm_0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_2 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_3 = tt.splat %rm : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rm_4 = arith.addi %rm_2, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm_5 = arith.addi %rm_3, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn = arith.muli %pn, %c64_i32 : i32
    %rn_6 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_7 = tt.splat %rn : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn_8 = arith.addi %rn_6, %rm_1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn_9 = arith.addi %rn_7, %rm_0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %v = tt.expand_dims %rm_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %v_10 = tt.splat %sxm : i32 -> tensor<64x1xi32, #blocked>
    %v_11 = arith.muli %v, %v_10 : tensor<64x1xi32, #blocked>
    %v_12 = tt.splat %x : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %v_13 = tt.addptr %v_12, %v_11 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %v_14 = tt.expand_dims %rn_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %v_15 = tt.broadcast %v_13 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %v_16 = tt.broadcast %v_14 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %v_17 = tt.addptr %v_15, %v_16 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %v_18 = tt.load %v_17 : tensor<64x64x!tt.ptr<f16>, #blocked>
    %t = tt.trans %v_18 {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %0 = tt.expand_dims %rn_9 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %1 = tt.splat %sym : i32 -> tensor<64x1xi32, #blocked>
    %2 = arith.muli %0, %1 : tensor<64x1xi32, #blocked>
    %3 = tt.splat %y : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %5 = tt.expand_dims %rm_5 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %6 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %7 = tt.broadcast %5 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %8 = tt.addptr %6, %7 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %9 = ttg.convert_layout %t : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    tt.store %8, %9 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
