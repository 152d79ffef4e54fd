package linear_test

import (
	"fmt"

	"github.com/layoutopt/layoutopt/linear"
)

// A 2×4 tile held by 4 lanes with 2 registers each: registers run along dim1,
// lanes along dim1 then dim0. Apply tells where an element lives, and the
// inverse tells which lane and register hold a given element.
func Example() {
	l, err := linear.NewInferred([]linear.InDim{
		{Name: "register", Bases: [][]int{{0, 1}}},
		{Name: "lane", Bases: [][]int{{0, 2}, {1, 0}}},
	}, []string{"dim0", "dim1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.AttrString())
	fmt.Println(l.Apply(1, 2)) // register 1 of lane 2

	inv, err := l.Invert()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(inv.Apply(1, 1)) // who holds element (1, 1)?
	// Output:
	// #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]]}>
	// [1 1]
	// [1 2]
}
