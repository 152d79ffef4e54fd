package cute

import (
	"errors"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// genShape draws a shape of depth at most 2 with at most 5 leaves of size
// at most 6.
func genShape(t *rapid.T, label string) IntTuple {
	leaf := func() IntTuple { return Int(rapid.IntRange(1, 6).Draw(t, label+"leaf")) }
	if rapid.IntRange(0, 4).Draw(t, label+"int") == 0 {
		return leaf()
	}
	rank := rapid.IntRange(1, 3).Draw(t, label+"rank")
	modes := make([]IntTuple, rank)
	for i := range modes {
		if rapid.Bool().Draw(t, label+"nested") {
			n := rapid.IntRange(1, 2).Draw(t, label+"sub")
			sub := make([]IntTuple, n)
			for j := range sub {
				sub[j] = leaf()
			}
			modes[i] = Tuple(sub...)
		} else {
			modes[i] = leaf()
		}
	}
	return Tuple(modes...)
}

// genLayout draws a layout: compact in a random order (a bijection), compact
// with gaps and broadcast modes, or with arbitrary small strides.
func genLayout(t *rapid.T, label string) Layout {
	shape := genShape(t, label)
	leaves := shape.Leaves()
	strides := make([]int, len(leaves))
	switch rapid.IntRange(0, 2).Draw(t, label+"kind") {
	case 0, 1:
		gaps := rapid.Bool().Draw(t, label+"gaps")
		order := rapid.Permutation(seq(len(leaves))).Draw(t, label+"order")
		cur := 1
		for _, k := range order {
			if gaps && rapid.IntRange(0, 3).Draw(t, label+"gap") == 0 {
				cur *= rapid.IntRange(2, 3).Draw(t, label+"factor")
			}
			if gaps && rapid.IntRange(0, 5).Draw(t, label+"zero") == 0 {
				continue
			}
			strides[k] = cur
			cur *= leaves[k]
		}
	default:
		for k := range strides {
			strides[k] = rapid.IntRange(-4, 12).Draw(t, label+"stride")
		}
	}
	stride, _ := unflatten(strides, shape)
	return MustLayout(shape, stride)
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestPropertyParsePrintRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l")
		for _, text := range []string{l.String(), l.MojoString()} {
			got, err := ParseLayout(text)
			if err != nil || !got.Equal(l) {
				t.Fatalf("ParseLayout(%q) = %v, %v; want %v", text, got, err, l)
			}
		}
	})
}

func TestPropertyCoordinates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l")
		i := rapid.IntRange(0, l.Size()-1).Draw(t, "i")
		c := l.Idx2Crd(i)
		if !Congruent(c, l.Shape()) {
			t.Fatalf("Idx2Crd(%d) = %v is not congruent to %v", i, c, l.Shape())
		}
		got, err := l.Crd2Idx(c)
		if err != nil || got != l.Eval(i) {
			t.Fatalf("Crd2Idx(Idx2Crd(%d)) = %d, %v; want %d", i, got, err, l.Eval(i))
		}
		// The R-D coordinate: each mode's 1-D coordinate.
		rd := make([]int, l.Rank())
		rest := i
		for m, mode := range l.Modes() {
			if m == len(rd)-1 {
				rd[m] = rest
			} else {
				rd[m], rest = rest%mode.Size(), rest/mode.Size()
			}
		}
		if l.Rank() > 1 {
			got, err := l.At(rd...)
			if err != nil || got != l.Eval(i) {
				t.Fatalf("At(%v) = %d, %v; want %d", rd, got, err, l.Eval(i))
			}
		}
	})
}

func TestPropertyCoalesce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l")
		c := Coalesce(l)
		if c.Size() != l.Size() || c.Depth() > 1 || !slices.Equal(c.Values(), l.Values()) {
			t.Fatalf("Coalesce(%v) = %v changes the function", l, c)
		}
		if again := Coalesce(c); !again.Equal(c) {
			t.Fatalf("Coalesce is not idempotent: %v then %v", c, again)
		}
		m := CoalesceModes(l)
		if m.Rank() != l.Rank() || !slices.Equal(m.Values(), l.Values()) {
			t.Fatalf("CoalesceModes(%v) = %v", l, m)
		}
		x := coalesceX(l)
		for i := range 2*l.Size() + 3 {
			if x.Eval(i) != l.Eval(i) {
				t.Fatalf("coalesceX(%v) = %v differs at %d outside the domain", l, x, i)
			}
		}
	})
}

