package cute

import (
	"fmt"
	"slices"
	"strings"
)

// A Tiler is the right operand of Composition and of the divides and
// products. It is one of:
//
//   - a Layout: a function on 1-D coordinates, applied to the whole left
//     layout whatever its rank;
//   - an integer IntTuple n: the same as the layout n:1;
//   - a tuple IntTuple (a shape): by mode, each element a tiler for the
//     matching mode of the left layout;
//   - By: a by-mode tuple of tilers (CuTe's Tile<…>, Mojo's LayoutList);
//   - Keep: leave the mode alone (CuTe's _).
type Tiler interface {
	tilerString() string
}

// By is a by-mode tiler: element i applies to mode i of the left operand.
// Elements may themselves be By, nesting by-mode application.
type By []Tiler

type keep struct{}

// Keep is the tiler that leaves a mode unchanged (CuTe's underscore _).
var Keep Tiler = keep{}

func (l Layout) tilerString() string   { return l.String() }
func (t IntTuple) tilerString() string { return t.String() }
func (keep) tilerString() string       { return "_" }
func (b By) tilerString() string {
	parts := make([]string, len(b))
	for i, t := range b {
		parts[i] = t.tilerString()
	}
	return "<" + strings.Join(parts, ",") + ">"
}

// String formats the by-mode tiler as CuTe docs write it, e.g. <3:4,8:2>.
func (b By) String() string { return b.tilerString() }

// errEmptyTiler is the error of a by-mode tiler with no modes: a layout
// has at least one mode, so there is nothing such a tiler could build.
var errEmptyTiler = errorf("a by-mode tiler needs at least one mode")

// byModes returns the by-mode elements of a tuple tiler, or nil and false for
// a tiler that applies to a whole layout.
func byModes(t Tiler) ([]Tiler, bool) {
	switch t := t.(type) {
	case By:
		return t, true
	case IntTuple:
		if !t.tuple {
			return nil, false
		}
		out := make([]Tiler, len(t.elems))
		for i, e := range t.elems {
			out[i] = e
		}
		return out, true
	}
	return nil, false
}

// concat builds the layout whose top-level modes are the given layouts.
func concat(modes ...Layout) Layout {
	ss := make([]IntTuple, len(modes))
	ds := make([]IntTuple, len(modes))
	n := 0
	for i, m := range modes {
		ss[i], ds[i] = m.shape, m.stride
		n += len(m.fs)
	}
	fs, fd := make([]int, 0, n), make([]int, 0, n)
	for _, m := range modes {
		fs, fd = append(fs, m.fs...), append(fd, m.fd...)
	}
	return Layout{shape: tupleOf(ss), stride: tupleOf(ds), fs: fs, fd: fd}
}

// flatLayout builds a layout of depth <= 1 from leaves, taking ownership of
// the slices; one leaf gives an integer layout.
func flatLayout(shapes, strides []int) Layout {
	if len(shapes) == 1 {
		return Layout{shape: Int(shapes[0]), stride: Int(strides[0]), fs: shapes, fd: strides}
	}
	return Layout{shape: Ints(shapes...), stride: Ints(strides...), fs: shapes, fd: strides}
}

// bwCoalesce is CuTe's bw_coalesce: it walks the leaves (fs, fd) from the
// back, starting from the front mode (ns, nd), dropping size-1 leaves and
// merging a leaf s:d into the front mode S:D when s·d == D.
func bwCoalesce(fs, fd []int, ns, nd int) Layout {
	// rs, rd hold the result reversed: the front mode is the last element.
	rs, rd := make([]int, 1, len(fs)+1), make([]int, 1, len(fs)+1)
	rs[0], rd[0] = ns, nd
	for i := len(fs) - 1; i >= 0; i-- {
		s, d := fs[i], fd[i]
		f := len(rs) - 1
		switch {
		case s == 1:
		case len(rs) == 1 && rs[0] == 1:
			rs[0], rd[0] = s, d
		case s*d == rd[f]:
			rs[f] *= s
			rd[f] = d
		default:
			rs, rd = append(rs, s), append(rd, d)
		}
	}
	if len(rs) == 1 && rs[0] == 1 {
		return build(Int(1), Int(0))
	}
	slices.Reverse(rs)
	slices.Reverse(rd)
	return flatLayout(rs, rd)
}

