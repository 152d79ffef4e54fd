package interp

import (
	"fmt"
	"math"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// Block pointers (!tt.ptr<tensor<...>>) are evaluated as Triton 3.6's pass
// RewriteTensorPointer rewrites them into tensors of pointers:
//
//   - tt.make_tensor_ptr sign-extends its i32 offsets to i64;
//   - tt.advance adds its i32 deltas, sign-extended, to the offsets in
//     i64 (arith.addi on i64: the offsets do not wrap at 32 bits);
//   - tt.load and tt.store access element (i_0, ..., i_{r-1}) of the
//     block at base + Σ_d (offset_d + i_d)·stride_d·bytes, all in i64
//     (tt.addptr of the i64 products); for every dimension d in
//     boundaryCheck the element is masked off unless 0 ≤ offset_d + i_d <
//     shape_d (signed). A masked-off element is not accessed: a load
//     gives the padding (padding = 1, PAD_ZERO: 0; padding = 2, PAD_NAN:
//     NaN, floats only, as Triton's frontend requires and the rewrite
//     asserts) or 0 when the load has no padding attribute (the rewrite
//     then makes a masked load without `other`, which the interpreter
//     reads as 0). Dimensions not in boundaryCheck are not checked: the
//     access goes wherever the address points, and memory reports it if
//     it is outside every buffer.
//
// The order attribute of tt.make_tensor_ptr is a layout hint; it plays no
// part in the values.

// BlockPtr is the value of a block pointer: a block of the shape of its
// type's pointee tensor, placed at Offsets in a strided tensor of Shape
// elements that starts at Base.
type BlockPtr struct {
	Base    int64   // address of element (0, ..., 0) of the tensor
	Elem    Elem    // the element type of the pointee tensor
	Block   []int   // the shape of the block (the pointee tensor's shape)
	Shape   []int64 // the tensor's bounds, checked by boundaryCheck
	Strides []int64 // in elements, per dimension
	Offsets []int64 // the block's position in elements, per dimension
	Order   []int64 // the order attribute (a layout hint, unused)
}

// blockPtrType returns the block shape and element type of a block pointer
// type.
func blockPtrType(t ir.Type) ([]int, Elem, error) {
	pt, ok := t.(*ir.PointerType)
	if !ok {
		return nil, Elem{}, fmt.Errorf("%s is not a block pointer type", ir.TypeString(t))
	}
	bt, ok := pt.Pointee.(*ir.RankedTensorType)
	if !ok {
		return nil, Elem{}, fmt.Errorf("%s is not a block pointer type", ir.TypeString(t))
	}
	shape := shapeOf(bt)
	if err := checkShape(shape); err != nil {
		return nil, Elem{}, err
	}
	e, err := ElemOf(bt.Elem)
	if err != nil {
		return nil, Elem{}, err
	}
	return shape, e, nil
}

// scalarInts returns the values of integer scalar operands.
func scalarInts(args []Value, what string) ([]int64, error) {
	out := make([]int64, len(args))
	for i, a := range args {
		t, err := tensorArg(a)
		if err != nil {
			return nil, fmt.Errorf("%s %d: %v", what, i, err)
		}
		if !t.Elem.IsInt() || len(t.Shape) != 0 || len(t.I) != 1 {
			return nil, fmt.Errorf("%s %d is not an integer scalar", what, i)
		}
		out[i] = t.I[0]
	}
	return out, nil
}

// stridedMake is what tt.make_tensor_ptr and tt.make_tensor_descriptor
// share: the block shape and element type of the result's type (read by
// blockType), the scalar pointer base, then r shapes and r strides, r the
// block's rank; rest are the operands after them.
type stridedMake struct {
	block          []int
	elem           Elem
	base           int64
	shape, strides []int64
	rest           []Value
}

// readStridedMake reads a stridedMake from op and its operands args, which
// must be the base, the shapes and strides and then extra·r more (what
// names them, for the error).
func readStridedMake(op *ir.Operation, args []Value, blockType func(ir.Type) ([]int, Elem, error), extra int, what string) (stridedMake, error) {
	var m stridedMake
	if op.NumResults() != 1 {
		return m, fmt.Errorf("expects one result")
	}
	var err error
	if m.block, m.elem, err = blockType(op.Result(0).Type()); err != nil {
		return m, err
	}
	r := len(m.block)
	if len(args) != 1+(2+extra)*r {
		return m, fmt.Errorf("%d operands for a block of rank %d (want the base and %d %s)", len(args), r, r, what)
	}
	base, err := tensorArg(args[0])
	if err != nil {
		return m, fmt.Errorf("base: %v", err)
	}
	if !base.Elem.IsPtr() || len(base.Shape) != 0 || len(base.I) != 1 {
		return m, fmt.Errorf("base is not a scalar pointer")
	}
	m.base = base.I[0]
	if m.shape, err = scalarInts(args[1:1+r], "shape"); err != nil {
		return m, err
	}
	if m.strides, err = scalarInts(args[1+r:1+2*r], "stride"); err != nil {
		return m, err
	}
	m.rest = args[1+2*r:]
	return m, nil
}

// evalMakeTensorPtr makes a *BlockPtr from the base, r shapes, r strides
// and r offsets, r the rank of the result's block.
func evalMakeTensorPtr(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := readStridedMake(op, args, blockPtrType, 1, "shapes, strides and offsets")
	if err != nil {
		return nil, err
	}
	offs, err := scalarInts(m.rest, "offset")
	if err != nil {
		return nil, err
	}
	order := tt.MakeTensorPtrOp{Operation: op}.Order()
	return []Value{&BlockPtr{Base: m.base, Elem: m.elem, Block: m.block, Shape: m.shape, Strides: m.strides, Offsets: offs, Order: order}}, nil
}

func blockPtrArg(v Value) (*BlockPtr, error) {
	b, ok := v.(*BlockPtr)
	if !ok {
		return nil, fmt.Errorf("expected a block pointer operand, got %T", v)
	}
	return b, nil
}

// evalAdvance returns a new block pointer whose offsets are those of the
// operand plus the sign-extended i32 deltas, added in i64.
func evalAdvance(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) < 1 {
		return nil, fmt.Errorf("expects a block pointer operand")
	}
	b, err := blockPtrArg(args[0])
	if err != nil {
		return nil, err
	}
	if len(args)-1 != len(b.Block) {
		return nil, fmt.Errorf("%d offsets for a block of rank %d", len(args)-1, len(b.Block))
	}
	deltas, err := scalarInts(args[1:], "offset")
	if err != nil {
		return nil, err
	}
	nb := *b
	nb.Offsets = make([]int64, len(b.Offsets))
	for d, o := range b.Offsets {
		nb.Offsets[d] = o + deltas[d]
	}
	return []Value{&nb}, nil
}