func TestPropertyComposition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genLayout(t, "a")
		b := genLayout(t, "b")
		r, err := Composition(a, b)
		if err != nil {
			if !expectedErr(err) {
				t.Fatalf("Composition(%v, %v): unexpected error %v", a, b, err)
			}
			return
		}
		if !Compatible(b.Shape(), r.Shape()) {
			t.Fatalf("%v ∘ %v = %v is not compatible with the right operand", a, b, r)
		}
		for i := range b.Size() {
			if got, want := r.Eval(i), a.Eval(b.Eval(i)); got != want {
				t.Fatalf("%v ∘ %v = %v: R(%d) = %d, A(B(%d)) = %d", a, b, r, i, got, i, want)
			}
		}
	})
}

func TestPropertyCompositionWithIdentity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genLayout(t, "a")
		r, err := Composition(a, ColMajor(a.Size()))
		if err != nil || !slices.Equal(r.Values(), a.Values()) {
			t.Fatalf("%v ∘ identity = %v, %v", a, r, err)
		}
		r, err = Composition(ColMajor(a.Cosize()), a)
		if err != nil || !slices.Equal(r.Values(), a.Values()) {
			t.Fatalf("identity ∘ %v = %v, %v", a, r, err)
		}
	})
}

func TestPropertyComplement(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genLayout(t, "a")
		m := rapid.IntRange(1, 3*a.Cosize()).Draw(t, "m")
		c, err := Complement(a, m)
		if err != nil {
			if !expectedErr(err) {
				t.Fatalf("Complement(%v, %d): unexpected error %v", a, m, err)
			}
			if injectiveFiltered(a) && holeFree(a) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Complement(%v, %d) failed for an injective layout without holes: %v", a, m, err)
			}
			return
		}
		if msg := complementViolation(a, c, m); msg != "" {
			t.Fatalf("Complement(%v, %d) = %v: %s", a, m, c, msg)
		}
	})
}

// injectiveFiltered reports whether filter(a) is injective.
func injectiveFiltered(a Layout) bool {
	vals := Filter(a).Values()
	slices.Sort(vals)
	for i := 1; i < len(vals); i++ {
		if vals[i] == vals[i-1] {
			return false
		}
	}
	return true
}

func TestPropertyInverses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genLayout(t, "a")
		r := RightInverse(a)
		for i := range r.Size() {
			if got := a.Eval(r.Eval(i)); got != i {
				t.Fatalf("RightInverse(%v) = %v: a(r(%d)) = %d", a, r, i, got)
			}
		}
		if bijection(a) && r.Size() != a.Size() {
			t.Fatalf("RightInverse of the bijection %v is %v, smaller than a", a, r)
		}
		l, err := LeftInverse(a)
		if err != nil {
			if !expectedErr(err) {
				t.Fatalf("LeftInverse(%v): unexpected error %v", a, err)
			}
			return
		}
		inj := bijection(a)
		for i := range a.Size() {
			if x := l.Eval(a.Eval(i)); x < 0 || x >= a.Size() {
				t.Fatalf("LeftInverse(%v) = %v maps a(%d) outside the domain, to %d", a, l, i, x)
			}
			if got, want := a.Eval(l.Eval(a.Eval(i))), a.Eval(i); got != want {
				t.Fatalf("LeftInverse(%v) = %v: a(l(a(%d))) = %d, want %d", a, l, i, got, want)
			}
			if inj && l.Eval(a.Eval(i)) != i {
				t.Fatalf("LeftInverse(%v) = %v: l(a(%d)) = %d", a, l, i, l.Eval(a.Eval(i)))
			}
		}
	})
}

// bijection reports whether a maps [0,size) onto [0,size).
func bijection(a Layout) bool {
	vals := a.Values()
	slices.Sort(vals)
	for i, v := range vals {
		if v != i {
			return false
		}
	}
	return true
}

