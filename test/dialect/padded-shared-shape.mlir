// RUN: layout-opt %s -split-input-file -verify-diagnostics

// A #ttg.padded_shared with a linear component fixes the trailing dims of
// the memdesc shapes it is used with (Triton's MemDescType::verify).

#shared = #ttg.padded_shared<[4:+4] {offset=[[1, 0], [2, 0], [0, 1], [0, 2]], block=[]}>
// expected-error @below {{rank must be equal to or one less than the shape size. Got 2 and 4}}
!too_many = !ttg.memdesc<2x4x4x4xf32, #shared, #ttg.shared_memory>

// -----

#shared = #ttg.padded_shared<[4:+4] {offset=[[1, 0], [2, 0], [0, 1], [0, 2]], block=[]}>
// expected-error @below {{Mismatch in expected shape for dimension 1. Expected: 8, got: 4}}
!wrong = !ttg.memdesc<4x8xf32, #shared, #ttg.shared_memory>

// -----

// Multi-buffered: one leading buffer dimension is allowed.
#shared = #ttg.padded_shared<[4:+4] {offset=[[1, 0], [2, 0], [0, 1], [0, 2]], block=[]}>
!ok = !ttg.memdesc<3x4x4xf32, #shared, #ttg.shared_memory>
module {
  tt.func @f(%m: !ok) {
    tt.return
  }
}
