package attr

import (
	"fmt"
	"math/bits"
	"slices"
)

// This file holds the small amount of LinearLayout algebra that the
// conversions need, on a private value type (lay). The conversions are a
// transcription of Triton's LinearLayoutConversions.cpp, which is written in
// terms of these operations (operator*, transposeOuts, identity1D, …); keeping
// them here lets attr reproduce Triton's bases bit for bit without depending
// on the exact API surface of package linear, which only receives the result.

// lin is one input dimension: a name and one basis vector per input bit.
type lin struct {
	name  string
	bases [][]int // bases[i][j]: value of out-dim j for input 2^i
}

// lout is one output dimension.
type lout struct {
	name string
	size int
}

// lay is a linear layout over GF(2) in Triton's representation.
type lay struct {
	ins  []lin
	outs []lout
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func log2(n int) int { return bits.Len(uint(n)) - 1 }

// nextPow2Above is Triton's llvm::NextPowerOf2: the smallest power of two
// strictly greater than v (1 for 0).
func nextPow2Above(v int) int { return 1 << bits.Len(uint(v)) }

var dimNames = []string{"dim0", "dim1", "dim2", "dim3", "dim4", "dim5", "dim6", "dim7"}

// standardDims returns dim0…dim{rank-1}; callers must not modify it.
func standardDims(rank int) []string {
	if rank <= len(dimNames) {
		return dimNames[:rank:rank]
	}
	d := make([]string, rank)
	for i := range d {
		d[i] = fmt.Sprintf("dim%d", i)
	}
	return d
}

func (l lay) inIndex(name string) int {
	for i, d := range l.ins {
		if d.name == name {
			return i
		}
	}
	return -1
}

func (l lay) outIndex(name string) int {
	for i, d := range l.outs {
		if d.name == name {
			return i
		}
	}
	return -1
}

func (l lay) outSize(name string) int {
	if i := l.outIndex(name); i >= 0 {
		return l.outs[i].size
	}
	return 1
}

func (l lay) outNames() []string {
	n := make([]string, len(l.outs))
	for i, o := range l.outs {
		n[i] = o.name
	}
	return n
}

func (l lay) inNames() []string {
	n := make([]string, len(l.ins))
	for i, d := range l.ins {
		n[i] = d.name
	}
	return n
}

func (l lay) clone() lay {
	c := lay{outs: slices.Clone(l.outs), ins: make([]lin, len(l.ins))}
	for i, d := range l.ins {
		b := make([][]int, len(d.bases))
		for j, v := range d.bases {
			b[j] = slices.Clone(v)
		}
		c.ins[i] = lin{d.name, b}
	}
	return c
}

// identity1D is L(x) = x for x < size (size 0 gives the empty layout; size
// 1 gives an in-dim without bases and an out-dim of size 1).
func identity1D(size int, in, out string) lay {
	if size == 0 {
		return lay{}
	}
	var b [][]int
	for v := 1; v < size; v *= 2 {
		b = append(b, []int{v})
	}
	return lay{ins: []lin{{in, b}}, outs: []lout{{out, size}}}
}

// zeros1D is L(x) = 0 for x < size, with an out-dim of size 1.
func zeros1D(size int, in, out string) lay {
	if size == 0 {
		return lay{}
	}
	var b [][]int
	for v := 1; v < size; v *= 2 {
		b = append(b, []int{0})
	}
	return lay{ins: []lin{{in, b}}, outs: []lout{{out, 1}}}
}

// fromBases builds a layout from explicit bases; out sizes are inferred as
// Triton does (the smallest power of two strictly above the largest value).
func fromBases(ins []lin, outNames []string) lay {
	l := lay{ins: ins, outs: make([]lout, len(outNames))}
	for j, n := range outNames {
		m := 0
		for _, d := range ins {
			for _, b := range d.bases {
				m = max(m, b[j])
			}
		}
		l.outs[j] = lout{n, nextPow2Above(m)}
	}
	return l
}

// supremum merges two ordered name lists keeping the relative order of both
// (LayoutUtils' supremum); when several merges are possible x wins.
func supremum(x, y []string) []string {
	res := make([]string, 0, len(x)+len(y))
	in := func(s string) bool { return slices.Contains(res, s) }
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		for i < len(x) && in(x[i]) {
			i++
		}
		for j < len(y) && in(y[j]) {
			j++
		}
		switch {
		case i >= len(x) && j >= len(y):
			return res
		case i < len(x) && j < len(y) && x[i] == y[j]:
			res = append(res, x[i])
			i++
			j++
		case i < len(x) && !slices.Contains(y[j:], x[i]):
			res = append(res, x[i])
			i++
		case j < len(y) && !slices.Contains(x[i:], y[j]):
			res = append(res, y[j])
			j++
		case i < len(x):
			res = append(res, x[i])
			i++
		default:
			res = append(res, y[j])
			j++
		}
	}
	return res
}

