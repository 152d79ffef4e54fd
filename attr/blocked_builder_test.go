package attr

import (
	"slices"
	"testing"
)

// The layouts Triton 3.6's builder gives (its coalesce.mlir and
// combine.mlir expectations, and the matmul A tile of its docs).
func TestNewBlocked(t *testing.T) {
	for _, c := range []struct {
		shape, size, order []int
		warps, lanes       int
		wantLanes, wantW   []int
	}{
		{[]int{64, 64}, []int{1, 4}, []int{1, 0}, 4, 32, []int{2, 16}, []int{4, 1}},
		{[]int{64, 64}, []int{4, 1}, []int{0, 1}, 4, 32, []int{16, 2}, []int{1, 4}},
		{[]int{128, 64}, []int{8, 1}, []int{0, 1}, 4, 32, []int{16, 2}, []int{1, 4}},
		{[]int{1024}, []int{8}, []int{0}, 4, 32, []int{32}, []int{4}},
		{[]int{2, 64}, []int{1, 1}, []int{1, 0}, 4, 32, []int{1, 32}, []int{2, 2}},
		{[]int{128, 32}, []int{1, 8}, []int{1, 0}, 4, 32, []int{8, 4}, []int{4, 1}},
		// A dim smaller than the threads: the slowest dim takes the rest
		// (lanes and warps then wrap around the tensor).
		{[]int{4, 8}, []int{1, 4}, []int{1, 0}, 8, 32, []int{16, 2}, []int{8, 1}},
		{[]int{16, 8, 4}, []int{1, 1, 4}, []int{2, 1, 0}, 4, 16, []int{2, 8, 1}, []int{4, 1, 1}},
	} {
		b := NewBlocked(c.shape, c.size, c.order, c.warps, c.lanes, CGALayout{})
		if !slices.Equal(b.ThreadsPerWarp, c.wantLanes) || !slices.Equal(b.WarpsPerCTA, c.wantW) ||
			!slices.Equal(b.SizePerThread, c.size) || !slices.Equal(b.Order, c.order) {
			t.Errorf("NewBlocked(%v, %v, %v, %d, %d) = %s, want threadsPerWarp %v warpsPerCTA %v",
				c.shape, c.size, c.order, c.warps, c.lanes, b.Format(nil), c.wantLanes, c.wantW)
		}
		if err := b.check(); err != nil {
			t.Errorf("%s: %v", b.Format(nil), err)
		}
	}
}