// coalesceLeaves is bwCoalesce of the leaves fs:fd with the last leaf as the
// starting front mode; fs and fd must not be empty.
func coalesceLeaves(fs, fd []int) Layout {
	n := len(fs) - 1
	return bwCoalesce(fs[:n], fd[:n], fs[n], fd[n])
}

// Coalesce returns the simplest layout with the same size and the same
// function on [0, size): flatten, drop size-1 leaves and merge each leaf
// s1:d1 into the preceding s0:d0 when d1 == s0·d0. The result has depth at
// most 1; a single leaf is an integer layout (8:1, not (8):(1)) and nothing
// left is 1:0. Examples: (2,(1,6)):(1,(6,2)) gives 12:1;
// ((2,2),(2,2)):((1,4),(8,32)) gives (2,4,2):(1,4,32).
func Coalesce(l Layout) Layout { return coalesceLeaves(l.fs, l.fd) }

// coalesceX is CuTe's detail::coalesce_x: like Coalesce but it keeps the
// function the same outside the domain as well, by not dropping the stride of
// a trailing size-1 leaf. Composition relies on it.
func coalesceX(l Layout) Layout {
	n := len(l.fs) - 1
	if l.fs[n] == 1 {
		return bwCoalesce(l.fs[:n], l.fd[:n], 2, l.fd[n])
	}
	return Coalesce(l)
}

// CoalesceModes coalesces each top-level mode separately and keeps the rank,
// Mojo's coalesce(layout, keep_rank=True): (2,(1,6)):(1,(6,2)) gives
// (2,6):(1,2). An integer layout is simply coalesced.
func CoalesceModes(l Layout) Layout {
	if !l.shape.tuple {
		return Coalesce(l)
	}
	modes := l.Modes()
	for i, m := range modes {
		modes[i] = Coalesce(m)
	}
	return concat(modes...)
}

// CoalesceProfile is CuTe's coalesce(layout, profile): it coalesces the
// sub-layouts at the leaves of profile and keeps the structure above them.
// An integer profile coalesces the whole layout; a tuple profile may not have
// more modes than l, and modes of l beyond it are kept unchanged.
func CoalesceProfile(l Layout, profile IntTuple) (Layout, error) {
	if !profile.tuple {
		return Coalesce(l), nil
	}
	if len(profile.elems) > l.Rank() {
		return Layout{}, errorf("coalesce: profile %v has more modes than layout %v", profile, l)
	}
	modes := l.Modes()
	for i, p := range profile.elems {
		m, err := CoalesceProfile(modes[i], p)
		if err != nil {
			return Layout{}, err
		}
		modes[i] = m
	}
	return concat(modes...), nil
}

// Filter removes broadcast and trivial modes: stride-0 leaves become size 1
// and the result is coalesced. (4,2,3):(0,1,2) gives 6:1.
func Filter(l Layout) Layout {
	fs := slices.Clone(l.fs)
	for k, d := range l.fd {
		if d == 0 {
			fs[k] = 1
		}
	}
	return coalesceLeaves(fs, l.fd)
}

// Composition returns R = A ∘ B, the layout with R(c) = A(B(c)) for every
// coordinate c of B, compatible with B (same shape structure as B's). As in
// CuTe, A is extended beyond its domain along its last mode, so B may reach
// past size(A): 2:1 ∘ 32:1 is 32:1.
//
// B is a Tiler. A Layout B is applied to A as a function of 1-D coordinates;
// an integer n is n:1; a By or a tuple shape applies element i to mode i of A
// and, as in CuTe C++ (but not pycute or Mojo), drops the modes of A that the
// tiler does not reach: ((8,6),4,2):((48,8),2,1) ∘ <4:1,2:1> is (4,2):(48,2).
//
// The result is CuTe C++'s (with static integers) where it exists. Where no
// shape:stride layout represents A ∘ B, Composition returns an error
// wrapping ErrNotAdmissible: a stride of B that neither divides nor is
// divided by a mode of A it crosses, a mode of A used only partly before the
// next, or modes of B whose offsets, added, carry from one mode of A into
// the next. This includes cases C++'s weaker static checks let through and
// get wrong, such as (6,2):(1,10) ∘ 4:4, for which C++ returns (2,2):(4,10).
func Composition(a Layout, b Tiler) (Layout, error) {
	r, err := compose(a, b)
	if err != nil {
		return Layout{}, wrap(fmt.Sprintf("composition %v ∘ %s", a, b.tilerString()), err)
	}
	return r, nil
}

