package linear

import (
	"slices"
	"strings"
	"testing"
)

// lay builds a layout from AttrString-style text and explicit out-dims, for
// tests.
func lay(t *testing.T, attr string, outs ...OutDim) Layout {
	t.Helper()
	ins, err := ParseAttr(attr)
	if err != nil {
		t.Fatal(err)
	}
	l, err := New(ins, outs, false)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestOpErrors(t *testing.T) {
	a := lay(t, "{register = [[1, 0], [0, 1]], lane = [[2, 0]]}", OutDim{"dim0", 4}, OutDim{"dim1", 2})
	b := lay(t, "{dim0 = [[1], [0]], dim1 = [[0]]}", OutDim{"x", 2})
	small := lay(t, "{dim0 = [[1]], dim1 = [[0]]}", OutDim{"x", 2})
	notSurj := lay(t, "{offset = [[1, 0]]}", OutDim{"dim0", 4}, OutDim{"dim1", 2})
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"compose names", second(a.Compose(a)), "must be the in-dims"},
		{"compose sizes", second(a.Compose(small)), "larger than"},
		{"compose ok", second(a.Compose(b)), ""},
		{"transposeIns", second(a.TransposeIns([]string{"lane"})), "permutation"},
		{"transposeIns dup", second(a.TransposeIns([]string{"lane", "lane"})), "permutation"},
		{"transposeOuts", second(a.TransposeOuts([]string{"dim1", "x"})), "permutation"},
		{"reshapeIns size", second(a.ReshapeIns([]Dim{{"r", 4}})), "multiply"},
		{"reshapeIns pow2", second(a.ReshapeIns([]Dim{{"r", 3}, {"s", 3}})), "power of 2"},
		{"reshapeOuts dup", second(a.ReshapeOuts([]Dim{{"r", 2}, {"r", 4}})), "duplicate"},
		{"sublayout", second(a.Sublayout([]string{"warp"}, nil)), "not one of"},
		{"resizeInDim", second(a.ResizeInDim("register", 8)), "no larger"},
		{"resizeOutDim", second(a.ResizeOutDim("dim0", 3)), "power of 2"},
		{"renameInDim", second(a.RenameInDim("register", "lane")), "existing"},
		{"squeeze", second(a.SqueezeIns("lane")), "size-1"},
		{"invert", second(lay(t, "{register = [[1, 0], [0, 1]], lane = [[2, 0], [0, 0]]}",
			OutDim{"dim0", 4}, OutDim{"dim1", 2}).Invert()), "not invertible"},
		{"invert ok", second(a.Invert()), ""},
		{"pseudoinvert", second(notSurj.PseudoInvert()), "not surjective"},
		{"invertAndCompose outer", second(a.InvertAndCompose(notSurj)), "not surjective"},
		{"invertAndCompose names", second(a.InvertAndCompose(b)), "differ"},
		{"concatIns", second(a.ConcatIns(b)), "out-dims"},
		{"concatOuts dup", second(a.ConcatOuts(a)), "both layouts"},
		{"mul sup", second(Mul(
			lay(t, "{a = [[1]], b = [[0]]}", OutDim{"o", 2}),
			lay(t, "{b = [[1]], a = [[0]]}", OutDim{"o", 2}))), ""},
		{"mul bits", second(Mul(
			lay(t, "{a = []}", OutDim{"o", 1 << 40}),
			lay(t, "{a = []}", OutDim{"o", 1 << 40}))), "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == "" {
				if tc.err != nil {
					t.Fatal(tc.err)
				}
				return
			}
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", tc.err, tc.want)
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }

