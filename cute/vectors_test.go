package cute

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// sharedDir returns ../shared relative to the module root, or "" if absent.
func sharedDir(testing.TB) string { return testenv.SharedDir() }

type vector struct {
	ID             string          `json:"id"`
	Op             string          `json:"op"`
	A              string          `json:"a"`
	B              json.RawMessage `json:"b"`
	Cotarget       *int            `json:"cotarget"`
	Layout         string          `json:"layout"`
	Shape          string          `json:"shape"`
	Stride         string          `json:"stride"`
	Idx            string          `json:"idx"`
	Crd            string          `json:"crd"`
	Order          string          `json:"order"`
	N              int             `json:"n"`
	Swizzle        []int           `json:"swizzle"`
	Xs             []int           `json:"xs"`
	DomainBits     int             `json:"domain_bits"`
	Expected       json.RawMessage `json:"expected"`
	ExpectedValues []int           `json:"expected_values"`
	Mojo           json.RawMessage `json:"mojo"`
	MojoEqual      *bool           `json:"mojo_equals_expected"`
}

// swizzle is the vector's swizzle field [B, M, S] as a Swizzle.
func (v vector) swizzle() Swizzle { return Swizzle{v.Swizzle[0], v.Swizzle[1], v.Swizzle[2]} }

// swizzledLayout is the vector's layout field under its swizzle, if it has
// one.
func (v vector) swizzledLayout() SwizzledLayout {
	s := SwizzledLayout{Layout: MustParseLayout(v.Layout)}
	if v.Swizzle != nil {
		s.Swizzle = v.swizzle()
	}
	return s
}

// f2Basis is the expected value of a to_f2_basis vector.
type f2Basis struct {
	Linear      bool    `json:"linear"`
	Basis       []int   `json:"basis"`
	BasisByMode [][]int `json:"basis_by_mode"`
	OutBits     int     `json:"out_bits"`
	Reason      string  `json:"reason"`
}

func loadVectors(t *testing.T) []vector {
	shared := sharedDir(t)
	if shared == "" {
		t.Skip("../shared is absent")
	}
	data, err := os.ReadFile(filepath.Join(shared, "vectors", "cute_layouts.json"))
	if os.IsNotExist(err) {
		t.Skip("cute_layouts.json is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	return file.Vectors
}

// tilerFromJSON converts the vector notation of a tiler: a string is a
// Layout, a number an integer tiler, an array a by-mode tiler.
func tilerFromJSON(t *testing.T, raw json.RawMessage) Tiler {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return MustParseLayout(s)
	}
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return Int(n)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		t.Fatalf("bad tiler %s", raw)
	}
	by := make(By, len(elems))
	for i, e := range elems {
		by[i] = tilerFromJSON(t, e)
	}
	return by
}

// decodeJSON decodes a vector's JSON value into a T.
func decodeJSON[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func jsonString(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("expected a JSON string, got %s", raw)
	}
	return s
}

func mustTuple(t *testing.T, s string) IntTuple {
	t.Helper()
	v, err := ParseIntTuple(s)
	if err != nil {
		t.Fatalf("ParseIntTuple(%q): %v", s, err)
	}
	return v
}

func TestVectors(t *testing.T) {
	vs := loadVectors(t)
	for _, v := range vs {
		t.Run(v.ID, func(t *testing.T) { runVector(t, v) })
	}
}

