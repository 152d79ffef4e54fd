package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"sizePerThred", "sizePerThread", 1}, {"order", "order", 0}, {"ab", "ba", 1}, {"veiw", "view", 1}, {"ca", "abc", 3},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	keys := []string{"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout"}
	for _, c := range []struct{ name, want string }{
		{"sizePerThred", "sizePerThread"},
		{"warpsPerCta", "warpsPerCTA"},
		{"ordr", "order"},
		{"odrer", "order"},
		{"oder", "order"},
		{"banana", ""}, // nothing near
		{"order", ""},  // itself is never suggested
		{"x", ""},      // one edit, but not from "order"
		{"remove-layout-conversions", ""},
	} {
		if got := Closest(c.name, keys); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	passes := []string{"canonicalize-layouts", "remove-redundant-conversions"}
	if got := Closest("remove-redundant-conversion", passes); got != "remove-redundant-conversions" {
		t.Errorf("got %q", got)
	}
	if got := Closest("remove-layout-conversions", passes); got != "remove-redundant-conversions" {
		t.Errorf("remove-layout-conversions: got %q", got)
	}
	if got := Closest("h", []string{"v", "o"}); got != "v" {
		t.Errorf("ties: got %q, want the first", got)
	}
	if got := Hint("ordr", keys); got != "; did you mean 'order'?" {
		t.Errorf("Hint = %q", got)
	}
	if got := Hint("zzzz", keys); got != "" {
		t.Errorf("Hint = %q", got)
	}
}
