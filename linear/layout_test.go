package linear

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestNewErrors(t *testing.T) {
	outs2 := []OutDim{{"dim0", 4}, {"dim1", 2}}
	for _, tc := range []struct {
		name string
		ins  []InDim
		outs []OutDim
		surj bool
		want string
	}{
		{"ok", []InDim{{"register", [][]int{{1, 0}, {2, 0}, {0, 1}}}}, outs2, true, ""},
		{"not surjective", []InDim{{"register", [][]int{{1, 0}}}}, outs2, true, "not surjective"},
		{"not surjective allowed", []InDim{{"register", [][]int{{1, 0}}}}, outs2, false, ""},
		{"size not pow2", nil, []OutDim{{"dim0", 3}}, false, "powers of 2"},
		{"size zero", nil, []OutDim{{"dim0", 0}}, false, "powers of 2"},
		{"coordinate too large", []InDim{{"r", [][]int{{4, 0}}}}, outs2, false, "less than its size"},
		{"negative", []InDim{{"r", [][]int{{-1, 0}}}}, outs2, false, "negative"},
		{"wrong length", []InDim{{"r", [][]int{{1}}}}, outs2, false, "coordinates"},
		{"duplicate in", []InDim{{"r", nil}, {"r", nil}}, outs2, false, "duplicate in-dim"},
		{"duplicate out", nil, []OutDim{{"d", 2}, {"d", 2}}, false, "duplicate out-dim"},
		{"empty name", []InDim{{"", nil}}, outs2, false, "empty name"},
		{"too many in bits", []InDim{{"r", make([][]int, MaxBits+1)}}, nil, false, "more than"},
		{"too many out bits", nil, []OutDim{{"a", 1 << 40}, {"b", 1 << 40}}, false, "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "too many in bits" {
				for i := range tc.ins[0].Bases {
					tc.ins[0].Bases[i] = []int{}
				}
			}
			_, err := New(tc.ins, tc.outs, tc.surj)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestConstructors(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func() (Layout, error)
		want string // AttrString + out dims, or "error"
	}{
		{"identity", func() (Layout, error) { return Identity1D(8, "i", "o") }, "{i = [[1], [2], [4]]} [{o 8}]"},
		{"identity1", func() (Layout, error) { return Identity1D(1, "i", "o") }, "{i = []} [{o 1}]"},
		{"identity0", func() (Layout, error) { return Identity1D(0, "i", "o") }, "{} []"},
		{"identity3", func() (Layout, error) { return Identity1D(3, "i", "o") }, "error"},
		{"zeros", func() (Layout, error) { return Zeros1D(4, "i", "o", 1) }, "{i = [[0], [0]]} [{o 1}]"},
		{"zeros wide", func() (Layout, error) { return Zeros1D(4, "i", "o", 8) }, "{i = [[0], [0]]} [{o 8}]"},
		{"zeros bad", func() (Layout, error) { return Zeros1D(4, "i", "o", 6) }, "error"},
		{"strided", func() (Layout, error) { return Strided1D(4, 4, "i", "o") }, "{i = [[4], [8]]} [{o 16}]"},
		{"strided bad", func() (Layout, error) { return Strided1D(4, 3, "i", "o") }, "error"},
		{"inferred", func() (Layout, error) {
			return NewInferred([]InDim{{"i", [][]int{{1, 0}, {4, 0}, {2, 1}, {0, 1}}}}, []string{"a", "b"})
		}, "{i = [[1, 0], [4, 0], [2, 1], [0, 1]]} [{a 8} {b 2}]"},
		{"inferred not surjective", func() (Layout, error) {
			return NewInferred([]InDim{{"i", [][]int{{4}}}}, []string{"a"})
		}, "error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := tc.make()
			if tc.want == "error" {
				if err == nil {
					t.Fatalf("got %v, want an error", l)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			writeBody(&sb, l.InDims())
			got := sb.String() + " " + fmt.Sprint(l.OutDims())
			if got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestQueries(t *testing.T) {
	l, err := New([]InDim{
		{"register", [][]int{{0, 1}, {1, 0}, {0, 0}}},
		{"lane", [][]int{{2, 0}}},
	}, []OutDim{{"dim0", 4}, {"dim1", 2}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.InDimNames(); !slices.Equal(got, []string{"register", "lane"}) {
		t.Errorf("InDimNames = %v", got)
	}
	checks := []struct {
		name      string
		got, want int
	}{
		{"InDimSize", l.InDimSize("register"), 8},
		{"InDimSizeLog2", l.InDimSizeLog2("lane"), 1},
		{"InDimSize absent", l.InDimSize("warp"), 0},
		{"OutDimSize", l.OutDimSize("dim0"), 4},
		{"OutDimSizeLog2", l.OutDimSizeLog2("dim1"), 1},
		{"TotalIn", l.TotalInDimSize(), 16},
		{"TotalOut", l.TotalOutDimSize(), 8},
		{"Rank", l.Rank(), 3},
		{"BasisValue", l.BasisValue("lane", 0, "dim0"), 2},
		{"NumConsecutiveInOut", l.NumConsecutiveInOut(), 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if l.NumInDims() != 2 || l.NumOutDims() != 2 || !l.HasOutDim("dim1") || l.HasOutDim("lane") || !l.HasInDim("lane") {
		t.Error("dim presence queries")
	}
	if got := l.Columns(); !slices.Equal(got, []uint64{0b100, 0b001, 0, 0b010}) {
		t.Errorf("Columns = %b", got)
	}
	if got := l.Bases("lane"); len(got) != 1 || !slices.Equal(got[0], []int{2, 0}) || l.Bases("warp") != nil {
		t.Errorf("Bases = %v", got)
	}
	if !l.IsSurjective() || l.IsInjective() || l.IsInvertible() {
		t.Errorf("surjective %v injective %v invertible %v", l.IsSurjective(), l.IsInjective(), l.IsInvertible())
	}
	if got := l.FreeVariableMasks(); !slices.Equal(got, []int{4, 0}) {
		t.Errorf("FreeVariableMasks = %v", got)
	}
	if got := l.Basis("register", 1); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("Basis = %v", got)
	}
	if l.Basis("register", 3) != nil || l.Basis("x", 0) != nil {
		t.Error("Basis out of range is not nil")
	}
	if got := l.Apply(3, 1); !slices.Equal(got, []int{3, 1}) {
		t.Errorf("Apply(3, 1) = %v", got)
	}
	if got := l.Apply(3); !slices.Equal(got, []int{1, 1}) {
		t.Errorf("Apply(3) = %v (missing inputs count as 0)", got)
	}
	if got := l.ApplyBits(0b1011); got != 0b111 {
		t.Errorf("ApplyBits = %b", got)
	}
	if got := l.Matrix(); !slices.Equal(got, []uint64{0b0010, 0b1000, 0b0001}) {
		t.Errorf("Matrix = %b", got)
	}
	// InDims is a deep copy.
	ins := l.InDims()
	ins[0].Bases[0][1] = 7
	if l.BasisValue("register", 0, "dim1") != 1 {
		t.Error("InDims shares storage with the layout")
	}
	if _, err := l.ApplyNamed([]Coord{{"register", 1}}); err == nil {
		t.Error("ApplyNamed without lane succeeded")
	}
}

func TestEquality(t *testing.T) {
	a, _ := Identity1D(4, "i", "o")
	b, _ := Identity1D(2, "j", "p")
	ab, _ := Mul(a, b)
	ba, _ := Mul(b, a)
	if ab.Equal(ba) {
		t.Error("layouts with dims in different orders are Equal")
	}
	if !ab.EqualIgnoringOrder(ba) {
		t.Error("the same function with reordered dims is not EqualIgnoringOrder")
	}
	wide, _ := New([]InDim{{"i", [][]int{{1}, {2}}}}, []OutDim{{"o", 8}}, false)
	if a.Equal(wide) || !a.EqualIgnoringOutDimSizes(wide) {
		t.Error("out-dim sizes are not compared as Triton does")
	}
	if !Empty().Equal(Layout{}) {
		t.Error("Empty() is not the zero Layout")
	}
}

// fataler is what checkInvariants needs of a *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// checkInvariants verifies the internal invariants of a layout built by any
// operation: offsets follow the sizes, the cached rank matches the columns,
// and every column fits the out-dims.
func checkInvariants(t fataler, l Layout) {
	t.Helper()
	off := 0
	for _, d := range l.ins {
		if d.off != off {
			t.Fatalf("in-dim %q at offset %d, want %d", d.name, d.off, off)
		}
		off += d.log2
	}
	if off != len(l.cols) {
		t.Fatalf("%d in bits, %d columns", off, len(l.cols))
	}
	off = 0
	for _, o := range l.outs {
		if o.off != off {
			t.Fatalf("out-dim %q at offset %d, want %d", o.name, o.off, off)
		}
		off += o.log2
	}
	for c, v := range l.cols {
		if off < 64 && v>>uint(off) != 0 {
			t.Fatalf("column %d = %#x has bits above the %d out bits", c, v, off)
		}
	}
	if l.rank != colRank(l.cols) {
		t.Fatalf("cached rank %d, columns have rank %d", l.rank, colRank(l.cols))
	}
}
