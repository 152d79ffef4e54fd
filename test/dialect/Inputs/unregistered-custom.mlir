tt.func @f(%a: i32) {
  %0 = foo.bar %a : i32
  tt.return
}
