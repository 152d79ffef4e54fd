// Tensor descriptors made in the kernel on sm_90 with -device-tma, as
// Triton 3.6 lowers them: triton-nvidia-tma-lowering makes each a
// ttng.tensormap_create into 128 bytes of global scratch, which warp 0
// zeroes in shared memory, thread 0 fills field by field with
// tensormap.replace (the strides in bytes, as the PTX ISA and the CUDA
// driver read them) and warp 0 copies out with
// tensormap.cp_fenceproxy, then an acquire fence and a barrier; the loads
// and stores are TMA copies through the descriptor's generic address. PTX
// ISA 8.3, sm_90a. Without the flag the descriptors become pointers
// (descriptors.mlir); below sm_90 the flag changes nothing.
// RUN: layout-translate -ttgir-to-ptx -device-tma -remarks %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: layout-translate -ttgir-to-ptx %s | FileCheck %s --check-prefix=POINTERS
// RUN: sed -e 's/cuda:90/cuda:80/' %s | layout-translate -ttgir-to-ptx -device-tma - | FileCheck %s --check-prefix=POINTERS

// CHECK: .version 8.3
// CHECK: .target sm_90a
// CHECK-LABEL: .entry k(
// CHECK: mov.u32 [[SMEM:%r[0-9]+]], global_smem;
// CHECK: @[[W0:%p[0-9]+]] st.shared.b32 [{{%r[0-9]+}}], 0;
// CHECK: bar.warp.sync -1;
// CHECK: @[[T0:%p[0-9]+]] tensormap.replace.tile.global_address.shared::cta.b1024.b64 [[[SMEM]]], {{%rd[0-9]+}};
// CHECK: @[[T0]] tensormap.replace.tile.rank.shared::cta.b1024.b32 [[[SMEM]]], 1;
// CHECK: @[[T0]] tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [[[SMEM]]], 0, 16;
// CHECK: @[[T0]] tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [[[SMEM]]], 1, 32;
// CHECK: @[[T0]] tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [[[SMEM]]], 0, 24;
// CHECK: @[[T0]] tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [[[SMEM]]], 1, 20;
// CHECK: @[[T0]] tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [[[SMEM]]], 0, 96;
// CHECK: @[[T0]] tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [[[SMEM]]], 0, 1;
// CHECK: @[[T0]] tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [[[SMEM]]], 7;
// CHECK: @[[T0]] tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [[[SMEM]]], 2;
// CHECK: @[[T0]] tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [[[SMEM]]], 0;
// CHECK: @[[W0]] tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [[[DESC:%rd[0-9]+]]], [[[SMEM]]], 128;
// CHECK: @[[W0]] fence.proxy.tensormap::generic.acquire.gpu [[[DESC]]], 128;
// CHECK-NEXT: // end inline asm
// CHECK-NEXT: bar.sync 0;
// The map's instructions take its global address as it is (as Triton); the
// copies take the generic one.
// CHECK: cvta.global.u64 [[GEN:%rd[0-9]+]], [[DESC]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [[[GEN]], {{{%r[0-9]+}}, {{%r[0-9]+}}}]
// CHECK: tensormap.cp_fenceproxy
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group

// REMARK: remark: tensor descriptors made in the kernel: tensor maps written on the device (ttng.tensormap_create) and TMA copies (triton-nvidia-tma-lowering; -device-tma)

// POINTERS-NOT: tensormap
// POINTERS-NOT: cp.async.bulk
// POINTERS: ld.global
// POINTERS-NOT: tensormap

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
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
