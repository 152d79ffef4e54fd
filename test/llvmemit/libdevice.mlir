// tt.extern_elementwise calls libdevice (Triton 3.6's
// ExternElementwiseOpConversion): one call per register of a declared
// function, readnone when pure, and Triton's nvvm-reflect-ftz module flag.
// Linking libdevice itself (layout-translate -ttgir-to-ptx, or -O3) is
// TestLinkLibdevice's; TestExternErrors has the types libdevice lacks.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s
// RUN: sed -e 's/__nv_powf/__ocml_pow_f32/' %s | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=OCML
// RUN: env LIBDEVICE=/nonexistent/libdevice.10.bc not layout-translate -ttgir-to-ptx %s 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: call float @__nv_tanhf(float %[[A:[0-9]+]])
// CHECK-NEXT: call float @__nv_tanhf(float %[[B:[0-9]+]])
// CHECK: call float @__nv_powf(float %{{[0-9]+}}, float 2.5)
// CHECK: declare float @__nv_tanhf(float %0) nounwind readnone
// CHECK: declare float @__nv_powf(float %0, float %1)
// CHECK-NOT: readnone
// CHECK: !llvm.module.flags = !{![[F:[0-9]+]]}
// CHECK: ![[F]] = !{i32 4, !"nvvm-reflect-ftz", i32 1}

// OCML: error: cannot lower 'tt.extern_elementwise': "__ocml_pow_f32" is not a libdevice function (__nv_*): NVIDIA kernels link libdevice only
// MISSING: layout-translate: error: libdevice: stat /nonexistent/libdevice.10.bc: no such file or directory

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %r : tensor<4x!tt.ptr<f32>, #blocked>, tensor<4xi32, #blocked>
    %v = tt.load %xa : tensor<4x!tt.ptr<f32>, #blocked>
    %t = tt.extern_elementwise %v {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<4xf32, #blocked>) -> tensor<4xf32, #blocked>
    %e = arith.constant dense<2.500000e+00> : tensor<4xf32, #blocked>
    %p = tt.extern_elementwise %t, %e {libname = "libdevice", libpath = "", pure = false, symbol = "__nv_powf"} : (tensor<4xf32, #blocked>, tensor<4xf32, #blocked>) -> tensor<4xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %r : tensor<4x!tt.ptr<f32>, #blocked>, tensor<4xi32, #blocked>
    tt.store %ya, %p : tensor<4x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
