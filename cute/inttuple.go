package cute

import (
	"strconv"
	"strings"
)

// IntTuple is CuTe's hierarchical integer: either an integer or a tuple of
// IntTuples, nested to any depth. The rank-1 tuple (4) is different from the
// integer 4.
//
// IntTuple values are immutable: functions never modify a tuple they are
// given and never hand out its internal slice. The zero IntTuple is the
// integer 0.
type IntTuple struct {
	val   int
	elems []IntTuple // nil for an integer
	tuple bool
}

// Int returns the integer IntTuple v.
func Int(v int) IntTuple { return IntTuple{val: v} }

// Tuple returns the tuple of the given elements; Tuple() is the empty tuple.
func Tuple(elems ...IntTuple) IntTuple {
	return IntTuple{elems: append([]IntTuple(nil), elems...), tuple: true}
}

// Ints returns the flat tuple (v0, v1, ...).
func Ints(vs ...int) IntTuple {
	elems := make([]IntTuple, len(vs))
	for i, v := range vs {
		elems[i] = Int(v)
	}
	return IntTuple{elems: elems, tuple: true}
}

// tupleOf wraps elems without copying; callers hand over ownership.
func tupleOf(elems []IntTuple) IntTuple { return IntTuple{elems: elems, tuple: true} }

// IsInt reports whether t is an integer rather than a tuple.
func (t IntTuple) IsInt() bool { return !t.tuple }

// IsTuple reports whether t is a tuple.
func (t IntTuple) IsTuple() bool { return t.tuple }

// Value returns the integer of an integer IntTuple and 0 for a tuple.
func (t IntTuple) Value() int { return t.val }

// Rank is the number of top-level elements of a tuple; an integer has rank 1.
func (t IntTuple) Rank() int {
	if !t.tuple {
		return 1
	}
	return len(t.elems)
}

// At returns the i-th top-level element. For an integer, At(0) is the integer
// itself. It panics if i is out of range, like a slice index.
func (t IntTuple) At(i int) IntTuple {
	if !t.tuple {
		if i != 0 {
			panic("cute: IntTuple.At: index " + strconv.Itoa(i) + " out of range for an integer")
		}
		return t
	}
	return t.elems[i]
}

// Elems returns a copy of the top-level elements; an integer yields itself.
func (t IntTuple) Elems() []IntTuple {
	if !t.tuple {
		return []IntTuple{t}
	}
	return append([]IntTuple(nil), t.elems...)
}

// modes is Elems without the copy, for internal read-only use.
func (t IntTuple) modes() []IntTuple {
	if !t.tuple {
		return []IntTuple{t}
	}
	return t.elems
}

// Depth is 0 for an integer and 1 + the largest element depth for a tuple.
func (t IntTuple) Depth() int {
	if !t.tuple {
		return 0
	}
	d := 0
	for _, e := range t.elems {
		d = max(d, e.Depth())
	}
	return d + 1
}

// FlatRank is the number of integer leaves.
func (t IntTuple) FlatRank() int {
	if !t.tuple {
		return 1
	}
	n := 0
	for _, e := range t.elems {
		n += e.FlatRank()
	}
	return n
}

// Leaves returns the integer leaves in left-to-right (colexicographic) order.
func (t IntTuple) Leaves() []int { return t.appendLeaves(make([]int, 0, t.FlatRank())) }

func (t IntTuple) appendLeaves(dst []int) []int {
	if !t.tuple {
		return append(dst, t.val)
	}
	for _, e := range t.elems {
		dst = e.appendLeaves(dst)
	}
	return dst
}

// Flatten returns the flat tuple of the leaves; an integer stays an integer.
func (t IntTuple) Flatten() IntTuple {
	if !t.tuple {
		return t
	}
	return Ints(t.Leaves()...)
}

// Product is the product of all leaves (1 for the empty tuple). For a shape
// it is the number of coordinates, CuTe's size.
func (t IntTuple) Product() int {
	if !t.tuple {
		return t.val
	}
	p := 1
	for _, e := range t.elems {
		p *= e.Product()
	}
	return p
}

