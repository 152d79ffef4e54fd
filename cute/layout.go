package cute

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// ErrNotAdmissible is wrapped by every error that reports an operation whose
// result does not exist as a shape:stride layout (a divisibility or
// injectivity condition fails). Test for it with errors.Is.
var ErrNotAdmissible = errors.New("not admissible")

// ErrUnsupported is wrapped by errors for inputs this package does not
// handle although CuTe may: negative strides where an operation sorts or
// divides by strides (Complement, LeftInverse, and a negative tiler stride in
// Composition).
var ErrUnsupported = errors.New("unsupported")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("cute: %s: %w", fmt.Sprintf(format, args...), ErrUnsupported)
}

// MaxExtent, 2^40, bounds the size of a layout and the span Σ(s-1)·|d| of
// its image, so that the algebra never overflows an int. It is far above any
// tensor a GPU holds.
const MaxExtent = 1 << maxExtentLog2

// maxExtentLog2 is log2(MaxExtent), for messages and bit counts.
const maxExtentLog2 = 40

func errorf(format string, args ...any) error {
	return fmt.Errorf("cute: "+format, args...)
}

// opError adds the operation and its operands to an error from inside it,
// keeping a single "cute: " prefix and the error chain.
type opError struct {
	op  string
	err error
}

func (e *opError) Error() string {
	return "cute: " + e.op + ": " + strings.TrimPrefix(e.err.Error(), "cute: ")
}

func (e *opError) Unwrap() error { return e.err }

func wrap(op string, err error) error { return &opError{op: op, err: err} }

func notAdmissible(format string, args ...any) error {
	return fmt.Errorf("cute: %s: %w", fmt.Sprintf(format, args...), ErrNotAdmissible)
}

