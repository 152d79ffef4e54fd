package passes

import (
	"fmt"
	"strconv"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// This file holds the layout helpers shared by canonicalize-layouts and
// remove-redundant-conversions: reading the encoding of a tensor type,
// computing (and caching) its linear layout, and the small amount of layout
// inference the passes need (what encoding an op's result gets from its
// operand's, and back).

const (
	opConvert    = "ttg.convert_layout"
	opSplat      = "tt.splat"
	opMakeRange  = "tt.make_range"
	opConstant   = "arith.constant"
	opBroadcast  = "tt.broadcast"
	opExpandDims = "tt.expand_dims"
	opReduce     = "tt.reduce"
	opTrans      = "tt.trans"
	opLoad       = "tt.load"
	opStore      = "tt.store"
	opFor        = "scf.for"
	opIf         = "scf.if"
	opYield      = "scf.yield"
	opWhile      = "scf.while"
	opCondition  = "scf.condition"
)

// layoutCache memoises ToLinear per (encoding text, shape). Encodings are
// immutable values, so their printed form is a sound key, and the printed
// form of one encoding value is itself worth remembering: printing is most
// of the cost of a lookup.
type layoutCache struct {
	results map[string]linearResult  // by encoding text "@" shape
	keys    map[attr.Encoding]string // encKey of every encoding looked up
}

type linearResult struct {
	ll  linear.Layout
	err error
}

func newLayoutCache() *layoutCache {
	return &layoutCache{results: map[string]linearResult{}, keys: map[attr.Encoding]string{}}
}

// encKey is the identity of an encoding: its inline text.
func encKey(e attr.Encoding) string {
	if e == nil {
		return ""
	}
	return e.Format(nil)
}

// shapeKey spells a shape as in a tensor type: "64x32".
func shapeKey(shape []int) string {
	b := make([]byte, 0, 4*len(shape))
	for i, s := range shape {
		if i > 0 {
			b = append(b, 'x')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	return string(b)
}

// linear returns the linear layout of encoding e on a tensor of the given
// shape, or an error when e has no linear form (a memory space, an unknown
// encoding, a shape it does not support).
func (c *layoutCache) linear(e attr.Encoding, shape []int) (linear.Layout, error) {
	l, ok := e.(attr.Layout)
	if !ok {
		return linear.Layout{}, fmt.Errorf("encoding %s has no linear layout", encKey(e))
	}
	ek, ok := c.keys[e]
	if !ok {
		ek = encKey(e)
		c.keys[e] = ek
	}
	k := ek + "@" + shapeKey(shape)
	r, ok := c.results[k]
	if !ok {
		if r.ll, r.err = l.ToLinear(shape); r.err != nil {
			r.ll = linear.Layout{}
		}
		c.results[k] = r
	}
	return r.ll, r.err
}

// sameLayout reports whether encodings a and b place the elements of a
// tensor of this shape identically (the same linear layout). Equal
// attributes are the same layout without computing anything.
func (c *layoutCache) sameLayout(a, b attr.Encoding, shape []int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if attr.Equal(a, b) {
		return true
	}
	la, err := c.linear(a, shape)
	if err != nil {
		return false
	}
	lb, err := c.linear(b, shape)
	if err != nil {
		return false
	}
	return la.Equal(lb)
}

// tensorInfo returns t as a ranked tensor type (nil if t is not a tensor
// with a TritonGPU encoding), its encoding and its shape as ints.
func tensorInfo(t ir.Type) (*ir.RankedTensorType, attr.Encoding, []int) {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok {
		return nil, nil, nil
	}
	e := ir.Encoding(rt)
	if e == nil {
		return nil, nil, nil
	}
	return rt, e, intShape(rt.Shape)
}

func intShape(s []int64) []int {
	out := make([]int, len(s))
	for i, x := range s {
		out[i] = int(x)
	}
	return out
}

func numElements(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// elemBytes is the storage size of one element of a tensor type: pointers
// take 8 bytes, i1 and other sub-byte types 1.
func elemBytes(t ir.Type) int {
	switch e := ir.ElementType(t).(type) {
	case *ir.IntegerType:
		return max(1, (e.Width+7)/8)
	case *ir.FloatType:
		return max(1, (e.FloatBits()+7)/8)
	case *ir.PointerType, *ir.IndexType:
		return 8
	}
	return 4
}

// withEncoding returns tensor type t with encoding e.
func withEncoding(t ir.Type, e attr.Encoding) ir.Type {
	rt := t.(*ir.RankedTensorType)
	return rt.WithEncoding(&ir.EncodingAttr{Enc: e})
}

// encodingOf returns the TritonGPU encoding of a value's tensor type, or nil.
func encodingOf(v *ir.Value) attr.Encoding {
	_, e, _ := tensorInfo(v.Type())
	return e
}

// isMMALike reports whether e is a tensor-core accumulator layout, which
// propagation prefers when several candidates reach a value.
func isMMALike(e attr.Encoding) bool {
	switch e.(type) {
	case *attr.NvidiaMma, *attr.AMDMfma, *attr.AMDWmma:
		return true
	}
	return false
}

// intAttr reads an integer attribute of op (0 when absent).
func intAttr(op *ir.Operation, name string) int {
	v, _ := op.IntAttr(name)
	return int(v)
}

// orderAttr reads tt.trans's order (a dense i32 array).
func orderAttr(op *ir.Operation) ([]int, bool) {
	a, ok := op.Attr("order").(*ir.DenseArrayAttr)
	if !ok {
		return nil, false
	}
	out := make([]int, len(a.Ints))
	for i, x := range a.Ints {
		out[i] = int(x)
	}
	return out, true
}

// transposeEnc returns the encoding of tt.trans's result when its operand
// has encoding e: result dim i is operand dim order[i]. Blocked layouts are
// permuted field by field (as Triton's inferTransOpEncoding does); any other
// distributed layout becomes the #ttg.linear of its permuted linear layout
// for the operand shape. The caller checks the result with ToLinear.
func transposeEnc(c *layoutCache, e attr.Encoding, order []int, srcShape []int) attr.Encoding {
	rank := len(order)
	if b, ok := e.(*attr.Blocked); ok && b.Rank() == rank {
		inv := invertPerm(order)
		nb := &attr.Blocked{
			SizePerThread:  permute(b.SizePerThread, order),
			ThreadsPerWarp: permute(b.ThreadsPerWarp, order),
			WarpsPerCTA:    permute(b.WarpsPerCTA, order),
			Order:          make([]int, rank),
		}
		for i, d := range b.Order {
			nb.Order[i] = inv[d]
		}
		for _, basis := range b.CGA.Bases {
			nb.CGA.Bases = append(nb.CGA.Bases, permute(basis, order))
		}
		return nb
	}
	if _, ok := e.(attr.Distributed); !ok {
		return nil
	}
	ll, err := c.linear(e, srcShape)
	if err != nil {
		return nil
	}
	l, err := attr.FromLinear(ll)
	le, ok := l.(*attr.LinearEncoding)
	if err != nil || !ok {
		return nil
	}
	for _, bases := range [][][]int{le.Register, le.Lane, le.Warp, le.Block} {
		for i, v := range bases {
			bases[i] = permute(v, order)
		}
	}
	return le
}

// invertPerm returns the inverse of permutation order.
func invertPerm(order []int) []int {
	inv := make([]int, len(order))
	for i, o := range order {
		inv[o] = i
	}
	return inv
}

// permute returns v reordered: element i is v[order[i]].
func permute(v []int, order []int) []int {
	out := make([]int, len(order))
	for i, o := range order {
		out[i] = v[o]
	}
	return out
}
