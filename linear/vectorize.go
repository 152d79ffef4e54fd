package linear

import (
	"errors"
	"fmt"
	"math/bits"
)

// This file holds the LinearLayout helpers Triton's shared-memory lowering
// uses (lib/Tools/LayoutUtils.cpp): the largest vectorisation of a
// register→offset map, the repetitions of a tile, additive register
// strides and re-broadcasting de-duplicated values.

// ColumnsOf returns the packed columns of the named in-dim, one per basis.
// Bit j of out-dim o sits at o's offset in the packed value (the first
// out-dim lowest), so for a layout with one out-dim, or after FlattenOuts,
// each column is the flat tensor index of that basis. An unknown in-dim
// gives nil.
func (l Layout) ColumnsOf(in string) []uint64 {
	k := find(l.ins, in)
	if k < 0 {
		return nil
	}
	d := l.ins[k]
	return l.cols[d.off : d.off+d.log2 : d.off+d.log2]
}

// LargestVectorisation is Triton's largestVectorisation: for cvt, a map from
// (register, lane, warp, …) to an out-dim "offset" (and possibly others),
// it returns the largest v ≤ 128/bitwidth (or ≤ maxVecElems when that is
// positive) such that, after permuting the register bases, the first log2 v
// register bases are offsets 1, 2, …, v/2 and every other basis has its low
// log2 v offset bits equal to 0 — that is, DivideLeft(perm(cvt),
// Identity1D(v, register, offset)) exists. It also returns the permutation.
// With maxVecElems > 0 no permutation is allowed (Triton's padded-layout
// case). v = 1 always qualifies.
func LargestVectorisation(cvt Layout, bitwidth, maxVecElems int) (int, ColumnAction, error) {
	if bitwidth <= 0 {
		return 0, ColumnAction{}, fmt.Errorf("linear: largestVectorisation: bit width %d", bitwidth)
	}
	if len(cvt.ins) == 0 || cvt.ins[0].name != "register" {
		return 0, ColumnAction{}, errors.New(`linear: largestVectorisation: the first in-dim must be "register"`)
	}
	if find(cvt.outs, "offset") < 0 {
		return 0, ColumnAction{}, errors.New(`linear: largestVectorisation: the layout has no "offset" out-dim`)
	}
	allowPerm := maxVecElems <= 0
	maxVec := maxVecElems
	if allowPerm {
		maxVec = max(128/bitwidth, 1)
	}
	// The definition, checked on the packed columns: this is what
	// RegPermForDivide(cvt, Identity1D(v, register, offset), left) followed
	// by DivideLeft computes, without building the layouts.
	o := cvt.outs[find(cvt.outs, "offset")]
	regs := cvt.cols[cvt.ins[0].off : cvt.ins[0].off+cvt.ins[0].log2]
	var chosen [MaxBits]int
	for v := maxVec; v >= 1; v /= 2 {
		if !isPow2(v) || log2(v) > o.log2 {
			continue
		}
		k := log2(v)
		var used uint64
		ok := true
		for i := 0; i < k && ok; i++ {
			want := uint64(1) << uint(o.off+i)
			ok = false
			for x, c := range regs {
				if used>>uint(x)&1 == 0 && c == want {
					used |= 1 << uint(x)
					chosen[i] = x
					ok = true
					break
				}
			}
			if ok && !allowPerm && chosen[i] != i {
				ok = false
			}
		}
		if !ok {
			continue
		}
		low := mask(k) << uint(o.off)
		for c, col := range cvt.cols {
			if c < len(regs) && used>>uint(c)&1 != 0 {
				continue
			}
			if col&low != 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		perm := make([]int, 0, len(regs))
		perm = append(perm, chosen[:k]...)
		for x := range regs {
			if used>>uint(x)&1 == 0 {
				perm = append(perm, x)
			}
		}
		return v, ColumnAction{perm, cvt.ins[0].name, len(regs)}, nil
	}
	return 0, ColumnAction{}, errors.New("linear: largestVectorisation: no vectorisation (not even 1) divides the layout")
}

// GetReps is Triton's getReps, a close cousin of ZerosLike(tile)·DivideLeft(cvt,
// tile): for each in-dim the first bases of cvt must equal tile's, and every
// remaining basis must avoid the bits the tile's bases touch (per out-dim,
// the OR of the tile's coordinates) — not necessarily lie above them. The
// result has cvt's dims, the tile's bases replaced by zeros and the rest kept.
// It reports false when cvt does not have that form.
func GetReps(cvt, tile Layout) (Layout, bool) {
	for _, o := range tile.outs {
		if find(cvt.outs, o.name) < 0 {
			return Layout{}, false
		}
	}
	// tileMask: the bits any tile basis touches, packed in cvt's out order.
	repack := func(v uint64) uint64 {
		var r uint64
		for _, o := range tile.outs {
			r |= field(v, o) << uint(cvt.outs[find(cvt.outs, o.name)].off)
		}
		return r
	}
	var tileMask uint64
	for _, c := range tile.cols {
		tileMask |= repack(c)
	}
	cols := make([]uint64, len(cvt.cols))
	for _, d := range cvt.ins {
		inB := tile.InDimSizeLog2(d.name)
		if inB > d.log2 {
			return Layout{}, false
		}
		for i := 0; i < d.log2; i++ {
			v := cvt.cols[d.off+i]
			if i < inB {
				tk := tile.ins[find(tile.ins, d.name)]
				if v != repack(tile.cols[tk.off+i]) {
					return Layout{}, false
				}
				continue
			}
			if v&tileMask != 0 {
				return Layout{}, false
			}
			cols[d.off+i] = v
		}
	}
	return mustAssemble(cvt.ins, cvt.outs, cols), true
}

// ActionAdditiveStrides is Triton's actionAdditiveStrides: it moves to the
// front the register bases of l (whose first in-dim must be "register")
// that share no output bit with the bases of addr or with maskSpan — the
// bits that lane, warp and block indices or affine offsets can set — so
// that those register offsets can be added to a base address instead of
// XOR-ed. Bits are compared on the flattened outputs of l and addr. The
// first log2(regsPerInst) register bases always count as additive (they
// are never selected by the index of an instruction); pass regsPerInst = 1
// for Triton 3.6's behaviour. It returns 2^(number of additive bases) and
// the permutation.
func ActionAdditiveStrides(l, addr Layout, maskSpan uint64, regsPerInst int) (int, ColumnAction, error) {
	if len(l.ins) == 0 || l.ins[0].name != "register" {
		return 0, ColumnAction{}, errors.New(`linear: actionAdditiveStrides: the first in-dim must be "register"`)
	}
	if !isPow2(regsPerInst) {
		return 0, ColumnAction{}, fmt.Errorf("linear: actionAdditiveStrides: regsPerInst %d is not a power of two", regsPerInst)
	}
	perVec := log2(regsPerInst)
	d := l.ins[0]
	if d.log2 < perVec {
		return 0, ColumnAction{}, fmt.Errorf("linear: actionAdditiveStrides: %d register bases, fewer than log2(regsPerInst) = %d", d.log2, perVec)
	}
	used := maskSpan
	for _, c := range addr.cols {
		used |= c
	}
	var front, back []int
	for i, v := range l.cols[d.off : d.off+d.log2] {
		if i < perVec || v&used == 0 {
			front = append(front, i)
		} else {
			back = append(back, i)
		}
	}
	return 1 << uint(len(front)), ColumnAction{append(front, back...), d.name, d.log2}, nil
}

// BroadcastAs is Triton's broadcastAs, the inverse of applying
// ActionRemoveBroadcastedRegs to values: values holds one value per
// non-broadcast register of l (whose first in-dim must be "register"), and
// the result one per register of l, each register reading the value of the
// register with its broadcast (free) bits cleared.
func BroadcastAs[T any](values []T, l Layout) ([]T, error) {
	if len(l.ins) == 0 || l.ins[0].name != "register" {
		return nil, errors.New(`linear: broadcastAs: the first in-dim must be "register"`)
	}
	d := l.ins[0]
	free := uint64(l.FreeVariableMasks()[0])
	if want := 1 << uint(d.log2-bits.OnesCount64(free)); len(values) != want {
		return nil, fmt.Errorf("linear: broadcastAs: %d values, want %d", len(values), want)
	}
	out := make([]T, 1<<uint(d.log2))
	for i := range out {
		src, k := 0, 0
		for j := 0; j < d.log2; j++ {
			if free>>uint(j)&1 != 0 {
				continue
			}
			if i>>uint(j)&1 != 0 {
				src |= 1 << uint(k)
			}
			k++
		}
		out[i] = values[src]
	}
	return out, nil
}