// mul multiplies a and b and reports an overflow as an error.
func mul(a, b int) (int, error) {
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > 1<<62 {
		return 0, errorf("integer overflow in %d*%d", a, b)
	}
	return a * b, nil
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func sign(a int) int {
	switch {
	case a < 0:
		return -1
	case a > 0:
		return 1
	}
	return 0
}

// ceilDiv is ⌈a/b⌉ for a, b >= 1, without overflow.
func ceilDiv(a, b int) int { return (a-1)/b + 1 }

// Layout is a CuTe layout shape:stride: a function from coordinates to an
// integer offset. Shape and Stride are congruent IntTuples; the function of a
// natural (shape-congruent) coordinate c is the inner product c·stride.
//
// Layout values are immutable and safe to share. The zero Layout is not
// valid; build one with NewLayout, ParseLayout or a constructor.
type Layout struct {
	shape, stride IntTuple
	// fs and fd are the flattened shape and stride, cached for evaluation.
	fs, fd []int
}

// NewLayout returns the layout shape:stride. The shape and stride must be
// congruent, every shape leaf must be at least 1, and the size and span of
// the layout must not exceed MaxExtent.
func NewLayout(shape, stride IntTuple) (Layout, error) {
	if !Congruent(shape, stride) {
		return Layout{}, errorf("shape %v and stride %v are not congruent", shape, stride)
	}
	if shape.tuple && len(shape.elems) == 0 {
		return Layout{}, errorf("the empty tuple () is not a shape")
	}
	l := build(shape, stride)
	if err := l.check(); err != nil {
		return Layout{}, err
	}
	return l, nil
}

// build assembles a layout from congruent shape and stride without checks.
func build(shape, stride IntTuple) Layout {
	return Layout{shape: shape, stride: stride, fs: shape.Leaves(), fd: stride.Leaves()}
}

// check validates the leaves and the extent limits.
func (l Layout) check() error {
	size, span := 1, 0
	for k, s := range l.fs {
		if s < 1 {
			return errorf("shape %v: mode size %d is not positive", l.shape, s)
		}
		d := abs(l.fd[k])
		// Compare by division so that the products cannot overflow.
		if s > MaxExtent/size || d > MaxExtent || (d > 0 && s-1 > (MaxExtent-span)/d) {
			return errorf("layout %v exceeds the supported extent 2^%d", l, maxExtentLog2)
		}
		size *= s
		span += (s - 1) * d
	}
	return nil
}

// MustLayout is NewLayout for layouts known to be valid; it panics on error.
func MustLayout(shape, stride IntTuple) Layout {
	l, err := NewLayout(shape, stride)
	if err != nil {
		panic(err)
	}
	return l
}

// Shape returns the shape.
func (l Layout) Shape() IntTuple { return l.shape }

// Stride returns the stride.
func (l Layout) Stride() IntTuple { return l.stride }

// Size is the number of coordinates, the product of the shape.
func (l Layout) Size() int {
	p := 1
	for _, s := range l.fs {
		p *= s
	}
	return p
}

// Cosize is CuTe's codomain size: one more than the offset of the last
// coordinate with every stride taken by absolute value, |L|(size-1)+1. For
// non-negative strides it is max L + 1; for example 4:2 has cosize 7 and
// (4,2):(0,1) has cosize 2.
func (l Layout) Cosize() int {
	c := 1
	for k, s := range l.fs {
		c += (s - 1) * abs(l.fd[k])
	}
	return c
}

// Rank is the number of top-level modes (1 for an integer shape).
func (l Layout) Rank() int { return l.shape.Rank() }

// Depth is the nesting depth of the shape (0 for an integer shape).
func (l Layout) Depth() int { return l.shape.Depth() }

// FlatRank is the number of leaves of the shape.
func (l Layout) FlatRank() int { return len(l.fs) }

// Mode returns the sub-layout of top-level mode i. For an integer layout
// Mode(0) is the layout itself. It panics if i is out of range, like a slice
// index.
func (l Layout) Mode(i int) Layout { return build(l.shape.At(i), l.stride.At(i)) }

// Modes returns the top-level modes.
func (l Layout) Modes() []Layout {
	ss, ds := l.shape.modes(), l.stride.modes()
	out := make([]Layout, len(ss))
	for i := range ss {
		out[i] = build(ss[i], ds[i])
	}
	return out
}

// Equal reports whether l and m have identical shapes and strides (the same
// representation, not merely the same function).
func (l Layout) Equal(m Layout) bool { return l.shape.Equal(m.shape) && l.stride.Equal(m.stride) }

// Eval is the layout function at the 1-D coordinate i. The coordinate is
// split colexicographically (leftmost leaf fastest); as in CuTe C++, the last
// leaf is not reduced modulo its size, so the function extends past the
// domain along the last mode. Eval does not allocate.
func (l Layout) Eval(i int) int {
	n := len(l.fs) - 1
	off := 0
	for k := 0; k < n; k++ {
		s := l.fs[k]
		off += (i % s) * l.fd[k]
		i /= s
	}
	return off + i*l.fd[n]
}

// At is the layout function at an R-D coordinate: one integer per top-level
// mode, each split colexicographically within its mode. A single argument is
// a 1-D coordinate (At(i) == Eval(i)). Any other count of arguments than 1 or
// Rank() is an error.
func (l Layout) At(coords ...int) (int, error) {
	if len(coords) == 1 {
		return l.Eval(coords[0]), nil
	}
	if len(coords) != l.Rank() {
		return 0, errorf("layout %v of rank %d called with %d coordinates", l, l.Rank(), len(coords))
	}
	off := 0
	for i, c := range coords {
		off += crd2idxInt(c, l.shape.elems[i], l.stride.elems[i])
	}
	return off, nil
}

// Crd2Idx is the layout function at a coordinate in any of CuTe's forms: a
// 1-D integer, an R-D tuple of integers, the natural coordinate congruent to
// the shape, or any partly nested mix in which every tuple of the coordinate
// lines up with a tuple of the shape. An integer given for a tuple mode is
// split colexicographically within it. For example, for
// (3,(2,3)):(3,(12,1)) the coordinates 16, (1,5) and (1,(1,2)) all give 17.
func (l Layout) Crd2Idx(coord IntTuple) (int, error) {
	return crd2idx(coord, l.shape, l.stride)
}

// Crd2Idx maps the coordinate coord of shape to an offset through stride; see
// Layout.Crd2Idx. A tuple coordinate whose rank differs from the shape's, or
// a tuple coordinate for an integer mode, is an error.
func Crd2Idx(coord, shape, stride IntTuple) (int, error) {
	if !Congruent(shape, stride) {
		return 0, errorf("shape %v and stride %v are not congruent", shape, stride)
	}
	return crd2idx(coord, shape, stride)
}

func crd2idx(c, s, d IntTuple) (int, error) {
	if !c.tuple {
		return crd2idxInt(c.val, s, d), nil
	}
	if !s.tuple {
		return 0, errorf("coordinate %v is a tuple but its mode %v is an integer", c, s)
	}
	if len(c.elems) != len(s.elems) {
		return 0, errorf("coordinate %v has rank %d but its mode %v has rank %d", c, len(c.elems), s, len(s.elems))
	}
	off := 0
	for i := range c.elems {
		o, err := crd2idx(c.elems[i], s.elems[i], d.elems[i])
		if err != nil {
			return 0, err
		}
		off += o
	}
	return off, nil
}

// crd2idxInt maps an integer coordinate of the (sub)shape s: colexicographic
// split, the last element absorbing the quotient.
func crd2idxInt(c int, s, d IntTuple) int {
	if !s.tuple {
		return c * d.val
	}
	off := 0
	n := len(s.elems) - 1
	for i := 0; i < n; i++ {
		p := s.elems[i].Product()
		off += crd2idxInt(c%p, s.elems[i], d.elems[i])
		c /= p
	}
	return off + crd2idxInt(c, s.elems[n], d.elems[n])
}

// Idx2Crd returns the natural coordinate of the 1-D coordinate i:
// colexicographic, leftmost leaf fastest, as CuTe and the Mojo guide
// ("Alternate coordinates") define it. It inverts the enumeration of
// coordinates, not the layout function: for (3,4):(4,1), Idx2Crd(7) is (1,2).
func (l Layout) Idx2Crd(i int) IntTuple { return idx2crdInt(i, l.shape) }

// Idx2Crd converts the coordinate idx of shape (a 1-D integer, an R-D tuple
// or any partly nested mix) to the natural coordinate congruent to shape,
// splitting integers colexicographically. As in CuTe C++ the last leaf of a
// split is not reduced: Idx2Crd(20, (3,4)) is (2,6). A tuple idx whose rank
// differs from the shape's is an error.
func Idx2Crd(idx, shape IntTuple) (IntTuple, error) {
	if !idx.tuple {
		return idx2crdInt(idx.val, shape), nil
	}
	if !shape.tuple {
		return IntTuple{}, errorf("index %v is a tuple but its mode %v is an integer", idx, shape)
	}
	if len(idx.elems) != len(shape.elems) {
		return IntTuple{}, errorf("index %v has rank %d but its mode %v has rank %d", idx, len(idx.elems), shape, len(shape.elems))
	}
	out := make([]IntTuple, len(idx.elems))
	for i := range idx.elems {
		c, err := Idx2Crd(idx.elems[i], shape.elems[i])
		if err != nil {
			return IntTuple{}, err
		}
		out[i] = c
	}
	return tupleOf(out), nil
}

func idx2crdInt(i int, s IntTuple) IntTuple {
	if !s.tuple {
		return Int(i)
	}
	out := make([]IntTuple, len(s.elems))
	n := len(s.elems) - 1
	for k := 0; k < n; k++ {
		p := s.elems[k].Product()
		out[k] = idx2crdInt(i%p, s.elems[k])
		i /= p
	}
	out[n] = idx2crdInt(i, s.elems[n])
	return tupleOf(out)
}

// Idx2CrdByStride is Mojo's Layout.idx2crd (and CuTe's three-argument
// idx2crd): each leaf gets (i / stride) mod shape, using the layout's own
// strides, and a leaf of size 1 gets 0. It inverts the layout function only
// for compact layouts: for (3,4):(4,1), Idx2CrdByStride(7) is (1,3). A leaf of
// size above 1 with stride 0 makes it undefined, which is an error.
func (l Layout) Idx2CrdByStride(i int) (IntTuple, error) {
	for k, s := range l.fs {
		if s > 1 && l.fd[k] == 0 {
			return IntTuple{}, errorf("idx2crd by stride: layout %v has a stride-0 mode of size %d", l, s)
		}
	}
	leaves := make([]int, len(l.fs))
	for k, s := range l.fs {
		if s != 1 {
			leaves[k] = (i / l.fd[k]) % s
		}
	}
	c, _ := unflatten(leaves, l.shape)
	return c, nil
}

// Values returns the layout function on its whole domain, [L(0), …, L(size-1)].
func (l Layout) Values() []int {
	out := make([]int, l.Size())
	for i := range out {
		out[i] = l.Eval(i)
	}
	return out
}

// Notation selects how layouts and tables are written.
type Notation int

const (
	// CuTeNotation is CuTe C++'s print: ((3,2),(2,5)):((1,6),(3,12)), with no
	// spaces and no static-integer underscores.
	CuTeNotation Notation = iota
	// MojoNotation is Mojo's Layout printing: (((3, 2), (2, 5)):((1, 6), (3, 12))).
	MojoNotation
)

// String formats l in CuTe notation, e.g. (3,(2,3)):(3,(12,1)).
func (l Layout) String() string { return l.Format(CuTeNotation) }

// MojoString formats l as Mojo prints a Layout, e.g. ((3, 4):(4, 1)).
func (l Layout) MojoString() string { return l.Format(MojoNotation) }

// Format formats l in the notation n.
func (l Layout) Format(n Notation) string {
	var b strings.Builder
	if n == MojoNotation {
		b.WriteByte('(')
		l.shape.write(&b, ", ")
		b.WriteByte(':')
		l.stride.write(&b, ", ")
		b.WriteByte(')')
		return b.String()
	}
	l.shape.write(&b, ",")
	b.WriteByte(':')
	l.stride.write(&b, ",")
	return b.String()
}

// compact returns the compact strides of shape, the prefix products from 1 in
// column-major (left) or row-major (right) order over the flattened shape.
// With cppOnes, a leaf of size 1 gets stride 0 as CuTe C++'s compact_major
// gives it; otherwise it gets the running product as Mojo's does.
func compact(shape IntTuple, right, cppOnes bool) IntTuple {
	leaves := shape.Leaves()
	strides := make([]int, len(leaves))
	current := 1
	order := func(k int) int {
		if right {
			return len(leaves) - 1 - k
		}
		return k
	}
	for k := range leaves {
		j := order(k)
		if cppOnes && leaves[j] == 1 {
			strides[j] = 0
			continue
		}
		strides[j] = current
		current *= leaves[j]
	}
	st, _ := unflatten(strides, shape)
	return st
}

func compactLayout(shape IntTuple, right, cppOnes bool) (Layout, error) {
	if err := checkShape(shape); err != nil {
		return Layout{}, err
	}
	return NewLayout(shape, compact(shape, right, cppOnes))
}

func checkShape(shape IntTuple) error {
	if shape.tuple && len(shape.elems) == 0 {
		return errorf("the empty tuple () is not a shape")
	}
	size := 1
	for _, s := range shape.Leaves() {
		if s < 1 {
			return errorf("shape %v: mode size %d is not positive", shape, s)
		}
		if size > MaxExtent/s {
			return errorf("shape %v exceeds the supported extent 2^%d", shape, maxExtentLog2)
		}
		size *= s
	}
	return nil
}

// MakeLayoutLeft is CuTe's make_layout(shape, LayoutLeft): compact
// column-major strides, an exclusive prefix product from the left over the
// flattened shape, re-nested like the shape. As in CuTe C++, a mode of size 1
// gets stride 0. Example: ((2,3),(2,4)) gives ((1,2),(6,12)).
func MakeLayoutLeft(shape IntTuple) (Layout, error) { return compactLayout(shape, false, true) }

// MakeLayoutRight is CuTe's make_layout(shape, LayoutRight): compact row-major
// strides, the prefix product taken from the right over the flattened shape.
// A mode of size 1 gets stride 0. Example: ((2,3),(2,4)) gives ((24,8),(4,1)).
func MakeLayoutRight(shape IntTuple) (Layout, error) { return compactLayout(shape, true, true) }

// ColMajorNested is Mojo's col_major for a nested shape: the compact
// column-major layout of shape with plain prefix-product strides (a mode of
// size 1 keeps the running product, as in Mojo).
func ColMajorNested(shape IntTuple) (Layout, error) { return compactLayout(shape, false, false) }

// RowMajorNested is Mojo's row_major_nested: the compact row-major layout of
// a nested shape with plain prefix-product strides. Example: ((2,3),(2,4))
// gives ((24,8),(4,1)).
func RowMajorNested(shape IntTuple) (Layout, error) { return compactLayout(shape, true, false) }

// ColMajor is Mojo's col_major[d0, d1, …]: the compact column-major layout of
// the flat shape (d0, d1, …), e.g. ColMajor(3, 4) is (3,4):(1,3). One
// dimension gives an integer layout (ColMajor(8) is 8:1). It panics if no
// dimension is given or one is not positive.
func ColMajor(dims ...int) Layout { return mustFlat(dims, false) }

// RowMajor is Mojo's row_major[d0, d1, …]: the compact row-major layout of the
// flat shape (d0, d1, …), e.g. RowMajor(3, 4) is (3,4):(4,1). One dimension
// gives an integer layout. It panics if no dimension is given or one is not
// positive.
func RowMajor(dims ...int) Layout { return mustFlat(dims, true) }

func mustFlat(dims []int, right bool) Layout {
	if len(dims) == 0 {
		panic("cute: a layout needs at least one dimension")
	}
	shape := Ints(dims...)
	if len(dims) == 1 {
		shape = Int(dims[0])
	}
	l, err := compactLayout(shape, right, false)
	if err != nil {
		panic(err)
	}
	return l
}

// MakeOrderedLayout is CuTe's make_ordered_layout: the compact layout of shape
// whose strides grow in the order given by order, which is congruent to shape.
// A leaf's stride is the product of the sizes of every leaf of strictly lower
// order, as in CuTe's compact_order (so leaves of equal order get equal
// strides), and a leaf of size 1 gets stride 0. Mojo's example: shape
// (2,3,4,5) with order (1,4,3,2) has strides (1,40,10,2).
func MakeOrderedLayout(shape, order IntTuple) (Layout, error) {
	if err := checkShape(shape); err != nil {
		return Layout{}, err
	}
	if !Congruent(shape, order) {
		return Layout{}, errorf("make ordered layout: shape %v and order %v are not congruent", shape, order)
	}
	ls, lo := shape.Leaves(), order.Leaves()
	strides := make([]int, len(ls))
	for k := range ls {
		if ls[k] == 1 {
			continue
		}
		d := 1
		for j := range ls {
			if lo[j] < lo[k] {
				d *= ls[j]
			}
		}
		strides[k] = d
	}
	st, _ := unflatten(strides, shape)
	return NewLayout(shape, st)
}