// mul is Triton's operator*: a direct sum where b's values are shifted above
// a's in every out-dim both have.
func mul(a, b lay) lay {
	outs := supremum(a.outNames(), b.outNames())
	ins := supremum(a.inNames(), b.inNames())
	r := lay{outs: make([]lout, len(outs)), ins: make([]lin, len(ins))}
	for j, o := range outs {
		r.outs[j] = lout{o, a.outSize(o) * b.outSize(o)}
	}
	total := 0
	for _, n := range ins {
		if k := a.inIndex(n); k >= 0 {
			total += len(a.ins[k].bases)
		}
		if k := b.inIndex(n); k >= 0 {
			total += len(b.ins[k].bases)
		}
	}
	flat := make([]int, total*len(outs)) // one backing array for every basis
	// idx[j] is the position of result out-dim j in a and b (-1 if absent);
	// shift[j] is how far b's values move up (log2 of a's size there).
	aIdx, bIdx, shift := make([]int, len(outs)), make([]int, len(outs)), make([]int, len(outs))
	for j, o := range outs {
		aIdx[j], bIdx[j], shift[j] = a.outIndex(o), b.outIndex(o), log2(a.outSize(o))
	}
	conv := func(v []int, idx []int, shifted bool) []int {
		w := flat[:len(outs):len(outs)]
		flat = flat[len(outs):]
		for j, k := range idx {
			if k < 0 {
				continue
			}
			w[j] = v[k]
			if shifted {
				w[j] <<= shift[j]
			}
		}
		return w
	}
	for i, n := range ins {
		var bs [][]int
		if k := a.inIndex(n); k >= 0 {
			for _, v := range a.ins[k].bases {
				bs = append(bs, conv(v, aIdx, false))
			}
		}
		if k := b.inIndex(n); k >= 0 {
			for _, v := range b.ins[k].bases {
				bs = append(bs, conv(v, bIdx, true))
			}
		}
		r.ins[i] = lin{n, bs}
	}
	return r
}

func mulAll(ls ...lay) lay {
	var r lay
	for _, l := range ls {
		r = mul(r, l)
	}
	return r
}

// transposeOuts reorders the out-dims (names must be a permutation).
func (l lay) transposeOuts(names []string) lay {
	perm := make([]int, len(names))
	r := lay{outs: make([]lout, len(names)), ins: make([]lin, len(l.ins))}
	for j, n := range names {
		perm[j] = l.outIndex(n)
		r.outs[j] = l.outs[perm[j]]
	}
	for i, d := range l.ins {
		bs := make([][]int, len(d.bases))
		for k, v := range d.bases {
			w := make([]int, len(names))
			for j, p := range perm {
				w[j] = v[p]
			}
			bs[k] = w
		}
		r.ins[i] = lin{d.name, bs}
	}
	return r
}

// identityND is identityStandardND: the product over d in order of
// identity1D(shape[d], in, dim_d).
func identityND(in string, shape, order []int) lay {
	dims := standardDims(len(shape))
	var r lay
	for _, d := range order {
		r = mul(r, identity1D(shape[d], in, dims[d]))
	}
	return r
}

// ensureNotSmaller multiplies in identity repetitions along the first in-dim
// for each out-dim (in the layout's out order) that is smaller than shape.
func (l lay) ensureNotSmaller(shape map[string]int) lay {
	if len(l.ins) == 0 {
		return l
	}
	k := l.ins[0].name
	r := l
	for _, o := range l.outs {
		if want := shape[o.name]; want > o.size {
			r = mul(r, identity1D(want/o.size, k, o.name))
		}
	}
	return r
}

// ensureNotLarger shrinks every out-dim to at most shape, turning any basis
// entry that points past the new size into 0 (a broadcast).
func (l lay) ensureNotLarger(shape map[string]int) lay {
	r := l.clone()
	for j, o := range r.outs {
		want, ok := shape[o.name]
		if !ok || o.size <= want {
			continue
		}
		for _, d := range r.ins {
			for _, v := range d.bases {
				if v[j] >= want {
					v[j] = 0
				}
			}
		}
		r.outs[j].size = want
	}
	return r
}