func runVector(t *testing.T, v vector) {
	layoutResult := func(got Layout, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", v.Op, err)
		}
		if want := jsonString(t, v.Expected); got.String() != want {
			t.Errorf("%s = %v, want %s", v.Op, got, want)
		}
		if v.ExpectedValues != nil && !slices.Equal(got.Values(), v.ExpectedValues) {
			t.Errorf("%s values = %v, want %v", v.Op, got.Values(), v.ExpectedValues)
		}
	}
	a := func() Layout { return MustParseLayout(v.A) }
	switch v.Op {
	case "coalesce":
		layoutResult(Coalesce(a()), nil)
	case "composition":
		layoutResult(Composition(a(), tilerFromJSON(t, v.B)))
	case "complement":
		if v.Cotarget == nil {
			layoutResult(DefaultComplement(a()))
		} else {
			layoutResult(Complement(a(), *v.Cotarget))
		}
		checkComplement(t, a(), v.Cotarget)
	case "logical_divide":
		layoutResult(LogicalDivide(a(), tilerFromJSON(t, v.B)))
	case "zipped_divide":
		layoutResult(ZippedDivide(a(), tilerFromJSON(t, v.B)))
	case "tiled_divide":
		layoutResult(TiledDivide(a(), tilerFromJSON(t, v.B)))
	case "flat_divide":
		layoutResult(FlatDivide(a(), tilerFromJSON(t, v.B)))
	case "logical_product":
		layoutResult(LogicalProduct(a(), tilerFromJSON(t, v.B)))
	case "zipped_product":
		layoutResult(ZippedProduct(a(), tilerFromJSON(t, v.B)))
	case "tiled_product":
		layoutResult(TiledProduct(a(), tilerFromJSON(t, v.B)))
	case "flat_product":
		layoutResult(FlatProduct(a(), tilerFromJSON(t, v.B)))
	case "blocked_product":
		layoutResult(BlockedProduct(a(), MustParseLayout(jsonString(t, v.B))))
	case "raked_product":
		layoutResult(RakedProduct(a(), MustParseLayout(jsonString(t, v.B))))
	case "tile_to_shape":
		layoutResult(TileToShapeOrder(a(), mustTuple(t, v.Shape), mustTuple(t, v.Order)))
	case "right_inverse":
		r := RightInverse(a())
		layoutResult(r, nil)
		checkRightInverse(t, a(), r)
	case "left_inverse":
		r, err := LeftInverse(a())
		layoutResult(r, err)
		checkLeftInverse(t, a(), r)
	case "upcast":
		layoutResult(Upcast(a(), v.N))
	case "make_layout_left":
		layoutResult(MakeLayoutLeft(mustTuple(t, v.Shape)))
	case "make_layout_right":
		layoutResult(MakeLayoutRight(mustTuple(t, v.Shape)))
		if v.MojoEqual != nil && *v.MojoEqual {
			layoutResult(RowMajorNested(mustTuple(t, v.Shape)))
		}
	case "size_cosize":
		l := a()
		raw := decodeJSON[map[string]int](t, v.Expected)
		got := map[string]int{"size": l.Size(), "cosize": l.Cosize(), "rank": l.Rank(), "depth": l.Depth(), "flat_rank": l.FlatRank()}
		for k, w := range raw {
			if got[k] != w {
				t.Errorf("%s(%v) = %d, want %d", k, l, got[k], w)
			}
		}
	case "values":
		want := decodeJSON[[]int](t, v.Expected)
		if got := a().Values(); !slices.Equal(got, want) {
			t.Errorf("values = %v, want %v", got, want)
		}
	case "crd2idx":
		want := decodeJSON[int](t, v.Expected)
		got, err := Crd2Idx(mustTuple(t, v.Crd), mustTuple(t, v.Shape), mustTuple(t, v.Stride))
		if err != nil || got != want {
			t.Errorf("crd2idx = %d, %v; want %d", got, err, want)
		}
	case "idx2crd":
		got, err := Idx2Crd(mustTuple(t, v.Idx), mustTuple(t, v.Shape))
		if want := jsonString(t, v.Expected); err != nil || got.String() != want {
			t.Errorf("idx2crd = %v, %v; want %s", got, err, want)
		}
	case "idx2crd_stride":
		l := MustLayout(mustTuple(t, v.Shape), mustTuple(t, v.Stride))
		idx := mustTuple(t, v.Idx)
		got, err := l.Idx2CrdByStride(idx.Value())
		if want := jsonString(t, v.Expected); err != nil || got.String() != want {
			t.Errorf("idx2crd by stride = %v, %v; want %s", got, err, want)
		}
	case "swizzle":
		sw := v.swizzle()
		want := decodeJSON[[]int](t, v.Expected)
		for i, x := range v.Xs {
			if got := sw.Apply(x); got != want[i] {
				t.Errorf("%v(%d) = %d, want %d", sw, x, got, want[i])
			}
		}
	case "swizzle_layout_values":
		s := SwizzledLayout{Swizzle: v.swizzle(), Layout: MustParseLayout(v.Layout)}
		want := decodeJSON[[]int](t, v.Expected)
		if got := s.Values(); !slices.Equal(got, want) {
			t.Errorf("values of %v = %v, want %v", s, got, want)
		}
	case "swizzle_f2_basis":
		sw := v.swizzle()
		want := decodeJSON[[]int](t, v.Expected)
		got := make([]int, v.DomainBits)
		for j := range got {
			got[j] = sw.Apply(1 << j)
		}
		if !slices.Equal(got, want) {
			t.Errorf("basis of %v = %v, want %v", sw, got, want)
		}
	case "to_f2_basis":
		checkF2Basis(t, v)
	case "layout_string_mojo":
		if got, want := MustParseLayout(v.Layout).MojoString(), jsonString(t, v.Expected); got != want {
			t.Errorf("Mojo string = %q, want %q", got, want)
		}
		// The Mojo text parses back to the same layout.
		if got := MustParseLayout(jsonString(t, v.Expected)); !got.Equal(MustParseLayout(v.Layout)) {
			t.Errorf("ParseLayout(Mojo text) = %v, want %v", got, v.Layout)
		}
	case "print_layout_mojo", "print_layout_cute", "format_layout_mojo":
		l := MustParseLayout(v.Layout)
		var b strings.Builder
		var err error
		switch v.Op {
		case "print_layout_mojo":
			err = WriteTable(&b, l, MojoNotation)
		case "print_layout_cute":
			err = WriteTable(&b, l, CuTeNotation)
		default:
			err = WriteGrid(&b, l, MojoNotation)
		}
		if want := jsonString(t, v.Expected); err != nil || b.String() != want {
			t.Errorf("table: %v\ngot:\n%s\nwant:\n%s", err, b.String(), want)
		}
	default:
		t.Fatalf("unhandled op %q", v.Op)
	}
}

