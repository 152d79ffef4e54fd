package passes

import (
	"slices"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
)

func mustEnc(t *testing.T, text string) attr.Layout {
	t.Helper()
	e, _, err := attr.Parse(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	return e.(attr.Layout)
}

// TestSwizzledMatching recovers swizzled encodings from their layouts and
// falls back to #ttg.shared_linear for a layout no swizzle states.
func TestSwizzledMatching(t *testing.T) {
	for _, c := range []struct {
		enc   string
		shape []int
	}{
		{"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", []int{128, 64}},
		{"#ttg.swizzled_shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [0, 1]}>", []int{16, 256}},
		{"#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>", []int{32, 32}},
		{"#ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>", []int{64, 32}},
		{"#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>", []int{64}},
	} {
		l, err := mustEnc(t, c.enc).ToLinear(c.shape)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sharedEncodingFor(l, c.shape)
		if err != nil {
			t.Fatal(err)
		}
		gl, err := got.ToLinear(c.shape)
		if err != nil || !gl.Equal(l) {
			t.Errorf("%s: got %s, a different layout", c.enc, got.Format(nil))
		}
		if _, ok := got.(*attr.SwizzledShared); !ok {
			t.Errorf("%s: got %s", c.enc, got.Format(nil))
		}
	}
	sl := mustEnc(t, "#ttg.shared_linear<{offset = [[0, 16], [0, 4], [0, 8], [1, 0], [2, 0], [16, 0], [0, 1], [0, 2], [4, 4], [8, 8]]}, alignment = 16>")
	l, err := sl.ToLinear([]int{32, 32})
	if err != nil {
		t.Fatal(err)
	}
	got, err := sharedEncodingFor(l, []int{32, 32})
	if err != nil {
		t.Fatal(err)
	}
	if got.Format(nil) != sl.Format(nil) {
		t.Errorf("got %s", got.Format(nil))
	}
}

// TestSwizzledForDot checks SwizzledSharedEncodingAttr::get's parameters
// against the values Triton 3.6 printed (the note's table).
func TestSwizzledForDot(t *testing.T) {
	const mma22 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
	for _, c := range []struct {
		src, dot string
		shape    []int
		want     string
	}{
		{"#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>",
			"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>, kWidth = 4}>",
			[]int{16, 256}, "#ttg.swizzled_shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [0, 1]}>"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
			"#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 8}>",
			[]int{32, 1}, "#ttg.swizzled_shared<{vec = 32, perPhase = 64, maxPhase = 1, order = [1, 0]}>"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
			"#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 2}>",
			[]int{128, 64}, "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
			"#ttg.dot_op<{opIdx = 1, parent = " + mma22 + ", kWidth = 2}>",
			[]int{128, 64}, "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"},
		{"#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>",
			"#ttg.dot_op<{opIdx = 1, parent = " + mma22 + ", kWidth = 2}>",
			[]int{64, 128}, "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>"},
		{"#ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 2], warpsPerCTA = [2, 2], order = [1, 0]}>",
			"#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [16, 4], warpsPerCTA = [2, 2], order = [1, 0]}>}>",
			[]int{32, 32}, "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>"},
	} {
		sl, err := mustEnc(t, c.src).ToLinear(c.shape)
		if err != nil {
			t.Fatal(err)
		}
		dot := mustEnc(t, c.dot).(*attr.DotOperand)
		got, ok := swizzledForDot(dot, c.shape, orderForMemory(sl), cgaOf(sl), 16)
		if !ok || got.Format(nil) != c.want {
			t.Errorf("%s %v: got %v, want %s", c.src, c.shape, got, c.want)
		}
	}
	l, err := mustEnc(t, "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>").ToLinear([]int{16, 256})
	if err != nil {
		t.Fatal(err)
	}
	if o := orderForMemory(l); !slices.Equal(o, []int{0, 1}) {
		t.Errorf("order %v", o)
	}
}
