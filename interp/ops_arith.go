package interp

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/dialect/arith"
	"github.com/layoutopt/layoutopt/ir"
)

// Integer semantics. Integers wrap at their width (two's complement).
// Where LLVM leaves a result undefined, the interpreter gives what PTX
// gives, so that it is a function of the inputs:
//
//   - x / 0 is -1 (all ones) and x % 0 is x, signed or unsigned (PTX's
//     div and rem); MIN / -1 is MIN and MIN % -1 is 0;
//   - a shift by the width or more gives 0 (shli, shrui) or the sign
//     (shrsi), as PTX's shl and shr clamp the amount;
//   - fptosi/fptoui saturate to the integer range and give 0 for NaN
//     (PTX's cvt.rzi).

func tensorArg(v Value) (*Tensor, error) {
	t, ok := v.(*Tensor)
	if !ok {
		return nil, fmt.Errorf("expected a tensor or scalar operand, got %T", v)
	}
	return t, nil
}

func tensorArgs(args []Value) ([]*Tensor, error) {
	out := make([]*Tensor, len(args))
	for i, a := range args {
		t, err := tensorArg(a)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %v", i, err)
		}
		out[i] = t
	}
	return out, nil
}

// resultOf returns the element and shape of result i of op.
func resultOf(op *ir.Operation, i int) (Elem, []int, error) {
	t := op.Result(i).Type()
	e, err := ElemOf(ir.ElementType(t))
	if err != nil {
		return Elem{}, nil, err
	}
	shape := shapeOf(t)
	if err := checkShape(shape); err != nil {
		return Elem{}, nil, err
	}
	return e, shape, nil
}

// MaxTensorElems bounds the elements of one tensor the interpreter makes.
const MaxTensorElems = 1 << 26

// checkShape rejects dynamic and oversized shapes.
func checkShape(shape []int) error {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("dynamic shapes are not supported")
		}
		if d > 0 && n > MaxTensorElems/d {
			return fmt.Errorf("a tensor of shape %v is larger than the interpreter's %d elements", shape, MaxTensorElems)
		}
		n *= d
	}
	return nil
}

// newResult makes a zero tensor of the type of result i.
func newResult(op *ir.Operation, i int) (*Tensor, error) {
	e, shape, err := resultOf(op, i)
	if err != nil {
		return nil, err
	}
	return NewTensor(e, shape), nil
}

func one(t *Tensor, err error) ([]Value, error) {
	if err != nil {
		return nil, err
	}
	return []Value{t}, nil
}

type intBinFn func(x, y int64, w int) int64

func sdiv(x, y int64, w int) int64 {
	if y == 0 {
		return -1
	}
	if y == -1 {
		return wrap(-x, w)
	}
	return x / y
}

func srem(x, y int64, w int) int64 {
	if y == 0 {
		return x
	}
	if y == -1 {
		return 0
	}
	return x % y
}

func udiv(x, y int64, w int) int64 {
	a, b := unsigned(x, w), unsigned(y, w)
	if b == 0 {
		return -1
	}
	return int64(a / b)
}

func urem(x, y int64, w int) int64 {
	a, b := unsigned(x, w), unsigned(y, w)
	if b == 0 {
		return x
	}
	return int64(a % b)
}

