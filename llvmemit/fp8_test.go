package llvmemit_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// fp8Inputs are f32 values that exercise fp8 rounding: the midpoints
// between neighbouring codes of both formats (ties), values just off
// them, subnormals, overflow, infinities, NaN and signed zeros.
func fp8Inputs() []float64 {
	e4, e5 := interp.LookupFloatFormat("f8E4M3FN"), interp.LookupFloatFormat("f8E5M2")
	var v []float64
	for c := uint64(0); c < 0x7e; c += 2 {
		lo, hi := e4.FromBits(c), e4.FromBits(c+1)
		v = append(v, (lo+hi)/2, -(lo+hi)/2*1.0001)
	}
	for c := uint64(0); c < 0x7b; c += 2 {
		lo, hi := e5.FromBits(c), e5.FromBits(c+1)
		v = append(v, (lo+hi)/2, -(lo+hi)/2*0.9999)
	}
	v = append(v, 0, math.Copysign(0, -1), 1e-12, -3e-9, 464, 470, 479, 500, -1e6, 57344, 61440, 65536, 1e30,
		math.Inf(1), math.Inf(-1), math.NaN())
	for len(v) < 256 {
		i := len(v)
		v = append(v, math.Ldexp(float64(i%13)+0.37, i%40-24)*float64(1-2*(i%2)))
	}
	return v[:256]
}

// TestSimFP8 converts f32 and f16 values to f8E4M3FN and f8E5M2 (to
// nearest even and toward zero) and every fp8 code back to f32 and f16,
// with tt.fp_to_fp, arith.truncf and arith.extf, and checks every bit
// against the interpreter: for sm_80 (software conversions) and sm_90
// (upcasts with cvt.rn.f16x2.e4m3x2, four registers at a time: with 2
// registers a thread the group is padded, with 8 it is whole).
func TestSimFP8(t *testing.T) {
	for _, cc := range []int{80, 90} {
		for _, spt := range []int{2, 8} {
			t.Run(fmt.Sprintf("sm_%d/%d_registers", cc, spt), func(t *testing.T) { simFP8(t, cc, spt) })
		}
	}
}

func simFP8(t *testing.T, cc, spt int) {
	body := `
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
    %xa = tt.addptr %xp, %r : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
    %xv = tt.load %xa : tensor<256x!tt.ptr<f32>, #b>
    %hv = arith.truncf %xv : tensor<256xf32, #b> to tensor<256xf16, #b>
` + store("a", "E4", `tt.fp_to_fp %xv, rounding = rtne : tensor<256xf32, #b> -> tensor<256xf8E4M3FN, #b>`) +
		store("b", "E4z", `tt.fp_to_fp %xv, rounding = rtz : tensor<256xf32, #b> -> tensor<256xf8E4M3FN, #b>`) +
		store("c", "E5", `arith.truncf %xv : tensor<256xf32, #b> to tensor<256xf8E5M2, #b>`) +
		store("d", "E5z", `tt.fp_to_fp %xv, rounding = rtz : tensor<256xf32, #b> -> tensor<256xf8E5M2, #b>`) +
		store("e", "H4", `tt.fp_to_fp %hv, rounding = rtne : tensor<256xf16, #b> -> tensor<256xf8E4M3FN, #b>`) +
		load("f", "C4", "f8E4M3FN") + load("g", "C5", "f8E5M2") +
		store("h", "U4", `tt.fp_to_fp %f : tensor<256xf8E4M3FN, #b> -> tensor<256xf32, #b>`) +
		store("i", "U5", `arith.extf %g : tensor<256xf8E5M2, #b> to tensor<256xf32, #b>`) +
		store("j", "V4", `tt.fp_to_fp %f : tensor<256xf8E4M3FN, #b> -> tensor<256xf16, #b>`) +
		store("k", "V5", `tt.fp_to_fp %g : tensor<256xf8E5M2, #b> -> tensor<256xf16, #b>`) +
		store("m", "W4", `tt.fp_to_fp %f : tensor<256xf8E4M3FN, #b> -> tensor<256xbf16, #b>`) +
		store("n", "W5", `arith.extf %g : tensor<256xf8E5M2, #b> to tensor<256xbf16, #b>`) + `
    %cst = arith.constant dense<2.750000e+00> : tensor<256xf8E5M2, #b>
    %sel = arith.cmpi slt, %r, %r : tensor<256xi32, #b>
` + store("l", "S", `arith.select %sel, %g, %cst : tensor<256xi1, #b>, tensor<256xf8E5M2, #b>`)
	type param struct {
		name string
		elem ir.Type
	}
	f8 := ir.FloatTypeOf
	params := []param{{"x", ir.F32}, {"C4", f8("f8E4M3FN")}, {"C5", f8("f8E5M2")},
		{"E4", f8("f8E4M3FN")}, {"E4z", f8("f8E4M3FN")}, {"E5", f8("f8E5M2")}, {"E5z", f8("f8E5M2")}, {"H4", f8("f8E4M3FN")},
		{"U4", ir.F32}, {"U5", ir.F32}, {"V4", ir.F16}, {"V5", ir.F16}, {"S", f8("f8E5M2")},
		{"W4", ir.BF16}, {"W5", ir.BF16}}
	var sig []string
	var bufs []*interp.Buffer
	for i, p := range params {
		sig = append(sig, "%"+p.name+": !tt.ptr<"+ir.TypeString(p.elem)+">")
		b := zeros(t, p.elem, 256)
		switch i {
		case 0:
			for j, v := range fp8Inputs() {
				b.SetFloat(j, v)
			}
		case 1, 2:
			for j := range b.Data {
				b.Data[j] = byte(j)
			}
		}
		bufs = append(bufs, b)
	}
	warps := 256 / 32 / spt
	src := fmt.Sprintf(`#b = #ttg.blocked<{sizePerThread = [%d], threadsPerWarp = [32], warpsPerCTA = [%d], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, ttg.target = "cuda:%d", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(`, spt, warps, warps, cc) + strings.Join(sig, ", ") + `) {` + body + `
    tt.return
  }
}
`
	crossCheck(t, src, warps, bufs)
}

// store returns TTGIR computing %NAME = EXPR and storing it to the
// buffer %PTR at the range %r.
func store(name, ptr, expr string) string {
	typ := expr[strings.LastIndex(expr, "tensor<256x")+len("tensor<256x"):] // the result type
	elem := typ[:strings.Index(typ, ",")]
	return strings.NewReplacer("NAME", name, "PTR", ptr, "EXPR", expr, "ELEM", elem).Replace(`
    %NAME = EXPR
    %NAME_p = tt.splat %PTR : !tt.ptr<ELEM> -> tensor<256x!tt.ptr<ELEM>, #b>
    %NAME_a = tt.addptr %NAME_p, %r : tensor<256x!tt.ptr<ELEM>, #b>, tensor<256xi32, #b>
    tt.store %NAME_a, %NAME : tensor<256x!tt.ptr<ELEM>, #b>`)
}

// load returns TTGIR loading %NAME from the buffer %PTR at the range %r.
func load(name, ptr, elem string) string {
	return strings.NewReplacer("NAME", name, "PTR", ptr, "ELEM", elem).Replace(`
    %NAME_p = tt.splat %PTR : !tt.ptr<ELEM> -> tensor<256x!tt.ptr<ELEM>, #b>
    %NAME_a = tt.addptr %NAME_p, %r : tensor<256x!tt.ptr<ELEM>, #b>, tensor<256xi32, #b>
    %NAME = tt.load %NAME_a : tensor<256x!tt.ptr<ELEM>, #b>`)
}
