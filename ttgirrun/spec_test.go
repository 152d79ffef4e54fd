package ttgirrun

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		text, want string
	}{
		{"65536", "scalar 65536"},
		{"-3", "scalar -3"},
		{"0x10", "scalar 0x10"},
		{"2.5e-3", "scalar 2.5e-3"},
		{"true", "scalar true"},
		{"rand:f32:65536", "rand f32 [65536] map[] seed=false/0"},
		{"rand:4096x4096", "rand  [4096 4096] map[] seed=false/0"},
		{"rand:f16:64:lo=0:hi=1:seed=7", "rand f16 [64] map[hi:1 lo:0] seed=true/7"},
		{"randn:bf16:8:mean=1:std=2", "randn bf16 [8] map[mean:1 std:2] seed=false/0"},
		{"full:i32:3:value=-4", "full i32 [3] map[value:-4] seed=false/0"},
		{"iota:i64:10:start=5:step=2", "iota i64 [10] map[start:5 step:2] seed=false/0"},
		{"zeros:f8E4M3FN:2x3x4", "zeros f8E4M3FN [2 3 4] map[] seed=false/0"},
		{"file:a:b.bin", "file path a:b.bin"},
	} {
		s, err := parseSpec(c.text)
		if err != nil {
			t.Errorf("parseSpec(%q): %v", c.text, err)
			continue
		}
		var got string
		switch {
		case s.scalar:
			got = "scalar " + s.lit
		case s.kind == "file":
			got = "file path " + s.path
		default:
			got = fmt.Sprintf("%s %s %v %v seed=%v/%d", s.kind, s.dtype, s.shape, s.opts, s.seeded, s.seed)
		}
		if got != c.want {
			t.Errorf("parseSpec(%q) = %s, want %s", c.text, got, c.want)
		}
	}
	for _, c := range []struct {
		text string
		off  int
		msg  string
	}{
		{"", 0, "empty spec"},
		{"abc", 0, "is neither a number nor a buffer spec"},
		{"randu:f32:4", 0, "unknown buffer kind \"randu\""},
		{"rand", 4, "rand needs a count"},
		{"rand:f32", 8, "rand needs a count"},
		{"rand:f33:4", 5, "unknown element type \"f33\""},
		{"rand:4:f32", 7, "the element type comes before the count"},
		{"rand:f32:f16:4", 9, "a second element type"},
		{"rand:f32:4:5", 11, "a second count"},
		{"rand:f32:4x0", 9, "bad count \"4x0\""},
		{"rand:f32:65536x65536x65536", 9, "too large"},
		{"rand:f32:4::", 11, "empty field"},
		{"rand:f32:4:lo=x", 14, "lo=\"x\" is not a finite number"},
		{"rand:f32:4:lo=inf", 14, "not a finite number"},
		{"rand:f32:4:seed=-1", 16, "not an unsigned integer"},
		{"rand:f32:4:seed=1:seed=2", 18, "option seed given twice"},
		{"zeros:f32:4:value=1", 12, "zeros takes no options"},
		{"randn:f32:4:std=-1", 0, "std is negative"},
		{"file:", 5, "file: needs a path"},
	} {
		_, err := parseSpec(c.text)
		se, ok := err.(*specError)
		if !ok || se.off != c.off || !strings.Contains(se.msg, c.msg) {
			t.Errorf("parseSpec(%q) = %v (%T), want %q at %d", c.text, err, err, c.msg, c.off)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"65536", "rand:f32:65536", "rand:f16:64:lo=0:hi=1:seed=7", "file:x", "iota:i32:4x4:step=2",
		"full:bf16:3:value=1e3", "zeros::", "rand:f32:4:lo=1:hi=0", "1e400", "0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := parseSpec(text)
		if err != nil {
			se, ok := err.(*specError)
			if !ok || se.off < 0 || se.off > len(text) {
				t.Fatalf("parseSpec(%q) = %v: not a located error", text, err)
			}
			return
		}
		if !s.scalar && s.kind != "file" {
			n := 1
			for _, d := range s.shape {
				if d <= 0 {
					t.Fatalf("parseSpec(%q): shape %v", text, s.shape)
				}
				n *= d
			}
			if n > maxElements {
				t.Fatalf("parseSpec(%q): %d elements", text, n)
			}
		}
	})
}

func TestParseGrid(t *testing.T) {
	for in, want := range map[string][3]int{"256": {256, 1, 1}, "4,5": {4, 5, 1}, "1, 2, 3": {1, 2, 3}} {
		if g, err := parseGrid(in); err != nil || g != want {
			t.Errorf("parseGrid(%q) = %v, %v", in, g, err)
		}
	}
	for _, in := range []string{"", "0", "-1", "1,,1", "x", "2147483648"} {
		if _, err := parseGrid(in); err == nil {
			t.Errorf("parseGrid(%q) succeeded", in)
		}
	}
}

func FuzzParseGrid(f *testing.F) {
	for _, s := range []string{"256", "4,5", "1, 2, 3", "0", "1,,1", "2147483648"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := parseGrid(text)
		if err != nil {
			return
		}
		for _, d := range g {
			if d < 1 || d > math.MaxInt32 {
				t.Fatalf("parseGrid(%q) = %v", text, g)
			}
		}
	})
}

