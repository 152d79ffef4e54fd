// Verifier checks of MLIR and Triton that layout-opt once missed; each
// chunk below is rejected with MLIR's diagnostic:
//  * scf.if with results and no else region ("must have an else block if
//    defining values", scf::IfOp::verify);
//  * tt.call of a symbol that is not a function ("'nope' does not reference
//    a valid function", CallOp::verifySymbolUses);
//  * scf.yield outside the scf ops (the HasParent trait: "expects parent op
//    to be one of ...").

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