func TestPropertyLogicalDivide(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genLayout(t, "a")
		b := genLayout(t, "b")
		r, err := LogicalDivide(a, b)
		if err != nil {
			if !expectedErr(err) {
				t.Fatalf("LogicalDivide(%v, %v): unexpected error %v", a, b, err)
			}
			return
		}
		c, err := Complement(b, a.Size())
		if err != nil {
			t.Fatalf("LogicalDivide succeeded but Complement(%v, %d) failed: %v", b, a.Size(), err)
		}
		bc := concat(b, c)
		if r.Rank() != 2 || r.Size() != bc.Size() {
			t.Fatalf("%v ⊘ %v = %v: wrong structure", a, b, r)
		}
		for i := range bc.Size() {
			if got, want := r.Eval(i), a.Eval(bc.Eval(i)); got != want {
				t.Fatalf("%v ⊘ %v = %v: R(%d) = %d, A((B,B*)(%d)) = %d", a, b, r, i, got, i, want)
			}
		}
		z, err := ZippedDivide(a, b)
		if err != nil || !z.Equal(r) {
			t.Fatalf("ZippedDivide by a layout = %v, %v; want the logical divide %v", z, err, r)
		}
	})
}

func TestPropertyLogicalProduct(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genLayout(t, "a")
		b := genLayout(t, "b")
		r, err := LogicalProduct(a, b)
		if err != nil {
			if !expectedErr(err) {
				t.Fatalf("LogicalProduct(%v, %v): unexpected error %v", a, b, err)
			}
			return
		}
		if !r.Mode(0).Equal(a) {
			t.Fatalf("%v ⊗ %v = %v: mode 0 is not a", a, b, r)
		}
		c, err := Complement(a, a.Size()*b.Cosize())
		if err != nil {
			t.Fatalf("LogicalProduct succeeded but the complement failed: %v", err)
		}
		m1 := r.Mode(1)
		if m1.Size() != b.Size() {
			t.Fatalf("%v ⊗ %v = %v: mode 1 has the wrong size", a, b, r)
		}
		for j := range b.Size() {
			if got, want := m1.Eval(j), c.Eval(b.Eval(j)); got != want {
				t.Fatalf("%v ⊗ %v = %v: mode1(%d) = %d, complement(B(%d)) = %d", a, b, r, j, got, j, want)
			}
		}
		// Blocked and raked products rearrange the same elements.
		for _, f := range []func(Layout, Layout) (Layout, error){BlockedProduct, RakedProduct} {
			p, err := f(a, b)
			if err != nil {
				t.Fatalf("rank product of %v and %v failed where the logical product did not: %v", a, b, err)
			}
			got, want := p.Values(), r.Values()
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) || p.Rank() != max(a.Rank(), b.Rank()) {
				t.Fatalf("rank product of %v and %v = %v does not rearrange %v", a, b, p, r)
			}
		}
	})
}

func TestPropertySwizzleInvolution(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.IntRange(0, 4).Draw(t, "B")
		m := rapid.IntRange(0, 5).Draw(t, "M")
		s := rapid.IntRange(b, 6).Draw(t, "S")
		if rapid.Bool().Draw(t, "neg") {
			s = -s
		}
		sw := Swizzle{b, m, s}
		if err := sw.Validate(); err != nil {
			t.Fatal(err)
		}
		x := rapid.IntRange(0, 1<<16).Draw(t, "x")
		if got := sw.Apply(sw.Apply(x)); got != x {
			t.Fatalf("%v is not an involution at %d: %d", sw, x, got)
		}
		y := rapid.IntRange(0, 1<<16).Draw(t, "y")
		if sw.Apply(x^y) != sw.Apply(x)^sw.Apply(y) {
			t.Fatalf("%v is not linear at %d, %d", sw, x, y)
		}
		if got, err := MakeSwizzle(sw.YMask(), sw.ZMask()); b > 0 && (err != nil || got != sw) {
			if !(sw.S < 0 && got.S == -sw.S) { // the masks alone cannot tell S from -S when M differs
				t.Fatalf("MakeSwizzle(masks of %v) = %v, %v", sw, got, err)
			}
		}
	})
}