// pointers returns the address of every element of the block in
// row-major order, and the mask of boundaryCheck (nil when it checks no
// dimension), as RewriteTensorPointer's generatePtr and generateMask
// compute them.
func (b *BlockPtr) pointers(boundaryCheck []int64) (ptr, mask *Tensor, err error) {
	r := len(b.Block)
	if len(b.Shape) != r || len(b.Strides) != r || len(b.Offsets) != r {
		return nil, nil, fmt.Errorf("malformed block pointer of rank %d", r)
	}
	for _, d := range boundaryCheck {
		if d < 0 || d >= int64(r) {
			return nil, nil, fmt.Errorf("boundaryCheck dimension %d of a block of rank %d", d, r)
		}
	}
	pos := func(d, i int) int64 { return b.Offsets[d] + int64(i) }
	ptr, mask = stridedAccess(b.Base, b.Elem, b.Shape, b.Strides, b.Block, pos, boundaryCheck)
	return ptr, mask, nil
}

// stridedAccess returns the addresses of a block of the given shape in a
// strided tensor of elements e at base, in row-major order, and its mask
// (nil when checked is empty). pos(d, i) is the position, in elements
// along dimension d of the tensor, of the block's index i along d: the
// element of block index (i_0, ..., i_{r-1}) is at base + Σ_d pos(d,
// i_d)·strides[d]·bytes, in i64 (as the tt.addptr of i64 offsets both
// rewrites generate), and the mask is true where 0 ≤ pos(d, i_d) <
// shape[d] (signed) for every d in checked. The caller checks that shape
// and strides have the block's rank and checked holds valid dimensions.
func stridedAccess(base int64, e Elem, shape, strides []int64, block []int, pos func(d, i int) int64, checked []int64) (ptr, mask *Tensor) {
	pe := Elem{Type: &ir.PointerType{Pointee: e.Type, AddrSpace: 1}, Pointee: e.Type}
	ptr = NewTensor(pe, block)
	if len(checked) > 0 {
		mask = NewTensor(Elem{Type: ir.I1, Width: 1}, block)
	}
	sz := int64(e.Bytes())
	idx := make([]int, len(block))
	for k := range ptr.I {
		addr, in := base, true
		for d, i := range idx {
			addr += pos(d, i) * strides[d] * sz
		}
		for _, d := range checked {
			if o := pos(int(d), idx[d]); o < 0 || o >= shape[d] {
				in = false
			}
		}
		ptr.I[k] = addr
		if mask != nil && in {
			mask.I[k] = -1
		}
		for d := len(block) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < block[d] {
				break
			}
			idx[d] = 0
		}
	}
	return ptr, mask
}