var intBinOps = map[string]intBinFn{
	"arith.addi":  func(x, y int64, _ int) int64 { return x + y },
	"arith.subi":  func(x, y int64, _ int) int64 { return x - y },
	"arith.muli":  func(x, y int64, _ int) int64 { return x * y },
	"arith.andi":  func(x, y int64, _ int) int64 { return x & y },
	"arith.ori":   func(x, y int64, _ int) int64 { return x | y },
	"arith.xori":  func(x, y int64, _ int) int64 { return x ^ y },
	"arith.divsi": sdiv,
	"arith.remsi": srem,
	"arith.divui": udiv,
	"arith.remui": urem,
	"arith.ceildivsi": func(x, y int64, w int) int64 {
		q := sdiv(x, y, w)
		if y != 0 && !(y == -1) && x%y != 0 && (x < 0) == (y < 0) {
			q++
		}
		return q
	},
	"arith.ceildivui": func(x, y int64, w int) int64 {
		q := udiv(x, y, w)
		if b := unsigned(y, w); b != 0 && unsigned(x, w)%b != 0 {
			q++
		}
		return q
	},
	"arith.floordivsi": func(x, y int64, w int) int64 {
		q := sdiv(x, y, w)
		if y != 0 && !(y == -1) && x%y != 0 && (x < 0) != (y < 0) {
			q--
		}
		return q
	},
	"arith.maxsi": func(x, y int64, _ int) int64 { return max(x, y) },
	"arith.minsi": func(x, y int64, _ int) int64 { return min(x, y) },
	"arith.maxui": func(x, y int64, w int) int64 {
		if unsigned(x, w) >= unsigned(y, w) {
			return x
		}
		return y
	},
	"arith.minui": func(x, y int64, w int) int64 {
		if unsigned(x, w) <= unsigned(y, w) {
			return x
		}
		return y
	},
	"arith.shli": func(x, y int64, w int) int64 {
		if s := unsigned(y, w); s < uint64(w) {
			return x << s
		}
		return 0
	},
	"arith.shrui": func(x, y int64, w int) int64 {
		if s := unsigned(y, w); s < uint64(w) {
			return int64(unsigned(x, w) >> s)
		}
		return 0
	},
	"arith.shrsi": func(x, y int64, w int) int64 {
		s := unsigned(y, w)
		if s >= uint64(w) {
			s = uint64(w - 1)
		}
		return x >> s
	},
	"tt.mulhiui": func(x, y int64, w int) int64 {
		hi, lo := bits.Mul64(unsigned(x, w), unsigned(y, w))
		if w >= 64 {
			return int64(hi)
		}
		return int64(lo>>uint(w) | hi<<(64-uint(w)))
	},
	"arith.mulhisi": func(x, y int64, w int) int64 {
		if w >= 64 {
			hi, _ := bits.Mul64(uint64(x), uint64(y))
			// signed correction of the unsigned high word
			h := int64(hi)
			if x < 0 {
				h -= y
			}
			if y < 0 {
				h -= x
			}
			return h
		}
		return (x * y) >> uint(w)
	},
}

func evalIntBin(f intBinFn) OpFunc {
	return func(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
		ts, err := tensorArgs(args)
		if err != nil {
			return nil, err
		}
		if len(ts) != 2 || ts[0].I == nil || ts[1].I == nil || len(ts[0].I) != len(ts[1].I) {
			return nil, fmt.Errorf("expects two integer operands of one shape")
		}
		out, err := newResult(op, 0)
		if err != nil {
			return nil, err
		}
		w := out.Elem.Width
		a, b := ts[0].I, ts[1].I
		for i := range out.I {
			out.I[i] = wrap(f(a[i], b[i], w), w)
		}
		return []Value{out}, nil
	}
}

type floatBinFn func(x, y float64) float64

// maxNum and minNum are IEEE maxNum/minNum: a NaN operand loses.
func maxNum(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	}
	return math.Max(x, y)
}

func minNum(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	}
	return math.Min(x, y)
}

var floatBinOps = map[string]floatBinFn{
	"arith.addf":      func(x, y float64) float64 { return x + y },
	"arith.subf":      func(x, y float64) float64 { return x - y },
	"arith.mulf":      func(x, y float64) float64 { return x * y },
	"arith.divf":      func(x, y float64) float64 { return x / y },
	"tt.precise_divf": func(x, y float64) float64 { return x / y },
	"arith.remf":      math.Mod,
	"arith.maximumf":  math.Max, // NaN propagates; -0 < +0
	"arith.minimumf":  math.Min,
	"arith.maxnumf":   maxNum,
	"arith.minnumf":   minNum,
	"math.powf":       math.Pow,
	"math.atan2":      math.Atan2,
	"math.copysign":   math.Copysign,
}

