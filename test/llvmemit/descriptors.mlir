// A kernel that makes tensor descriptors (tl.make_tensor_descriptor) lowers
// without TMA: layout-translate rewrites them first
// (triton-rewrite-tensor-descriptor-to-pointer), so their loads and stores
// are masked ones through pointers. A kernel that also takes a descriptor
// parameter (a host-side TMA descriptor, see tma-sm90.mlir) is refused with
// the way out, as is one for sm_80 taking one (no TMA there).
// RUN: layout-translate -ttgir-to-llvmir -remarks %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: sed -e 's/@k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>)/@k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %dd: !tt.tensordesc<tensor<32x16xf32, #s>>)/' %s | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: sed -e 's/@k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>)/@k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %dd: !tt.tensordesc<tensor<32x16xf32, #s>>)/' -e '/make_tensor_descriptor/d' -e 's/descriptor_load %d\[/descriptor_load %dd[/' -e 's/descriptor_store %e/descriptor_store %dd/' %s | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: define void @k(float addrspace(1)* %in, float addrspace(1)* %out,
// CHECK: ld.global
// CHECK: st.global
// CHECK-NOT: cp.async.bulk

// REMARK: remark: tensor descriptors: their loads and stores are masked ones through pointers (triton-rewrite-tensor-descriptor-to-pointer; no TMA)
// PARAM: error: cannot lower 'tt.func': argument 2 is a tensor descriptor and the module makes descriptors (tt.make_tensor_descriptor), which the lowering takes only as their parts: run layout-opt -triton-rewrite-tensor-descriptor-to-pointer first
// SM80: error: cannot lower 'tt.func': argument 2: a tensor descriptor parameter (a host-side TMA descriptor) needs sm_90 (the module targets compute capability 80); for older GPUs run layout-opt -triton-rewrite-tensor-descriptor-to-pointer first

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %c20 = arith.constant 20 : i32
    %c24 = arith.constant 24 : i32
    %c24_64 = arith.constant 24 : i64
    %c1 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %d = tt.make_tensor_descriptor %in, [%c20, %c24], [%c24_64, %c1] : <f32>, <tensor<32x16xf32, #s>>
    %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<32x16xf32, #s>> -> tensor<32x16xf32, #b>
    %e = tt.make_tensor_descriptor %out, [%c20, %c24], [%c24_64, %c1] : <f32>, <tensor<32x16xf32, #s>>
    tt.descriptor_store %e[%c0, %c0], %v : !tt.tensordesc<tensor<32x16xf32, #s>>, tensor<32x16xf32, #b>
    tt.return
  }
}
