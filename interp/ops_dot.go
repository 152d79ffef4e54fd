package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/dialect/ttng"
	"github.com/layoutopt/layoutopt/ir"
)

// Dot products (tt.dot, ttng.warp_group_dot): D = A·B + C over the last two
// dimensions, leading dimensions batched.
//
// Accumulation: for each output element, acc = C, then for k = 0, 1, ...,
// K-1: acc = round(acc + a[k]·b[k]), where the product is exact (in
// float64: operands have at most 24 significant bits) and round rounds the
// float64 sum to the accumulator type, to nearest even. This is the
// sequential FMA chain of Triton's FMA dot (up to a double rounding of the
// sum through float64, which can differ from a fused f32 FMA in rare
// ties); tensor cores (mma, wgmma) add products in groups with other
// intermediate precision, which the tolerance model (Tolerance.Dot)
// covers. Integer dots (i8 → i32) are exact, wrapping at 32 bits.
// With inputPrecision tf32, f32 operands are first rounded to tf32 (to
// nearest, ties away from zero: PTX's cvt.rna.tf32.f32, which Triton
// uses); tf32x3 and bf16x3/bf16x6 compute like ieee (their purpose is to
// approximate it). maxNumImpreciseAcc is ignored. tt.dot_scaled scales its
// operands and then computes as tt.dot does (ops_scaled.go).

func operandTensor(v Value) (*Tensor, error) {
	if m, ok := v.(*MemDesc); ok {
		return m.tensor(), nil
	}
	return tensorArg(v)
}

func dot(ex *Exec, op *ir.Operation, av, bv, cv Value, precision string, useC bool) ([]Value, error) {
	a, err := operandTensor(av)
	if err != nil {
		return nil, fmt.Errorf("a: %v", err)
	}
	b, err := operandTensor(bv)
	if err != nil {
		return nil, fmt.Errorf("b: %v", err)
	}
	c, err := tensorArg(cv)
	if err != nil {
		return nil, fmt.Errorf("c: %v", err)
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if err := dotInto(ex, out, a, b, c, precision, useC); err != nil {
		return nil, err
	}
	return []Value{out}, nil
}

// dotInto computes out = A·B + C (A·B when useC is false) as described
// above, filling the zero tensor out, whose type is the result's.
func dotInto(ex *Exec, out, a, b, c *Tensor, precision string, useC bool) error {
	r := len(out.Shape)
	if r < 2 || len(a.Shape) != r || len(b.Shape) != r || c.Len() != out.Len() {
		return fmt.Errorf("operands of ranks %d, %d for a rank-%d result", len(a.Shape), len(b.Shape), r)
	}
	M, N, K := out.Shape[r-2], out.Shape[r-1], a.Shape[r-1]
	if a.Shape[r-2] != M || b.Shape[r-2] != K || b.Shape[r-1] != N {
		return fmt.Errorf("shapes %v · %v do not give %v", a.Shape, b.Shape, out.Shape)
	}
	for d := 0; d < r-2; d++ {
		if a.Shape[d] != out.Shape[d] || b.Shape[d] != out.Shape[d] {
			return fmt.Errorf("shapes %v · %v do not give %v", a.Shape, b.Shape, out.Shape)
		}
	}
	if c.IsFloat() != out.IsFloat() {
		return fmt.Errorf("c of type %s for a result of type %s", ir.TypeString(c.Elem.Type), ir.TypeString(out.Elem.Type))
	}
	if out.Len() == 0 {
		return nil // a dimension of size 0: nothing to compute
	}
	batch := out.Len() / (M * N)
	ex.AddWork(int64(out.Len()) * int64(K))
	if a.IsFloat() != b.IsFloat() || a.IsFloat() != out.IsFloat() {
		return fmt.Errorf("mixed integer and float operands")
	}
	if !out.IsFloat() {
		w := out.Elem.Width
		for bt := 0; bt < batch; bt++ {
			ab, bb, ob := bt*M*K, bt*K*N, bt*M*N
			for m := 0; m < M; m++ {
				for n := 0; n < N; n++ {
					acc := int64(0)
					if useC {
						acc = c.I[ob+m*N+n]
					}
					for k := 0; k < K; k++ {
						acc = wrap(acc+a.I[ab+m*K+k]*b.I[bb+k*N+n], w)
					}
					out.I[ob+m*N+n] = acc
				}
			}
		}
		return nil
	}
	af, bf := a.F, b.F
	if precision == "tf32" {
		tf := LookupFloatFormat("tf32")
		round := func(e Elem, x []float64) []float64 {
			if e.Float.Name != "f32" {
				return x
			}
			y := make([]float64, len(x))
			for i, v := range x {
				y[i] = tf.Round(v, NearestAway, false)
			}
			return y
		}
		af, bf = round(a.Elem, af), round(b.Elem, bf)
	}
	ff := out.Elem.Float
	f32 := ff.Name == "f32"
	// B transposed, so that the inner loop reads both operands in order.
	bt := make([]float64, K*N)
	for bi := 0; bi < batch; bi++ {
		ab, bb, ob := bi*M*K, bi*K*N, bi*M*N
		for k := 0; k < K; k++ {
			for n := 0; n < N; n++ {
				bt[n*K+k] = bf[bb+k*N+n]
			}
		}
		for m := 0; m < M; m++ {
			arow := af[ab+m*K : ab+m*K+K]
			for n := 0; n < N; n++ {
				bcol := bt[n*K : n*K+K]
				acc := 0.0
				if useC {
					acc = c.F[ob+m*N+n]
				}
				if f32 {
					for k, x := range arow {
						acc = float64(float32(acc + x*bcol[k]))
					}
				} else {
					for k, x := range arow {
						acc = ff.Round(acc+x*bcol[k], NearestEven, false)
					}
				}
				out.F[ob+m*N+n] = acc
			}
		}
	}
	return nil
}

func evalDot(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	d := tt.DotOp{Operation: op}
	return dot(ex, op, ex.Get(d.A()), ex.Get(d.B()), ex.Get(d.C()), d.InputPrecisionName(), true)
}

func evalWarpGroupDot(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	d := ttng.WarpGroupDotOp{Operation: op}
	useC := true
	if u := d.UseC(); u != nil {
		b, err := scalarBool(ex.Get(u))
		if err != nil {
			return nil, fmt.Errorf("useC: %v", err)
		}
		useC = b
	}
	return dot(ex, op, ex.Get(d.A()), ex.Get(d.B()), ex.Get(d.C()), d.InputPrecisionName(), useC)
}

func init() {
	register(map[string]OpFunc{
		"tt.dot":              evalDot,
		"ttng.warp_group_dot": evalWarpGroupDot,
	})
}
