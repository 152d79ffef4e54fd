package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/ir"
)

// Tensor descriptors (!tt.tensordesc<tensor<...>>) are evaluated as
// Triton 3.6's pass RewriteTensorDescriptorToPointer rewrites them into
// tensors of pointers:
//
//   - tt.make_tensor_descriptor keeps the base, its i32 shape
//     sign-extended to i64, its i64 strides and whether its padding
//     attribute is PAD_NAN (2; absent or 1 is PAD_ZERO);
//   - tt.descriptor_load and tt.descriptor_store access element (i_0,
//     ..., i_{r-1}) of the block at indices (x_0, ..., x_{r-1}) (i32,
//     sign-extended to i64) at base + Σ_d (x_d + i_d)·stride_d·bytes, in
//     i64, and every dimension is checked: the element is masked off
//     unless 0 ≤ x_d + i_d < shape_d (signed) for all d. A masked-off
//     element is not accessed: a load gives 0, or NaN when the
//     descriptor's padding is PAD_NAN and the elements are floats (the
//     rewrite selects NaN for float types only; integers get 0); a store
//     leaves memory as it is;
//   - tt.descriptor_gather (rank 2) loads row x_offsets[i] (i32,
//     sign-extended), columns y_offset + j, of the tensor into row i of
//     its result, with the same addressing, mask and padding;
//     tt.descriptor_scatter stores the same elements.
//
// tt.descriptor_reduce (lowered by the rewrite to an atomic RMW) is not
// implemented: dialect/tt does not define it, so it does not parse.

// TensorDesc is the value of a tensor descriptor: a strided tensor of
// Shape elements that starts at Base, accessed in blocks of Block.
type TensorDesc struct {
	Base    int64   // address of element (0, ..., 0) of the tensor
	Elem    Elem    // the element type of the block
	Block   []int   // the block shape of the descriptor's type
	Shape   []int64 // the tensor's bounds, all checked
	Strides []int64 // in elements, per dimension
	PadNaN  bool    // padding = PAD_NAN: float loads read NaN out of bounds
}

// tensorDescType returns the block shape and element type of a tensor
// descriptor type.
func tensorDescType(t ir.Type) ([]int, Elem, error) {
	dt, ok := t.(*ir.TensorDescType)
	if !ok || dt.Block == nil {
		return nil, Elem{}, fmt.Errorf("%s is not a tensor descriptor type", ir.TypeString(t))
	}
	shape := shapeOf(dt.Block)
	if err := checkShape(shape); err != nil {
		return nil, Elem{}, err
	}
	e, err := ElemOf(dt.Block.Elem)
	if err != nil {
		return nil, Elem{}, err
	}
	return shape, e, nil
}

// evalMakeTensorDesc makes a *TensorDesc from the base, r shapes and r
// strides, r the rank of the result's block.
func evalMakeTensorDesc(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := readStridedMake(op, args, tensorDescType, 0, "shapes and strides")
	if err != nil {
		return nil, err
	}
	nan := false
	if pad := op.Attr("padding"); pad != nil {
		opt, err := paddingOption(pad)
		if err != nil {
			return nil, err
		}
		nan = opt == 2
	}
	return []Value{&TensorDesc{Base: m.base, Elem: m.elem, Block: m.block, Shape: m.shape, Strides: m.strides, PadNaN: nan}}, nil
}

func tensorDescArg(v Value) (*TensorDesc, error) {
	d, ok := v.(*TensorDesc)
	if !ok {
		return nil, fmt.Errorf("expected a tensor descriptor operand, got %T", v)
	}
	if r := len(d.Block); len(d.Shape) != r || len(d.Strides) != r {
		return nil, fmt.Errorf("malformed tensor descriptor of rank %d", r)
	}
	return d, nil
}

// pointers returns the addresses and the mask of the block at the given
// indices (one per dimension), every dimension checked.
func (d *TensorDesc) pointers(indices []int64) (ptr, mask *Tensor, err error) {
	r := len(d.Block)
	if len(indices) != r {
		return nil, nil, fmt.Errorf("%d indices for a block of rank %d", len(indices), r)
	}
	checked := make([]int64, r)
	for i := range checked {
		checked[i] = int64(i)
	}
	pos := func(dim, i int) int64 { return indices[dim] + int64(i) }
	ptr, mask = stridedAccess(d.Base, d.Elem, d.Shape, d.Strides, d.Block, pos, checked)
	return ptr, mask, nil
}

// gatherPointers returns the addresses and mask of a gather or scatter of
// block (rank 2): row x[i], column y + j at (i, j), both dimensions
// checked.
func (d *TensorDesc) gatherPointers(block []int, x *Tensor, y int64) (ptr, mask *Tensor, err error) {
	if len(d.Block) != 2 || len(block) != 2 {
		return nil, nil, fmt.Errorf("gather and scatter need a descriptor and a block of rank 2")
	}
	if !x.Elem.IsInt() || len(x.Shape) != 1 || x.Shape[0] != block[0] {
		return nil, nil, fmt.Errorf("x_offsets is not a tensor of %d integers", block[0])
	}
	pos := func(dim, i int) int64 {
		if dim == 0 {
			return x.I[i]
		}
		return y + int64(i)
	}
	ptr, mask = stridedAccess(d.Base, d.Elem, d.Shape, d.Strides, block, pos, []int64{0, 1})
	return ptr, mask, nil
}

