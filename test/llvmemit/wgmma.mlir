// ttng.warp_group_dot as sm_90 wgmma: matrix descriptors for A (K-major,
// 128-byte swizzle) and B (MN-major), advanced per K step, the accumulator
// tied through the asm, the scale-d predicate, commit; the proxy fence a
// module without fence_async_shared needs; warp_group_dot_wait as
// wgmma.wait_group with the accumulator tied; the kernel is for sm_90a.
// RUN: layout-translate -ttgir-to-llvmir %s -kernel-json %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// JSON: "arch": "sm_90a"

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sh = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @mm(
  // Registers were stored to the buffers and no fence_async_shared precedes the dot.
  // CHECK: call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  // CHECK-NEXT: call void @llvm.nvvm.barrier0()
  // Each descriptor is (the buffer's address >> 4) & 0x3FFF plus constant
  // fields: LBO 8192 B (>>4 = 512, bits 16-29), SBO 1024 B (>>4 = 64, bits
  // 32-45), 128-byte swizzle (mode 1, bits 62-63), and the tile's offset >> 4.
  // CHECK: %[[BADDR:[0-9]+]] = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 u0x2000
  // CHECK: lshr i32 %{{[0-9]+}}, 4
  // CHECK-NEXT: and i32 %{{[0-9]+}}, u0x3FFF
  // CHECK-NEXT: %[[B:[0-9]+]] = zext i32 %{{[0-9]+}} to i64
  // CHECK: %[[A:[0-9]+]] = zext i32 %{{[0-9]+}} to i64
  // CHECK-NEXT: call void asm sideeffect "wgmma.fence.sync.aligned;", ""()
  // CHECK-NEXT: %[[AD:[0-9]+]] = add i64 %[[A]], u0x4000004002000000
  // CHECK-NEXT: %[[BD:[0-9]+]] = add i64 %[[B]], u0x4000004002000000
  // C is a zero constant: scale-d is false on the first K step.
  // CHECK-NEXT: asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, {{.*}}, $31}, $64, $65, $66, 1, 1, 0, 1;", "={{(f,=)+}}f,0,1,{{.*}},31,l,l,b"({{.*}}, i64 %[[AD]], i64 %[[BD]], i1 false)
  // A advances 32 bytes (2) per K step; B 16 rows of 128 bytes (0x80).
  // CHECK: add i64 %[[A]], u0x4000004002000002
  // CHECK-NEXT: add i64 %[[B]], u0x4000004002000080
  // CHECK-NEXT: wgmma.mma_async{{.*}}i1 true)
  // CHECK: wgmma.mma_async
  // CHECK: wgmma.mma_async
  // CHECK-NOT: wgmma.mma_async
  // CHECK: call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
  // CHECK-NEXT: asm sideeffect "// wait for regs: $0,{{.*}},$31\0A\09wgmma.wait_group.sync.aligned 1;", "={{(f,=)+}}f,0,{{.*}},31"
  tt.func public @mm(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<64x1xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %k64 = arith.constant dense<64> : tensor<64x1xi32, #bl>
    %rs = arith.muli %r2, %k64 : tensor<64x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<64x1xi32, #bl> -> tensor<64x64xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #bl> -> tensor<64x64xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #bl>
    %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %aa = tt.addptr %ap, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %x = tt.load %aa : tensor<64x64x!tt.ptr<f16>, #bl>
    %am = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    %bm = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = ttng.warp_group_dot %am, %bm, %z {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #sh, #smem> * !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf32, #mma>
    %w:3 = ttng.warp_group_dot_wait %d, %am, %bm {pendings = 1 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    %cst = arith.constant dense<64> : tensor<64x64xi32, #mma>
    %oa = tt.addptr %op, %cst : tensor<64x64x!tt.ptr<f32>, #mma>, tensor<64x64xi32, #mma>
    tt.store %oa, %w#0 : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
