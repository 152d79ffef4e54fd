package interp_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestLayoutReduceOrder checks LayoutOrder on blocked layouts against the
// order written out here (registers in sequence, then a butterfly over the
// lanes, then over the warps) and shows that it differs from ShapeOrder
// on data where association matters.
func TestLayoutReduceOrder(t *testing.T) {
	const n = 128
	for _, c := range []struct{ spt, warps int }{{4, 1}, {2, 2}, {1, 4}} {
		src := fmt.Sprintf(`#b = #ttg.blocked<{sizePerThread = [%d], threadsPerWarp = [32], warpsPerCTA = [%d], order = [0]}>
module attributes {"ttg.num-warps" = %d : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%%in: !tt.ptr<f32>, %%out: !tt.ptr<f32>) {
    %%i = tt.make_range {end = %d : i32, start = 0 : i32} : tensor<%dxi32, #b>
    %%p = tt.splat %%in : !tt.ptr<f32> -> tensor<%dx!tt.ptr<f32>, #b>
    %%q = tt.addptr %%p, %%i : tensor<%dx!tt.ptr<f32>, #b>, tensor<%dxi32, #b>
    %%x = tt.load %%q : tensor<%dx!tt.ptr<f32>, #b>
    %%s = "tt.reduce"(%%x) <{axis = 0 : i32}> ({
    ^bb0(%%a: f32, %%b: f32):
      %%c = arith.addf %%a, %%b : f32
      tt.reduce.return %%c : f32
    }) : (tensor<%dxf32, #b>) -> f32
    tt.store %%out, %%s : !tt.ptr<f32>
    tt.return
  }
}`, c.spt, c.warps, c.warps, n, n, n, n, n, n, n)
		m := parseText(t, src)
		in, _ := interp.NewBuffer(ir.F32, n)
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(math.Ldexp(math.Sin(float64(i)), (i*7)%40-20))
			in.SetFloat(i, float64(x[i]))
		}
		run := func(order interp.ReduceOrder) float64 {
			out, _ := interp.NewBuffer(ir.F32, 1)
			mem := &interp.BufferMemory{}
			mc := interp.NewMachine(m, mem)
			mc.ReduceOrder = order
			vals, err := interp.BindArgs(mc.Func("k"), []interp.Arg{interp.BufArg(in), interp.BufArg(out)}, mem)
			if err != nil {
				t.Fatal(err)
			}
			if err := mc.Launch("k", vals, [3]int{1, 1, 1}); err != nil {
				t.Fatal(err)
			}
			return out.Float(0)
		}
		halve := func(v []float32) float32 {
			for m := len(v); m > 1; m /= 2 {
				for i := 0; i < m/2; i++ {
					v[i] += v[i+m/2]
				}
			}
			return v[0]
		}
		warps := make([]float32, c.warps)
		for w := range warps {
			lanes := make([]float32, 32)
			for l := range lanes {
				base := w*32*c.spt + l*c.spt
				acc := x[base]
				for r := 1; r < c.spt; r++ {
					acc += x[base+r]
				}
				lanes[l] = acc
			}
			warps[w] = halve(lanes)
		}
		want := float64(halve(warps))
		got := run(interp.LayoutOrder)
		if got != want {
			t.Errorf("spt %d, %d warps: LayoutOrder gives %g, want %g", c.spt, c.warps, got, want)
		}
		if c.spt > 1 && run(interp.ShapeOrder) == got {
			t.Errorf("spt %d: ShapeOrder and LayoutOrder agree on data chosen to tell them apart", c.spt)
		}
	}
}
