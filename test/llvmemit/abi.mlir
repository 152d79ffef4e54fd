// The kernel ABI of Triton 3.6: the tt.func parameters, then two global
// scratch pointers; kernel and reqntidx (32·num_warps) annotations;
// dynamic shared memory global_smem.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// CHECK: target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
// CHECK: target triple = "nvptx64-nvidia-cuda"
// CHECK: @global_smem = external addrspace(3) global [0 x i8], align 16
// CHECK: define void @scale(float addrspace(1)* %x, i32 %n, half addrspace(1)* %h, i8 addrspace(1)* %global_scratch, i8 addrspace(1)* %profile_scratch)
// CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
// CHECK: call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
// CHECK: ret void
// CHECK: !nvvm.annotations = !{!0, !1}
// CHECK: !0 = !{void (float addrspace(1)*, i32, half addrspace(1)*, i8 addrspace(1)*, i8 addrspace(1)*)* @scale, !"kernel", i32 1}
// CHECK: !1 = !{void (float addrspace(1)*, i32, half addrspace(1)*, i8 addrspace(1)*, i8 addrspace(1)*)* @scale, !"reqntidx", i32 256}

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scale(%x: !tt.ptr<f32>, %n: i32, %h: !tt.ptr<f16>) {
    %pid = tt.get_program_id y : i32
    %np = tt.get_num_programs z : i32
    %s = arith.addi %pid, %np : i32
    %p = tt.addptr %x, %s : !tt.ptr<f32>, i32
    %v = tt.load %p : !tt.ptr<f32>
    %w = arith.mulf %v, %v : f32
    tt.store %p, %w : !tt.ptr<f32>
    tt.return
  }
}
