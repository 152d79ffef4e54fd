package interp

import (
	"fmt"
	"math"
)

// Tolerance says when two float results agree: |got - want| <= Abs +
// Rel·|want|; NaN agrees only with NaN, an infinity only with itself.
// The zero Tolerance is bit-exactness of values (+0 and -0 agree),
// which is what integer kernels, data movement (copies, transposes,
// permutes, gathers) and two runs of the interpreter on programs that
// differ only in layouts must meet.
//
// The tolerance model for comparing a GPU's float results with the
// interpreter's: a correctly rounded op is exact to half an ulp, u =
// 2^-(p+1) for a format of p mantissa bits (Unit). The GPU may differ
// from the interpreter where Triton emits approximations (ex2.approx,
// lg2.approx, rsqrt.approx, div.full: a few ulps, so Rel of a few u per
// op) and where it sums in another order: a reduction, dot or atomic add of
// n terms in any order has an error of at most (n-1)·u·Σ|x_i| (Higham,
// recursive summation), which the interpreter's order has too. ForSum gives
// that bound for terms of known magnitude.
type Tolerance struct {
	Abs, Rel float64
}

// ForSum is the tolerance for a result that sums n terms whose absolute
// values add up to at most sumAbs, computed in f in two unknown orders
// (each within (n-1)·u·sumAbs of the exact sum), plus 4u relative for the
// ops around the sum.
func ForSum(f *FloatFormat, n int, sumAbs float64) Tolerance {
	u := f.Unit()
	return Tolerance{Abs: 2 * float64(max(n-1, 0)) * u * sumAbs, Rel: 4 * u}
}

// Agree reports whether got and want agree within t.
func (t Tolerance) Agree(got, want float64) bool {
	switch {
	case math.IsNaN(got) || math.IsNaN(want):
		return math.IsNaN(got) && math.IsNaN(want)
	case math.IsInf(got, 0) || math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= t.Abs+t.Rel*math.Abs(want)
}

// Mismatch is one element where two buffers disagree.
type Mismatch struct {
	Index     int
	Got, Want string // the values, formatted
}

func (m Mismatch) String() string {
	return fmt.Sprintf("element %d: got %s, want %s", m.Index, m.Got, m.Want)
}

// CompareBuffers compares got with want element by element: integers and
// pointers exactly, floats within tol. It returns the number of elements
// that disagree and the first max of them (in index order).
func CompareBuffers(got, want *Buffer, tol Tolerance, max int) (int, []Mismatch, error) {
	ge, err := ElemOf(got.Elem)
	if err != nil {
		return 0, nil, err
	}
	we, err := ElemOf(want.Elem)
	if err != nil {
		return 0, nil, err
	}
	if ge.Type != we.Type && (ge.Float != we.Float || ge.Width != we.Width) {
		return 0, nil, fmt.Errorf("buffers of %v and %v", ge.Type, we.Type)
	}
	if got.Len() != want.Len() {
		return 0, nil, fmt.Errorf("buffers of %d and %d elements", got.Len(), want.Len())
	}
	n := 0
	var out []Mismatch
	for i := 0; i < got.Len(); i++ {
		var ok bool
		var gs, ws string
		if ge.Float != nil {
			g, w := got.Float(i), want.Float(i)
			ok = tol.Agree(g, w)
			gs, ws = fmt.Sprint(g), fmt.Sprint(w)
		} else {
			g, w := got.Int(i), want.Int(i)
			ok = g == w
			gs, ws = fmt.Sprint(g), fmt.Sprint(w)
		}
		if !ok {
			n++
			if len(out) < max {
				out = append(out, Mismatch{Index: i, Got: gs, Want: ws})
			}
		}
	}
	return n, out, nil
}
