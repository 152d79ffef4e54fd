package interp

import (
	"fmt"
	"math"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/dialect/ttg"
	"github.com/layoutopt/layoutopt/ir"
)

// Microscaled operands: ttg.fp4_to_fp and tt.dot_scaled.
//
// e2m1 (fp4) values come two to a byte, the low nibble first. A nibble is
// a sign (bit 3), two exponent bits of bias 1 and one mantissa bit: codes
// 0 to 7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6 and codes 8 to 15 their negatives
// (code 8 is -0). Every one is exact in every float format of the
// interpreter but the FNUZ ones, where -0 becomes +0.
//
// ttg.fp4_to_fp unpacks an i8 tensor along its axis attribute: the result
// doubles that dimension, out[..., 2i, ...] being the low nibble of
// in[..., i, ...] and out[..., 2i+1, ...] the high one.
//
// tt.dot_scaled computes what Triton 3.6's DecomposeScaledBlocked rewrite
// turns it into (its lowering wherever no native scaled MMA runs it):
//
//   - the compute type is f16 when either element kind is fp16, else bf16;
//   - each operand is upcast to it: an e2m1 operand (an i8 tensor) is
//     unpacked as ttg.fp4_to_fp does, along K (A's last dimension, B's
//     second to last) when lhs_k_pack / rhs_k_pack is true or absent,
//     along M (A) or N (B) when it is false; any other operand is converted
//     like tt.fp_to_fp (to nearest even, overflow to infinity), an i8
//     operand of kind e4m3 or e5m2 read as the bits of f8E4M3FN or f8E5M2
//     and a float operand as its own type;
//   - an operand without a scale is used as upcast. A's scale has shape
//     [..., M, K/g] and B's [..., N, K/g] (N first: it is not transposed
//     like B), g = K / (the scale's last dimension), K counted unpacked;
//     element (m, k) of A is multiplied by ascale[m, k/g] and element
//     (k, n) of B by bscale[n, k/g], the product rounded to the compute
//     type (to nearest even, overflow to infinity);
//   - an integer scale byte s (e8m0) is, in bf16, the bf16 whose bits are
//     s << 7 (s = 0 is +0, 127 is 1, 255 is +Inf); in f16, the f32 whose
//     bits are s << 23 rounded to f16 (to nearest even: large scales
//     overflow to +Inf, small ones become subnormal or 0). A float scale is
//     converted like tt.fp_to_fp;
//   - unless fastMath is set, an element whose scale is NaN (an integer
//     scale of 0xFF, a float scale that converts to NaN) becomes NaN. With
//     fastMath a 0xFF scale is +Inf and multiplies as such;
//   - D = dot(scaled A, scaled B) + C, as tt.dot computes it (ops_dot.go).
//
// The element kinds e2m3 and e3m2 (fp6) are not supported.

// e2m1Value is the value of the e2m1 code in the low four bits of c.
func e2m1Value(c uint8) float64 {
	mag := [8]float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}[c&7]
	if c&8 != 0 {
		return math.Copysign(mag, -1)
	}
	return mag
}

// unpackFp4 fills the float tensor out with the e2m1 values packed in the
// i8 tensor src along axis (see ttg.fp4_to_fp above), each rounded to
// out's format.
func unpackFp4(src *Tensor, axis int, out *Tensor) error {
	if !src.Elem.IsInt() || src.Elem.Width != 8 {
		return fmt.Errorf("packed e2m1 values of type %s, expected i8", ir.TypeString(src.Elem.Type))
	}
	if !out.IsFloat() {
		return fmt.Errorf("e2m1 values unpacked to %s, expected a float type", ir.TypeString(out.Elem.Type))
	}
	r := len(src.Shape)
	if axis < 0 || axis >= r {
		return fmt.Errorf("axis %d out of range for a tensor of rank %d", axis, r)
	}
	bad := len(out.Shape) != r
	for d := 0; d < r && !bad; d++ {
		want := src.Shape[d]
		if d == axis {
			want *= 2
		}
		bad = out.Shape[d] != want
	}
	if bad {
		return fmt.Errorf("result of shape %v: unpacking shape %v along axis %d doubles that dimension", out.Shape, src.Shape, axis)
	}
	outer, n, inner := numElems(src.Shape[:axis]), src.Shape[axis], numElems(src.Shape[axis+1:])
	ff := out.Elem.Float
	for o := 0; o < outer; o++ {
		for i := 0; i < n; i++ {
			s := (o*n + i) * inner
			lo := (o*2*n + 2*i) * inner // the low nibbles' row; the high ones' follows
			for j := 0; j < inner; j++ {
				b := uint8(src.I[s+j])
				out.F[lo+j] = ff.Round(e2m1Value(b), NearestEven, false)
				out.F[lo+inner+j] = ff.Round(e2m1Value(b>>4), NearestEven, false)
			}
		}
	}
	return nil
}