func checkF2Basis(t *testing.T, v vector) {
	want := decodeJSON[f2Basis](t, v.Expected)
	s := v.swizzledLayout()
	err := s.IsLinear()
	if (err == nil) != want.Linear {
		t.Fatalf("IsLinear(%v) = %v, want linear=%v", s, err, want.Linear)
	}
	if want.Reason != "" && (err == nil || !strings.Contains(err.Error(), want.Reason)) {
		t.Errorf("IsLinear(%v) = %v, want reason %q", s, err, want.Reason)
	}
	if want.Basis != nil {
		got, err := s.Basis()
		if err != nil || !slices.Equal(got, want.Basis) {
			t.Errorf("Basis(%v) = %v, %v; want %v", s, got, err, want.Basis)
		}
	}
	if want.Linear {
		basis, _ := s.Basis()
		var by [][]int
		for _, nb := range s.Layout.modeBits() {
			by = append(by, basis[:nb])
			basis = basis[nb:]
		}
		if !slices.EqualFunc(by, want.BasisByMode, slices.Equal) {
			t.Errorf("basis by mode = %v, want %v", by, want.BasisByMode)
		}
		or := 0
		for _, b := range want.Basis {
			or |= b
		}
		if got := bitLen(or); got != want.OutBits {
			t.Errorf("out bits = %d, want %d", got, want.OutBits)
		}
	}
}

func checkComplement(t *testing.T, a Layout, cotarget *int) {
	t.Helper()
	var c Layout
	var err error
	m := 0
	if cotarget == nil {
		c, err = DefaultComplement(a)
		m = Filter(a).Cosize()
	} else {
		c, err = Complement(a, *cotarget)
		m = *cotarget
	}
	if err != nil {
		return
	}
	if msg := complementViolation(a, c, m); msg != "" {
		t.Errorf("complement(%v, %d) = %v: %s", a, m, c, msg)
	}
}

func checkRightInverse(t *testing.T, a, r Layout) {
	t.Helper()
	for i := range r.Size() {
		if got := a.Eval(r.Eval(i)); got != i {
			t.Fatalf("right inverse %v of %v: a(r(%d)) = %d", r, a, i, got)
		}
	}
}

func checkLeftInverse(t *testing.T, a, r Layout) {
	t.Helper()
	for i := range a.Size() {
		if got, want := a.Eval(r.Eval(a.Eval(i))), a.Eval(i); got != want {
			t.Fatalf("left inverse %v of %v: a(r(a(%d))) = %d, want %d", r, a, i, got, want)
		}
	}
}