func elem(t testing.TB, name string) elemType {
	t.Helper()
	var typ ir.Type
	if name[0] == 'i' {
		var w int
		fmt.Sscanf(name, "i%d", &w)
		typ = &ir.IntegerType{Width: w}
	} else {
		typ = &ir.FloatType{Kind: name}
	}
	e, err := newElemType(typ)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestFill(t *testing.T) {
	f16 := elem(t, "f16")
	s, _ := parseSpec("rand:f16:3000000:lo=-2:hi=2")
	a, err := fill(s, f16, 3_000_000, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := fill(s, f16, 3_000_000, 42)
	if string(a) != string(b) {
		t.Fatal("fill is not deterministic")
	}
	seen := map[uint64]bool{}
	for i := 0; i < len(a); i += 2 {
		v := f16.value(a[i:])
		if v < -2 || v > 2 || math.IsNaN(v) {
			t.Fatalf("element %d = %v, outside [-2, 2]", i/2, v)
		}
		seen[f16.bits(a[i:])] = true
	}
	if len(seen) < 1000 {
		t.Errorf("only %d distinct f16 values", len(seen))
	}
	i8 := elem(t, "i8")
	s, _ = parseSpec("rand:i8:1000:lo=-3:hi=3")
	c, _ := fill(s, i8, 1000, 1)
	hist := map[float64]int{}
	for i := range c {
		hist[i8.value(c[i:])]++
	}
	if len(hist) != 7 || hist[-3] == 0 || hist[3] == 0 {
		t.Errorf("rand:i8 in [-3, 3] gave %v", hist)
	}
	i32 := elem(t, "i32")
	s, _ = parseSpec("iota:i32:5:start=-2:step=3")
	d, _ := fill(s, i32, 5, 0)
	for i := range 5 {
		if v := i32.value(d[4*i:]); v != float64(-2+3*i) {
			t.Errorf("iota element %d = %v", i, v)
		}
	}
	bf := elem(t, "bf16")
	s, _ = parseSpec("full:bf16:2:value=1.00390625") // rounds to 1 (ties to even)
	e, _ := fill(s, bf, 2, 0)
	if bf.bits(e) != 0x3f80 {
		t.Errorf("full bf16 1.00390625 = %#x, want 0x3f80", bf.bits(e))
	}
	i1 := elem(t, "i1")
	s, _ = parseSpec("ones:i1:3")
	o, _ := fill(s, i1, 3, 0)
	if string(o) != "\x01\x01\x01" {
		t.Errorf("ones:i1 = %x", o)
	}
}

func TestCompare(t *testing.T) {
	f32 := elem(t, "f32")
	enc := func(vs ...float64) []byte {
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			f32.put(b[4*i:], v)
		}
		return b
	}
	nan := math.NaN()
	want := enc(1, 2, nan, 4, 5, 0)
	got := enc(1, 2.5, nan, 4.0000005, -5, 1e-9)
	c := compare("y", f32, []int{2, 3}, got, want, interp.Tolerance{}, 2)
	if c.Mismatches != 4 || len(c.First) != 2 || c.First[0].Index != 1 || fmt.Sprint(c.First[0].Coord) != "[0 1]" ||
		c.First[0].GotBits != "0x40200000" || c.First[1].Index != 3 || c.MaxAbsErr != 10 || c.MaxRelErr != math.MaxFloat64 { // 1e-9 against 0: relative error +Inf, kept out of JSON
		t.Errorf("exact: %+v", c)
	}
	c = compare("y", f32, nil, got, want, interp.Tolerance{Rel: 1e-6, Abs: 1e-8}, 10)
	if c.Mismatches != 2 || c.First[0].Coord != nil { // 2.5 and -5 differ; 4.0000005 is within rtol, 1e-9 within atol
		t.Errorf("tolerant: %+v", c)
	}
	i16 := elem(t, "i16")
	a, b := make([]byte, 4), make([]byte, 4)
	i16.put(a, -1)
	i16.put(a[2:], 7)
	i16.put(b, -1)
	i16.put(b[2:], 8)
	c = compare("k", i16, nil, a, b, interp.Tolerance{Rel: 1}, 10)
	if c.Mismatches != 1 || c.First[0].Got != 7 || c.First[0].Want != 8 || c.First[0].WantBits != "0x0008" {
		t.Errorf("integers: %+v", c)
	}
	var sb strings.Builder
	c.write(&sb, "gpu", "interp")
	if !strings.Contains(sb.String(), "k: 1 of 2 i16 elements differ") || !strings.Contains(sb.String(), "[1]") {
		t.Errorf("report:\n%s", sb.String())
	}
}

func FuzzParseMeta(f *testing.F) {
	for _, s := range []string{`{"name": "k", "num_warps": 4, "shared": 0}`, `[{"name": "k", "threads": 128, "num_warps": 4, "shared_bytes": 16}]`,
		`[]`, `[{"name": "k", "threads": 7, "num_warps": 0}]`, `{"name": "k", "num_warps": 4, "num_ctas": 2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := parseMeta([]byte(text), "k")
		if err != nil {
			return
		}
		if m.Name == "" || m.NumWarps <= 0 || m.Shared < 0 || m.Threads() <= 0 {
			t.Fatalf("parseMeta(%q) accepted %+v", text, m)
		}
	})
}