func TestRearrangements(t *testing.T) {
	a := lay(t, "{register = [[1, 0], [0, 1], [0, 0]], lane = [[2, 0]]}", OutDim{"dim0", 4}, OutDim{"dim1", 2})
	for _, tc := range []struct {
		name string
		got  func() (Layout, error)
		want string // String() of the result
	}{
		{"resizeInDim", func() (Layout, error) { return a.ResizeInDim("register", 2) },
			"{register = [[1, 0]], lane = [[2, 0]]} [{dim0 4} {dim1 2}]"},
		{"resizeOutDim", func() (Layout, error) { return a.ResizeOutDim("dim0", 2) },
			"{register = [[1, 0], [0, 1], [0, 0]], lane = [[0, 0]]} [{dim0 2} {dim1 2}]"},
		{"renameInDim", func() (Layout, error) { return a.RenameInDim("register", "reg") },
			"{lane = [[2, 0]], reg = [[1, 0], [0, 1], [0, 0]]} [{dim0 4} {dim1 2}]"},
		{"removeZeroBases", func() (Layout, error) { return a.RemoveZeroBasesAlongDim("register") },
			"{register = [[1, 0], [0, 1]], lane = [[2, 0]]} [{dim0 4} {dim1 2}]"},
		{"concatIns", func() (Layout, error) {
			return a.ConcatIns(lay(t, "{lane = [[0, 0]], warp = [[3, 1]]}", OutDim{"dim0", 4}, OutDim{"dim1", 2}))
		}, "{register = [[1, 0], [0, 1], [0, 0]], lane = [[2, 0]], warp = [[3, 1]]} [{dim0 4} {dim1 2}]"},
		{"concatOuts", func() (Layout, error) {
			return a.ConcatOuts(lay(t, "{register = [[1], [0], [0]], lane = [[0]]}", OutDim{"x", 2}))
		}, "{register = [[1, 0, 1], [0, 1, 0], [0, 0, 0]], lane = [[2, 0, 0]]} [{dim0 4} {dim1 2} {x 2}]"},
		{"sublayout", func() (Layout, error) { return a.Sublayout([]string{"lane"}, []string{"dim0"}) },
			"{lane = [[2]]} [{dim0 4}]"},
		{"flatten", func() (Layout, error) { return a.FlattenIns().FlattenOuts(), nil },
			"{register = [[1], [4], [0], [2]]} [{dim0 8}]"},
		{"squeeze", func() (Layout, error) {
			s, err := a.ReshapeOuts([]Dim{{"dim0", 8}, {"one", 1}})
			if err != nil {
				return s, err
			}
			return s.SqueezeOuts("one")
		}, "{register = [[1], [4], [0]], lane = [[2]]} [{dim0 8}]"},
		{"zerosLike", func() (Layout, error) { return ZerosLike(a), nil },
			"{register = [[0, 0], [0, 0], [0, 0]], lane = [[0, 0]]} [{dim0 4} {dim1 2}]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := tc.got()
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(l); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func describe(l Layout) string {
	var sb strings.Builder
	writeBody(&sb, l.InDims())
	sb.WriteString(" [")
	for j, o := range l.OutDims() {
		if j > 0 {
			sb.WriteString(" ")
		}
		sb.WriteString("{" + o.Name + " " + itoaTest(o.Size) + "}")
	}
	sb.WriteString("]")
	return sb.String()
}

func itoaTest(n int) string {
	var sb strings.Builder
	writeInts(&sb, []int{n})
	return sb.String()
}

func TestSupremum(t *testing.T) {
	for _, tc := range []struct {
		x, y, want []string
	}{
		{[]string{"a", "b"}, []string{"a", "c"}, []string{"a", "b", "c"}},
		{[]string{"a", "b"}, []string{"b", "c"}, []string{"a", "b", "c"}},
		{[]string{"a", "c"}, []string{"b", "c"}, []string{"a", "b", "c"}},
		{[]string{"register", "lane"}, []string{"lane", "warp", "block"}, []string{"register", "lane", "warp", "block"}},
		{[]string{"a", "b"}, []string{"b", "a"}, []string{"a", "b"}}, // as Triton's code does
		{nil, nil, nil},
	} {
		got, err := Supremum(tc.x, tc.y)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Supremum(%v, %v) = %v, %v; want %v", tc.x, tc.y, got, err, tc.want)
		}
	}
	// Triton's merge never fails on lists of distinct names; repeated names
	// are an error.
	if got, err := Supremum([]string{"c", "x", "a"}, []string{"a", "y", "c"}); err != nil || !slices.Equal(got, []string{"c", "x", "a", "y"}) {
		t.Errorf("Supremum of conflicting orders = %v, %v", got, err)
	}
	if got, err := Supremum([]string{"a", "b", "a"}, []string{"b"}); err == nil {
		t.Errorf("Supremum with a repeated name = %v, want an error", got)
	}
}

func TestEnsureLayoutSize(t *testing.T) {
	// register → dim0 (2), lane → dim1 (4).
	l := lay(t, "{register = [[1, 0]], lane = [[0, 1], [0, 2]]}", OutDim{"dim0", 2}, OutDim{"dim1", 4})
	big, err := EnsureLayoutNotSmallerThan(l, map[string]int{"dim0": 8, "dim1": 8})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(big), "{register = [[1, 0], [2, 0], [4, 0], [0, 4]], lane = [[0, 1], [0, 2]]} [{dim0 8} {dim1 8}]"; got != want {
		t.Errorf("not smaller: got %s, want %s", got, want)
	}
	smallB, err := EnsureLayoutNotLargerThan(big, map[string]int{"dim0": 2, "dim1": 2}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(smallB), "{register = [[1, 0], [0, 0], [0, 0], [0, 0]], lane = [[0, 1], [0, 0]]} [{dim0 2} {dim1 2}]"; got != want {
		t.Errorf("not larger (broadcast): got %s, want %s", got, want)
	}
	smallD, err := EnsureLayoutNotLargerThan(big, map[string]int{"dim0": 2, "dim1": 2}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(smallD), "{register = [[1, 0]], lane = [[0, 1], [0, 0]]} [{dim0 2} {dim1 2}]"; got != want {
		t.Errorf("not larger (drop registers): got %s, want %s", got, want)
	}
	if _, err := EnsureLayoutNotSmallerThan(l, map[string]int{"dim0": 8}); err == nil {
		t.Error("a shape without dim1 was accepted")
	}
	lanes := lay(t, "{lane = [[1]]}", OutDim{"dim0", 2})
	if _, err := EnsureLayoutNotSmallerThan(lanes, map[string]int{"dim0": 8}); err == nil {
		t.Error("growing a layout whose first in-dim is lane was accepted")
	}
}

func TestColumnAction(t *testing.T) {
	a, err := NewColumnAction([]int{2, 0, 1}, "register", 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.String(); got != "ColumnAction([2, 0, 1], register, 3)" {
		t.Errorf("String = %q", got)
	}
	vals := []string{"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"}
	got, err := ApplyValues(a, vals)
	if err != nil || strings.Join(got, " ") != "x0 x4 x1 x5 x2 x6 x3 x7" {
		t.Errorf("ApplyValues = %v, %v", got, err)
	}
	drop, _ := NewColumnAction([]int{2, 1}, "register", 3)
	if got, _ := ApplyValues(drop, vals); strings.Join(got, " ") != "x0 x4 x2 x6" {
		t.Errorf("ApplyValues(drop) = %v", got)
	}
	inv, err := a.Inverse()
	if err != nil {
		t.Fatal(err)
	}
	both, err := a.LeftCompose(inv)
	if err != nil || !both.IsIdentity() {
		t.Errorf("a.LeftCompose(a⁻¹) = %v, %v; want the identity", both, err)
	}
	if _, err := drop.Inverse(); err == nil {
		t.Error("an action that drops bases has an inverse")
	}
	for _, bad := range [][]int{{3}, {0, 0}, {-1}, {0, 1, 2, 0}} {
		if _, err := NewColumnAction(bad, "register", 3); err == nil {
			t.Errorf("NewColumnAction(%v) succeeded", bad)
		}
	}
	l := lay(t, "{register = [[1], [2], [4]], lane = [[8]]}", OutDim{"dim0", 16})
	p, err := a.Apply(l)
	if err != nil || describe(p) != "{register = [[4], [1], [2]], lane = [[8]]} [{dim0 16}]" {
		t.Errorf("Apply = %s, %v", describe(p), err)
	}
	if _, err := a.Apply(lay(t, "{register = [[1]]}", OutDim{"dim0", 2})); err == nil {
		t.Error("Apply to a layout of the wrong size succeeded")
	}

	bcast := lay(t, "{register = [[1], [0], [2], [0]], lane = [[4]]}", OutDim{"dim0", 8})
	rm, err := ActionRemoveBroadcastedRegs(bcast)
	if err != nil || !slices.Equal(rm.Action(), []int{0, 2}) {
		t.Errorf("ActionRemoveBroadcastedRegs = %v, %v", rm, err)
	}

	// A = B * C with B's registers mixed into A's: the permutation brings
	// them to the front (left) or back (right).
	A := lay(t, "{register = [[4], [1], [2], [8]]}", OutDim{"dim0", 16})
	B := lay(t, "{register = [[1], [2]]}", OutDim{"dim0", 4})
	left, ok, err := RegPermForDivide(A, B, true)
	if err != nil || !ok || !slices.Equal(left.Action(), []int{1, 2, 0, 3}) {
		t.Errorf("RegPermForDivide(left) = %v, %v, %v", left, ok, err)
	}
	permuted, _ := left.Apply(A)
	if _, ok := DivideLeft(permuted, B); !ok {
		t.Error("DivideLeft fails after the left permutation")
	}
	Bhi := lay(t, "{register = [[1], [2]]}", OutDim{"dim0", 4}) // ×4 = [4], [8]
	right, ok, err := RegPermForDivide(A, Bhi, false)
	if err != nil || !ok || !slices.Equal(right.Action(), []int{1, 2, 0, 3}) {
		t.Errorf("RegPermForDivide(right) = %v, %v, %v", right, ok, err)
	}
	missing := lay(t, "{register = [[3]]}", OutDim{"dim0", 4})
	if _, ok, err := RegPermForDivide(A, missing, true); ok || err != nil {
		t.Errorf("RegPermForDivide with a missing basis: ok %v, err %v", ok, err)
	}
}

func TestTrivialAndQuotient(t *testing.T) {
	// warp is the identity and independent of the rest; lane is not.
	l := lay(t, "{register = [[1, 0, 0]], lane = [[0, 1, 0], [2, 0, 0]], warp = [[0, 0, 1]]}",
		OutDim{"register", 4}, OutDim{"lane", 2}, OutDim{"warp", 2})
	if !l.IsTrivialOver([]string{"warp"}) || l.IsTrivialOver([]string{"lane"}) {
		t.Error("IsTrivialOver")
	}
	if l.IsTrivialOver([]string{"block"}) {
		t.Error("IsTrivialOver a missing dim")
	}
	q, ok := l.Quotient([]string{"warp"})
	if !ok || describe(q) != "{register = [[1, 0]], lane = [[0, 1], [2, 0]]} [{register 4} {lane 2}]" {
		t.Errorf("Quotient = %s, %v", describe(q), ok)
	}
	if _, ok := l.Quotient([]string{"lane"}); ok {
		t.Error("Quotient over a non-trivial dim succeeded")
	}
	if !l.IsIdentityOnOutDim("warp") || l.IsIdentityOnOutDim("register") {
		t.Error("IsIdentityOnOutDim")
	}
}

func TestInvertAndComposeIdentityFallback(t *testing.T) {
	// Both map lane alike, so Triton maps lane to itself; but register's
	// basis then has no preimage among the outer's other bases. The system is
	// solved without the identity rule instead of failing.
	outer := lay(t, "{lane = [[1], [0]]}", OutDim{"dim0", 2})
	l := lay(t, "{register = [[1]], lane = [[1], [0]]}", OutDim{"dim0", 2})
	c, err := l.InvertAndCompose(outer)
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 2; r++ {
		for ln := 0; ln < 4; ln++ {
			if got, want := outer.Apply(c.Apply(r, ln)...), l.Apply(r, ln); !slices.Equal(got, want) {
				t.Fatalf("outer(c(%d, %d)) = %v, want %v", r, ln, got, want)
			}
		}
	}
}

func TestIdentityStandardND(t *testing.T) {
	l, err := IdentityStandardND("r", []int{4, 2}, []int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(l), "{r = [[1, 0], [0, 1], [0, 2]]} [{dim1 2} {dim0 4}]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for _, bad := range [][]int{{0}, {0, 0}, {2, 0}} {
		if _, err := IdentityStandardND("r", []int{4, 2}, bad); err == nil {
			t.Errorf("order %v accepted", bad)
		}
	}
	if _, err := IdentityStandardND("r", []int{4, 3}, []int{0, 1}); err == nil {
		t.Error("size 3 accepted")
	}
}

func TestRankOfColumns(t *testing.T) {
	// 70 columns: the first 40 unit vectors twice over (rank 40).
	var cols []uint64
	for i := 0; i < 70; i++ {
		cols = append(cols, 1<<uint(i%40))
	}
	if got := RankOfColumns(cols); got != 40 {
		t.Errorf("rank = %d, want 40", got)
	}
	if got := RankOfColumns([]uint64{3, 5, 6}); got != 2 {
		t.Errorf("rank = %d, want 2", got)
	}
	rows := []uint64{0b110, 0b011, 0b101}
	if got := RREF(rows, 3); got != 2 || !slices.Equal(rows, []uint64{0b101, 0b110, 0}) {
		t.Errorf("RREF = %d, %b", got, rows)
	}
}

func TestSyntaxErrorMessage(t *testing.T) {
	_, err := ParseAttr("{a = [[x]]}")
	if err == nil || err.Error() != `offset 7: expected a non-negative integer, found 'x'` {
		t.Errorf("got %v", err)
	}
}
