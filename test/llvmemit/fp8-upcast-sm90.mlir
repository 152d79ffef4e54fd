// fp8 upcasts on sm_90 use the hardware's cvt.rn.f16x2.e4m3x2 (and
// .e5m2x2), four registers a word; the module gets Hopper's header (the
// instruction needs sm_90 with PTX 7.8; on sm_89 only from PTX 8.1, where
// llc-14 writes sm_80, so an sm_89 module keeps the software conversion).
// To bf16 each f16 widens to f32 (exact) and one prmt packs the two high
// halves.
// RUN: layout-translate -ttgir-to-ptx %s | FileCheck %s
// RUN: sed -e 's/cuda:90/cuda:89/' %s | layout-translate -ttgir-to-ptx - | FileCheck %s --check-prefix=SM89

// CHECK: .version 8.0
// CHECK: .target sm_90a
// CHECK-LABEL: .entry up(
// CHECK: cvt.rn.f16x2.e4m3x2
// CHECK: cvt.f32.f16
// CHECK: prmt.b32 {{.*}}, 0x7632;
// CHECK: cvt.rn.f16x2.e5m2x2
// SM89: .target sm_80
// SM89-NOT: e4m3x2
// SM89-NOT: e5m2x2

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @up(%x: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %e: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %y: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %z: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %xp = tt.splat %x : !tt.ptr<f8E4M3FN> -> tensor<512x!tt.ptr<f8E4M3FN>, #b>
    %xa = tt.addptr %xp, %r : tensor<512x!tt.ptr<f8E4M3FN>, #b>, tensor<512xi32, #b>
    %v = tt.load %xa : tensor<512x!tt.ptr<f8E4M3FN>, #b>
    %w = tt.fp_to_fp %v : tensor<512xf8E4M3FN, #b> -> tensor<512xbf16, #b>
    %yp = tt.splat %y : !tt.ptr<bf16> -> tensor<512x!tt.ptr<bf16>, #b>
    %ya = tt.addptr %yp, %r : tensor<512x!tt.ptr<bf16>, #b>, tensor<512xi32, #b>
    tt.store %ya, %w : tensor<512x!tt.ptr<bf16>, #b>
    %ep = tt.splat %e : !tt.ptr<f8E5M2> -> tensor<512x!tt.ptr<f8E5M2>, #b>
    %ea = tt.addptr %ep, %r : tensor<512x!tt.ptr<f8E5M2>, #b>, tensor<512xi32, #b>
    %u = tt.load %ea : tensor<512x!tt.ptr<f8E5M2>, #b>
    %h = arith.extf %u : tensor<512xf8E5M2, #b> to tensor<512xf16, #b>
    %zp = tt.splat %z : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>, #b>
    %za = tt.addptr %zp, %r : tensor<512x!tt.ptr<f16>, #b>, tensor<512xi32, #b>
    tt.store %za, %h : tensor<512x!tt.ptr<f16>, #b>
    tt.return
  }
}
