package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/ir"
)

// The TMA copies of ttng, which triton-nvidia-tma-lowering makes of
// descriptor loads and stores, move a block between global memory and a
// shared-memory buffer with the descriptor's addressing, bounds and
// padding (ops_descriptor.go):
//
//   - ttng.async_tma_copy_global_to_local %desc[x_0, ...] %buf, %bar, %pred
//     fills the view %buf with the block at (x_0, ...), out-of-bounds
//     elements reading the padding (0, or NaN for PAD_NAN floats: the
//     TMA's oobFill); nothing when %pred is false. ttng.async_tma_gather
//     fills it with the rows x_offsets[i], columns y_offset + j;
//   - ttng.async_tma_copy_local_to_global %desc[x_0, ...] %buf stores the
//     view's elements that are in bounds; ttng.async_tma_scatter the rows
//     of a gather.
//
// Completion is immediate: the mbarrier and bulk-group ops that wait for
// it have no effect here.

func evalTMALoad(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	// desc, coords..., barrier, result, pred
	if len(args) < 4 {
		return nil, fmt.Errorf("expects a descriptor, coordinates, a barrier, a buffer and a predicate")
	}
	if on, err := predicate(args[len(args)-1]); err != nil || !on {
		return nil, err
	}
	d, err := tensorDescArg(args[0])
	if err != nil {
		return nil, err
	}
	idx, err := scalarInts(args[1:len(args)-3], "coordinate")
	if err != nil {
		return nil, err
	}
	m, err := memDescArg(args[len(args)-2])
	if err != nil {
		return nil, err
	}
	out := NewTensor(m.Buf.Elem, m.Shape)
	if err := d.loadBlock(ex, out, idx); err != nil {
		return nil, err
	}
	return nil, m.store(out)
}

func evalTMAStore(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	// desc, coords..., src
	if len(args) < 2 {
		return nil, fmt.Errorf("expects a descriptor, coordinates and a buffer")
	}
	d, err := tensorDescArg(args[0])
	if err != nil {
		return nil, err
	}
	idx, err := scalarInts(args[1:len(args)-1], "coordinate")
	if err != nil {
		return nil, err
	}
	m, err := memDescArg(args[len(args)-1])
	if err != nil {
		return nil, err
	}
	return nil, d.storeBlock(ex, m.tensor(), idx)
}

func evalTMAGather(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	// desc, x_offsets, y_offset, barrier, result, pred
	if len(args) != 6 {
		return nil, fmt.Errorf("expects a descriptor, x_offsets, y_offset, a barrier, a buffer and a predicate")
	}
	if on, err := predicate(args[5]); err != nil || !on {
		return nil, err
	}
	d, x, y, err := gatherOperands(args)
	if err != nil {
		return nil, err
	}
	m, err := memDescArg(args[4])
	if err != nil {
		return nil, err
	}
	out := NewTensor(m.Buf.Elem, m.Shape)
	if err := d.gatherRows(ex, out, x, y); err != nil {
		return nil, err
	}
	return nil, m.store(out)
}

func evalTMAScatter(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	// desc, x_offsets, y_offset, src
	if len(args) != 4 {
		return nil, fmt.Errorf("expects a descriptor, x_offsets, y_offset and a buffer")
	}
	d, x, y, err := gatherOperands(args)
	if err != nil {
		return nil, err
	}
	m, err := memDescArg(args[3])
	if err != nil {
		return nil, err
	}
	return nil, d.scatterRows(ex, m.tensor(), x, y)
}

// predicate is the value of an i1 scalar operand.
func predicate(v Value) (bool, error) {
	p, err := scalarInts([]Value{v}, "predicate")
	if err != nil {
		return false, err
	}
	return p[0] != 0, nil
}

// Tensor maps made on the device (the TMA lowering of
// tt.make_tensor_descriptor): ttng.tensormap_create writes, at its
// descriptor address, the tensor its operands describe (a base address,
// sizes and byte strides innermost first, padding with NaN when fill_mode
// is 1); ttng.reinterpret_tensor_descriptor reads it back as a descriptor
// of its result's block type; ttng.tensormap_fenceproxy_acquire has no
// effect. The map's 128 bytes are not modelled: a descriptor address that
// no tensormap_create wrote is an error.

// tensorMap is what ttng.tensormap_create wrote.
type tensorMap struct {
	base           int64
	shape, strides []int64 // outermost first; strides in bytes
	padNaN         bool
}

