package linear

import (
	"slices"
	"testing"
)

// okLayout returns a function that returns its layout, failing t on an
// error.
func okLayout(t *testing.T) func(Layout, error) Layout {
	return func(l Layout, err error) Layout {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
}

func TestInferredOutDims(t *testing.T) {
	ok := okLayout(t)
	ins := []InDim{
		{"register", [][]int{{0, 1}, {2, 0}}},
		{"lane", [][]int{{1, 0}, {0, 0}}},
		{"warp", nil},
	}
	outs, err := InferredOutDims(ins, []string{"dim0", "dim1"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []OutDim{{"dim0", 4}, {"dim1", 2}}; !slices.Equal(outs, want) {
		t.Fatalf("InferredOutDims = %v, want %v", outs, want)
	}
	inferred := ok(NewInferred(ins, []string{"dim0", "dim1"}))
	if got := ok(New(ins, outs, true)); !got.Equal(inferred) {
		t.Errorf("New(ins, InferredOutDims) = %v, want NewInferred's %v", got, inferred)
	}

	// A layout that is not surjective: NewInferred refuses it, New with the
	// inferred dims builds it.
	sparse := []InDim{{"block", [][]int{{2, 0}}}}
	outs, err = InferredOutDims(sparse, []string{"dim0", "dim1"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []OutDim{{"dim0", 4}, {"dim1", 1}}; !slices.Equal(outs, want) {
		t.Fatalf("InferredOutDims = %v, want %v", outs, want)
	}
	if _, err := NewInferred(sparse, []string{"dim0", "dim1"}); err == nil {
		t.Error("NewInferred accepted a layout that is not surjective")
	}
	l := ok(New(sparse, outs, false))
	if l.IsSurjective() || l.Rank() != 1 {
		t.Errorf("rank %d, surjective %v; want rank 1, not surjective", l.Rank(), l.IsSurjective())
	}

	if outs, err := InferredOutDims(nil, []string{"dim0"}); err != nil || !slices.Equal(outs, []OutDim{{"dim0", 1}}) {
		t.Errorf("InferredOutDims without bases = %v, %v; want [{dim0 1}]", outs, err)
	}
	for _, bad := range [][]InDim{
		{{"register", [][]int{{1}}}},
		{{"register", [][]int{{1, -1}}}},
		{{"register", [][]int{{1 << MaxBits, 0}}}},
	} {
		if _, err := InferredOutDims(bad, []string{"dim0", "dim1"}); err == nil {
			t.Errorf("InferredOutDims(%v) did not fail", bad)
		}
	}
}

func TestRemoveStandardDim(t *testing.T) {
	ok := okLayout(t)
	ins := []InDim{
		{"register", [][]int{{0, 1, 0}, {0, 0, 1}}},
		{"lane", [][]int{{1, 0, 0}, {0, 2, 0}}},
	}
	// dim2 is larger than the bases need: its size must be kept.
	l := ok(New(ins, []OutDim{{"dim0", 2}, {"dim1", 4}, {"dim2", 4}}, false))
	got := ok(RemoveStandardDim(l, 1))
	want := ok(New([]InDim{
		{"register", [][]int{{0, 0}, {0, 1}}},
		{"lane", [][]int{{1, 0}, {0, 0}}},
	}, []OutDim{{"dim0", 2}, {"dim1", 4}}, false))
	if !got.Equal(want) {
		t.Errorf("RemoveStandardDim(l, 1) =%v\nwant%v", got, want)
	}
	got = ok(RemoveStandardDim(l, 0))
	want = ok(New([]InDim{
		{"register", [][]int{{1, 0}, {0, 1}}},
		{"lane", [][]int{{0, 0}, {2, 0}}},
	}, []OutDim{{"dim0", 4}, {"dim1", 4}}, false))
	if !got.Equal(want) {
		t.Errorf("RemoveStandardDim(l, 0) =%v\nwant%v", got, want)
	}

	one := ok(Identity1D(4, "register", "dim0"))
	got = ok(RemoveStandardDim(one, 0))
	if got.NumOutDims() != 0 || len(got.Bases("register")) != 2 || len(got.Basis("register", 0)) != 0 {
		t.Errorf("RemoveStandardDim of the only dim =%v", got)
	}

	for _, dim := range []int{-1, 3} {
		if _, err := RemoveStandardDim(l, dim); err == nil {
			t.Errorf("RemoveStandardDim(l, %d) did not fail", dim)
		}
	}
	t3 := ok(l.TransposeOuts([]string{"dim1", "dim0", "dim2"}))
	if _, err := RemoveStandardDim(t3, 0); err == nil {
		t.Error("RemoveStandardDim accepted out-dims that are not dim0, dim1, … in order")
	}
}

// rowMajor flattens a point row-major: the last coordinate least
// significant.
func rowMajor(v, sizes []int) int {
	x := 0
	for i, c := range v {
		x = x*sizes[i] + c
	}
	return x
}

func TestReshapeLayout(t *testing.T) {
	ok := okLayout(t)
	// A swizzled 8x8 tile with a broadcast register bit.
	l := ok(NewInferred([]InDim{
		{"offset", [][]int{{0, 1}, {0, 2}, {0, 4}, {1, 1}, {2, 2}, {4, 4}}},
		{"register", [][]int{{0, 0}}},
	}, StandardOutDimNames(2)))
	for _, shape := range [][]int{{64}, {2, 32}, {4, 4, 4}, {8, 8}, {1, 64, 1}} {
		r := ok(ReshapeLayout(l, shape))
		if names := r.OutDimNames(); !slices.Equal(names, StandardOutDimNames(len(shape))) {
			t.Fatalf("shape %v: out-dims %v", shape, names)
		}
		if got := outSizesOf(r); !slices.Equal(got, shape) {
			t.Fatalf("shape %v: sizes %v", shape, got)
		}
		if !slices.Equal(r.InDimNames(), l.InDimNames()) {
			t.Fatalf("shape %v: in-dims %v", shape, r.InDimNames())
		}
		for x := range l.TotalInDimSize() {
			off, reg := x%64, x/64
			if a, b := rowMajor(l.Apply(off, reg), []int{8, 8}), rowMajor(r.Apply(off, reg), shape); a != b {
				t.Fatalf("shape %v, offset %d, register %d: row-major index %d, want %d", shape, off, reg, b, a)
			}
		}
	}
	// Row-major reshapes of a row-major identity are identities.
	id := ok(IdentityStandardND("offset", []int{4, 8}, []int{1, 0}))
	id = ok(id.TransposeOuts(StandardOutDimNames(2)))
	got := ok(ReshapeLayout(id, []int{32}))
	if want := ok(Identity1D(32, "offset", "dim0")); !got.Equal(want) {
		t.Errorf("ReshapeLayout(identity 4x8, [32]) =%v\nwant%v", got, want)
	}
	if _, err := ReshapeLayout(l, []int{8, 4}); err == nil {
		t.Error("ReshapeLayout to a smaller shape did not fail")
	}
}

func outSizesOf(l Layout) []int {
	var s []int
	for _, d := range l.OutDims() {
		s = append(s, d.Size)
	}
	return s
}

func TestTransposeLinearLayout(t *testing.T) {
	ok := okLayout(t)
	l := ok(NewInferred([]InDim{
		{"offset", [][]int{{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {2, 0, 0}}},
		{"block", [][]int{{0, 0, 0}}},
	}, StandardOutDimNames(3)))
	got := ok(TransposeLinearLayout(l, []int{2, 0, 1}))
	want := ok(NewInferred([]InDim{
		{"offset", [][]int{{1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 2, 0}}},
		{"block", [][]int{{0, 0, 0}}},
	}, StandardOutDimNames(3)))
	if !got.Equal(want) {
		t.Errorf("TransposeLinearLayout(l, [2 0 1]) =%v\nwant%v", got, want)
	}
	if s := outSizesOf(got); !slices.Equal(s, []int{2, 4, 2}) {
		t.Errorf("sizes %v, want [2 4 2] (inferred again)", s)
	}
	back := ok(TransposeLinearLayout(got, []int{1, 2, 0}))
	if !back.Equal(l) {
		t.Errorf("the inverse order does not restore the layout:%v", back)
	}
	for _, order := range [][]int{{0, 1}, {0, 1, 1}, {0, 1, 3}, {-1, 0, 1}} {
		if _, err := TransposeLinearLayout(l, order); err == nil {
			t.Errorf("TransposeLinearLayout(l, %v) did not fail", order)
		}
	}
}
