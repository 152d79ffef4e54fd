package cute

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/linear"
	"pgregory.net/rapid"
)

// applyAll evaluates a linear layout from ToLinear at the 1-D coordinate i of
// l, splitting i into the modes' coordinates.
func applyAll(ll linear.Layout, l Layout, i int) int {
	modes := l.Modes()
	coords := make([]int, len(modes))
	for m, mode := range modes {
		coords[m] = i % mode.Size()
		i /= mode.Size()
	}
	return ll.Apply(coords...)[0]
}

func TestToLinearVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		if v.Op != "to_f2_basis" {
			continue
		}
		t.Run(v.ID, func(t *testing.T) {
			want := decodeJSON[f2Basis](t, v.Expected)
			s := v.swizzledLayout()
			ll, err := s.ToLinear()
			if !want.Linear {
				var nl *NotLinearError
				if !errors.As(err, &nl) {
					t.Fatalf("ToLinear(%v) = %v, %v; want a NotLinearError", s, ll, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ToLinear(%v): %v", s, err)
			}
			if got := ll.InDimNames(); len(got) != len(want.BasisByMode) {
				t.Fatalf("in-dims %v, want %d", got, len(want.BasisByMode))
			}
			for m, wb := range want.BasisByMode {
				var got []int
				for _, b := range ll.Bases(ModeDim(m)) {
					got = append(got, b[0])
				}
				if !slices.Equal(got, wb) {
					t.Errorf("bases of %s = %v, want %v", ModeDim(m), got, wb)
				}
			}
			if got := ll.OutDimSize(OffsetDim); got != 1<<want.OutBits {
				t.Errorf("offset size %d, want %d", got, 1<<want.OutBits)
			}
			for i := range s.Layout.Size() {
				if got, want := applyAll(ll, s.Layout, i), s.Eval(i); got != want {
					t.Fatalf("linear(%d) = %d, layout gives %d", i, got, want)
				}
			}
			back, err := FromLinear(ll)
			if err != nil {
				t.Fatalf("FromLinear(%v): %v", ll, err)
			}
			if !slices.Equal(back.Values(), s.Values()) {
				t.Errorf("FromLinear(ToLinear(%v)) = %v, values %v, want %v", s, back, back.Values(), s.Values())
			}
		})
	}
}

func TestPropertyToLinearAgreesWithEvaluation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSwizzledPow2Layout(t)
		l := s.Layout
		ll, err := s.ToLinear()
		if err != nil {
			var nl *NotLinearError
			if !errors.As(err, &nl) {
				t.Fatalf("ToLinear(%v): unexpected error %v", s, err)
			}
			return
		}
		for i := range l.Size() {
			if got, want := applyAll(ll, l, i), s.Eval(i); got != want {
				t.Fatalf("ToLinear(%v) at %d = %d, layout gives %d", s, i, got, want)
			}
		}
		back, err := FromLinear(ll)
		if err != nil {
			t.Fatalf("FromLinear(ToLinear(%v)): %v", s, err)
		}
		if !slices.Equal(back.Values(), s.Values()) {
			t.Fatalf("FromLinear(ToLinear(%v)) = %v has other values", s, back)
		}
	})
}

func TestNotLinearReasons(t *testing.T) {
	tests := []struct {
		layout SwizzledLayout
		reason string
	}{
		{SwizzledLayout{Layout: MustParseLayout("(3,4):(4,1)")}, "size is not a power of two"},
		{SwizzledLayout{Layout: MustParseLayout("(2,2):(1,1)")}, "overlap"},
		{SwizzledLayout{Layout: MustParseLayout("(4,8):(1,5)")}, "overlap"},
		{SwizzledLayout{Layout: MustParseLayout("4:3")}, "overlap"},
		{SwizzledLayout{Layout: MustParseLayout("(2,2):(1,-2)")}, "negative stride"},
		{SwizzledLayout{Swizzle: Swizzle{3, 3, 3}, Offset: 8, Layout: MustParseLayout("(8,64):(64,1)")}, "affine"},
	}
	for _, tt := range tests {
		err := tt.layout.IsLinear()
		if err == nil || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("IsLinear(%v) = %v, want a reason containing %q", tt.layout, err, tt.reason)
		}
	}
	if err := MustParseLayout("2:3").IsLinear(); err != nil {
		t.Errorf("2:3 is linear (its one bit maps to 3): %v", err)
	}
}

func TestFromLinear(t *testing.T) {
	mk := func(bases ...int) linear.Layout {
		bs := make([][]int, len(bases))
		for i, b := range bases {
			bs[i] = []int{b}
		}
		ll, err := linear.New([]linear.InDim{{Name: "x", Bases: bs}}, []linear.OutDim{{Name: "y", Size: 64}}, false)
		if err != nil {
			t.Fatal(err)
		}
		return ll
	}
	tests := []struct {
		bases []int
		want  string // "" for no CuTe form
	}{
		{[]int{1, 2, 4}, "8:1"},
		{[]int{8, 16, 32, 1, 2, 4}, "(8,8):(8,1)"},
		{[]int{0, 2, 4}, "(2,4):(0,2)"},
		{[]int{3, 1}, "Sw<1,0,1> o 0 o (2,2):(2,1)"},
		{[]int{9, 18, 36, 1, 2, 4}, "Sw<3,0,3> o 0 o (8,8):(8,1)"},
		{[]int{1, 1}, ""},
		{[]int{3, 5, 6}, ""},
	}
	for _, tt := range tests {
		got, err := FromLinear(mk(tt.bases...))
		if tt.want == "" {
			if err == nil {
				t.Errorf("FromLinear(%v) = %v, want an error", tt.bases, got)
			}
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("FromLinear(%v) = %v, %v; want %s", tt.bases, got, err, tt.want)
		}
	}
	// Several output dimensions flatten with the first one minor.
	ll, err := linear.New(
		[]linear.InDim{{Name: "lane", Bases: [][]int{{1, 0}, {0, 1}}}},
		[]linear.OutDim{{Name: "dim0", Size: 2}, {Name: "dim1", Size: 2}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromLinear(ll); err != nil || got.String() != "4:1" {
		t.Errorf("FromLinear(two out-dims) = %v, %v; want 4:1", got, err)
	}
}
