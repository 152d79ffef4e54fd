package passes

import (
	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// This file holds the small helpers shared by canonicalize-layouts and
// remove-redundant-conversions for reading the encoding and shape of a
// tensor type. Linear layouts come from attr.Linear, the one cache of the
// program; what an op does to layouts is the op's own rule
// (ir.Operation.Layout), declared with the op in its dialect package.
// The passes name only the structural ops (scf control flow and the
// conversion they insert).

const (
	opConvert   = "ttg.convert_layout"
	opFor       = "scf.for"
	opIf        = "scf.if"
	opYield     = "scf.yield"
	opWhile     = "scf.while"
	opCondition = "scf.condition"
)

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

// encKey is the identity of an encoding: its inline text.
func encKey(e attr.Encoding) string {
	if e == nil {
		return ""
	}
	return e.Format(nil)
}
