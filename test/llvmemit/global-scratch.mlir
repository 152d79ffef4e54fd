// ttg.global_scratch_alloc: layout-translate runs Triton's global scratch
// allocation first (the TTGIR has no offsets); a kernel's part of the
// launcher's buffer is its linear program id x + nx·(y + ny·z) times
// ttg.global_scratch_memory_size (1024 here: 512 bytes of its own at 0, the
// helper's 512 at 512), a device function adds its offsets to the pointer
// the call passes, and -kernel-json gives the launcher the size.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s
// RUN: layout-translate -ttgir-to-llvmir %s -kernel-json %t.json -o %t.ll && FileCheck %s --check-prefix=JSON < %t.json
// RUN: layout-opt -tritongpu-global-scratch-memory-allocation %s | sed -e 's/, ttg.global_scratch_memory_offset = 0 : i32}/}/' | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=NOOFF

// CHECK-LABEL: define internal i32 @helper(i32 %v, i32 %shared_frame, i8 addrspace(1)* %global_scratch, i8 addrspace(1)* %profile_scratch)
// CHECK: bitcast i8 addrspace(1)* %global_scratch to i32 addrspace(1)*
// CHECK-LABEL: define void @k(
// CHECK: %[[Z:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
// CHECK-NEXT: %[[Y:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
// CHECK-NEXT: %[[NY:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
// CHECK-NEXT: %[[ZNY:.*]] = mul i32 %[[Z]], %[[NY]]
// CHECK-NEXT: %[[YZ:.*]] = add i32 %[[Y]], %[[ZNY]]
// CHECK-NEXT: %[[X:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK-NEXT: %[[NX:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
// CHECK-NEXT: %[[T:.*]] = mul i32 %[[YZ]], %[[NX]]
// CHECK-NEXT: %[[LIN:.*]] = add i32 %[[X]], %[[T]]
// CHECK-NEXT: %[[OFF:.*]] = mul i32 %[[LIN]], 1024
// CHECK-NEXT: getelementptr i8, i8 addrspace(1)* %global_scratch, i32 %[[OFF]]
// CHECK: %[[COFF:.*]] = add i32 %{{.*}}, 512
// CHECK-NEXT: %[[CP:.*]] = getelementptr i8, i8 addrspace(1)* %global_scratch, i32 %[[COFF]]
// CHECK-NEXT: call i32 @helper(i32 %{{.*}}, i32 0, i8 addrspace(1)* %[[CP]], i8 addrspace(1)* %profile_scratch)

// JSON: "global_scratch_size": 1024,
// JSON-NEXT: "global_scratch_align": 16,

// NOOFF: error: cannot lower 'ttg.global_scratch_alloc': no ttg.global_scratch_memory_offset: run the global scratch allocation first
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @helper(%v: tensor<128xi32, #b>) -> tensor<128xi32, #b> attributes {noinline = false} {
    %s = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 512 : i32} : !tt.ptr<i32>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %sp = tt.splat %s : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %a = tt.addptr %sp, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    %c3 = arith.constant dense<3> : tensor<128xi32, #b>
    %w = arith.muli %v, %c3 : tensor<128xi32, #b>
    tt.store %a, %w : tensor<128x!tt.ptr<i32>, #b>
    %x = tt.load %a : tensor<128x!tt.ptr<i32>, #b>
    tt.return %x : tensor<128xi32, #b>
  }
  tt.func public @k(%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %s = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 512 : i32} : !tt.ptr<i32>
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %pid : i32 -> tensor<128xi32, #b>
    %v = arith.addi %r, %ps : tensor<128xi32, #b>
    %sp = tt.splat %s : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %a = tt.addptr %sp, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    tt.store %a, %v : tensor<128x!tt.ptr<i32>, #b>
    %y = tt.load %a : tensor<128x!tt.ptr<i32>, #b>
    %z = tt.call @helper(%y) : (tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %c128 = arith.constant 128 : i32
    %row = arith.muli %pid, %c128 : i32
    %o0 = tt.addptr %out, %row : !tt.ptr<i32>, i32
    %op = tt.splat %o0 : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %o = tt.addptr %op, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    tt.store %o, %z : tensor<128x!tt.ptr<i32>, #b>
    tt.return
  }
}
