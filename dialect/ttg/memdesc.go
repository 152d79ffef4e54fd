package ttg

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// ttg.memdesc_subslice (a view at static offsets) and
// ttg.global_scratch_alloc, with the verifiers of memdesc_subslice and
// memdesc_index (MemDescSubsliceOp::verify, MemDescIndexOp::verify).

func memdescOps() []*ir.OpDef {
	return []*ir.OpDef{
		{Name: "ttg.memdesc_subslice", Summary: "subview of a memory descriptor at static offsets",
			Traits: ir.Pure, Operands: args("src"), Results: args("result"),
			Attrs: []ir.AttrDef{{Name: "offsets", Kind: ir.DenseI32Array}},
			Parse: parseMemdescSubslice, Print: printMemdescSubslice, Verify: verifyMemdescSubslice},
		{Name: "ttg.global_scratch_alloc", Summary: "allocate a global memory buffer",
			Results: args("result"),
			Attrs:   []ir.AttrDef{{Name: "nbytes", Kind: ir.I32Attr}, {Name: "alignment", Kind: ir.I32Attr}},
			Format:  "attr-dict `:` qualified(type($result))"},
	}
}

// parseMemdescSubslice parses `%m [2, 0] attr-dict : A -> B`.
func parseMemdescSubslice(p *ir.OpParser, st *ir.OpState) error {
	m, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect("["); err != nil {
		return err
	}
	var offs []int64
	for !p.IsPunct("]") {
		if len(offs) > 0 {
			if err := p.Expect(","); err != nil {
				return err
			}
		}
		n, err := p.ParseInt()
		if err != nil {
			return err
		}
		offs = append(offs, n)
	}
	p.Advance()
	st.Props = append(st.Props, ir.NamedAttr{Name: "offsets", Value: &ir.DenseArrayAttr{Elem: ir.I32, Ints: offs}})
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	return p.FinishOperandArrow(st, m)
}

