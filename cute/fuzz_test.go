package cute

import (
	"errors"
	"testing"
)

var layoutSeeds = []string{
	"((3,2),(2,5)):((1,6),(3,12))",
	"(((3, 2), (2, 5)):((1, 6), (3, 12)))",
	"(6:4)",
	"8:1",
	"(4):(2)",
	"(_2,_4):(_1,_2)",
	" ( 3 , 4 ) : ( 4 , 1 ) ",
	"(3,(2,3)):(3,(12,1))",
	"(2,-4):(1,-2)",
	"((2,2):(1,2)",
	"(2,2):(1,)",
	"(2,(2,2)):(1,2)",
	"(0,2):(1,2)",
	"((((((((1))))))))",
	"(99999999999999999999):(1)",
	"(1099511627776,2):(1,1)",
	"",
	":",
}

func FuzzParseLayout(f *testing.F) {
	for _, s := range layoutSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLayout(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseLayout(%q) error %v is not a *ParseError", s, err)
			}
			if pe.Offset < 0 || pe.Offset > len(s) {
				t.Fatalf("ParseLayout(%q): offset %d out of range", s, pe.Offset)
			}
			return
		}
		for _, text := range []string{l.String(), l.MojoString()} {
			back, err := ParseLayout(text)
			if err != nil || !back.Equal(l) {
				t.Fatalf("ParseLayout(%q) = %v but its text %q parses to %v, %v", s, l, text, back, err)
			}
		}
	})
}

func FuzzParseIntTuple(f *testing.F) {
	for _, s := range []string{"4", "(4)", "((3,2),(2, 5))", "_-3", "(", "(1,,2)", "()", "(1)(2)", "-", "12a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseIntTuple(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseIntTuple(%q) error %v is not a *ParseError", s, err)
			}
			return
		}
		for _, text := range []string{v.String(), v.MojoString()} {
			back, err := ParseIntTuple(text)
			if err != nil || !back.Equal(v) {
				t.Fatalf("ParseIntTuple(%q) = %v but %q parses to %v, %v", s, v, text, back, err)
			}
		}
	})
}

func FuzzParseSwizzledLayout(f *testing.F) {
	for _, s := range []string{
		"Sw<3,4,3> o 0 o (8,64):(64,1)",
		"Sw<3,3,3> o (8,64):(64,1)",
		"Sw<1,0,2> o 4 o 4:1",
		"Sw<2,1,-2> o (4,4):(4,1)",
		"Sw<3,3,1> o 8:1",
		"Sw<3,3,3 o 8:1",
		"(8,8):(8,1)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sl, err := ParseSwizzledLayout(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseSwizzledLayout(%q) error %v is not a *ParseError", s, err)
			}
			return
		}
		back, err := ParseSwizzledLayout(sl.String())
		if err != nil || back.Swizzle != sl.Swizzle || back.Offset != sl.Offset || !back.Layout.Equal(sl.Layout) {
			t.Fatalf("ParseSwizzledLayout(%q) = %v but its text parses to %v, %v", s, sl, back, err)
		}
	})
}

// FuzzAlgebra runs every operation on parsed layouts: none may panic, and
// small results must agree with brute-force evaluation.
func FuzzAlgebra(f *testing.F) {
	pairs := [][2]string{
		{"(6,2):(8,2)", "(4,3):(3,1)"},
		{"(12,(4,8)):(59,(13,1))", "(3,8):(4,2)"},
		{"(4,2,3):(2,1,8)", "4:2"},
		{"(6,2):(1,10)", "4:4"},
		{"(2,5):(5,1)", "(3,4):(1,3)"},
		{"(4,6):(1,6)", "3:1"},
		{"(2,2):(1,1)", "2:3"},
		{"1:0", "1:0"},
	}
	for _, p := range pairs {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, sa, sb string) {
		a, err1 := ParseLayout(sa)
		b, err2 := ParseLayout(sb)
		if err1 != nil || err2 != nil {
			return
		}
		small := a.Size() <= 1<<12 && b.Size() <= 1<<12 && a.Cosize() <= 1<<16 && b.Cosize() <= 1<<16
		if r, err := Composition(a, b); err == nil && small {
			for i := range b.Size() {
				if r.Eval(i) != a.Eval(b.Eval(i)) {
					t.Fatalf("%v ∘ %v = %v is wrong at %d", a, b, r, i)
				}
			}
		}
		if c, err := Complement(a, b.Size()); err == nil && small {
			if msg := complementViolation(a, c, b.Size()); msg != "" {
				t.Fatalf("complement(%v, %d) = %v: %s", a, b.Size(), c, msg)
			}
		}
		if r := RightInverse(a); small {
			checkRightInverse(t, a, r)
		}
		if r, err := LeftInverse(a); err == nil && small {
			checkLeftInverse(t, a, r)
		}
		_, _ = LogicalDivide(a, b)
		_, _ = ZippedDivide(a, By{b})
		_, _ = FlatDivide(a, b.Shape())
		_, _ = LogicalProduct(a, b)
		_, _ = TiledProduct(a, b.Shape())
		_, _ = BlockedProduct(a, b)
		_, _ = RakedProduct(a, b)
		_, _ = TileToShape(a, b.Shape())
		_, _ = Upcast(a, b.Size()%9+1)
		_, _ = Downcast(a, b.Size()%9+1)
		_, _ = CoalesceProfile(a, b.Shape())
		_ = Filter(a)
		_ = CoalesceModes(a)
		if small {
			_, _ = Table(a)
			_ = a.IsLinear()
			_, _ = a.ToLinear()
		}
	})
}