// Float semantics: an op computes in float64 and rounds once to its type,
// to nearest even. For +, -, *, / and sqrt of f32, f16 and bf16 this is
// the correctly rounded IEEE result (float64 has more than twice their
// precision, so the double rounding is innocuous); for f64 it is exact
// IEEE. Transcendental functions are Go's math package's (within an ulp or
// two of the true value in float64, then rounded): a reference, not a
// model of the GPU's approximations (ex2.approx and friends), which the
// tolerance model of Compare covers.

func evalFloatBin(f floatBinFn) OpFunc {
	return func(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
		ts, err := tensorArgs(args)
		if err != nil {
			return nil, err
		}
		if len(ts) != 2 || ts[0].F == nil || ts[1].F == nil || len(ts[0].F) != len(ts[1].F) {
			return nil, fmt.Errorf("expects two float operands of one shape")
		}
		out, err := newResult(op, 0)
		if err != nil {
			return nil, err
		}
		ff := out.Elem.Float
		a, b := ts[0].F, ts[1].F
		for i := range out.F {
			out.F[i] = ff.Round(f(a[i], b[i]), NearestEven, false)
		}
		return []Value{out}, nil
	}
}

type floatUnFn func(x float64) float64

func erf(x float64) float64 { return math.Erf(x) }

var floatUnOps = map[string]floatUnFn{
	"arith.negf":      func(x float64) float64 { return -x },
	"math.absf":       math.Abs,
	"math.exp":        math.Exp,
	"math.exp2":       math.Exp2,
	"math.expm1":      math.Expm1,
	"math.log":        math.Log,
	"math.log2":       math.Log2,
	"math.log10":      math.Log10,
	"math.log1p":      math.Log1p,
	"math.sqrt":       math.Sqrt,
	"tt.precise_sqrt": math.Sqrt,
	"math.rsqrt":      func(x float64) float64 { return 1 / math.Sqrt(x) },
	"math.cbrt":       math.Cbrt,
	"math.floor":      math.Floor,
	"math.ceil":       math.Ceil,
	"math.trunc":      math.Trunc,
	"math.round":      func(x float64) float64 { return math.Round(x) },
	"math.roundeven":  math.RoundToEven,
	"math.sin":        math.Sin,
	"math.cos":        math.Cos,
	"math.tan":        math.Tan,
	"math.asin":       math.Asin,
	"math.acos":       math.Acos,
	"math.atan":       math.Atan,
	"math.sinh":       math.Sinh,
	"math.cosh":       math.Cosh,
	"math.tanh":       math.Tanh,
	"math.asinh":      math.Asinh,
	"math.acosh":      math.Acosh,
	"math.atanh":      math.Atanh,
	"math.erf":        erf,
	"math.erfc":       math.Erfc,
	"math.sign": func(x float64) float64 {
		if x > 0 {
			return 1
		} else if x < 0 {
			return -1
		}
		return x
	},
}

func evalFloatUn(f floatUnFn) OpFunc {
	return func(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
		ts, err := tensorArgs(args)
		if err != nil {
			return nil, err
		}
		if len(ts) != 1 || ts[0].F == nil {
			return nil, fmt.Errorf("expects one float operand")
		}
		out, err := newResult(op, 0)
		if err != nil {
			return nil, err
		}
		ff := out.Elem.Float
		for i, x := range ts[0].F {
			out.F[i] = ff.Round(f(x), NearestEven, false)
		}
		return []Value{out}, nil
	}
}