// Size is Product: the number of coordinates of the shape t.
func (t IntTuple) Size() int { return t.Product() }

// Sum is the sum of all leaves.
func (t IntTuple) Sum() int {
	if !t.tuple {
		return t.val
	}
	s := 0
	for _, e := range t.elems {
		s += e.Sum()
	}
	return s
}

// Equal reports whether t and u have the same structure and leaves.
func (t IntTuple) Equal(u IntTuple) bool {
	if t.tuple != u.tuple {
		return false
	}
	if !t.tuple {
		return t.val == u.val
	}
	if len(t.elems) != len(u.elems) {
		return false
	}
	for i := range t.elems {
		if !t.elems[i].Equal(u.elems[i]) {
			return false
		}
	}
	return true
}

// Congruent reports whether a and b have the same profile (tree structure),
// whatever their leaves: a shape and its stride must be congruent.
func Congruent(a, b IntTuple) bool {
	if a.tuple != b.tuple {
		return false
	}
	if !a.tuple {
		return true
	}
	if len(a.elems) != len(b.elems) {
		return false
	}
	for i := range a.elems {
		if !Congruent(a.elems[i], b.elems[i]) {
			return false
		}
	}
	return true
}

// Compatible reports whether the shape a is compatible with the shape b, as
// CuTe defines it: size(a) == size(b) and every coordinate of a is also a
// coordinate of b. An integer is compatible with any shape of the same size;
// a tuple is compatible with a tuple of the same rank whose elements it is
// compatible with, element by element; a tuple is never compatible with an
// integer. Compatibility is a partial order, not a symmetric relation.
func Compatible(a, b IntTuple) bool {
	switch {
	case !a.tuple:
		return a.val == b.Product()
	case !b.tuple:
		return false
	case len(a.elems) != len(b.elems):
		return false
	}
	for i := range a.elems {
		if !Compatible(a.elems[i], b.elems[i]) {
			return false
		}
	}
	return true
}

// InnerProduct returns Σ a_i·b_i over the leaves of two congruent IntTuples
// (for a coordinate and a stride, this is the layout function).
func InnerProduct(a, b IntTuple) (int, error) {
	if !Congruent(a, b) {
		return 0, errorf("inner product of %v and %v: the tuples are not congruent", a, b)
	}
	return innerProduct(a, b), nil
}

func innerProduct(a, b IntTuple) int {
	if !a.tuple {
		return a.val * b.val
	}
	s := 0
	for i := range a.elems {
		s += innerProduct(a.elems[i], b.elems[i])
	}
	return s
}

// unflatten rebuilds a tuple with the profile of like from flat leaves,
// consuming them from the front; it returns the rest.
func unflatten(leaves []int, like IntTuple) (IntTuple, []int) {
	if !like.tuple {
		return Int(leaves[0]), leaves[1:]
	}
	elems := make([]IntTuple, len(like.elems))
	for i, e := range like.elems {
		elems[i], leaves = unflatten(leaves, e)
	}
	return tupleOf(elems), leaves
}

// String formats t in CuTe notation: 4, (4), ((3,2),(2,5)).
func (t IntTuple) String() string {
	var b strings.Builder
	t.write(&b, ",")
	return b.String()
}

// MojoString formats t as Mojo prints an IntTuple: ((3, 2), (2, 5)).
func (t IntTuple) MojoString() string {
	var b strings.Builder
	t.write(&b, ", ")
	return b.String()
}

func (t IntTuple) write(b *strings.Builder, sep string) {
	if !t.tuple {
		b.WriteString(strconv.Itoa(t.val))
		return
	}
	b.WriteByte('(')
	for i, e := range t.elems {
		if i > 0 {
			b.WriteString(sep)
		}
		e.write(b, sep)
	}
	b.WriteByte(')')
}
