package linear

import (
	"testing"

	"pgregory.net/rapid"
)

func TestPropNewFromColumnsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t, "l", inPool, outPool, maxPropBits, maxPropBits)
		var ins []Dim
		for _, d := range l.InDims() {
			ins = append(ins, Dim{d.Name, 1 << uint(len(d.Bases))})
		}
		got, err := NewFromColumns(ins, l.OutDims(), l.Columns(), false)
		if err != nil || !got.Equal(l) {
			t.Fatalf("NewFromColumns = %v, %v; want %v", got, err, l)
		}
	})
}

func TestPropQuotientChainMatchesQuotient(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Mostly-trivial layouts: start from an identity over some dims.
		l := genLayout(t, "l", inPool, outPool, maxPropBits, maxPropBits)
		if rapid.Bool().Draw(t, "id") {
			id, _ := Identity1D(1<<uint(rapid.IntRange(0, 3).Draw(t, "w")), "warp", "warp")
			l, _ = Mul(l, id)
		}
		dims := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"block", "warp", "lane", "register", "dim0"}), 0, 4, rapid.ID[string]).Draw(t, "dims")
		want, n := l, 0
		for _, d := range dims {
			q, ok := want.Quotient([]string{d})
			if !ok {
				break
			}
			want, n = q, n+1
		}
		got, gn := l.QuotientChain(dims)
		if gn != n || !got.Equal(want) {
			t.Fatalf("QuotientChain(%v) = %v (%d), want %v (%d) for%s", dims, got, gn, want, n, l)
		}
	})
}
