package attr_test

import (
	"testing"

	"github.com/layoutopt/layoutopt/attr"
)

// TestFp4ToFpLayout: an fp4 pair of a 64x32 tile with 4 bytes per thread
// along axis 1 becomes 8 consecutive halves per thread along axis 1 of the
// 64x64 result (sizePerThread [1, 8]); along axis 0 each row is unchanged.
// The inverse gives the operand back, and a layout whose first register
// does not step along the axis has no operand layout.
func TestFp4ToFpLayout(t *testing.T) {
	parse := func(s string) attr.Encoding {
		t.Helper()
		e, _, err := attr.Parse(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	src := parse(`#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`)
	want := parse(`#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`)
	ls, err := attr.Linear(src, []int{64, 32})
	if err != nil {
		t.Fatal(err)
	}
	ld, err := attr.Fp4ToFpLayout(ls, 1)
	if err != nil {
		t.Fatal(err)
	}
	lw, err := attr.Linear(want, []int{64, 64})
	if err != nil {
		t.Fatal(err)
	}
	if !ld.Equal(lw) {
		t.Fatalf("fp4_to_fp along 1:\n%v\nwant\n%v", ld, lw)
	}
	back, err := attr.Fp4ToFpSrcLayout(ld, 1)
	if err != nil || !back.Equal(ls) {
		t.Fatalf("inverse: %v, %v", back, err)
	}
	// Along axis 0 the rows double: sizePerThread [1, 4] has no register
	// stepping along axis 0, so the result's first register does.
	l0, err := attr.Fp4ToFpLayout(ls, 0)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := attr.Fp4ToFpSrcLayout(l0, 0); err != nil || !back.Equal(ls) {
		t.Fatalf("inverse along 0: %v, %v", back, err)
	}
	if _, err := attr.Fp4ToFpSrcLayout(lw, 0); err == nil {
		t.Fatal("a layout without a register along axis 0 has no fp4 operand layout")
	}
}