func evalFMA(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	if len(ts) != 3 || ts[0].F == nil || ts[1].F == nil || ts[2].F == nil {
		return nil, fmt.Errorf("expects three float operands")
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	for i := range out.F {
		out.F[i] = out.Elem.Float.Round(math.FMA(ts[0].F[i], ts[1].F[i], ts[2].F[i]), NearestEven, false)
	}
	return []Value{out}, nil
}

func evalIntUn(f func(x int64, w int) int64) OpFunc {
	return func(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
		ts, err := tensorArgs(args)
		if err != nil {
			return nil, err
		}
		if len(ts) != 1 || ts[0].I == nil {
			return nil, fmt.Errorf("expects one integer operand")
		}
		out, err := newResult(op, 0)
		if err != nil {
			return nil, err
		}
		w := out.Elem.Width
		for i, x := range ts[0].I {
			out.I[i] = wrap(f(x, w), w)
		}
		return []Value{out}, nil
	}
}

func evalConstant(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	a, _ := arith.AsConstant(op)
	if err := fillConstant(out, a.Value()); err != nil {
		return nil, err
	}
	return []Value{out}, nil
}

func setElem(t *Tensor, i int, a ir.Attribute) error {
	switch a := a.(type) {
	case *ir.IntegerAttr:
		if t.F != nil {
			t.F[i] = t.Elem.Float.Round(float64(a.Value), NearestEven, false)
		} else {
			t.I[i] = wrap(a.Value, t.Elem.Width)
		}
	case *ir.BoolAttr:
		v := int64(0)
		if a.Value {
			v = -1
		}
		t.I[i] = v
	case *ir.FloatAttr:
		if t.F == nil {
			return fmt.Errorf("float constant for an integer type")
		}
		t.F[i] = t.Elem.Float.Round(a.Value, NearestEven, false)
	default:
		return fmt.Errorf("unsupported constant element %s", ir.AttrString(a))
	}
	return nil
}

func fillConstant(t *Tensor, a ir.Attribute) error {
	n := t.Len()
	if n == 0 { // a dimension of size 0: no element to set
		return nil
	}
	switch a := a.(type) {
	case *ir.DenseElementsAttr:
		if a.Hex != "" {
			return fillHex(t, a.Hex)
		}
		switch len(a.Elems) {
		case 1:
			if err := setElem(t, 0, a.Elems[0]); err != nil {
				return err
			}
			for i := 1; i < n; i++ {
				if t.F != nil {
					t.F[i] = t.F[0]
				} else {
					t.I[i] = t.I[0]
				}
			}
		case n:
			for i, e := range a.Elems {
				if err := setElem(t, i, e); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("dense constant of %d elements for %d", len(a.Elems), n)
		}
		return nil
	case *ir.IntegerAttr, *ir.FloatAttr, *ir.BoolAttr:
		if n != 1 {
			return fmt.Errorf("scalar constant for a tensor")
		}
		return setElem(t, 0, a)
	}
	return fmt.Errorf("unsupported constant value %s", ir.AttrString(a))
}

// fillHex decodes `dense<0x...>` (one element's bit pattern, written as a
// hexadecimal integer: a splat) and `dense<"0x...">` (the raw
// little-endian bytes of one element, a splat, or of all of them).
func fillHex(t *Tensor, hex string) error {
	e := t.Elem
	n := t.Len()
	if !strings.HasPrefix(hex, "\"") {
		u, err := strconv.ParseUint(strings.TrimPrefix(hex, "0x"), 16, 64)
		if err != nil {
			return fmt.Errorf("bad hexadecimal constant %s", hex)
		}
		var p [8]byte
		for k := range p {
			p[k] = byte(u >> (8 * k))
		}
		iv, fv := loadElem(e, p[:e.Bytes()])
		for i := 0; i < n; i++ {
			if t.F != nil {
				t.F[i] = fv
			} else {
				t.I[i] = iv
			}
		}
		return nil
	}
	s, err := strconv.Unquote(hex)
	if err != nil {
		return fmt.Errorf("bad hexadecimal constant %s", hex)
	}
	s = strings.TrimPrefix(s, "0x")
	raw := make([]byte, len(s)/2)
	for k := range raw {
		b, err := strconv.ParseUint(s[2*k:2*k+2], 16, 8)
		if err != nil {
			return fmt.Errorf("bad hexadecimal constant %s", hex)
		}
		raw[k] = byte(b)
	}
	sz := e.Bytes()
	switch len(raw) {
	case sz, sz * n:
	default:
		return fmt.Errorf("hexadecimal constant of %d bytes for %d elements of %d bytes", len(raw), n, sz)
	}
	for i := 0; i < n; i++ {
		off := 0
		if len(raw) != sz {
			off = i * sz
		}
		iv, fv := loadElem(e, raw[off:off+sz])
		if t.F != nil {
			t.F[i] = fv
		} else {
			t.I[i] = iv
		}
	}
	return nil
}

func boolOf(b bool) int64 {
	if b {
		return -1
	}
	return 0
}

func cmpi(pred string, x, y int64, w int) (bool, error) {
	ux, uy := unsigned(x, w), unsigned(y, w)
	switch pred {
	case "eq":
		return x == y, nil
	case "ne":
		return x != y, nil
	case "slt":
		return x < y, nil
	case "sle":
		return x <= y, nil
	case "sgt":
		return x > y, nil
	case "sge":
		return x >= y, nil
	case "ult":
		return ux < uy, nil
	case "ule":
		return ux <= uy, nil
	case "ugt":
		return ux > uy, nil
	case "uge":
		return ux >= uy, nil
	}
	return false, fmt.Errorf("unknown predicate %q", pred)
}

func cmpf(pred string, x, y float64) (bool, error) {
	uno := math.IsNaN(x) || math.IsNaN(y)
	switch pred {
	case "false":
		return false, nil
	case "true":
		return true, nil
	case "oeq":
		return !uno && x == y, nil
	case "ogt":
		return !uno && x > y, nil
	case "oge":
		return !uno && x >= y, nil
	case "olt":
		return !uno && x < y, nil
	case "ole":
		return !uno && x <= y, nil
	case "one":
		return !uno && x != y, nil
	case "ord":
		return !uno, nil
	case "ueq":
		return uno || x == y, nil
	case "ugt":
		return uno || x > y, nil
	case "uge":
		return uno || x >= y, nil
	case "ult":
		return uno || x < y, nil
	case "ule":
		return uno || x <= y, nil
	case "une":
		return uno || x != y, nil
	case "uno":
		return uno, nil
	}
	return false, fmt.Errorf("unknown predicate %q", pred)
}

func evalCmpI(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	if ts[0].I == nil || ts[1].I == nil || len(ts[0].I) != len(ts[1].I) {
		return nil, fmt.Errorf("expects two integer operands of one shape")
	}
	c, _ := arith.AsCmpI(op)
	pred := c.PredicateName()
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	w := ts[0].Elem.Width
	if ts[0].Elem.IsPtr() {
		w = 64
	}
	for i := range out.I {
		b, err := cmpi(pred, ts[0].I[i], ts[1].I[i], w)
		if err != nil {
			return nil, err
		}
		out.I[i] = boolOf(b)
	}
	return []Value{out}, nil
}

func evalCmpF(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	if ts[0].F == nil || ts[1].F == nil || len(ts[0].F) != len(ts[1].F) {
		return nil, fmt.Errorf("expects two float operands of one shape")
	}
	c, _ := arith.AsCmpF(op)
	pred := c.PredicateName()
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	for i := range out.I {
		b, err := cmpf(pred, ts[0].F[i], ts[1].F[i])
		if err != nil {
			return nil, err
		}
		out.I[i] = boolOf(b)
	}
	return []Value{out}, nil
}

// evalSelect is arith.select: a scalar condition picks a whole operand, a
// tensor condition picks element by element.
func evalSelect(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("expects three operands")
	}
	c, err := tensorArg(args[0])
	if err != nil {
		return nil, err
	}
	if c.Len() == 1 && len(c.Shape) == 0 {
		if c.I[0] != 0 {
			return []Value{args[1]}, nil
		}
		return []Value{args[2]}, nil
	}
	ts, err := tensorArgs(args[1:])
	if err != nil {
		return nil, err
	}
	a, b := ts[0], ts[1]
	if a.Len() != c.Len() || b.Len() != c.Len() {
		return nil, fmt.Errorf("condition and operands differ in shape")
	}
	out := &Tensor{Elem: a.Elem, Shape: a.Shape}
	if a.F != nil {
		out.F = make([]float64, len(a.F))
		for i := range out.F {
			if c.I[i] != 0 {
				out.F[i] = a.F[i]
			} else {
				out.F[i] = b.F[i]
			}
		}
	} else {
		out.I = make([]int64, len(a.I))
		for i := range out.I {
			if c.I[i] != 0 {
				out.I[i] = a.I[i]
			} else {
				out.I[i] = b.I[i]
			}
		}
	}
	return []Value{out}, nil
}

// convert converts every element of t to the element type of result 0.
func convert(op *ir.Operation, t *Tensor, f func(out *Tensor, i int) error) ([]Value, error) {
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if out.Len() != t.Len() {
		return nil, fmt.Errorf("result has %d elements, operand %d", out.Len(), t.Len())
	}
	for i := 0; i < out.Len(); i++ {
		if err := f(out, i); err != nil {
			return nil, err
		}
	}
	return []Value{out}, nil
}

func unaryTensor(args []Value) (*Tensor, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("expects one operand")
	}
	return tensorArg(args[0])
}

