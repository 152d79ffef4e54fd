package cute

import "testing"

// Typical tile shapes: a 128×64 row-major tile of a larger matrix, divided
// into 16×8 subtiles.
var (
	benchTile   = MustParseLayout("(128,64):(64,1)")
	benchNested = MustParseLayout("((16,8),(8,8)):((512,64),(8,1))")
	benchSub    = Ints(16, 8)
)

func BenchmarkEval(b *testing.B) {
	b.ReportAllocs()
	sum := 0
	for i := range b.N {
		sum += benchNested.Eval(i & 8191)
	}
	_ = sum
}

func BenchmarkCrd2Idx(b *testing.B) {
	b.ReportAllocs()
	crd := mustBench(ParseIntTuple("((3,5),(2,7))"))
	sum := 0
	for range b.N {
		v, err := benchNested.Crd2Idx(crd)
		if err != nil {
			b.Fatal(err)
		}
		sum += v
	}
	_ = sum
}

func BenchmarkAt(b *testing.B) {
	b.ReportAllocs()
	sum := 0
	for i := range b.N {
		v, err := benchNested.At(i&127, i&63)
		if err != nil {
			b.Fatal(err)
		}
		sum += v
	}
	_ = sum
}

func BenchmarkComposition(b *testing.B) {
	b.ReportAllocs()
	tiler := MustParseLayout("(16,8):(64,1)")
	for range b.N {
		if _, err := Composition(benchTile, tiler); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLogicalDivide(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		if _, err := LogicalDivide(benchTile, benchSub); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZippedDivide(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		if _, err := ZippedDivide(benchTile, benchSub); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBlockedProduct(b *testing.B) {
	b.ReportAllocs()
	block := MustParseLayout("(16,8):(8,1)")
	tiler := ColMajor(8, 8)
	for range b.N {
		if _, err := BlockedProduct(block, tiler); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseLayout(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		if _, err := ParseLayout("(((3, 2), (2, 5)):((1, 6), (3, 12)))"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToLinear(b *testing.B) {
	b.ReportAllocs()
	s := SwizzledLayout{Swizzle: Swizzle{3, 3, 3}, Layout: MustParseLayout("(8,64):(64,1)")}
	for range b.N {
		if _, err := s.ToLinear(); err != nil {
			b.Fatal(err)
		}
	}
}

func mustBench[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