func printMemdescSubslice(p *ir.OpPrinter, op *ir.Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw("[")
	if d, ok := op.Attr("offsets").(*ir.DenseArrayAttr); ok {
		for i, v := range d.Ints {
			if i > 0 {
				p.Raw(", ")
			}
			p.Raw(strconv.FormatInt(v, 10))
		}
	}
	p.Raw("]")
	p.AttrDict(op, "offsets")
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

func sharedEncoding(md *ir.MemDescType) (attr.Shared, bool) {
	e, ok := md.Encoding.(*ir.EncodingAttr)
	if !ok {
		return nil, false
	}
	s, ok := e.Enc.(attr.Shared)
	return s, ok
}

func allocShape(md *ir.MemDescType) []int64 {
	if md.AllocShape != nil {
		return md.AllocShape
	}
	return md.Shape
}

// verifyMemdescIndex is MemDescIndexOp::verify.
// memdescViews returns the memdesc types of a view op's operand and
// result, or the error ODS's type constraints give when either is not one.
func memdescViews(op *ir.Operation) (src, dst *ir.MemDescType, err error) {
	src, ok := op.Operand(0).Type().(*ir.MemDescType)
	if !ok {
		return nil, nil, fmt.Errorf("operand #0 must be memory descriptor type, but got '%s'", ir.TypeString(op.Operand(0).Type()))
	}
	dst, ok = op.Result(0).Type().(*ir.MemDescType)
	if !ok {
		return nil, nil, fmt.Errorf("result #0 must be memory descriptor type, but got '%s'", ir.TypeString(op.Result(0).Type()))
	}
	return src, dst, nil
}

func verifyMemdescIndex(op *ir.Operation) error {
	src, dst, err := memdescViews(op)
	if err != nil {
		return err
	}
	if !ir.TypesEqual(src.Elem, dst.Elem) {
		return errors.New("result element type must match desc element type")
	}
	if len(src.Shape) != len(dst.Shape)+1 {
		return errors.New("result rank must be input rank - 1")
	}
	if len(allocShape(src)) != len(src.Shape) {
		return errors.New("We don't allow taking memdesc_index of a memdesc_index")
	}
	if !slices.Equal(src.Shape[1:], dst.Shape) {
		return errors.New("result shape must equal to srcShape[1:]")
	}
	if !slices.Equal(allocShape(src), src.Shape) {
		return errors.New("We don't support memdesc_index of a subview")
	}
	if (src.Encoding == nil) != (dst.Encoding == nil) {
		return errors.New("src and result must both have or not have an encoding")
	}
	_, s1 := sharedEncoding(src)
	_, s2 := sharedEncoding(dst)
	if s1 != s2 {
		return errors.New("src and dst must have the same type of encoding")
	}
	if !slices.Equal(allocShape(dst), dst.Shape) || !slices.Equal(allocShape(src), src.Shape) {
		return errors.New("alloc shape must match shape for both result and src")
	}
	return nil
}

// verifyMemdescSubslice is MemDescSubsliceOp::verify.
func verifyMemdescSubslice(op *ir.Operation) error {
	src, dst, err := memdescViews(op)
	if err != nil {
		return err
	}
	var offsets []int64
	if d, ok := op.Attr("offsets").(*ir.DenseArrayAttr); ok {
		offsets = d.Ints
	}
	if !ir.TypesEqual(src.Elem, dst.Elem) {
		return errors.New("result element type must match desc element type")
	}
	if len(offsets) != len(src.Shape) {
		return errors.New("offsets must have the same rank as input")
	}
	if len(src.Shape) != len(dst.Shape) {
		return errors.New("result rank must equal to input rank")
	}
	if (src.Encoding == nil) != (dst.Encoding == nil) {
		return errors.New("src and result must both have or not have an encoding")
	}
	srcEnc, s1 := sharedEncoding(src)
	_, s2 := sharedEncoding(dst)
	if !s1 || !s2 {
		return errors.New("src and dst must both be of shared memory encoding")
	}
	var split []int
	for i := range src.Shape {
		if src.Shape[i] != dst.Shape[i] {
			split = append(split, i)
		}
	}
	if len(split) == 0 {
		return nil
	}
	isSplit := func(d int) bool {
		for _, s := range split {
			if s == d {
				return true
			}
		}
		return false
	}
	for d, off := range offsets {
		if !isSplit(d) {
			if off != 0 {
				return errors.New("A non zero offset found in a dimension that is not being split")
			}
		} else if off&(dst.Shape[d]-1) != 0 {
			return errors.New("The split offset may not touch the tile")
		}
	}
	var ll linear.Layout
	if pad, ok := srcEnc.(*attr.PaddedShared); ok {
		if pad.Rank() < len(src.Shape) {
			return errors.New("SubSlice of low rank PaddedSharedEncoding from higher rank tensors is not supported yet")
		}
		l, err := pad.LinearComponent()
		if err != nil {
			return nil
		}
		ll = l
	} else {
		as := allocShape(src)
		shape := make([]int, len(src.Shape))
		for i := range shape {
			shape[i] = int(as[len(as)-len(shape)+i])
		}
		l, err := srcEnc.ToLinear(shape)
		if err != nil {
			return nil
		}
		ll = l
	}
	if ll.HasInDim("block") && ll.InDimSize("block") != 1 {
		return errors.New("non-trivial block dimension not supported")
	}
	inv, err := ll.Invert()
	if err != nil {
		return nil
	}
	outs := inv.InDimNames()
	for _, d := range split {
		for size := dst.Shape[d]; size < src.Shape[d]; size *= 2 {
			coords := make([]linear.Coord, len(outs))
			for i, n := range outs {
				coords[i] = linear.Coord{Name: n}
				if n == "dim"+strconv.Itoa(d) {
					coords[i].Value = int(size)
				}
			}
			res, err := inv.ApplyNamed(coords)
			if err != nil {
				return nil
			}
			if v := res[0].Value; v <= 0 || v&(v-1) != 0 {
				return errors.New("We don't support splitting along the swizzling pattern")
			}
		}
	}
	return nil
}
