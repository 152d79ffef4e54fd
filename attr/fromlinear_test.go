package attr

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/linear"
)

func TestFromLinear(t *testing.T) {
	for _, c := range []struct {
		enc   string
		shape []int
		want  string
	}{
		{"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>", []int{64, 64},
			"#ttg.linear<{register = [[0, 1], [8, 0], [0, 16], [0, 32], [32, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 8], [16, 0]], block = []}>"},
		{"#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", []int{4, 8},
			"#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 2], [2, 4]]}, alignment = 16>"},
	} {
		enc, _, err := Parse(c.enc, nil)
		if err != nil {
			t.Fatal(err)
		}
		ll, err := enc.(Layout).ToLinear(c.shape)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FromLinear(ll)
		if err != nil {
			t.Fatalf("FromLinear(%s): %v", ll.AttrString(), err)
		}
		if s := got.Format(nil); s != c.want {
			t.Errorf("FromLinear(%s) = %s, want %s", c.enc, s, c.want)
		}
		back, err := got.ToLinear(c.shape)
		if err != nil || !back.Equal(ll) {
			t.Errorf("%s: ToLinear(FromLinear(l)) = %v, %v; want l back", c.enc, back, err)
		}
	}
	id, _ := linear.Identity1D(8, "x", "dim0")
	if _, err := FromLinear(id); err == nil || !strings.Contains(err.Error(), "neither register") {
		t.Errorf("FromLinear(identity over x) = %v", err)
	}
	bad, _ := linear.Identity1D(8, "register", "y")
	if _, err := FromLinear(bad); err == nil || !strings.Contains(err.Error(), "dim0") {
		t.Errorf("FromLinear(outs y) = %v", err)
	}
}
