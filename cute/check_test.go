package cute

import (
	"fmt"
	"math/bits"
	"slices"
)

func bitLen(x int) int { return bits.Len64(uint64(x)) }

// complementViolation checks the defining property of c = complement(a, m)
// by brute force: c is ordered, (filter(a), c) is injective (c's image meets
// a's only at 0), and, when a has no holes, (filter(a), c) is a bijection
// onto [0, N) with N >= m. It returns "" when the property holds.
func complementViolation(a, c Layout, m int) string {
	for i := 1; i < c.Size(); i++ {
		if c.Eval(i-1) >= c.Eval(i) {
			return fmt.Sprintf("not ordered at %d", i)
		}
	}
	both := concat(Filter(a), c)
	vals := both.Values()
	slices.Sort(vals)
	for i := 1; i < len(vals); i++ {
		if vals[i] == vals[i-1] {
			return fmt.Sprintf("(filter(a), c) is not injective: %d repeats", vals[i])
		}
	}
	if !holeFree(a) {
		return ""
	}
	for i, v := range vals {
		if v != i {
			return fmt.Sprintf("(filter(a), c) is not a bijection onto [0,%d): sorted image %v", len(vals), vals)
		}
	}
	if len(vals) < m {
		return fmt.Sprintf("(filter(a), c) covers only [0,%d), not the cotarget %d", len(vals), m)
	}
	return ""
}

// holeFree reports whether the image of a, an injective layout, is
// {Σ c_k·d_k} with nothing missing below each stride: sorted by stride, each
// non-trivial leaf's stride is a multiple of the previous leaf's span.
func holeFree(a Layout) bool {
	type leaf struct{ s, d int }
	var ls []leaf
	for k, s := range a.fs {
		if s > 1 && a.fd[k] != 0 {
			ls = append(ls, leaf{s, a.fd[k]})
		}
	}
	slices.SortFunc(ls, func(x, y leaf) int { return x.d - y.d })
	span := 1
	for _, l := range ls {
		if l.d%span != 0 {
			return false
		}
		span = l.s * l.d
	}
	return true
}