// fpToInt converts x to an integer of width w, rounding toward zero and
// saturating; NaN gives 0.
func fpToInt(x float64, w int, signed bool) int64 {
	if math.IsNaN(x) {
		return 0
	}
	x = math.Trunc(x)
	if signed {
		lo, hi := -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
		switch {
		case x < lo:
			return -(1 << uint(w-1))
		case x >= hi:
			return 1<<uint(w-1) - 1
		}
		return int64(x)
	}
	hi := math.Ldexp(1, w)
	switch {
	case x <= 0:
		return 0
	case x >= hi:
		return wrap(-1, w)
	}
	return wrap(int64(uint64(x)), w)
}

// intToFloat converts an integer to float64 and rounds it to ff, once
// (an i64 above 2^53 is first split so that the rounding is single).
func intToFloat(v uint64, neg bool, ff *FloatFormat) float64 {
	var x float64
	if v>>53 == 0 {
		x = float64(v)
	} else {
		// round to 53 bits with sticky bit, then to the format: exact
		// enough, since the format has at most 53 bits.
		sh := 64 - bits.LeadingZeros64(v) - 53
		lost := v & (1<<uint(sh) - 1)
		m := v >> uint(sh)
		if lost != 0 {
			m |= 1 // sticky: keeps ties from rounding twice
		}
		x = math.Ldexp(float64(m), sh)
	}
	if neg {
		x = -x
	}
	return ff.Round(x, NearestEven, false)
}

