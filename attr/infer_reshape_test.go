package attr_test

import (
	"testing"

	"github.com/layoutopt/layoutopt/attr"
)

// TestReshape: a reshape keeps every element on its hardware location, so
// the reshaped layout applied to a hardware point gives the row-major
// index the operand's layout gives; and reshaping back is the same layout
// as the operand's (Triton's combine.mlir reshape_propagate: 16x2
// sizePerThread [1, 2] becomes 32 sizePerThread [2]).
func TestReshape(t *testing.T) {
	src, _, err := attr.Parse(`#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>`, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := attr.Parse(`#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>`, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := attr.Reshape(src, []int{16, 2}, []int{32})
	if got == nil || !attr.SameLayout(got, want, []int{32}) {
		t.Fatalf("reshape 16x2 -> 32: %v", got)
	}
	back := attr.Reshape(got, []int{32}, []int{16, 2})
	if back == nil || !attr.SameLayout(back, src, []int{16, 2}) {
		t.Fatalf("reshape back: %v", back)
	}
	if attr.Reshape(src, []int{16, 2}, []int{64}) != nil {
		t.Fatal("a reshape that changes the size has no layout")
	}
}
