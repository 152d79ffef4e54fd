package llvmemit_test

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestSimExp2FlushesSubnormals checks math.exp2 on f32 as Triton lowers
// it, ex2.approx.ftz.f32: results below 2^-126 are 0, subnormal inputs
// count as 0.
func TestSimExp2FlushesSubnormals(t *testing.T) {
	body := offsets2D("a", "#rows", 32, 32) + `
    %fin = tt.bitcast %in : !tt.ptr<i32> -> !tt.ptr<f32>
    %ip = tt.splat %fin : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #rows>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<f32>, #rows>, tensor<32x32xi32, #rows>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<f32>, #rows>
    %y = math.exp2 %x : tensor<32x32xf32, #rows>
    %fout = tt.bitcast %out : !tt.ptr<i32> -> !tt.ptr<f32>
    %op = tt.splat %fout : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #rows>
    %ob = tt.addptr %op, %a_off : tensor<32x32x!tt.ptr<f32>, #rows>, tensor<32x32xi32, #rows>
    tt.store %ob, %y : tensor<32x32x!tt.ptr<f32>, #rows>`
	res := lowerSource(t, module(4, aliasDefs("rows"), body), "exp2.mlir", true)
	cases := []struct{ x, want float32 }{
		{3, 8}, {-126, 0x1p-126}, {-130, 0}, {-149, 0}, {0x1p-140, 1}, {-0x1p-140, 1},
	}
	mem := make([]byte, 2*4*1024)
	for i := 0; i < 1024; i++ {
		binary.LittleEndian.PutUint32(mem[4*i:], math.Float32bits(cases[i%len(cases)].x))
	}
	s := newSim(128, mem)
	for _, f := range res.Module.Funcs {
		if f.Name() == "k" {
			s.run(f, []uint64{0, 4096, 0, 0})
		}
	}
	for i, c := range cases {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(mem[4096+4*i:])); got != c.want {
			t.Errorf("exp2(%g) = %g, want %g", c.x, got, c.want)
		}
	}
}
