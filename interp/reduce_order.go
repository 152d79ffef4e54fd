package interp

import (
	"math/bits"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// ReduceOrder selects how tt.reduce associates its combines.
type ReduceOrder uint8

const (
	// ShapeOrder, the default, is the halving tree of evalReduce: it
	// depends only on the axis length, so programs that differ only in
	// layouts reduce bit-identically.
	ShapeOrder ReduceOrder = iota
	// LayoutOrder is Triton 3.6's order on the GPU, read off the operand's
	// layout (its linear layout: register, lane and warp bits): each
	// thread first combines the elements of the axis it holds in register
	// order (acc = combine(acc, x[r])), then the lanes combine by a
	// butterfly with xor offsets from the highest lane bit on the axis to
	// the lowest (acc = combine(acc, shuffle_xor(acc, offset))), then the
	// warps likewise, from the highest warp bit on the axis. Where the
	// operand has no layout, or a layout whose hardware bits mix the axis
	// with other dimensions or span CTAs, it falls back to ShapeOrder.
	LayoutOrder
)

// reducePlan is the order of one reduction line under LayoutOrder:
// pos[(w*nl+l)*nr+r] is the axis coordinate held in register r of lane l
// of warp w (among those that hold distinct elements of the axis).
type reducePlan struct {
	nr, nl, nw int
	pos        []int
}

// layoutPlan derives the plan for reducing a tensor of type t along axis,
// or reports that the layout does not allow one.
func layoutPlan(t ir.Type, axis int) (*reducePlan, bool) {
	enc := ir.Encoding(t)
	shape := shapeOf(t)
	if enc == nil || axis >= len(shape) {
		return nil, false
	}
	ll, err := attr.Linear(enc, shape)
	if err != nil {
		return nil, false
	}
	outs := ll.OutDimNames()
	if len(outs) != len(shape) {
		return nil, false
	}
	// Per level, the axis component of each basis that moves along the
	// axis, in bit order.
	var comps [3][]int
	seen := 0
	for level, in := range []string{"register", "lane", "warp", "block"} {
		for _, b := range ll.Bases(in) {
			ax, other := 0, false
			for d, v := range b {
				if d == axis {
					ax = v
				} else if v != 0 {
					other = true
				}
			}
			if ax == 0 {
				continue
			}
			if other || level == 3 || bits.OnesCount(uint(ax)) != 1 || seen&ax != 0 {
				return nil, false
			}
			seen |= ax
			comps[level] = append(comps[level], ax)
		}
	}
	n := shape[axis]
	if seen != n-1 {
		return nil, false
	}
	p := &reducePlan{nr: 1 << len(comps[0]), nl: 1 << len(comps[1]), nw: 1 << len(comps[2])}
	coord := func(idx int, cs []int) int {
		c := 0
		for j, v := range cs {
			if idx>>j&1 == 1 {
				c ^= v
			}
		}
		return c
	}
	p.pos = make([]int, 0, n)
	for w := 0; w < p.nw; w++ {
		for l := 0; l < p.nl; l++ {
			for r := 0; r < p.nr; r++ {
				p.pos = append(p.pos, coord(w, comps[2])^coord(l, comps[1])^coord(r, comps[0]))
			}
		}
	}
	return p, true
}

// reduceLine reduces vals (vals[k] is the tuple at axis coordinate k) in
// the plan's order with combine.
func (p *reducePlan) reduceLine(vals [][]*Tensor, combine func(a, b []*Tensor) ([]*Tensor, error)) ([]*Tensor, error) {
	lanes := make([][]*Tensor, p.nl)
	warps := make([][]*Tensor, p.nw)
	var err error
	for w := 0; w < p.nw; w++ {
		for l := 0; l < p.nl; l++ {
			base := (w*p.nl + l) * p.nr
			acc := vals[p.pos[base]]
			for r := 1; r < p.nr; r++ {
				if acc, err = combine(acc, vals[p.pos[base+r]]); err != nil {
					return nil, err
				}
			}
			lanes[l] = acc
		}
		if warps[w], err = butterfly(lanes, combine); err != nil {
			return nil, err
		}
	}
	return butterfly(warps, combine)
}

// butterfly combines x (a power-of-two count) as lane 0 of a xor
// butterfly from the highest bit down: at offset h, x[i] = combine(x[i],
// x[i+h]) for i < h.
func butterfly(x [][]*Tensor, combine func(a, b []*Tensor) ([]*Tensor, error)) ([]*Tensor, error) {
	for m := len(x); m > 1; m /= 2 {
		h := m / 2
		for i := 0; i < h; i++ {
			v, err := combine(x[i], x[i+h])
			if err != nil {
				return nil, err
			}
			x[i] = v
		}
	}
	return x[0], nil
}
