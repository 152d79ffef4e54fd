package attr_test

import (
	"fmt"

	"github.com/layoutopt/layoutopt/attr"
)

func Example() {
	text := "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
	enc, _, err := attr.Parse(text, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(enc.Verify(attr.ModuleInfo{NumWarps: 4, ThreadsPerWarp: 32}))
	ll, err := enc.(attr.Layout).ToLinear([]int{64, 64})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ll.AttrString())

	// A bad field value is an error located at its key.
	_, _, err = attr.Parse("#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", nil)
	fmt.Println(err)
	// Output:
	// <nil>
	// #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
	// offset 14: sizePerThread[1] = 3 is not a power of two
}