func TestPropertyBasisAgreesWithEvaluation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSwizzledPow2Layout(t)
		l := s.Layout
		basis, err := s.linearBasis()
		xorAgrees := true
		for i := range l.Size() {
			if xorOf(basis, i) != s.Eval(i) {
				xorAgrees = false
			}
		}
		if err == nil && !xorAgrees {
			t.Fatalf("%v reported linear with basis %v, but evaluation differs", s, basis)
		}
		if err != nil {
			// Not linear: some index must break XOR-linearity of the bit images.
			all, _ := s.Basis()
			broken := false
			for i := range l.Size() {
				if xorOf(all, i) != s.Eval(i) {
					broken = true
				}
			}
			if !broken {
				t.Fatalf("%v reported not linear (%v), but it is", s, err)
			}
		}
	})
}

func xorOf(basis []int, x int) int {
	v := 0
	for j, b := range basis {
		if x>>j&1 == 1 {
			v ^= b
		}
	}
	return v
}

// genPow2Layout draws a layout whose leaves are powers of two, with strides
// that are powers of two, zero, or small integers.
func genPow2Layout(t *rapid.T) Layout {
	n := rapid.IntRange(1, 4).Draw(t, "leaves")
	shapes := make([]int, n)
	strides := make([]int, n)
	for k := range shapes {
		shapes[k] = 1 << rapid.IntRange(0, 3).Draw(t, "log")
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			strides[k] = 0
		case 1:
			strides[k] = rapid.IntRange(1, 9).Draw(t, "d")
		default:
			strides[k] = 1 << rapid.IntRange(0, 8).Draw(t, "dlog")
		}
	}
	if n == 1 {
		return MustLayout(Int(shapes[0]), Int(strides[0]))
	}
	return MustLayout(Ints(shapes...), Ints(strides...))
}

// genSwizzledPow2Layout draws a genPow2Layout, optionally under a swizzle
// with B <= 3, M <= 3 and B <= S <= 4.
func genSwizzledPow2Layout(t *rapid.T) SwizzledLayout {
	l := genPow2Layout(t)
	var sw Swizzle
	if rapid.Bool().Draw(t, "swizzled") {
		b := rapid.IntRange(1, 3).Draw(t, "B")
		sw = Swizzle{b, rapid.IntRange(0, 3).Draw(t, "M"), rapid.IntRange(b, 4).Draw(t, "S")}
	}
	return SwizzledLayout{Swizzle: sw, Layout: l}
}

func TestPropertyByModeDivides(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genLayout(t, "a")
		tiles := make([]int, a.Rank())
		for i, m := range a.Modes() {
			tiles[i] = rapid.IntRange(1, m.Size()).Draw(t, "tile")
		}
		tiler := Ints(tiles...)
		l, err := LogicalDivide(a, tiler)
		if err != nil {
			if !expectedErr(err) {
				t.Fatalf("LogicalDivide(%v, %v): unexpected error %v", a, tiler, err)
			}
			return
		}
		want := l.Values()
		slices.Sort(want)
		for name, f := range map[string]func(Layout, Tiler) (Layout, error){
			"zipped": ZippedDivide, "tiled": TiledDivide, "flat": FlatDivide,
		} {
			r, err := f(a, tiler)
			if err != nil {
				t.Fatalf("%s divide of %v by %v failed where the logical divide did not: %v", name, a, tiler, err)
			}
			got := r.Values()
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s divide %v does not rearrange the logical divide %v", name, r, l)
			}
		}
		// The tile mode of the zipped divide is the composition A ∘ tiler.
		z, _ := ZippedDivide(a, tiler)
		c, err := Composition(a, tiler)
		if err != nil || !slices.Equal(z.Mode(0).Values(), c.Values()) {
			t.Fatalf("mode 0 of %v is not %v ∘ %v = %v (%v)", z, a, tiler, c, err)
		}
	})
}

// expectedErr reports whether err is one the algebra documents: no
// shape:stride result, or negative strides where they are not supported.
func expectedErr(err error) bool {
	return errors.Is(err, ErrNotAdmissible) || errors.Is(err, ErrUnsupported)
}
