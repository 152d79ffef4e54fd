// tt.elementwise_inline_asm (tl.inline_asm_elementwise) runs its PTX on
// blocks of packed_element registers: narrower elements packed into 32-bit
// registers (four i8 in one), the outputs of several results one struct,
// a tied input, and side effects unless the op is pure. llc and ptxas take
// the PTX as written.
// RUN: layout-translate -ttgir-to-llvmir %s | FileCheck %s
// RUN: layout-translate -ttgir-to-ptx %s | FileCheck %s --check-prefix=PTX
// RUN: sed -e 's/"=r,r", packed_element = 4/"=r,r,r", packed_element = 4/' %s | not layout-translate -ttgir-to-llvmir - 2>&1 | FileCheck %s --check-prefix=ERR

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: define void @bytes(
  // CHECK: %[[W:.*]] = bitcast <4 x i8> %{{.*}} to i32
  // CHECK-NEXT: %[[R:.*]] = call i32 asm "{\0A.reg .b32 t;\0Ashl.b32 t, $1, 1;\0Aand.b32 $0, t, 0xfefefefe;\0A}", "=r,r"(i32 %[[W]])
  // CHECK-NEXT: bitcast i32 %[[R]] to <4 x i8>
  // PTX-LABEL: .entry bytes(
  // PTX: ld.global.u32 [[X:%r[0-9]+]],
  // PTX: shl.b32 t, [[X]], 1;
  // PTX: and.b32 [[Y:%r[0-9]+]], t, 0xfefefefe;
  // PTX: st.global.b32 [ %rd{{[0-9]+}} + 0 ], { [[Y]] };
  // ERR: <stdin>:[[@LINE+6]]:10: error: cannot lower 'tt.elementwise_inline_asm': constraints "=r,r,r" name 1 outputs and 2 inputs; packed_element 4 of these results and operands makes 1 and 1
  tt.func public @bytes(%p: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
    %i = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #b>
    %pa = tt.addptr %ps, %i : tensor<128x!tt.ptr<i8>, #b>, tensor<128xi32, #b>
    %x = tt.load %pa : tensor<128x!tt.ptr<i8>, #b>
    %y = tt.elementwise_inline_asm "{\0A.reg .b32 t;\0Ashl.b32 t, $1, 1;\0Aand.b32 $0, t, 0xfefefefe;\0A}" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<128xi8, #b> -> tensor<128xi8, #b>
    %qs = tt.splat %q : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #b>
    %qa = tt.addptr %qs, %i : tensor<128x!tt.ptr<i8>, #b>, tensor<128xi32, #b>
    tt.store %qa, %y : tensor<128x!tt.ptr<i8>, #b>
    tt.return
  }

  // CHECK-LABEL: define void @pair(
  // CHECK: %[[XB:.*]] = bitcast float %{{.*}} to i32
  // CHECK-NEXT: %[[S:.*]] = call { i32, i32 } asm sideeffect "and.b32 $0, $2, 0x7fffffff; or.b32 $1, $3, 1;", "=r,=r,r,r"(i32 %[[XB]], i32 %{{.*}})
  // CHECK-NEXT: %[[A:.*]] = extractvalue { i32, i32 } %[[S]], 0
  // CHECK-NEXT: bitcast i32 %[[A]] to float
  // CHECK-NEXT: extractvalue { i32, i32 } %[[S]], 1
  // CHECK-LABEL: define void @tied(
  // CHECK: call i32 asm "add.u32 $0, $0, $2;", "=r,0,r"(i32 %{{.*}}, i32 %{{.*}})
  tt.func public @pair(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %i = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pa = tt.addptr %ps, %i : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %x = tt.load %pa : tensor<128x!tt.ptr<f32>, #b>
    %qs = tt.splat %q : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %qa = tt.addptr %qs, %i : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    %y = tt.load %qa : tensor<128x!tt.ptr<i32>, #b>
    %a, %o = tt.elementwise_inline_asm "and.b32 $0, $2, 0x7fffffff; or.b32 $1, $3, 1;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %x, %y : tensor<128xf32, #b>, tensor<128xi32, #b> -> tensor<128xf32, #b>, tensor<128xi32, #b>
    tt.store %pa, %a : tensor<128x!tt.ptr<f32>, #b>
    tt.store %qa, %o : tensor<128x!tt.ptr<i32>, #b>
    tt.return
  }

  tt.func public @tied(%p: !tt.ptr<i16> {tt.divisibility = 16 : i32}) {
    %i = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i16> -> tensor<128x!tt.ptr<i16>, #b>
    %pa = tt.addptr %ps, %i : tensor<128x!tt.ptr<i16>, #b>, tensor<128xi32, #b>
    %x = tt.load %pa : tensor<128x!tt.ptr<i16>, #b>
    %y = tt.elementwise_inline_asm "add.u32 $0, $0, $2;" {constraints = "=r,0,r", packed_element = 2 : i32, pure = true} %x, %x : tensor<128xi16, #b>, tensor<128xi16, #b> -> tensor<128xi16, #b>
    tt.store %pa, %y : tensor<128x!tt.ptr<i16>, #b>
    tt.return
  }
}