// padValue is the scalar a masked-off element of a load of elements e
// reads: NaN when nan (e must be a float type), else 0.
func padValue(e Elem, nan bool) *Tensor {
	if nan {
		return scalarFloat(e, math.NaN())
	}
	return NewTensor(e, nil)
}

// paddingOption returns the value of a padding attribute (Triton's
// PaddingOption): 1, PAD_ZERO, or 2, PAD_NAN.
func paddingOption(pad ir.Attribute) (int64, error) {
	pa, ok := pad.(*ir.IntegerAttr)
	if !ok {
		return 0, fmt.Errorf("padding %s is not an integer", ir.AttrString(pad))
	}
	if pa.Value != 1 && pa.Value != 2 {
		return 0, fmt.Errorf("unknown padding option %d", pa.Value)
	}
	return pa.Value, nil
}

// loadBlock is tt.load through a block pointer.
func loadBlock(ex *Exec, l tt.LoadOp, b *BlockPtr) ([]Value, error) {
	if l.Mask() != nil || l.Other() != nil {
		return nil, fmt.Errorf("a load through a block pointer takes no mask or other")
	}
	out, err := newResult(l.Operation, 0)
	if err != nil {
		return nil, err
	}
	if !ir.TypesEqual(out.Elem.Type, b.Elem.Type) {
		return nil, fmt.Errorf("loading %s elements through a block pointer to %s", ir.TypeString(out.Elem.Type), ir.TypeString(b.Elem.Type))
	}
	var other *Tensor
	if pad := l.Padding(); pad != nil {
		opt, err := paddingOption(pad)
		if err != nil {
			return nil, err
		}
		if opt == 2 && out.Elem.Float == nil {
			return nil, fmt.Errorf("padding NaN for %s elements", ir.TypeString(out.Elem.Type))
		}
		other = padValue(out.Elem, opt == 2)
	}
	ptr, mask, err := b.pointers(l.BoundaryCheck())
	if err != nil {
		return nil, err
	}
	if err := loadInto(ex, out, ptr, mask, other); err != nil {
		return nil, err
	}
	return []Value{out}, nil
}

// storeBlock is tt.store through a block pointer.
func storeBlock(ex *Exec, s tt.StoreOp, b *BlockPtr) ([]Value, error) {
	if s.Mask() != nil {
		return nil, fmt.Errorf("a store through a block pointer takes no mask")
	}
	val, err := tensorArg(ex.Get(s.Value()))
	if err != nil {
		return nil, err
	}
	if !ir.TypesEqual(val.Elem.Type, b.Elem.Type) {
		return nil, fmt.Errorf("storing %s elements through a block pointer to %s", ir.TypeString(val.Elem.Type), ir.TypeString(b.Elem.Type))
	}
	ptr, mask, err := b.pointers(s.BoundaryCheck())
	if err != nil {
		return nil, err
	}
	return nil, storeFrom(ex, ptr, val, mask)
}

func init() {
	register(map[string]OpFunc{
		"tt.make_tensor_ptr": evalMakeTensorPtr,
		"tt.advance":         evalAdvance,
	})
}
