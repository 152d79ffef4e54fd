package interp

import (
	"fmt"
	"math"
	"strings"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// evalUnsplat is tt.unsplat: the one element of a tensor as a scalar.
func evalUnsplat(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	t, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	if t.Len() != 1 {
		return nil, fmt.Errorf("unsplat of %d elements", t.Len())
	}
	return []Value{scalarAt(t, 0)}, nil
}

// evalMapElementwise runs the scalar region on each element (pack = 1)
// or on each pack of consecutive elements in row-major order.
func evalMapElementwise(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	mo := tt.MapElementwiseOp{Operation: op}
	srcs, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	r := mo.ScalarOp()
	if r == nil || r.Entry() == nil || len(srcs) == 0 {
		return nil, fmt.Errorf("malformed tt.map_elementwise")
	}
	pack := int(mo.Pack())
	if pack < 1 {
		pack = 1
	}
	outs := make([]*Tensor, op.NumResults())
	for i := range outs {
		if outs[i], err = newResult(op, i); err != nil {
			return nil, err
		}
	}
	n := srcs[0].Len()
	if n%pack != 0 {
		return nil, fmt.Errorf("%d elements in packs of %d", n, pack)
	}
	bargs := make([]Value, len(srcs)*pack)
	for base := 0; base < n; base += pack {
		for s, src := range srcs {
			for p := 0; p < pack; p++ {
				bargs[s*pack+p] = scalarAt(src, base+p)
			}
		}
		res, err := ex.RunBlock(r.Entry(), bargs)
		if err != nil {
			return nil, err
		}
		if len(res) != len(outs)*pack {
			return nil, fmt.Errorf("region yields %d values for %d results in packs of %d", len(res), len(outs), pack)
		}
		for o, out := range outs {
			for p := 0; p < pack; p++ {
				t, err := tensorArg(res[o*pack+p])
				if err != nil {
					return nil, err
				}
				setAt(out, base+p, t)
			}
		}
	}
	return tensorValues(outs), nil
}

// evalPoison gives ub.poison the value 0 (any value is allowed).
func evalPoison(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	out := make([]Value, op.NumResults())
	for i := range out {
		t, err := newResult(op, i)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// evalMemDescReinterpret views a buffer with another shape of the same
// element type (a contiguous view only).
func evalMemDescReinterpret(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := memDescArg(args[0])
	if err != nil {
		return nil, err
	}
	mt, ok := op.Result(0).Type().(*ir.MemDescType)
	if !ok || !ir.TypesEqual(mt.Elem, m.Buf.Elem.Type) {
		return nil, fmt.Errorf("reinterpretation to another element type is not supported")
	}
	return evalMemDescReshape(ex, op, args)
}

// libdevice functions (NVIDIA, __nv_exp and __nv_expf) and ROCm device
// library functions (AMD, __ocml_exp_f16 / _f32 / _f64) tt.extern_elementwise
// may call, by symbol, with the interpreter's own float ops, which round to
// the result's element type.
var externFuncs = map[string]OpFunc{}

func init() {
	un := map[string]string{"exp": "math.exp", "exp2": "math.exp2", "expm1": "math.expm1", "log": "math.log",
		"log2": "math.log2", "log10": "math.log10", "log1p": "math.log1p", "sqrt": "math.sqrt", "rsqrt": "math.rsqrt",
		"fabs": "math.absf", "floor": "math.floor", "ceil": "math.ceil", "trunc": "math.trunc", "round": "math.round",
		"rint": "math.roundeven", "nearbyint": "math.roundeven", "sin": "math.sin", "cos": "math.cos", "tan": "math.tan",
		"asin": "math.asin", "acos": "math.acos", "atan": "math.atan", "sinh": "math.sinh", "cosh": "math.cosh",
		"tanh": "math.tanh", "asinh": "math.asinh", "acosh": "math.acosh", "atanh": "math.atanh", "erf": "math.erf",
		"erfc": "math.erfc", "cbrt": "math.cbrt"}
	for name, op := range un {
		f := evalFloatUn(floatUnOps[op])
		externFuncs["__nv_"+name] = f
		externFuncs["__nv_"+name+"f"] = f
		ocml(name, f)
	}
	bin := map[string]floatBinFn{"pow": math.Pow, "fmax": maxNum, "fmin": minNum, "fmod": math.Mod,
		"atan2": math.Atan2, "copysign": math.Copysign, "hypot": math.Hypot, "fdiv_rn": func(x, y float64) float64 { return x / y }}
	for name, fn := range bin {
		f := evalFloatBin(fn)
		externFuncs["__nv_"+name] = f
		externFuncs["__nv_"+name+"f"] = f
		if name != "fdiv_rn" { // libdevice only
			ocml(name, f)
		}
	}
	externFuncs["__nv_fmaf"] = evalFMA
	externFuncs["__nv_fma"] = evalFMA
	ocml("fma", evalFMA)
}

// ocml registers the ROCm device library's spellings of name.
func ocml(name string, f OpFunc) {
	for _, w := range []string{"_f16", "_f32", "_f64"} {
		externFuncs["__ocml_"+name+w] = f
	}
}

// evalExtern evaluates tt.extern_elementwise calls of the libdevice
// functions in externFuncs; any other symbol is an error naming it.
func evalExtern(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	sym := tt.ExternElementwiseOp{Operation: op}.Symbol()
	f := externFuncs[sym]
	if f == nil {
		f = externFuncs[strings.TrimSuffix(sym, "_rn")]
	}
	if f == nil {
		return nil, fmt.Errorf("the interpreter does not implement extern function %q", sym)
	}
	return f(ex, op, args)
}

func init() {
	register(map[string]OpFunc{
		"tt.unsplat":                evalUnsplat,
		"tt.map_elementwise":        evalMapElementwise,
		"tt.extern_elementwise":     evalExtern,
		"ub.poison":                 evalPoison,
		"ttg.memdesc_reinterpret":   evalMemDescReinterpret,
		"arith.mulhiui":             evalIntBin(intBinOps["tt.mulhiui"]),
		"ttng.init_barrier":         noEffect,
		"ttng.inval_barrier":        noEffect,
		"ttng.barrier_expect":       noEffect,
		"ttng.wait_barrier":         noEffect,
		"ttng.arrive_barrier":       noEffect,
		"ttng.async_tma_store_wait": noEffect,
		"llvm.intr.assume":          noEffect,
	})
}
