package llvmemit

import (
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// ttg.memdesc_trans and ttg.memdesc_reshape: views of a shared buffer
// that move no data. A view's addressing (memDesc.view, tensor
// coordinates to element offsets) is its source's with the in-dims
// permuted (trans) or regrouped in row-major order (reshape), as
// Triton's lowering composes the source's shared layout with the
// transpose or reshape of the coordinates.

func init() {
	Register("ttg.memdesc_trans", func(l *Lowerer, op *ir.Operation) error {
		md, err := l.memDesc(op, op.Operand(0))
		if err != nil {
			return err
		}
		order := ir.AttrInts(op.Attr("order"))
		names := md.view.InDimNames()
		if len(order) != len(names) {
			return errorf(op, "order %v for a view of rank %d", order, len(names))
		}
		perm := make([]string, len(order))
		for i, o := range order {
			if o < 0 || int(o) >= len(names) {
				return errorf(op, "order %v is not a permutation", order)
			}
			perm[i] = names[o]
		}
		v, err := md.view.TransposeIns(perm)
		if err == nil {
			v, err = positionalIns(v)
		}
		if err != nil {
			return errorf(op, "%v", err)
		}
		return l.defineView(op, &memDesc{view: v, xor: md.xor})
	})
	Register("ttg.memdesc_reshape", func(l *Lowerer, op *ir.Operation) error {
		md, err := l.memDesc(op, op.Operand(0))
		if err != nil {
			return err
		}
		shape := intShape(op.Result(0).Type().(*ir.MemDescType).Shape)
		// Row-major: the last dim's bits are the least significant, so
		// regroup the in-dims in reverse order.
		rev := slices.Clone(md.view.InDimNames())
		slices.Reverse(rev)
		v, err := md.view.TransposeIns(rev)
		if err != nil {
			return errorf(op, "%v", err)
		}
		dims := make([]linear.Dim, len(shape))
		for i := range shape {
			k := len(shape) - 1 - i
			dims[i] = linear.Dim{Name: fmt.Sprintf("dim%d", k), Size: shape[k]}
		}
		if v, err = v.ReshapeIns(dims); err != nil {
			return errorf(op, "%v", err)
		}
		order := make([]string, len(shape))
		for i := range order {
			order[i] = fmt.Sprintf("dim%d", i)
		}
		if v, err = v.TransposeIns(order); err != nil {
			return errorf(op, "%v", err)
		}
		return l.defineView(op, &memDesc{view: v, xor: md.xor})
	})
}

// defineView makes op's result a view of its operand's buffer addressed
// by md.
func (l *Lowerer) defineView(op *ir.Operation, md *memDesc) error {
	l.mem[op.Result(0)] = md
	l.Define(op.Result(0), l.Values(op.Operand(0)))
	return nil
}

// positionalIns renames the in-dims of a view, in their order, to dim0,
// dim1, ... (the names tensor layouts use for their out-dims).
func positionalIns(v linear.Layout) (linear.Layout, error) {
	names := v.InDimNames()
	var err error
	// RenameInDim moves the renamed dim last: renaming every dim in
	// order keeps the order. Temporary names avoid clashes.
	for i, n := range names {
		if v, err = v.RenameInDim(n, fmt.Sprintf("view%d", i)); err != nil {
			return v, err
		}
	}
	for i := range names {
		if v, err = v.RenameInDim(fmt.Sprintf("view%d", i), fmt.Sprintf("dim%d", i)); err != nil {
			return v, err
		}
	}
	return v, nil
}