var convOps = map[string]func(op *ir.Operation, t *Tensor) ([]Value, error){
	"arith.extsi": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = wrap(t.I[i], o.Elem.Width); return nil })
	},
	"arith.extui": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		w := t.Elem.Width
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = wrap(int64(unsigned(t.I[i], w)), o.Elem.Width); return nil })
	},
	"arith.trunci": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = wrap(t.I[i], o.Elem.Width); return nil })
	},
	"arith.index_cast": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = wrap(t.I[i], o.Elem.Width); return nil })
	},
	"arith.index_castui": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		w := t.Elem.Width
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = wrap(int64(unsigned(t.I[i], w)), o.Elem.Width); return nil })
	},
	"arith.sitofp": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error {
			v := t.I[i]
			if v < 0 {
				o.F[i] = intToFloat(uint64(-v), true, o.Elem.Float)
			} else {
				o.F[i] = intToFloat(uint64(v), false, o.Elem.Float)
			}
			return nil
		})
	},
	"arith.uitofp": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		w := t.Elem.Width
		return convert(op, t, func(o *Tensor, i int) error {
			o.F[i] = intToFloat(unsigned(t.I[i], w), false, o.Elem.Float)
			return nil
		})
	},
	"arith.fptosi": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = fpToInt(t.F[i], o.Elem.Width, true); return nil })
	},
	"arith.fptoui": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = fpToInt(t.F[i], o.Elem.Width, false); return nil })
	},
	"arith.extf": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.F[i] = t.F[i]; return nil })
	},
	// arith.truncf rounds to nearest even (or as its roundingmode says);
	// overflow gives infinity, or NaN in a format without infinities.
	"arith.truncf": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		mode := NearestEven
		if a, _ := arith.AsTruncF(op); a.Roundingmode() != nil {
			switch ir.AttrIntValue(a.Roundingmode()) {
			case 0: // to_nearest_even
			case 3: // toward_zero
				mode = TowardZero
			default:
				return nil, fmt.Errorf("unsupported rounding mode %s", ir.AttrString(a.Roundingmode()))
			}
		}
		return convert(op, t, func(o *Tensor, i int) error { o.F[i] = o.Elem.Float.Round(t.F[i], mode, false); return nil })
	},
	"arith.bitcast": bitcast,
	"tt.bitcast":    bitcast,
	"tt.ptr_to_int": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = wrap(t.I[i], o.Elem.Width); return nil })
	},
	"tt.int_to_ptr": func(op *ir.Operation, t *Tensor) ([]Value, error) {
		return convert(op, t, func(o *Tensor, i int) error { o.I[i] = t.I[i]; return nil })
	},
}

