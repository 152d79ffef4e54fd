package interp_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestExternElementwise runs tt.extern_elementwise calls of libdevice (NVIDIA)
// and ROCm device library (AMD) functions: each computes the function and
// rounds to the result's type; an unknown symbol is a located error.
func TestExternElementwise(t *testing.T) {
	call := func(sym, ty string, args ...string) string {
		var b strings.Builder
		var names, types []string
		for i, a := range args {
			fmt.Fprintf(&b, "    %%a%d = arith.constant %s : %s\n", i, a, ty)
			names = append(names, fmt.Sprintf("%%a%d", i))
			types = append(types, ty)
		}
		fmt.Fprintf(&b, "    %%r = tt.extern_elementwise %s {libname = \"\", libpath = \"\", pure = true, symbol = %q} : (%s) -> %s",
			strings.Join(names, ", "), sym, strings.Join(types, ", "), ty)
		return b.String()
	}
	for _, c := range []struct {
		sym, ty string
		args    []string
		want    float64
	}{
		{"__nv_asinf", "f32", []string{"0.5"}, float64(float32(math.Asin(0.5)))},
		{"__ocml_asin_f32", "f32", []string{"0.5"}, float64(float32(math.Asin(0.5)))},
		{"__ocml_asin_f64", "f64", []string{"0.5"}, math.Asin(0.5)},
		{"__ocml_exp2_f16", "f16", []string{"3.0"}, 8},
		{"__ocml_sqrt_f32", "f32", []string{"2.0"}, float64(float32(math.Sqrt2))},
		{"__ocml_pow_f64", "f64", []string{"2.0", "0.5"}, math.Sqrt2},
		{"__ocml_fma_f32", "f32", []string{"2.0", "3.0", "1.0"}, 7},
		{"__nv_fdiv_rn", "f64", []string{"1.0", "3.0"}, 1.0 / 3},
	} {
		out := scalarKernel(t, c.ty, call(c.sym, c.ty, c.args...))
		if got := out.Float(0); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.sym, c.args, got, c.want)
		}
	}
	// Names of one library only: fdiv_rn is libdevice's.
	for _, sym := range []string{"__ocml_fdiv_rn_f32", "__ocml_nosuch_f32", "__nv_nosuch"} {
		m := parseText(t, fmt.Sprintf(`module {
  tt.func public @k(%%out: !tt.ptr<f32>) {
%s
    tt.store %%out, %%r : !tt.ptr<f32>
    tt.return
  }
}`, call(sym, "f32", "1.0", "2.0")))
		out, _ := interp.NewBuffer(ir.F32, 1)
		err := interp.Run(m, "k", []interp.Arg{interp.BufArg(out)}, [3]int{1, 1, 1})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("extern function %q", sym)) || !strings.Contains(err.Error(), "test.mlir:") {
			t.Errorf("%s: %v, want a located error naming it", sym, err)
		}
	}
}
