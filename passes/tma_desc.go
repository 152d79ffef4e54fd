package passes

import (
	"fmt"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// The lowering of tt.make_tensor_descriptor (Triton 3.6's
// TMACreateDescLowering and createTMADesc in TMAUtilities.cpp): the
// descriptor is written to 128 bytes of global scratch by
// ttng.tensormap_create, fenced, and reinterpreted as the descriptor.

// TMA element types (CUtensorMapDataType), as Triton numbers them.
const (
	tmaU8      = 0
	tmaU16     = 1
	tmaU32     = 2
	tmaS32     = 3
	tmaU64     = 4
	tmaS64     = 5
	tmaF16     = 6
	tmaF32     = 7
	tmaF64     = 9
	tmaBF16    = 10
	tmaB4X16P6 = 14
)

// TMABox is how a tensor descriptor's block moves through the TMA: what
// Triton 3.6's getTMABlockShape, getTMASwizzleMode and getTMAElementType
// make of its type.
type TMABox struct {
	// Box is the block one TMA message moves, outermost dimension first:
	// the block shape (the packed dimension doubled for fp4-padded
	// layouts), each dimension at most 256, the contiguous one exactly
	// the swizzle width when the layout is swizzled. A block of several
	// boxes takes several messages.
	Box []int64
	// SwizzleMode is 0, 1, 2 or 3 for no, 32-, 64- and 128-byte swizzling
	// (CUtensorMapSwizzle).
	SwizzleMode int64
	// ElemType is the element type as Triton numbers it for
	// tensormap.replace (tmaU8 ... tmaB4X16P6); HostElemType converts it
	// to CUDA's CUtensorMapDataType.
	ElemType int64
	// ElemBytes is the size of a block element; FP4Padded, whether the
	// layout is nvmma_shared's fp4Padded (two e2m1 a byte, padded).
	ElemBytes int
	FP4Padded bool
}

// HostElemType is b.ElemType as CUDA's CUtensorMapDataType numbers it
// (Triton's TMA_DTYPE_DEVICE_TO_HOST: f64 is 8 and bf16 9 there, f32 with
// flush to zero 10).
func (b TMABox) HostElemType() int64 {
	switch b.ElemType {
	case 8:
		return 10
	case tmaF64:
		return 8
	case tmaBF16:
		return 9
	}
	return b.ElemType
}

// TMABoxOf returns how blocks of descriptor type dt move through the TMA,
// or why they cannot (a multi-CTA layout, a shared layout TMA cannot
// write, a block narrower than its swizzle, an unsupported element type).
func TMABoxOf(dt *ir.TensorDescType) (TMABox, error) {
	if dt == nil || dt.Block == nil {
		return TMABox{}, fmt.Errorf("not a tensor descriptor type")
	}
	rank := len(dt.Block.Shape)
	elemBytes := elemBits(dt.Block.Elem) / 8
	if elemBytes == 0 {
		return TMABox{}, fmt.Errorf("unsupported element type %s", ir.TypeString(dt.Block.Elem))
	}
	shape := make([]int64, rank)
	copy(shape, dt.Block.Shape)

	// Box (getTMABlockShape): at most 256 per dimension; with a swizzle,
	// the contiguous dimension spans exactly the swizzle width.
	var swizzleBytes, encBits int
	var fp4, transposed bool
	switch e := encodingOfDesc(dt).(type) {
	case *attr.NVMMAShared:
		if len(e.CGA.Bases) > 0 {
			return TMABox{}, fmt.Errorf("multi-CTA descriptor encodings are not supported")
		}
		swizzleBytes, encBits, fp4, transposed = e.SwizzlingByteWidth, e.ElementBitWidth, e.FP4Padded, e.Transposed
		if encBits == 0 {
			encBits = elemBits(dt.Block.Elem)
		}
	case *attr.SwizzledShared:
		if e.Vec != 1 || e.PerPhase != 1 || e.MaxPhase != 1 || len(e.CGA.Bases) > 0 {
			return TMABox{}, fmt.Errorf("unhandled encoding type")
		}
	default:
		return TMABox{}, fmt.Errorf("unhandled encoding type")
	}
	contig := rank - 1
	if transposed {
		contig = 0
	}
	if fp4 {
		shape[contig] *= 2
	}
	for i := range shape {
		shape[i] = min(shape[i], 256)
	}
	if swizzleBytes != 0 {
		n := int64(8 * swizzleBytes / encBits)
		if shape[contig] < n {
			return TMABox{}, fmt.Errorf("block shape is too small for the swizzle byte size in NVMMA Shared Layout")
		}
		shape[contig] = n
	}
	if fp4 && shape[rank-1] != 128 {
		return TMABox{}, fmt.Errorf("FP4 padded loads require 128 elements or more in the last dim")
	}
	elemType, ok := tmaElementType(dt.Block.Elem, fp4)
	if !ok {
		return TMABox{}, fmt.Errorf("tensor descriptor element type must have size 1, 2, or 4 but got %d", elemBytes)
	}
	return TMABox{Box: shape, SwizzleMode: map[int]int64{0: 0, 32: 1, 64: 2, 128: 3}[swizzleBytes],
		ElemType: elemType, ElemBytes: elemBytes, FP4Padded: fp4}, nil
}

// lowerMakeTensorDesc rewrites op, a tt.make_tensor_descriptor, or returns
// why it cannot (the op is then left as it is).
func lowerMakeTensorDesc(op *ir.Operation) error {
	dt, _ := op.Result(0).Type().(*ir.TensorDescType)
	base, _ := op.Operand(0).Type().(*ir.PointerType)
	if dt == nil || dt.Block == nil || base == nil || op.NumOperands() != 1+2*len(dt.Block.Shape) {
		return fmt.Errorf("malformed tt.make_tensor_descriptor")
	}
	rank := len(dt.Block.Shape)
	elemBytes := elemBits(base.Pointee) / 8
	if elemBytes == 0 {
		return fmt.Errorf("unsupported element type %s", ir.TypeString(base.Pointee))
	}
	// A tensor map has no stride for its innermost dimension: it must be
	// contiguous (Triton's frontend requires a constant 1 there).
	if c, ok := constantValue(op.Operand(2 * rank)).(*ir.IntegerAttr); !ok || c.Value != 1 {
		return fmt.Errorf("the innermost stride is not the constant 1 (a tensor map's innermost dimension is contiguous)")
	}
	tb, err := TMABoxOf(dt)
	if err != nil {
		return err
	}
	shape, fp4, swizzleMode, elemType := tb.Box, tb.FP4Padded, tb.SwizzleMode, tb.ElemType
	fill := int64(0)
	if p, ok := op.IntAttr("padding"); ok && p == 2 { // PAD_NAN
		fill = 1
	}

	b := opBuilder{op}
	i8ptr := &ir.PointerType{Pointee: ir.I8, AddrSpace: 1}
	scratch := b.create("ttg.global_scratch_alloc", nil, []ir.Type{i8ptr},
		ir.NamedAttr{Name: "alignment", Value: ir.Int(128, ir.I32)},
		ir.NamedAttr{Name: "nbytes", Value: ir.Int(128, ir.I32)}).Result(0)
	box := []*ir.Value{b.constInt(shape[rank-1], ir.I32)}
	for k := rank - 2; k >= 0; k-- {
		box = append(box, b.constInt(shape[k], ir.I32))
	}
	elemSize := b.constInt(int64(elemBytes), ir.I64)
	dims := make([]*ir.Value, rank)
	for k := range rank {
		dims[k] = op.Operand(rank - k)
	}
	if fp4 {
		// The number of bytes, in mxfp4 elements.
		dims[0] = b.create("arith.muli", []*ir.Value{dims[0], b.constInt(2, ir.I32)}, []ir.Type{ir.I32}).Result(0)
	}
	one := b.constInt(1, ir.I32)
	elemStrides := make([]*ir.Value, rank)
	for k := range elemStrides {
		elemStrides[k] = one
	}
	var strides []*ir.Value
	for k := rank - 2; k >= 0; k-- {
		s := op.Operand(1 + rank + k)
		strides = append(strides, b.create("arith.muli", []*ir.Value{s, elemSize}, []ir.Type{ir.I64}).Result(0))
	}
	operands := append([]*ir.Value{scratch, op.Operand(0)}, box...)
	operands = append(append(append(operands, dims...), strides...), elemStrides...)
	b.create("ttng.tensormap_create", operands, nil,
		ir.NamedAttr{Name: "elem_type", Value: ir.Int(elemType, ir.I32)},
		ir.NamedAttr{Name: "fill_mode", Value: ir.Int(fill, ir.I32)},
		ir.NamedAttr{Name: "interleave_layout", Value: ir.Int(0, ir.I32)},
		ir.NamedAttr{Name: "swizzle_mode", Value: ir.Int(swizzleMode, ir.I32)},
		ir.Segments(1, 1, len(box), len(dims), len(strides), len(elemStrides)))
	b.create("ttng.tensormap_fenceproxy_acquire", []*ir.Value{scratch}, nil)
	desc := b.create("ttng.reinterpret_tensor_descriptor", []*ir.Value{scratch}, []ir.Type{dt}).Result(0)
	op.Result(0).ReplaceAllUsesWith(desc)
	op.Erase()
	return nil
}

// encodingOfDesc returns the layout of a descriptor's block, or nil.
func encodingOfDesc(dt *ir.TensorDescType) attr.Layout {
	if e, ok := dt.Block.Encoding.(*ir.EncodingAttr); ok {
		l, _ := e.Enc.(attr.Layout)
		return l
	}
	return nil
}

// tmaElementType is Triton's getTMAElementType.
func tmaElementType(t ir.Type, fp4 bool) (int64, bool) {
	if fp4 {
		return tmaB4X16P6, true
	}
	if f, ok := t.(*ir.FloatType); ok {
		switch ir.TypeString(f) {
		case "bf16":
			return tmaBF16, true
		case "f16":
			return tmaF16, true
		case "f32":
			return tmaF32, true
		case "f64":
			return tmaF64, true
		}
	}
	signed := false
	if it, ok := t.(*ir.IntegerType); ok {
		signed = it.Sign == ir.Signed
	}
	switch elemBits(t) / 8 {
	case 1:
		return tmaU8, true
	case 2:
		return tmaU16, true
	case 4:
		if signed {
			return tmaS32, true
		}
		return tmaU32, true
	case 8:
		if signed {
			return tmaS64, true
		}
		return tmaU64, true
	}
	return 0, false
}