func evalFp4ToFp(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	src, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if err := unpackFp4(src, int(ttg.Fp4ToFpOp{Operation: op}.Axis()), out); err != nil {
		return nil, err
	}
	return []Value{out}, nil
}

// fp8Kinds are the float formats of the fp8 element kinds of
// tt.dot_scaled, for operands stored as i8.
var fp8Kinds = map[string]string{"e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}

// checkScaleKind rejects an element kind tt.dot_scaled does not support.
func checkScaleKind(kind string) error {
	switch kind {
	case "e2m1", "e4m3", "e5m2", "bf16", "fp16":
		return nil
	case "e2m3", "e3m2":
		return fmt.Errorf("element kind %s (fp6) is not supported", kind)
	}
	return fmt.Errorf("unknown element kind %q", kind)
}

// kPackAttr is the bool attribute name of op (lhs_k_pack, rhs_k_pack),
// true when absent.
func kPackAttr(op *ir.Operation, name string) (bool, error) {
	a := op.Attr(name)
	if a == nil {
		return true, nil
	}
	b, ok := a.(*ir.BoolAttr)
	if !ok {
		return false, fmt.Errorf("attribute %s is not a bool", name)
	}
	return b.Value, nil
}

// upcastOperand converts operand opIdx (0: A, 1: B) of element kind kind
// to the compute type ct (see tt.dot_scaled above).
func upcastOperand(v *Tensor, kind string, opIdx int, kPack bool, ct Elem) (*Tensor, error) {
	r := len(v.Shape)
	if r < 2 {
		return nil, fmt.Errorf("operand of rank %d, expected at least 2", r)
	}
	if kind == "e2m1" {
		kDim := r - 1 - opIdx
		packed := kDim
		if !kPack {
			packed = r - 2 + opIdx // M for A, N for B
		}
		shape := append([]int(nil), v.Shape...)
		shape[packed] *= 2
		if err := checkShape(shape); err != nil {
			return nil, err
		}
		up := NewTensor(ct, shape)
		if err := unpackFp4(v, packed, up); err != nil {
			return nil, err
		}
		return up, nil
	}
	up := NewTensor(ct, append([]int(nil), v.Shape...))
	switch {
	case v.IsFloat():
		for i, x := range v.F {
			up.F[i] = ct.Float.Round(x, NearestEven, false)
		}
	case v.Elem.IsInt() && v.Elem.Width == 8 && fp8Kinds[kind] != "":
		f := LookupFloatFormat(fp8Kinds[kind])
		for i, x := range v.I {
			up.F[i] = ct.Float.Round(f.FromBits(uint64(uint8(x))), NearestEven, false)
		}
	default:
		return nil, fmt.Errorf("operand of type %s for element kind %s, expected a float type or, for e4m3 and e5m2, i8", ir.TypeString(v.Elem.Type), kind)
	}
	return up, nil
}

// scaleValues converts the scale tensor s to the compute type ct and says
// which of its elements are NaN scales (see tt.dot_scaled above).
func scaleValues(s *Tensor, ct Elem) ([]float64, []bool, error) {
	vals, nan := make([]float64, s.Len()), make([]bool, s.Len())
	switch {
	case s.IsFloat():
		for i, x := range s.F {
			vals[i] = ct.Float.Round(x, NearestEven, false)
			nan[i] = math.IsNaN(vals[i])
		}
	case s.Elem.IsInt() && s.Elem.Width == 8:
		for i, x := range s.I {
			b := uint64(uint8(x))
			if ct.Float.Name == "bf16" {
				vals[i] = ct.Float.FromBits(b << 7)
			} else {
				f := float64(math.Float32frombits(uint32(b << 23)))
				vals[i] = ct.Float.Round(f, NearestEven, false)
			}
			nan[i] = b == 0xFF
		}
	default:
		return nil, nil, fmt.Errorf("scale of type %s, expected i8 (e8m0) or a float type", ir.TypeString(s.Elem.Type))
	}
	return vals, nan, nil
}

// applyScale multiplies the upcast operand up (opIdx 0: A [..., M, K], 1:
// B [..., K, N]) in place by its scale s ([..., M or N, K/g]).
func applyScale(up, s *Tensor, opIdx int, fastMath bool, name string) error {
	r := len(up.Shape)
	if len(s.Shape) != r {
		return fmt.Errorf("%s of shape %v for an operand of rank %d", name, s.Shape, r)
	}
	kDim, rowDim := r-1, r-2 // A: rows are M
	if opIdx == 1 {
		kDim, rowDim = r-2, r-1 // B: rows are N
	}
	for d := 0; d < r-2; d++ {
		if s.Shape[d] != up.Shape[d] {
			return fmt.Errorf("%s of shape %v: batch dimension %d must be %d", name, s.Shape, d, up.Shape[d])
		}
	}
	rows, K, ks := up.Shape[rowDim], up.Shape[kDim], s.Shape[r-1]
	if s.Shape[r-2] != rows {
		return fmt.Errorf("%s of shape %v: dimension %d must be %s = %d", name, s.Shape, r-2, [2]string{"M", "N"}[opIdx], rows)
	}
	if ks <= 0 || K%ks != 0 {
		return fmt.Errorf("%s of shape %v: K = %d is not a multiple of its last dimension", name, s.Shape, K)
	}
	g := K / ks
	vals, nan, err := scaleValues(s, up.Elem)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	ff := up.Elem.Float
	R2, R1 := up.Shape[r-2], up.Shape[r-1]
	for idx := range up.F {
		j, i, b := idx%R1, idx/R1%R2, idx/(R1*R2)
		row, k := i, j // A
		if opIdx == 1 {
			row, k = j, i
		}
		si := (b*rows+row)*ks + k/g
		if nan[si] && !fastMath {
			up.F[idx] = math.NaN()
			continue
		}
		up.F[idx] = ff.Round(up.F[idx]*vals[si], NearestEven, false)
	}
	return nil
}

func evalDotScaled(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	d := tt.DotScaledOp{Operation: op}
	kinds := [2]string{d.AElemTypeName(), d.BElemTypeName()}
	for i, k := range kinds {
		if err := checkScaleKind(k); err != nil {
			return nil, fmt.Errorf("%s: %v", [2]string{"lhs", "rhs"}[i], err)
		}
	}
	ct := Elem{Type: ir.BF16, Float: LookupFloatFormat("bf16")}
	if kinds[0] == "fp16" || kinds[1] == "fp16" {
		ct = Elem{Type: ir.F16, Float: LookupFloatFormat("f16")}
	}
	e, shape, err := resultOf(op, 0)
	if err != nil {
		return nil, err
	}
	if e.Float == nil {
		return nil, fmt.Errorf("result of type %s, expected a float type", ir.TypeString(e.Type))
	}
	c, err := tensorArg(ex.Get(d.C()))
	if err != nil {
		return nil, fmt.Errorf("c: %v", err)
	}
	if !c.IsFloat() || c.Len() != numElems(shape) {
		return nil, fmt.Errorf("c of type %s%v for a result of type %s%v", ir.TypeString(c.Elem.Type), c.Shape, ir.TypeString(e.Type), shape)
	}
	var ops [2]*Tensor
	for i, x := range []struct {
		v, scale *ir.Value
		pack     string
		name     string
	}{{d.A(), d.AScale(), "lhs_k_pack", "a"}, {d.B(), d.BScale(), "rhs_k_pack", "b"}} {
		v, err := tensorArg(ex.Get(x.v))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", x.name, err)
		}
		kPack, err := kPackAttr(op, x.pack)
		if err != nil {
			return nil, err
		}
		up, err := upcastOperand(v, kinds[i], i, kPack, ct)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", x.name, err)
		}
		if x.scale != nil {
			s, err := tensorArg(ex.Get(x.scale))
			if err != nil {
				return nil, fmt.Errorf("%s_scale: %v", x.name, err)
			}
			if err := applyScale(up, s, i, d.FastMath(), x.name+"_scale"); err != nil {
				return nil, err
			}
		}
		ex.AddWork(int64(up.Len()))
		ops[i] = up
	}
	a, b := ops[0], ops[1]
	r := len(shape)
	if len(a.Shape) != r || len(b.Shape) != r {
		return nil, fmt.Errorf("operands of ranks %d, %d for a rank-%d result", len(a.Shape), len(b.Shape), r)
	}
	for dim := 0; dim < r-2; dim++ {
		if a.Shape[dim] != shape[dim] || b.Shape[dim] != shape[dim] {
			return nil, fmt.Errorf("batch dimension %d: a has %d, b %d, the result %d", dim, a.Shape[dim], b.Shape[dim], shape[dim])
		}
	}
	if a.Shape[r-1] != b.Shape[r-2] || a.Shape[r-2] != shape[r-2] || b.Shape[r-1] != shape[r-1] {
		return nil, fmt.Errorf("unpacked operands of shapes %v · %v do not give %v", a.Shape, b.Shape, shape)
	}
	return dot(ex, op, a, b, c, "ieee", true)
}

func init() {
	register(map[string]OpFunc{
		"ttg.fp4_to_fp": evalFp4ToFp,
		"tt.dot_scaled": evalDotScaled,
	})
}
