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

// InvertAndCompose turns a register layout and a shared-memory layout into
// the map from each register to the shared-memory offset holding the same
// element: the core of a layout conversion through shared memory.
func ExampleLayout_InvertAndCompose() {
	// 2 registers × 4 lanes hold an 8-element vector, registers innermost:
	// element = register + 2·lane.
	regs, _ := linear.NewInferred([]linear.InDim{
		{Name: "register", Bases: [][]int{{1}}},
		{Name: "lane", Bases: [][]int{{2}, {4}}},
	}, []string{"dim0"})
	// Shared memory keeps the element bits rotated: offset bit 0 is element
	// bit 2, offset bits 1 and 2 are element bits 0 and 1.
	smem, _ := linear.NewInferred([]linear.InDim{
		{Name: "offset", Bases: [][]int{{4}, {1}, {2}}},
	}, []string{"dim0"})
	store, err := regs.InvertAndCompose(smem)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Where each register of each lane goes.
	for lane := 0; lane < 4; lane++ {
		fmt.Print(store.Apply(0, lane), store.Apply(1, lane), " ")
	}
	fmt.Println()
	// Output:
	// [0] [2] [4] [6] [1] [3] [5] [7]
}

func ExampleParseAttr() {
	ins, err := linear.ParseAttr("#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [0, 2]], warp = [], block = []}>")
	if err != nil {
		fmt.Println(err)
		return
	}
	l, err := linear.NewInferred(ins, linear.StandardOutDimNames(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.OutDims(), l.IsInvertible())
	_, err = linear.ParseAttr("{register = [[0, 1], [1]]}")
	fmt.Println(err)
	// Output:
	// [{dim0 2} {dim1 4}] true
	// offset 21: basis has 1 coordinates, want 2 like the first one
}