func compose(a Layout, b Tiler) (Layout, error) {
	if modes, ok := byModes(b); ok {
		if len(modes) == 0 {
			return Layout{}, errEmptyTiler
		}
		if len(modes) > a.Rank() {
			return Layout{}, errorf("tiler %s has more modes than the layout", b.tilerString())
		}
		out := make([]Layout, len(modes))
		for i, t := range modes {
			r, err := compose(a.Mode(i), t)
			if err != nil {
				return Layout{}, err
			}
			out[i] = r
		}
		return concat(out...), nil
	}
	switch b := b.(type) {
	case Layout:
		flat := coalesceX(a)
		reach := make([]int, len(flat.fs)-1)
		shape, stride, err := composeTuple(flat.fs, flat.fd, b.shape, b.stride, reach)
		if err != nil {
			return Layout{}, err
		}
		// The modes of B are composed separately and their offsets added,
		// which is A(B(c)) only if the sum never carries from one mode of A
		// into the next.
		for j, r := range reach {
			if r >= flat.fs[j] {
				return Layout{}, notAdmissible(
					"the modes of the tiler together reach coordinate %d of mode %d (size %d) of the coalesced layout %v, so their offsets carry",
					r, j, flat.fs[j], flat)
			}
		}
		return finish(build(shape, stride))
	case IntTuple:
		if b.val < 1 {
			return Layout{}, errorf("tiler %d is not a positive size", b.val)
		}
		flat := coalesceX(a)
		shape, stride, err := composeMode(flat.fs, flat.fd, b.val, 1, make([]int, len(flat.fs)-1))
		if err != nil {
			return Layout{}, err
		}
		return finish(build(shape, stride))
	case keep:
		return a, nil
	}
	return Layout{}, errorf("unknown tiler %T", b)
}

// finish validates a computed layout against the extent limits.
func finish(l Layout) (Layout, error) {
	if err := l.check(); err != nil {
		return Layout{}, err
	}
	return l, nil
}

// composeTuple distributes the composition over the modes of B. It adds to
// reach[j] the largest coordinate each mode of B reaches in mode j of A.
func composeTuple(fs, fd []int, rs, rd IntTuple, reach []int) (IntTuple, IntTuple, error) {
	if !rs.tuple {
		return composeMode(fs, fd, rs.val, rd.val, reach)
	}
	shapes := make([]IntTuple, len(rs.elems))
	strides := make([]IntTuple, len(rs.elems))
	for i := range rs.elems {
		s, d, err := composeTuple(fs, fd, rs.elems[i], rd.elems[i], reach)
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		shapes[i], strides[i] = s, d
	}
	return tupleOf(shapes), tupleOf(strides), nil
}

