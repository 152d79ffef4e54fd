// Verifier checks of MLIR and Triton that layout-opt once missed; each
// chunk below is rejected with MLIR's diagnostic:
//  * scf.if with results and no else region ("must have an else block if
//    defining values", scf::IfOp::verify);
//  * tt.call of a symbol that is not a function ("'nope' does not reference
//    a valid function", CallOp::verifySymbolUses);
//  * scf.yield outside the scf ops (the HasParent trait: "expects parent op
//    to be one of ...");
//  * ttng.warp_group_dot on fp8 with an f32 accumulator and fewer than 32
//    imprecise accumulations allowed, and an in-register LHS whose kWidth is
//    not 32 / its bit width (WarpGroupDotOp::verify).

// RUN: layout-opt %s -split-input-file -verify-diagnostics

tt.func @if_without_else(%c: i1, %a: i32) {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (i32) {
    scf.yield %a : i32
  }
  tt.return
}

// -----

tt.func @call_undefined(%a: i32) {
  // expected-error @+1 {{'tt.call' op 'nope' does not reference a valid function}}
  tt.call @nope(%a) : (i32) -> ()
  tt.return
}

// -----

tt.func @yield_in_func(%a: i32) {
  // expected-error @+1 {{'scf.yield' op expects parent op to be one of}}
  scf.yield
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_f32_imprecise(%a: tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: !ttg.memdesc<64x64xf8E4M3FN, #sb, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{'ttng.warp_group_dot' op Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32}}
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, maxNumImpreciseAcc = 31 : i32} : tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * !ttg.memdesc<64x64xf8E4M3FN, #sb, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @i8_kwidth(%a: tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: !ttg.memdesc<64x64xi8, #sb, #smem>, %c: tensor<64x64xi32, #mma>) {
    // expected-error @+1 {{'ttng.warp_group_dot' op in-register LHS operand must have a kWidth of 4 but got 2}}
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xi8, #sb, #smem> -> tensor<64x64xi32, #mma>
    tt.return
  }
}
