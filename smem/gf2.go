package smem

import (
	"math/bits"
	"slices"

	"github.com/layoutopt/layoutopt/linear"
)

// The swizzling algorithm works on flattened layouts: every basis is one
// integer, the flat tensor index of the element it selects (the first
// tensor dimension least significant), read off a packed column of
// linear.Layout. A set of bases is a []uint64; dim is the number of bits
// of a flat index.

func isPow2(v uint64) bool { return v != 0 && v&(v-1) == 0 }

// pivots returns the pivot columns (lowest set bits of the rows of the
// reduced row-echelon form) of the matrix with the given rows, as a mask.
func pivots(rows []uint64, dim int) (uint64, []uint64) {
	m := slices.Clone(rows)
	r := linear.RREF(m, dim)
	var p uint64
	for _, row := range m[:r] {
		p |= 1 << uint(bits.TrailingZeros64(row))
	}
	return p, m[:r]
}

// nullspaceBasis returns a basis of {x : <x, v> = 0 for every v in vectors}
// as Triton's nullspaceBasis builds it: one vector per free column c of the
// RREF, in increasing c, equal to 2^c plus the pivots of the rows that have
// bit c set.
func nullspaceBasis(vectors []uint64, dim int) []uint64 {
	p, rows := pivots(vectors, dim)
	var out []uint64
	for c := 0; c < dim; c++ {
		if p>>uint(c)&1 != 0 {
			continue
		}
		v := uint64(1) << uint(c)
		for _, r := range rows {
			if r>>uint(c)&1 != 0 {
				v ^= 1 << uint(bits.TrailingZeros64(r))
			}
		}
		out = append(out, v)
	}
	return out
}

// intersectionBasis is Triton's intersectionBasis: when every vector of both
// lists is a power of two, the elements of b1 (in b1's order) that are
// nonzero and in b2; otherwise a basis of span(b1) ∩ span(b2) computed as
// the nullspace of the two nullspaces.
func intersectionBasis(b1, b2 []uint64, dim int) []uint64 {
	allPow2 := true
	for _, v := range b1 {
		allPow2 = allPow2 && isPow2(v)
	}
	for _, v := range b2 {
		allPow2 = allPow2 && isPow2(v)
	}
	if allPow2 {
		var out []uint64
		for _, v := range b1 {
			if v != 0 && slices.Contains(b2, v) {
				out = append(out, v)
			}
		}
		return out
	}
	joint := append(nullspaceBasis(b1, dim), nullspaceBasis(b2, dim)...)
	return nullspaceBasis(joint, dim)
}

// intersectionDim returns len(intersectionBasis(b1, b2, dim)) without
// building the list when it can.
func intersectionDim(b1, b2 []uint64, dim int) int {
	allPow2 := true
	for _, v := range b1 {
		allPow2 = allPow2 && isPow2(v)
	}
	for _, v := range b2 {
		allPow2 = allPow2 && isPow2(v)
	}
	if !allPow2 {
		// The nullspace of the two nullspaces has the dimension of the
		// intersection: rank(b1) + rank(b2) − rank(b1 ∪ b2).
		var e1, e2 eliminator
		r1, r2 := e1.add(b1...), e2.add(b2...)
		return r1 + r2 - (r1 + e1.add(b2...))
	}
	n := 0
	for _, v := range b1 {
		if slices.Contains(b2, v) {
			n++
		}
	}
	return n
}

// eliminator accumulates vectors in echelon form (one per leading bit),
// without allocating.
type eliminator struct {
	vec [64]uint64
	has uint64
}

// add inserts vs and returns how many of them were independent of the
// vectors before.
func (e *eliminator) add(vs ...uint64) int {
	n := 0
	for _, v := range vs {
		for m := v & e.has; v != 0 && m != 0; m = v & e.has {
			v ^= e.vec[63-bits.LeadingZeros64(m)]
		}
		if v != 0 {
			b := 63 - bits.LeadingZeros64(v)
			e.vec[b] = v
			e.has |= 1 << uint(b)
			n++
		}
	}
	return n
}

// complementBasis is Triton's complementBasis: the unit vectors 2^c of the
// columns c < dim that are not pivots of the RREF of basis, in increasing c.
func complementBasis(basis []uint64, dim int) []uint64 {
	p, _ := pivots(basis, dim)
	var out []uint64
	for c := 0; c < dim; c++ {
		if p>>uint(c)&1 == 0 {
			out = append(out, 1<<uint(c))
		}
	}
	return out
}

// removeZeros returns vs without its zeros.
func removeZeros(vs []uint64) []uint64 {
	var out []uint64
	for _, v := range vs {
		if v != 0 {
			out = append(out, v)
		}
	}
	return out
}

// without returns the elements of vs that are not in drop, in order.
func without(vs, drop []uint64) []uint64 {
	var out []uint64
	for _, v := range vs {
		if !slices.Contains(drop, v) {
			out = append(out, v)
		}
	}
	return out
}

// solver expresses vectors over a list of columns, choosing the minimal
// solution (free columns 0) as Triton's invertAndCompose does: each column
// that is independent of the columns before it is a pivot.
type solver struct {
	vec   [64]uint64
	combo [64]uint64
	has   uint64
}

func newSolver(cols []uint64) *solver {
	s := &solver{}
	for c, v := range cols {
		rest, combo := s.reduce(v)
		if rest == 0 {
			continue
		}
		b := 63 - bits.LeadingZeros64(rest)
		s.vec[b], s.combo[b] = rest, combo|1<<uint(c)
		s.has |= 1 << uint(b)
	}
	return s
}

func (s *solver) reduce(v uint64) (rest, combo uint64) {
	for m := v & s.has; m != 0; m = v & s.has {
		b := 63 - bits.LeadingZeros64(m)
		v ^= s.vec[b]
		combo ^= s.combo[b]
	}
	return v, combo
}

// solve returns the columns whose XOR is v, and whether there are any.
func (s *solver) solve(v uint64) (uint64, bool) {
	rest, combo := s.reduce(v)
	return combo, rest == 0
}
