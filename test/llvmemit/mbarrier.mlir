// The mbarrier ops (Triton 3.6's BarrierOpToLLVM for one CTA). Thread 0
// initialises, invalidates, arrives and expects bytes; every thread waits
// (a predicated wait skips the loop where its predicate is false).
// Below sm_90 the wait polls mbarrier.test_wait.parity with nanosleep (PTX
// ISA 7.1); from sm_90 it is mbarrier.try_wait.parity (.shared::cta, PTX
// ISA 8.0), where an arrive may count several and barrier_expect exists.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s --check-prefix=SM80
// RUN: layout-translate -ttgir-to-llvmir -compute-capability 90 %s | FileCheck %s --check-prefix=SM90
// RUN: layout-translate -ttgir-to-llvmir %s -kernel-json %t.json && FileCheck %s --check-prefix=JSON80 < %t.json
// RUN: sed -e 's/arrive_barrier %b1, 1 :/arrive_barrier %b1, 2 :/' %s | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: sed -e 's/arrive_barrier %b1, 1 :/barrier_expect %b1, 16384, %on :/' %s | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=EXPECT
// RUN: sed -e 's/arrive_barrier %b1, 1 :/barrier_expect %b1, 16384, %on :/' %s | layout-translate -ttgir-to-llvmir -compute-capability 90 - | FileCheck %s --check-prefix=EXPECT90

// SM80-LABEL: define void @ring(
// SM80: %[[B0:[0-9]+]] = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 0
// SM80-NEXT: call void asm sideeffect "@$0 mbarrier.init.shared.b64 [$1], 1;", "b,r"(i1 %{{[0-9]+}}, i8 addrspace(3)* %[[B0]])
// The second barrier of the ring is 8 bytes after the first.
// SM80: %[[B1:[0-9]+]] = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 8
// SM80-NEXT: call void asm sideeffect "@$0 mbarrier.init.shared.b64 [$1], 1;", "b,r"(i1 %{{[0-9]+}}, i8 addrspace(3)* %[[B1]])
// SM80-NEXT: call void @llvm.nvvm.barrier0()
// SM80: call void asm sideeffect "@$0 mbarrier.arrive.shared.b64 _, [$1];", "b,r"
// SM80: call void @llvm.nvvm.barrier0()
// SM80: mbarrier.test_wait.parity.shared.b64 complete, [$0], $1;\0A\09@!complete nanosleep.u32 20;\0A\09@!complete bra.uni waitLoop;\0A}", "r,r"
// SM80: @!$2 bra.uni skipWait;{{.*}}mbarrier.test_wait.parity.shared.b64 complete, [$0], $1;{{.*}}skipWait:{{.*}}", "r,r,b"(i8 addrspace(3)* %{{[0-9]+}}, i32 %phase, i1 %on)
// SM80: call void asm sideeffect "@$0 mbarrier.inval.shared.b64 [$1];", "b,r"
// SM80: call void asm sideeffect "@$0 mbarrier.inval.shared.b64 [$1];", "b,r"

// SM90-LABEL: define void @ring(
// SM90: "@$0 mbarrier.init.shared::cta.b64 [$1], 1;"
// SM90: "@$0 mbarrier.arrive.shared::cta.b64 _, [$1];"
// SM90: mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;
// SM90-NOT: nanosleep
// SM90: "@$0 mbarrier.inval.shared::cta.b64 [$1];"

// JSON80-NOT: sm_90a

// COUNT: <stdin>:[[@LINE+20]]:5: error: cannot lower 'ttng.arrive_barrier': an arrive of count 2 needs sm_90 (the module targets compute capability 80)
// EXPECT: error: cannot lower 'ttng.barrier_expect': a transaction count (mbarrier.expect_tx) needs sm_90 (the module targets compute capability 80)
// EXPECT90: %[[P:[0-9]+]] = and i1 %{{[0-9]+}}, %on
// EXPECT90-NEXT: getelementptr
// EXPECT90-NEXT: call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 16384;", "b,r"(i1 %[[P]],

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ring(%phase: i32, %on: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    %b1 = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.init_barrier %b0, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.init_barrier %b1, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.arrive_barrier %b0, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.wait_barrier %b0, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.arrive_barrier %b1, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.wait_barrier %b1, %phase, %on : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.inval_barrier %b0 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.inval_barrier %b1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}