func evalTensormapCreate(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	// desc_ptr, global_address, box_dim..., global_dim..., global_stride..., element_stride...
	n := len(args) - 2
	if n < 3 || (n+1)%4 != 0 {
		return nil, fmt.Errorf("malformed tensormap_create of %d operands", len(args))
	}
	r := (n + 1) / 4
	ints, err := scalarWords(args, "operand")
	if err != nil {
		return nil, err
	}
	dims, strides := ints[2+r:2+2*r], ints[2+2*r:2+3*r-1]
	m := &tensorMap{base: ints[1], shape: make([]int64, r), strides: make([]int64, r)}
	for d := range r {
		m.shape[d] = dims[r-1-d]
		if d < r-1 {
			m.strides[d] = strides[r-2-d]
		}
	}
	m.padNaN = ir.AttrIntValue(op.Attr("fill_mode")) == 1
	ex.M.tensorMaps.Store(ints[0], m)
	return nil, nil
}

func evalReinterpretTensorDesc(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	addr, err := scalarWords(args, "descriptor address")
	if err != nil || len(addr) != 1 {
		return nil, fmt.Errorf("expects a descriptor address: %v", err)
	}
	v, ok := ex.M.tensorMaps.Load(addr[0])
	if !ok {
		return nil, fmt.Errorf("no tensor map was written at %#x (ttng.tensormap_create)", addr[0])
	}
	m := v.(*tensorMap)
	block, e, err := tensorDescType(op.Result(0).Type())
	if err != nil {
		return nil, err
	}
	if len(block) != len(m.shape) {
		return nil, fmt.Errorf("a tensor map of rank %d read as a descriptor of rank %d", len(m.shape), len(block))
	}
	strides := make([]int64, len(m.shape))
	for d := range strides {
		strides[d] = 1 // the innermost dimension is contiguous
		if d < len(m.shape)-1 {
			if m.strides[d]%int64(e.Bytes()) != 0 {
				return nil, fmt.Errorf("stride %d bytes of dimension %d is not a whole number of %d-byte elements", m.strides[d], d, e.Bytes())
			}
			strides[d] = m.strides[d] / int64(e.Bytes())
		}
	}
	return []Value{&TensorDesc{Base: m.base, Elem: e, Block: block, Shape: m.shape, Strides: strides, PadNaN: m.padNaN}}, nil
}

func init() {
	register(map[string]OpFunc{
		"ttng.tensormap_create":               evalTensormapCreate,
		"ttng.reinterpret_tensor_descriptor":  evalReinterpretTensorDesc,
		"ttng.tensormap_fenceproxy_acquire":   noEffect,
		"ttng.async_tma_copy_global_to_local": evalTMALoad,
		"ttng.async_tma_copy_local_to_global": evalTMAStore,
		"ttng.async_tma_gather":               evalTMAGather,
		"ttng.async_tma_scatter":              evalTMAScatter,
	})
}

// bindDesc makes the descriptor value of a DescArg for a parameter of
// type t, its buffer placed in mem.
func bindDesc(t ir.Type, a Arg, mem *BufferMemory, what string) (*TensorDesc, error) {
	block, e, err := tensorDescType(t)
	if err != nil {
		return nil, err
	}
	if a.kind != argDesc || a.Buf == nil {
		return nil, fmt.Errorf("parameter of type %s needs a tensor descriptor (DescArg)", ir.TypeString(t))
	}
	if r := len(block); len(a.Shape) != r || len(a.Strides) != r {
		return nil, fmt.Errorf("a descriptor of rank %d needs %d sizes and %d strides, given %d and %d", r, r, r, len(a.Shape), len(a.Strides))
	}
	be, err := ElemOf(a.Buf.Elem)
	if err != nil {
		return nil, fmt.Errorf("buffer: %v", err)
	}
	if be.Bytes() != e.Bytes() {
		return nil, fmt.Errorf("a buffer of %s for a descriptor of %s", ir.TypeString(a.Buf.Elem), ir.TypeString(t))
	}
	for d, n := range a.Shape {
		if n <= 0 || a.Strides[d] <= 0 {
			return nil, fmt.Errorf("dimension %d: size %d and stride %d must be positive", d, n, a.Strides[d])
		}
	}
	base := mem.Add(a.Buf, what)
	return &TensorDesc{Base: base, Elem: e, Block: block, Shape: a.Shape, Strides: a.Strides, PadNaN: a.PadNaN}, nil
}

// scalarWords returns the values of integer or pointer scalar operands
// (a pointer's is its address).
func scalarWords(args []Value, what string) ([]int64, error) {
	out := make([]int64, len(args))
	for i, a := range args {
		t, err := tensorArg(a)
		if err != nil {
			return nil, fmt.Errorf("%s %d: %v", what, i, err)
		}
		if !t.Elem.IsInt() && !t.Elem.IsPtr() || len(t.Shape) != 0 || len(t.I) != 1 {
			return nil, fmt.Errorf("%s %d is not an integer or pointer scalar", what, i)
		}
		out[i] = t.I[0]
	}
	return out, nil
}
