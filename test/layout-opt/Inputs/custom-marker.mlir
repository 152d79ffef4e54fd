module {
  tt.func @one() {
    tt.return
  }
}

// =====

// ===
module {
  tt.func @two() {
    tt.return
  }
}
// ======
