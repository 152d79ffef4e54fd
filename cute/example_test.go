package cute_test

import (
	"fmt"
	"os"

	"github.com/layoutopt/layoutopt/cute"
)

// A layout is a function from coordinates to offsets; its algebra builds
// tiled layouts, and a power-of-two layout converts to a linear layout.
func Example() {
	a, err := cute.ParseLayout("(6,4):(4,1)") // Mojo: row_major[6, 4]
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := a.At(2, 3)
	fmt.Println(a, a.MojoString(), a.Size(), v)

	// Split it into 2×2 tiles: ((tile),(rest)).
	z, err := cute.ZippedDivide(a, cute.Ints(2, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(z)
	if err := cute.PrintTable(os.Stdout, z); err != nil {
		fmt.Println(err)
	}

	// A swizzled 8×8 tile is linear over GF(2).
	sw := cute.SwizzledLayout{Swizzle: cute.Swizzle{B: 3, M: 0, S: 3}, Layout: cute.RowMajor(8, 8)}
	ll, err := sw.ToLinear()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ll.Bases(cute.ModeDim(0)))

	// Operations that have no shape:stride result say so.
	_, err = cute.Composition(cute.MustParseLayout("(6,2):(1,10)"), cute.MustParseLayout("4:4"))
	fmt.Println(err != nil)
	// Output:
	// (6,4):(4,1) ((6, 4):(4, 1)) 24 11
	// ((2,2),(3,2)):((4,1),(8,2))
	// (((2, 2), (3, 2)):((4, 1), (8, 2)))
	//        0    1    2    3    4    5
	//     +----+----+----+----+----+----+
	//  0  |  0 |  8 | 16 |  2 | 10 | 18 |
	//     +----+----+----+----+----+----+
	//  1  |  4 | 12 | 20 |  6 | 14 | 22 |
	//     +----+----+----+----+----+----+
	//  2  |  1 |  9 | 17 |  3 | 11 | 19 |
	//     +----+----+----+----+----+----+
	//  3  |  5 | 13 | 21 |  7 | 15 | 23 |
	//     +----+----+----+----+----+----+
	// [[9] [18] [36]]
	// true
}

func ExampleBlockedProduct() {
	block := cute.ColMajor(3, 2)
	tiler := cute.ColMajor(2, 5)
	p, err := cute.BlockedProduct(block, tiler)
	fmt.Println(p, err)
	// Output: ((3,2),(2,5)):((1,6),(3,12)) <nil>
}

func ExampleLayout_Crd2Idx() {
	l := cute.MustParseLayout("(3,(2,3)):(3,(12,1))")
	for _, c := range []string{"16", "(1,5)", "(1,(1,2))"} {
		crd, _ := cute.ParseIntTuple(c)
		idx, _ := l.Crd2Idx(crd)
		fmt.Println(c, "->", idx)
	}
	fmt.Println(l.Idx2Crd(16))
	// Output:
	// 16 -> 17
	// (1,5) -> 17
	// (1,(1,2)) -> 17
	// (1,(1,2))
}

func ExampleComplement() {
	c, err := cute.Complement(cute.MustParseLayout("4:2"), 24)
	fmt.Println(c, err)
	// Output: (2,3):(1,8) <nil>
}

func ExampleParseLayout_error() {
	_, err := cute.ParseLayout("(3,4):(4,(1,2))")
	fmt.Println(err)
	// Output: 1:7: stride (4,(1,2)) is not congruent to shape (3,4)
}
