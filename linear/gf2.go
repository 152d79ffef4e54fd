package linear

import "math/bits"

// The GF(2) linear algebra behind Rank, FreeVariableMasks and
// InvertAndCompose works on columns (packed uint64 vectors) with an echelon
// basis indexed by each vector's highest set bit. Scanning columns from the
// lowest index, a column is a pivot column of the row-reduced bit matrix
// exactly when it is independent of the columns before it, so this gives the
// same pivots (and hence the same ranks, free-variable masks and minimal
// solutions) as Triton's f2reduce RREF, without building the row matrix.

// echelon is an XOR basis of at most 64 vectors, indexed by leading bit. With
// each vector it keeps which original columns were XORed to make it.
type echelon struct {
	vec   [64]uint64
	combo [64]uint64
	has   uint64 // bit b set: vec[b] has leading bit b
}

// reduce XORs basis vectors into v until no basis vector's leading bit is
// set in v. It returns what is left and the columns used.
func (e *echelon) reduce(v uint64) (rest, combo uint64) {
	for m := v & e.has; m != 0; m = v & e.has {
		b := 63 - bits.LeadingZeros64(m)
		v ^= e.vec[b]
		combo ^= e.combo[b]
	}
	return v, combo
}

// add inserts column c with value v. It reports whether v was independent of
// the vectors already in the basis.
func (e *echelon) add(c int, v uint64) bool {
	rest, combo := e.reduce(v)
	if rest == 0 {
		return false
	}
	b := 63 - bits.LeadingZeros64(rest)
	e.vec[b] = rest
	e.combo[b] = combo | 1<<uint(c)
	e.has |= 1 << uint(b)
	return true
}

// colRank returns the GF(2) rank of a set of at most 64 column vectors, by
// forward elimination on a copy: each non-zero column eliminates its lowest
// set bit from the columns after it (branch-free).
func colRank(cols []uint64) int {
	var m [64]uint64
	n := copy(m[:], cols)
	rank := 0
	for i := 0; i < n; i++ {
		v := m[i]
		if v == 0 {
			continue
		}
		rank++
		p := uint(bits.TrailingZeros64(v))
		for j := i + 1; j < n; j++ {
			m[j] ^= v & -(m[j] >> p & 1)
		}
	}
	return rank
}

// RankOfColumns returns the GF(2) rank of the matrix whose columns are cols
// (each a bit vector). It does not allocate.
func RankOfColumns(cols []uint64) int {
	if len(cols) <= 64 {
		return colRank(cols)
	}
	var e echelon
	rank := 0
	for _, v := range cols {
		if e.add(0, v) {
			rank++
		}
	}
	return rank
}

// RREF reduces rows, a GF(2) matrix with one row per uint64 (bit c is column
// c, for c < nCols), to reduced row-echelon form in place, as f2reduce does:
// a row's pivot is its lowest set bit, pivots increase down the rows, every
// pivot column is zero outside its row, and zero rows come last. It returns
// the rank.
func RREF(rows []uint64, nCols int) int {
	r := 0
	for c := 0; c < nCols && r < len(rows); c++ {
		bit := uint64(1) << uint(c)
		p := -1
		for i := r; i < len(rows); i++ {
			if rows[i]&bit != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[r], rows[p] = rows[p], rows[r]
		for i := range rows {
			if i != r && rows[i]&bit != 0 {
				rows[i] ^= rows[r]
			}
		}
		r++
	}
	return r
}

// freeColumns returns a mask of the columns that depend on earlier columns:
// the non-pivot columns of the row-reduced matrix.
func freeColumns(cols []uint64) uint64 {
	var e echelon
	var free uint64
	for c, v := range cols {
		if !e.add(c, v) {
			free |= 1 << uint(c)
		}
	}
	return free
}