// removeOutDim drops out-dim idx from every basis and renames the remaining
// out-dims dim0… (removeStandardDim); sizes are re-inferred.
func (l lay) removeStandardDim(idx int) lay {
	var ins []lin
	for _, d := range l.ins {
		bs := make([][]int, len(d.bases))
		for k, v := range d.bases {
			bs[k] = slices.Delete(slices.Clone(v), idx, idx+1)
		}
		ins = append(ins, lin{d.name, bs})
	}
	return fromBases(ins, standardDims(len(l.outs)-1))
}

// withIns returns l with its in-dims reordered/filtered to names, adding
// empty in-dims that are missing.
func (l lay) withIns(names ...string) lay {
	r := lay{outs: l.outs}
	for _, n := range names {
		if k := l.inIndex(n); k >= 0 {
			r.ins = append(r.ins, l.ins[k])
		} else {
			r.ins = append(r.ins, lin{name: n})
		}
	}
	return r
}

// bases returns the bases of in-dim name (nil if absent).
func (l lay) bases(name string) [][]int {
	if k := l.inIndex(name); k >= 0 {
		return l.ins[k].bases
	}
	return nil
}

// setBases replaces (or appends) the bases of in-dim name.
func (l *lay) setBases(name string, b [][]int) {
	if k := l.inIndex(name); k >= 0 {
		l.ins[k].bases = b
		return
	}
	l.ins = append(l.ins, lin{name, b})
}

// transposeBases is LayoutUtils' transposeLinearLayout: entry j of every new
// basis is entry order[j] of the old one; sizes are re-inferred.
func (l lay) transposeBases(order []int) lay {
	var ins []lin
	for _, d := range l.ins {
		bs := make([][]int, len(d.bases))
		for k, v := range d.bases {
			w := make([]int, len(order))
			for j, o := range order {
				w[j] = v[o]
			}
			bs[k] = w
		}
		ins = append(ins, lin{d.name, bs})
	}
	return fromBases(ins, l.outNames())
}

// reshapeRowMajor is LayoutUtils' reshapeLayout: the out-dims are flattened
// row-major (the last dim least significant) and split again into shape.
func (l lay) reshapeRowMajor(shape []int) lay {
	oldSizes := make([]int, len(l.outs))
	for i, o := range l.outs {
		oldSizes[i] = o.size
	}
	flat := func(v []int) int {
		x, sh := 0, 0
		for i := len(v) - 1; i >= 0; i-- {
			x |= v[i] << sh
			sh += log2(oldSizes[i])
		}
		return x
	}
	split := func(x int) []int {
		w := make([]int, len(shape))
		for i := len(shape) - 1; i >= 0; i-- {
			w[i] = x & (shape[i] - 1)
			x >>= log2(shape[i])
		}
		return w
	}
	names := standardDims(len(shape))
	r := lay{outs: make([]lout, len(shape))}
	for i := range shape {
		r.outs[i] = lout{names[i], shape[i]}
	}
	for _, d := range l.ins {
		bs := make([][]int, len(d.bases))
		for k, v := range d.bases {
			bs[k] = split(flat(v))
		}
		r.ins = append(r.ins, lin{d.name, bs})
	}
	return r
}

// rank is the GF(2) rank of all bases together.
func (l lay) rank() int {
	var rows []uint64
	for _, d := range l.ins {
		for _, v := range d.bases {
			rows = append(rows, l.pack(v))
		}
	}
	return gf2Rank(rows)
}

// pack writes a basis as one bit vector, out-dims in order, low bits first.
func (l lay) pack(v []int) uint64 {
	var x uint64
	sh := 0
	for j, o := range l.outs {
		x |= uint64(v[j]) << sh
		sh += log2(o.size)
	}
	return x
}

func gf2Rank(rows []uint64) int {
	r := 0
	for bit := 0; bit < 64; bit++ {
		m := uint64(1) << bit
		p := -1
		for i := r; i < len(rows); i++ {
			if rows[i]&m != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[r], rows[p] = rows[p], rows[r]
		for i := range rows {
			if i != r && rows[i]&m != 0 {
				rows[i] ^= rows[r]
			}
		}
		r++
	}
	return r
}

// injectiveIgnoringZeros reports whether the non-zero bases are linearly
// independent.
func (l lay) injectiveIgnoringZeros() bool {
	n := 0
	for _, d := range l.ins {
		for _, v := range d.bases {
			if slices.ContainsFunc(v, func(x int) bool { return x != 0 }) {
				n++
			}
		}
	}
	return l.rank() == n
}

func (l lay) totalOutBits() int {
	n := 0
	for _, o := range l.outs {
		n += log2(o.size)
	}
	return n
}