// bitcast reinterprets the bits of each element. NaN payloads are not
// modelled: a NaN has its format's canonical bit pattern.
func bitcast(op *ir.Operation, t *Tensor) ([]Value, error) {
	return convert(op, t, func(o *Tensor, i int) error {
		var u uint64
		if t.F != nil {
			u = t.Elem.Float.Bits(t.F[i])
		} else {
			u = uint64(t.I[i])
		}
		if o.F != nil {
			o.F[i] = o.Elem.Float.FromBits(u)
		} else if o.Elem.IsPtr() {
			o.I[i] = int64(u)
		} else {
			o.I[i] = wrap(int64(u), o.Elem.Width)
		}
		return nil
	})
}

func evalConv(f func(op *ir.Operation, t *Tensor) ([]Value, error)) OpFunc {
	return func(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
		t, err := unaryTensor(args)
		if err != nil {
			return nil, err
		}
		return f(op, t)
	}
}

func init() {
	ops := map[string]OpFunc{
		"arith.constant": evalConstant,
		"arith.cmpi":     evalCmpI,
		"arith.cmpf":     evalCmpF,
		"arith.select":   evalSelect,
		"math.fma":       evalFMA,
		"math.absi": evalIntUn(func(x int64, w int) int64 {
			if x < 0 {
				return -x
			}
			return x
		}),
		"math.ctpop": evalIntUn(func(x int64, w int) int64 { return int64(bits.OnesCount64(unsigned(x, w))) }),
		"math.ctlz":  evalIntUn(func(x int64, w int) int64 { return int64(bits.LeadingZeros64(unsigned(x, w)) - (64 - w)) }),
		"math.cttz": evalIntUn(func(x int64, w int) int64 {
			if unsigned(x, w) == 0 {
				return int64(w)
			}
			return int64(bits.TrailingZeros64(uint64(x)))
		}),
	}
	for name, f := range intBinOps {
		ops[name] = evalIntBin(f)
	}
	for name, f := range floatBinOps {
		ops[name] = evalFloatBin(f)
	}
	for name, f := range floatUnOps {
		ops[name] = evalFloatUn(f)
	}
	for name, f := range convOps {
		ops[name] = evalConv(f)
	}
	register(ops)
}