// composeMode composes the coalesced flat layout (fs):(fd) with the single
// mode s:d, following CuTe C++'s composition_impl, and adds to reach[j] the
// largest coordinate it uses in mode j of A (the last mode of A, which
// extends without bound, is not tracked).
//
// The coordinates c·d, c < s, must split into whole copies of the modes of A
// they cross: at each mode, the remaining stride divides the mode's size or
// is divided by it (CuTe's stride divisibility; C++ checks only a weaker
// form), and the remaining size is a multiple of the elements a fully used
// mode holds (shape divisibility). A mode in which the elements end may be
// used partly, even by a stride that does not divide it.
func composeMode(fs, fd []int, s, d int, reach []int) (IntTuple, IntTuple, error) {
	if d == 0 {
		return Int(s), Int(0), nil
	}
	n := len(fs) - 1
	if n == 0 {
		st, err := mul(d, fd[0])
		return Int(s), Int(st), err
	}
	if d < 0 {
		return IntTuple{}, IntTuple{}, unsupported("tiler mode %d:%d has a negative stride", s, d)
	}
	outS, outD := make([]int, 0, n+1), make([]int, 0, n+1)
	rs, rd := s, d
	for j := 0; j < n; j++ {
		N := fs[j]
		nextShape, nextStride := ceilDiv(N, rd), ceilDiv(rd, N)
		if rs == 1 {
			rd = nextStride
			continue
		}
		if rd%N != 0 && N%rd != 0 && nextShape < rs {
			return IntTuple{}, IntTuple{}, notAdmissible(
				"stride divisibility: tiler stride %d and mode size %d of the coalesced layout %v divide neither way",
				rd, N, flatLayout(fs, fd))
		}
		if nextShape == 1 {
			rd = nextStride
			continue
		}
		ns := min(nextShape, rs)
		if rs%ns != 0 {
			return IntTuple{}, IntTuple{}, notAdmissible(
				"shape divisibility: %d remaining elements do not fill whole copies of mode size %d of the coalesced layout %v",
				rs, ns, flatLayout(fs, fd))
		}
		st, err := mul(rd, fd[j])
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		outS, outD = append(outS, ns), append(outD, st)
		reach[j] += (ns - 1) * rd
		rs /= ns
		rd = nextStride
	}
	last, err := mul(rd, fd[n])
	if err != nil {
		return IntTuple{}, IntTuple{}, err
	}
	switch {
	case len(outS) == 0:
		return Int(rs), Int(last), nil
	case rs == 1:
		l := flatLayout(outS, outD)
		return l.shape, l.stride, nil
	}
	outS, outD = append(outS, rs), append(outD, last)
	return Ints(outS...), Ints(outD...), nil
}

// Complement returns the complement of a with respect to the cotarget size
// M: the ordered layout R (R(i-1) < R(i)) whose image meets a's image only at
// 0 and that, together with a, covers [0, M): the combined layout (a, R) is a
// bijection onto [0, cosize) with cosize >= M. Examples with M = 24: 4:1 gives
// 6:4; 4:2 gives (2,3):(1,8); (2,2):(1,6) gives (3,2):(2,12).
//
// Stride-0 and size-1 modes of a are ignored. The remaining modes, sorted by
// stride, must each start at or beyond the span of the smaller ones
// (d_i >= N_{i-1}·d_{i-1}); otherwise a is not injective (or interleaves its
// modes) and Complement returns an error wrapping ErrNotAdmissible, as C++
// rejects it. When moreover N_{i-1}·d_{i-1} divides every d_i, (a, R) covers
// [0, M) exactly. When it does not, a has holes that no ordered layout can
// fill; the result, as in C++, is still ordered and disjoint from a but
// leaves those holes: complement((4,2):(1,6), 24) is 2:12, missing 4 and 5.
// Negative strides are not supported (ErrUnsupported).
func Complement(a Layout, cotarget int) (Layout, error) {
	if cotarget < 1 {
		return Layout{}, errorf("complement of %v: cotarget %d is not positive", a, cotarget)
	}
	f := Filter(a)
	if !f.shape.tuple && f.stride.val == 0 {
		return MakeLayoutLeft(Int(cotarget))
	}
	if slices.ContainsFunc(f.fd, func(d int) bool { return d < 0 }) {
		return Layout{}, unsupported("complement of %v: negative strides", a)
	}
	shapes := make([]int, 0, len(f.fs)+1)
	strides := make([]int, 0, len(f.fs)+1)
	cur := 1
	for _, i := range sortedByStride(f) {
		d := f.fd[i]
		if d < cur {
			return Layout{}, notAdmissible("complement of %v: the layout is not injective (stride %d inside the span %d of smaller modes)", a, d, cur)
		}
		shapes, strides = append(shapes, d/cur), append(strides, cur)
		cur = d * f.fs[i]
	}
	rest := ceilDiv(cotarget, cur)
	restStride := cur
	if rest == 1 {
		restStride = 0
	}
	shapes, strides = append(shapes, rest), append(strides, restStride)
	return finish(coalesceLeaves(shapes, strides))
}

