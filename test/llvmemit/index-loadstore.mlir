// Index arithmetic from the LinearLayout, and vectorised global accesses.
// The layout is the research note's worked example: row = (tid & 240) >> 4
// plus constant rows 16·k per register group, column = (tid & 15) << 2
// plus the register's 0..3. With tt.divisibility = 16 the loads are
// <4 x float> align 16 (ld.global.v4) and the masked stores Triton's
// predicated st.global.v4.b32; without it every access is scalar.
// RUN: layout-translate -specialize-divisibility=off -ttgir-to-llvmir %s | FileCheck %s

// CHECK-LABEL: define void @copy(
// CHECK: %[[TID:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK-NEXT: %[[T:.*]] = and i32 %[[TID]], 255
// CHECK-NEXT: %[[R0:.*]] = and i32 %[[T]], 240
// CHECK-NEXT: %[[ROW:.*]] = lshr i32 %[[R0]], 4
// CHECK-NEXT: add nuw nsw i32 %[[ROW]], 16
// CHECK: add nuw nsw i32 %[[ROW]], 112
// CHECK-NEXT: %[[C0:.*]] = and i32 %[[T]], 15
// CHECK-NEXT: %[[COL:.*]] = shl i32 %[[C0]], 2
// CHECK-NEXT: add nuw nsw i32 %[[COL]], 1
// CHECK-NEXT: add nuw nsw i32 %[[COL]], 2
// CHECK-NEXT: add nuw nsw i32 %[[COL]], 3
// CHECK: load <4 x float>, <4 x float> addrspace(1)* %{{.*}}, align 16
// CHECK: call void asm sideeffect "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"
// CHECK-LABEL: define void @scalar(
// CHECK-NOT: <4 x float>
// CHECK: load float, float addrspace(1)* %{{.*}}, align 4
// CHECK: call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %rs = arith.muli %r2, %c64 : tensor<128x1xi32, #blocked>
    %rb = tt.broadcast %rs : tensor<128x1xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<128x64xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %off : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<128x64xi32, #blocked>
    %m = arith.cmpi slt, %off, %ns : tensor<128x64xi32, #blocked>
    %v = tt.load %xp : tensor<128x64x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %off : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    tt.store %yp, %v, %m : tensor<128x64x!tt.ptr<f32>, #blocked>
    tt.return
  }

  tt.func public @scalar(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %rs = arith.muli %r2, %c64 : tensor<128x1xi32, #blocked>
    %rb = tt.broadcast %rs : tensor<128x1xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<128x64xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %off : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<128x64xi32, #blocked>
    %m = arith.cmpi slt, %off, %ns : tensor<128x64xi32, #blocked>
    %v = tt.load %xp : tensor<128x64x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %off : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    tt.store %yp, %v, %m : tensor<128x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
