module {
  tt.func @f(%arg0: i32) {
    %0 = arith.addi %arg0, %undefined : i32
    // expected-error @above {{use of an undeclared value}}
    // expected-warning @below {{a warning that never comes}}
    tt.return
    // expected-remark @-4 {{a remark that never comes}}
  }
}

// -----

module {
  // expected-note {{a note that never comes}}
  tt.func @g() {
    tt.return
  }
}

// -----

// expected-error @unknown {{a diagnostic without a location}}
module {
}
