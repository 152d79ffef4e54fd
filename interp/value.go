package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/ir"
)

// Elem is the element type of a tensor value, reduced to what its values
// need: an integer width (1 to 64; index is i64), a float format, or a
// pointer (whose values are addresses in the interpreter's flat memory).
type Elem struct {
	Type    ir.Type      // the MLIR element type
	Width   int          // integer width, 0 for floats and pointers
	Float   *FloatFormat // nil unless a float
	Pointee ir.Type      // set for pointers
}

// IsInt reports whether e is an integer type (i1 ... i64, index).
func (e Elem) IsInt() bool { return e.Width > 0 }

// IsPtr reports whether e is a pointer.
func (e Elem) IsPtr() bool { return e.Pointee != nil }

// Bytes is the size of one element in memory.
func (e Elem) Bytes() int {
	switch {
	case e.Float != nil:
		return e.Float.StoreBits / 8
	case e.IsPtr():
		return 8
	case e.Width == 1:
		return 1
	}
	return (e.Width + 7) / 8
}

// ElemOf describes a scalar MLIR type.
func ElemOf(t ir.Type) (Elem, error) {
	switch t := t.(type) {
	case *ir.IntegerType:
		if t.Width < 1 || t.Width > 64 {
			return Elem{}, fmt.Errorf("unsupported integer type %s", ir.TypeString(t))
		}
		return Elem{Type: t, Width: t.Width}, nil
	case *ir.IndexType:
		return Elem{Type: t, Width: 64}, nil
	case *ir.FloatType:
		f := LookupFloatFormat(t.Kind)
		if f == nil {
			return Elem{}, fmt.Errorf("unsupported float type %s", t.Kind)
		}
		return Elem{Type: t, Float: f}, nil
	case *ir.PointerType:
		return Elem{Type: t, Pointee: t.Pointee}, nil
	}
	return Elem{}, fmt.Errorf("unsupported element type %s", ir.TypeString(t))
}

// Tensor is a value of a ranked tensor type, or a scalar (Shape empty, one
// element). Integers and pointers live in I, floats in F, in row-major
// order; exactly one of the two is non-nil. An integer of width w is kept
// sign-extended from bit w-1 (i1 true is -1), whatever signedness the ops
// that use it give it; a float is kept as the float64 of equal value (every
// value of the supported formats is one), so it is rounded to its format by
// every op that makes it. A Tensor is immutable once made: ops make new ones.
type Tensor struct {
	Elem  Elem
	Shape []int
	I     []int64
	F     []float64
}

// NewTensor makes a zero tensor.
func NewTensor(e Elem, shape []int) *Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	t := &Tensor{Elem: e, Shape: shape}
	if e.Float != nil {
		t.F = make([]float64, n)
	} else {
		t.I = make([]int64, n)
	}
	return t
}

// Len is the number of elements.
func (t *Tensor) Len() int {
	if t.F != nil {
		return len(t.F)
	}
	return len(t.I)
}

// IsFloat reports whether the tensor holds floats.
func (t *Tensor) IsFloat() bool { return t.Elem.Float != nil }

// Scalar makes a scalar value.
func scalarInt(e Elem, v int64) *Tensor {
	return &Tensor{Elem: e, I: []int64{wrap(v, e.Width)}}
}

func scalarFloat(e Elem, v float64) *Tensor {
	return &Tensor{Elem: e, F: []float64{v}}
}

// wrap truncates v to w bits and sign-extends it: the canonical form of an
// integer of width w.
func wrap(v int64, w int) int64 {
	if w >= 64 || w <= 0 {
		return v
	}
	s := uint(64 - w)
	return v << s >> s
}

// unsigned returns the value of canonical v as an unsigned w-bit integer.
func unsigned(v int64, w int) uint64 {
	if w >= 64 {
		return uint64(v)
	}
	return uint64(v) & (1<<uint(w) - 1)
}

// MemDesc is a value of a !ttg.memdesc type: a view of a shared-memory
// buffer (or a tensor-memory one, see ops_tmem.go). Shared memory is
// simulated at the level of values: a buffer is the row-major elements of
// its allocation shape, and a view selects
// Shape elements from it at Offset with Strides (memdesc_index,
// memdesc_subslice, memdesc_trans and memdesc_reshape make views).
type MemDesc struct {
	Buf     *Tensor
	Offset  int
	Shape   []int
	Strides []int
}

// NewMemDesc makes a shared-memory buffer of shape holding the elements
// of t (row-major; zeros when t is nil) and a view of all of it.
func NewMemDesc(e Elem, shape []int, t *Tensor) (*MemDesc, error) {
	m := &MemDesc{Buf: NewTensor(e, shape), Shape: shape, Strides: strides(shape)}
	if t != nil {
		if err := m.store(t); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Token is a value of !ttg.async.token or another type without data.
type Token struct{}

// Value is the value of an SSA value: *Tensor, *MemDesc, *BlockPtr (a
// block pointer, see ops_blockptr.go), *TensorDesc (a tensor descriptor,
// see ops_descriptor.go) or Token.
type Value any

// strides returns the row-major strides of shape.
func strides(shape []int) []int {
	s := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = n
		n *= shape[i]
	}
	return s
}

func numElems(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// shapeOf returns the shape of a tensor type, nil for a scalar.
func shapeOf(t ir.Type) []int {
	s, ok := ir.ShapeOf(t)
	if !ok {
		return nil
	}
	out := make([]int, len(s))
	for i, d := range s {
		out[i] = int(d)
	}
	return out
}

// loadElem decodes one element of type e from little-endian bytes into
// the canonical form.
func loadElem(e Elem, p []byte) (int64, float64) {
	var u uint64
	for i := len(p) - 1; i >= 0; i-- {
		u = u<<8 | uint64(p[i])
	}
	if e.Float != nil {
		return 0, e.Float.FromBits(u)
	}
	if e.IsPtr() {
		return int64(u), 0
	}
	return wrap(int64(u), e.Width), 0
}

// storeElem encodes one element into little-endian bytes.
func storeElem(e Elem, p []byte, i int64, f float64) {
	var u uint64
	if e.Float != nil {
		u = e.Float.Bits(f)
	} else {
		u = uint64(i)
	}
	for k := range p {
		p[k] = byte(u >> (8 * k))
	}
}

// String formats a small tensor for messages.
func (t *Tensor) String() string {
	n := t.Len()
	s := fmt.Sprintf("%s%v[", ir.TypeString(t.Elem.Type), t.Shape)
	for i := 0; i < n && i < 8; i++ {
		if i > 0 {
			s += " "
		}
		if t.F != nil {
			s += fmt.Sprint(t.F[i])
		} else {
			s += fmt.Sprint(t.I[i])
		}
	}
	if n > 8 {
		s += " ..."
	}
	return s + "]"
}

// Scalar makes a scalar value of e: i for an integer or pointer (an
// address), f for a float (rounded to e's format).
func Scalar(e Elem, i int64, f float64) *Tensor {
	if e.Float != nil {
		return scalarFloat(e, e.Float.Round(f, NearestEven, false))
	}
	if e.IsPtr() {
		return &Tensor{Elem: e, I: []int64{i}}
	}
	return scalarInt(e, i)
}
