// RUN: layout-opt %s -split-input-file -test-print-alignment -verify-diagnostics -o /dev/null

// The axis facts of a 2-D f16 tile's pointers: rows a 16-divisible stride
// apart, 64 consecutive columns from a multiple of 64.
tt.func @tile(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant_value = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %pid = tt.get_program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>}}
  %base = arith.muli %pid, %c64 : i32
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1], constant_value = <none>}}
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 1], constant_value = <none>}}
  %ss = tt.splat %s : i32 -> tensor<64x1xi32>
  // A contiguous run times the stride: divisible by the stride's 16, not
  // by the run's first element.
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1], constant_value = <none>}}
  %ro = arith.muli %rows, %ss : tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64], constant_value = <none>}}
  %bs = tt.splat %base : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], constant_value = <none>}}
  %cols = arith.addi %bs, %r : tensor<64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 64], constancy = [1, 1], constant_value = <none>}}
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64], constant_value = <none>}}
  %rb = tt.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 64], constancy = [64, 1], constant_value = <none>}}
  %cb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1], constant_value = <none>}}
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 64], constant_value = <none>}}
  %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  // 64 f16 in a row from a 16-byte boundary: 8 per 16-byte access.
  // expected-remark @below {{contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1], constant_value = <none>}}
  %ptr = tt.addptr %ps, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  tt.return
}

// -----

// A loop's induction variable is divisible by its bounds' and step's
// common divisor; an op's own hint replaces its facts. Nested ops come
// before the op around them, as in Triton's pass.
tt.func @loop(%n: i32, %q: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32}}
  %c32 = arith.constant 32 : i32
  scf.for %iv = %c0 to %n step %c32 : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>}}
    %t = arith.addi %iv, %c0 : i32
  }
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>}}
  %h = arith.addi %q, %c0 {tt.divisibility = dense<8> : tensor<1xi32>} : i32
  tt.return
}
