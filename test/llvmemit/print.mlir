// tt.print and tt.assert (Triton 3.6's PrintOpToLLVM and AssertOpToLLVM):
// every thread prints each register through vprintf, the arguments in a
// struct allocated in the entry block; a thread whose condition register
// is false calls __assertfail with the op's file and line, then all
// threads meet at a barrier.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s

// CHECK-DAG: @printfFormat_{{[0-9]+}} = internal addrspace(1) constant [{{[0-9]+}} x i8] c"pid (%u, %u, %u) idx (%2u, %1u) v: %f\0A\00"
// CHECK-DAG: @printfFormat_{{[0-9]+}} = internal addrspace(1) constant [{{[0-9]+}} x i8] c"pid (%u, %u, %u) idx (%2u, %1u) b, n: (operand 0) 0x%08x\0A\00"
// CHECK-DAG: @printfFormat_{{[0-9]+}} = internal addrspace(1) constant [{{[0-9]+}} x i8] c"pid (%u, %u, %u) idx () b, n: (operand 1) 0x%016llx\0A\00"
// CHECK-DAG: @printfFormat_{{[0-9]+}} = internal addrspace(1) constant [{{[0-9]+}} x i8] c"pid (%u, %u, %u) idx (%2u, %1u) s: %i\0A\00"
// CHECK-DAG: @printfFormat_{{[0-9]+}} = internal addrspace(1) constant [{{[0-9]+}} x i8] c"pid (%u, %u, %u) hello\0A\00"
// CHECK-DAG: @assertMessage_{{[0-9]+}} = internal addrspace(1) constant [23 x i8] c"n must not be negative\00"
// CHECK-DAG: @assertFile_{{[0-9]+}} = internal addrspace(1) constant [10 x i8] c"kernel.py\00"

// CHECK-LABEL: define void @show(
// CHECK-NEXT: entry:
// CHECK-NEXT: alloca { i32, i32, i32 }
// CHECK: alloca { i32, i32, i32, i32, i32, double }
// CHECK-NOT: alloca
// CHECK: fpext half %{{[0-9]+}} to double
// CHECK: call i32 @vprintf(i8* addrspacecast (i8 addrspace(1)* getelementptr ([39 x i8], [39 x i8] addrspace(1)* @printfFormat_0, i32 0, i32 0) to i8*), i8* %{{[0-9]+}})
// An i8 printed as signed is sign-extended to 32 bits.
// CHECK: sext i8 %{{[0-9]+}} to i32
// CHECK: call i32 @vprintf(
// CHECK: icmp eq i1 %{{[0-9]+}}, false
// CHECK: br i1 %{{[0-9]+}}, label %assert.fail{{[0-9]*}}, label %assert.done
// CHECK: assert.fail{{[0-9]*}}:
// CHECK-NEXT: call void @__assertfail(i8* {{.*}}@assertMessage_{{.*}}, i8* {{.*}}@assertFile_{{.*}}, i32 12, i8* {{.*}}@assertFunc_{{.*}}, i64 1)
// CHECK: assert.done{{[0-9]*}}:
// CHECK-NEXT: call void @llvm.nvvm.barrier0()

// CHECK: declare i32 @vprintf(i8* %0, i8* %1)
// CHECK: declare void @__assertfail(i8* %0, i8* %1, i32 %2, i8* %3, i64 %4)

#blocked = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @show(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i64) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %b = tt.broadcast %e : tensor<16x1xi32, #blocked> -> tensor<16x4xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f16> -> tensor<16x4x!tt.ptr<f16>, #blocked>
    %q = tt.addptr %p, %b : tensor<16x4x!tt.ptr<f16>, #blocked>, tensor<16x4xi32, #blocked>
    %v = tt.load %q : tensor<16x4x!tt.ptr<f16>, #blocked>
    tt.print " v: " {hex = false, isSigned = array<i32: 0>} : %v : tensor<16x4xf16, #blocked>
    %s = arith.trunci %b : tensor<16x4xi32, #blocked> to tensor<16x4xi8, #blocked>
    tt.print " s: " {hex = false, isSigned = array<i32: 1>} : %s : tensor<16x4xi8, #blocked>
    tt.print " b, n: " {hex = true, isSigned = array<i32: 1, 1>} : %b, %n : tensor<16x4xi32, #blocked>, i64
    tt.print " hello" {hex = false, isSigned = array<i32>}
    %c0 = arith.constant 0 : i64
    %ok = arith.cmpi sge, %n, %c0 : i64
    tt.assert %ok, "n must not be negative" : i1 loc("kernel.py":12:3)
    tt.return
  }
}