// DefaultComplement is CuTe C++'s one-argument complement(a): the complement
// with cotarget cosize(filter(a)), which fills only the holes inside a's own
// span: (2,4):(1,4) gives 2:2.
func DefaultComplement(a Layout) (Layout, error) {
	return Complement(a, Filter(a).Cosize())
}

// prefixProducts returns the exclusive prefix products of s.
func prefixProducts(s []int) []int {
	p := make([]int, len(s))
	acc := 1
	for i, v := range s {
		p[i] = acc
		acc *= v
	}
	return p
}

// sortedByStride returns the leaf indices of l in increasing stride order,
// keeping the original order among equal strides. It is small enough to be
// inlined, so that a short index slice can stay on the caller's stack.
func sortedByStride(l Layout) []int {
	idx := make([]int, len(l.fd))
	sortByStride(idx, l.fd)
	return idx
}

// sortByStride fills idx, of the length of strides, with the indices of
// strides in increasing order, keeping the original order among equals.
func sortByStride(idx, strides []int) {
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return strides[i] - strides[j] })
}

// RightInverse returns CuTe's right inverse of l: the largest layout R with
// l(R(i)) == i for every i < size(R). It follows the strides of the
// coalesced l up from 1 (a leaf s:d is taken when d is the span reached so
// far), so it is 1:0 when l never hits 1. Examples: (2,4,6):(4,1,8) gives
// (4,2,6):(2,1,8); 4:2 gives 1:0; (2,4):(0,1) gives 4:2.
func RightInverse(l Layout) Layout {
	c := Coalesce(l)
	pre := prefixProducts(c.fs)
	shapes, strides := []int{1}, []int{0}
	cur := 1
	for _, i := range sortedByStride(c) {
		if c.fd[i] == cur {
			shapes, strides = append(shapes, c.fs[i]), append(strides, pre[i])
			cur = c.fs[i] * c.fd[i]
		}
	}
	return coalesceLeaves(shapes, strides)
}

// LeftInverse returns CuTe's quasi-inverse of l, a layout R with
// l(R(l(i))) == l(i) for every i < size(l); when l is injective this is a
// left inverse, R(l(i)) == i. Left inverses are not unique away from l's
// image; this is CuTe C++'s: the coalesced leaves sorted by stride, shapes
// the ratios of consecutive non-zero strides followed by the size of the
// largest-stride leaf, strides 0 and the leaves' 1-D coordinate strides.
// Examples: 4:2 gives (2,4):(0,1); (4,2):(1,5) gives (5,2):(1,4). Stride-0
// (broadcast) modes are allowed; a layout that is otherwise not injective,
// such as (2,2):(1,1), for which C++'s result maps outside the domain, and a
// stride that is not a multiple of the previous one are errors wrapping
// ErrNotAdmissible. Negative strides are not supported (ErrUnsupported).
func LeftInverse(l Layout) (Layout, error) {
	c := Coalesce(l)
	pre := prefixProducts(c.fs)
	idx := sortedByStride(c)
	shapes, strides := []int{}, []int{0}
	prev, span := 1, 1
	for _, i := range idx {
		d := c.fd[i]
		switch {
		case d < 0:
			return Layout{}, unsupported("left inverse of %v: negative strides", l)
		case d == 0:
			continue
		case d < span:
			return Layout{}, notAdmissible("left inverse of %v: the layout is not injective (stride %d inside the span %d of smaller modes)", l, d, span)
		case d%prev != 0:
			return Layout{}, notAdmissible("left inverse of %v: stride %d is not a multiple of stride %d", l, d, prev)
		}
		shapes, strides = append(shapes, d/prev), append(strides, pre[i])
		prev, span = d, d*c.fs[i]
	}
	shapes = append(shapes, c.fs[idx[len(idx)-1]])
	return finish(coalesceLeaves(shapes, strides))
}