// checkBlockType reports an error unless t is a tensor of the descriptor's
// elements of shape block.
func (d *TensorDesc) checkBlockType(what string, t *Tensor, block []int) error {
	if !ir.TypesEqual(signlessType(t.Elem.Type), signlessType(d.Elem.Type)) {
		return fmt.Errorf("%s %s elements through a descriptor of %s", what, ir.TypeString(t.Elem.Type), ir.TypeString(d.Elem.Type))
	}
	// The tensor may drop leading unit dimensions of the block (Triton's
	// verifyDescriptorLoadStoreType): the elements are the same, in the
	// same row-major order.
	bs := block
	for len(bs) > len(t.Shape) && bs[0] == 1 {
		bs = bs[1:]
	}
	if len(t.Shape) != len(bs) {
		return fmt.Errorf("%s a block of shape %v through a descriptor of block %v", what, t.Shape, block)
	}
	for i := range bs {
		if t.Shape[i] != bs[i] {
			return fmt.Errorf("%s a block of shape %v through a descriptor of block %v", what, t.Shape, block)
		}
	}
	return nil
}

// signlessType returns t with a signed or unsigned integer type made
// signless (descriptors compare their blocks' types signless).
func signlessType(t ir.Type) ir.Type {
	if it, ok := t.(*ir.IntegerType); ok && it.Sign != ir.Signless {
		return ir.IntType(it.Width)
	}
	return t
}

// loadPadded loads out from ptr under mask, masked-off elements reading
// the descriptor's padding.
func (d *TensorDesc) loadPadded(ex *Exec, out, ptr, mask *Tensor) error {
	return loadInto(ex, out, ptr, mask, padValue(out.Elem, d.PadNaN && out.Elem.Float != nil))
}

func evalDescriptorLoad(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) < 1 {
		return nil, fmt.Errorf("expects a tensor descriptor operand")
	}
	d, err := tensorDescArg(args[0])
	if err != nil {
		return nil, err
	}
	idx, err := scalarInts(args[1:], "index")
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	return []Value{out}, d.loadBlock(ex, out, idx)
}

// loadBlock loads the block at indices idx into out.
func (d *TensorDesc) loadBlock(ex *Exec, out *Tensor, idx []int64) error {
	if err := d.checkBlockType("loading", out, d.Block); err != nil {
		return err
	}
	ptr, mask, err := d.pointers(idx)
	if err != nil {
		return err
	}
	return d.loadPadded(ex, out, ptr, mask)
}

// storeBlock stores val, the block at indices idx, where it is in bounds.
func (d *TensorDesc) storeBlock(ex *Exec, val *Tensor, idx []int64) error {
	if err := d.checkBlockType("storing", val, d.Block); err != nil {
		return err
	}
	ptr, mask, err := d.pointers(idx)
	if err != nil {
		return err
	}
	return storeFrom(ex, ptr, val, mask)
}

// gatherRows loads rows x[i], columns y + j, into out (a gather).
func (d *TensorDesc) gatherRows(ex *Exec, out, x *Tensor, y int64) error {
	if err := d.checkBlockType("gathering", out, out.Shape); err != nil {
		return err
	}
	ptr, mask, err := d.gatherPointers(out.Shape, x, y)
	if err != nil {
		return err
	}
	return d.loadPadded(ex, out, ptr, mask)
}

// scatterRows stores val to rows x[i], columns y + j (a scatter).
func (d *TensorDesc) scatterRows(ex *Exec, val, x *Tensor, y int64) error {
	if err := d.checkBlockType("scattering", val, val.Shape); err != nil {
		return err
	}
	ptr, mask, err := d.gatherPointers(val.Shape, x, y)
	if err != nil {
		return err
	}
	return storeFrom(ex, ptr, val, mask)
}

func evalDescriptorStore(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	// Operands: the descriptor, the value, then the indices.
	if len(args) < 2 {
		return nil, fmt.Errorf("expects a tensor descriptor and a value")
	}
	d, err := tensorDescArg(args[0])
	if err != nil {
		return nil, err
	}
	val, err := tensorArg(args[1])
	if err != nil {
		return nil, err
	}
	idx, err := scalarInts(args[2:], "index")
	if err != nil {
		return nil, err
	}
	return nil, d.storeBlock(ex, val, idx)
}

// gatherOperands reads the descriptor, x_offsets and y_offset that
// tt.descriptor_gather and tt.descriptor_scatter begin with.
func gatherOperands(args []Value) (d *TensorDesc, x *Tensor, y int64, err error) {
	if d, err = tensorDescArg(args[0]); err != nil {
		return nil, nil, 0, err
	}
	if x, err = tensorArg(args[1]); err != nil {
		return nil, nil, 0, fmt.Errorf("x_offsets: %v", err)
	}
	ys, err := scalarInts(args[2:3], "y_offset")
	if err != nil {
		return nil, nil, 0, err
	}
	return d, x, ys[0], nil
}

func evalDescriptorGather(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("expects a descriptor, x_offsets and y_offset")
	}
	d, x, y, err := gatherOperands(args)
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	return []Value{out}, d.gatherRows(ex, out, x, y)
}

func evalDescriptorScatter(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) != 4 {
		return nil, fmt.Errorf("expects a descriptor, x_offsets, y_offset and a value")
	}
	d, x, y, err := gatherOperands(args)
	if err != nil {
		return nil, err
	}
	val, err := tensorArg(args[3])
	if err != nil {
		return nil, err
	}
	return nil, d.scatterRows(ex, val, x, y)
}

func init() {
	register(map[string]OpFunc{
		"tt.make_tensor_descriptor": evalMakeTensorDesc,
		"tt.descriptor_load":        evalDescriptorLoad,
		"tt.descriptor_store":       evalDescriptorStore,
		"tt.descriptor_gather":      evalDescriptorGather,
		"tt.descriptor_scatter":     evalDescriptorScatter,
	})
}
