package attr

import "testing"

// Transposing a blocked layout with a CGA layout permutes the CGA bases
// with everything else (Triton/invalid.mlir's tt.trans with a CGA layout:
// the result it declares differs only in sizePerThread, so tt.trans must
// reject it while accepting the permuted one).
func TestTransposeBlockedCGA(t *testing.T) {
	src := "#ttg.blocked<{sizePerThread = [1, 2, 4], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 4, 8], order = [0, 1, 2], CGALayout = [[0, 1, 0], [0, 0, 1], [0, 0, 2]]}>"
	want := "#ttg.blocked<{sizePerThread = [2, 1, 4], threadsPerWarp = [4, 2, 4], warpsPerCTA = [4, 2, 8], order = [1, 0, 2], CGALayout = [[1, 0, 0], [0, 0, 1], [0, 0, 2]]}>"
	e, _, err := Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := Transpose(e, []int{1, 0, 2}, []int{16, 32, 64})
	if got == nil {
		t.Fatal("no transpose")
	}
	if s := got.Format(nil); s != want {
		t.Errorf("transposed:\n got %s\nwant %s", s, want)
	}
	// The transpose is the same function of the hardware bits, with the
	// tensor's dimensions permuted: the CTA bases included.
	sl, err := Linear(e, []int{16, 32, 64})
	if err != nil {
		t.Fatal(err)
	}
	gl, err := Linear(got, []int{32, 16, 64})
	if err != nil {
		t.Fatal(err)
	}
	for k, b := range sl.Bases("block") {
		if g := gl.Bases("block")[k]; g[0] != b[1] || g[1] != b[0] || g[2] != b[2] {
			t.Errorf("block basis %d: %v, want %v permuted", k, g, b)
		}
	}
}
