package arith

import "testing"

// TestArithFlagsCanonical checks the order and spelling of arith flags.
func TestArithFlagsCanonical(t *testing.T) {
	cases := []struct {
		f        *Flags
		in, want string
		ok       bool
	}{
		{FastMath, "ninf, nnan", "nnan,ninf", true},
		{FastMath, "fast", "fast", true},
		{FastMath, "reassoc,nnan,ninf,nsz,arcp,contract,afn", "fast", true},
		{FastMath, "none", "none", true},
		{FastMath, "nope", "", false},
		{Overflow, "nuw,nsw", "nsw, nuw", true},
		{Overflow, "nsw", "nsw", true},
		{Overflow, "fast", "", false},
	}
	for _, c := range cases {
		got, ok := c.f.canonical(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%s<%s>: got %q %v, want %q %v", c.f.Keyword, c.in, got, ok, c.want, c.ok)
		}
	}
}
