package llvmemit_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
)

// TestSimTruncPairs checks arith.truncf from f32 to f16 and bf16 on
// sm_80, lowered two registers at a time with cvt.rn.{f16,bf16}x2.f32,
// against round-to-nearest-even on every element (halfway cases,
// subnormals, overflow to infinity and NaN among them).
func TestSimTruncPairs(t *testing.T) {
	for _, to := range []string{"f16", "bf16"} {
		t.Run(to, func(t *testing.T) {
			body := offsets2D("a", "#rows", 32, 32) + strings.ReplaceAll(`
    %fin = tt.bitcast %in : !tt.ptr<i32> -> !tt.ptr<f32>
    %ip = tt.splat %fin : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #rows>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<f32>, #rows>, tensor<32x32xi32, #rows>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<f32>, #rows>
    %y = arith.truncf %x : tensor<32x32xf32, #rows> to tensor<32x32xT, #rows>
    %fout = tt.bitcast %out : !tt.ptr<i32> -> !tt.ptr<T>
    %op = tt.splat %fout : !tt.ptr<T> -> tensor<32x32x!tt.ptr<T>, #rows>
    %ob = tt.addptr %op, %a_off : tensor<32x32x!tt.ptr<T>, #rows>, tensor<32x32xi32, #rows>
    tt.store %ob, %y : tensor<32x32x!tt.ptr<T>, #rows>`, "T", to)
			src := module(4, aliasDefs("rows"), body)
			res := lowerSource(t, src, "trunc.mlir", true)
			if want := "cvt.rn." + to + "x2.f32"; !strings.Contains(res.Module.String(), want) {
				t.Errorf("no %s in the lowering", want)
			}
			ff := interp.LookupFloatFormat(to)
			in := make([]uint32, 1024)
			for i := range in {
				switch {
				case i < 16: // halfway and near-halfway cases of both formats
					in[i] = math.Float32bits(1+float32(i%4)/(1<<11)+float32(i/4)/(1<<8)) ^ uint32(i&1)
				case i == 16:
					in[i] = math.Float32bits(float32(math.NaN()))
				case i == 17:
					in[i] = math.Float32bits(1e30)
				case i == 18:
					in[i] = math.Float32bits(-3e-7)
				default:
					in[i] = uint32(i*2654435761) &^ 0x40000000 // finite, all magnitudes
				}
			}
			mem := make([]byte, 4*1024+2*1024)
			for i, v := range in {
				binary.LittleEndian.PutUint32(mem[4*i:], v)
			}
			s := newSim(128, mem)
			for _, f := range res.Module.Funcs {
				if f.Name() == "k" {
					s.run(f, []uint64{0, 4096, 0, 0})
				}
			}
			for i, v := range in {
				x := float64(math.Float32frombits(v))
				want := uint16(ff.Bits(ff.Round(x, interp.NearestEven, false)))
				got := binary.LittleEndian.Uint16(mem[4096+2*i:])
				if x != x {
					if ff.FromBits(uint64(got)) == ff.FromBits(uint64(got)) {
						t.Errorf("element %d: NaN became %#04x", i, got)
					}
					continue
				}
				if got != want {
					t.Errorf("element %d (%g): got %#04x, want %#04x", i, x, got, want)
				}
			}
		})
	}
}
