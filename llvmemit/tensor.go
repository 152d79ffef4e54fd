package llvmemit

import (
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/smem"
)

// Program ids, ranges and the ops that only rearrange registers: splat,
// broadcast, expand_dims, trans, reshape, join, split, cat and register
// permutations of convert_layout. Each checks, from the two linear
// layouts, that no data crosses threads, and refuses the op otherwise.

// sreg reads the special register reg ("ctaid.x"), with its !range.
func (l *Lowerer) sreg(reg string) value.Value {
	v := l.call("llvm.nvvm.read.ptx.sreg."+reg, types.I32)
	l.e.sregRange(v, reg)
	return v
}

func init() {
	sreg := func(name string, reg string) {
		Register(name, func(l *Lowerer, op *ir.Operation) error {
			axis := ir.AttrIntValue(op.Attr("axis"))
			if axis < 0 || axis > 2 {
				return errorf(op, "axis %d out of range", axis)
			}
			l.Define(op.Result(0), []value.Value{l.sreg(reg + string(rune('x'+axis)))})
			return nil
		})
	}
	sreg("tt.get_program_id", "ctaid.")
	sreg("tt.get_num_programs", "nctaid.")
	Register("tt.make_range", func(l *Lowerer, op *ir.Operation) error {
		r, _ := tt.AsMakeRange(op)
		t := op.Result(0).Type()
		idx := l.emitIndices(t)
		out := make([]value.Value, len(idx))
		for i, c := range idx {
			out[i] = l.b().add(c[0], i32(r.Start()))
		}
		l.Define(op.Result(0), out)
		return nil
	})
	Register("tt.splat", func(l *Lowerer, op *ir.Operation) error {
		s := l.Values(op.Operand(0))[0]
		out := make([]value.Value, numRegs(op.Result(0).Type()))
		for i := range out {
			out[i] = s
		}
		l.Define(op.Result(0), out)
		return nil
	})
	Register("tt.addptr", func(l *Lowerer, op *ir.Operation) error {
		pt, err := llvmType(ir.ElementType(op.Result(0).Type()))
		if err != nil {
			return errorf(op, "%v", err)
		}
		elem := pt.(*types.PointerType).ElemType
		return elementwise(l, op, func(a []value.Value) value.Value {
			g := l.cur.NewGetElementPtr(elem, a[0], a[1])
			return g
		})
	})
	Register("tt.broadcast", func(l *Lowerer, op *ir.Operation) error {
		srcShape := ir.ShapeOrScalar(op.Operand(0).Type())
		return remapOp(l, op, 0, 0, func(c []int) []int {
			r := make([]int, len(c))
			for i := range c {
				if srcShape[i] != 1 {
					r[i] = c[i]
				}
			}
			return r
		})
	})
	Register("tt.expand_dims", func(l *Lowerer, op *ir.Operation) error {
		axis := int(ir.AttrIntValue(op.Attr("axis")))
		return remapOp(l, op, 0, 0, func(c []int) []int {
			r := append([]int{}, c[:axis]...)
			return append(r, c[axis+1:]...)
		})
	})
	Register("tt.trans", func(l *Lowerer, op *ir.Operation) error {
		order := ir.AttrInts(op.Attr("order"))
		return remapOp(l, op, 0, 0, func(c []int) []int {
			r := make([]int, len(c))
			for i, o := range order {
				r[o] = c[i]
			}
			return r
		})
	})
	Register("tt.reshape", func(l *Lowerer, op *ir.Operation) error {
		src, dst := ir.ShapeOrScalar(op.Operand(0).Type()), ir.ShapeOrScalar(op.Result(0).Type())
		return remapOp(l, op, 0, 0, func(c []int) []int {
			flat := 0
			for i := range c {
				flat = flat*int(dst[i]) + c[i]
			}
			r := make([]int, len(src))
			for i := len(src) - 1; i >= 0; i-- {
				r[i] = flat % int(src[i])
				flat /= int(src[i])
			}
			return r
		})
	})
	Register("tt.join", func(l *Lowerer, op *ir.Operation) error {
		dst := mustLayout(op.Result(0).Type())
		last := dst.NumOutDims() - 1
		for _, d := range []string{dimLane, dimWarp} {
			for k := 0; k < dst.InDimSizeLog2(d); k++ {
				if dst.Basis(d, k)[last] != 0 {
					return errorf(op, "the joined dim is split over %ss", d)
				}
			}
		}
		src := mustLayout(op.Operand(0).Type())
		idx, err := regRemap(src, dst, func(c []int) []int { return c[:last] })
		if err != nil {
			return errorf(op, "%v", err)
		}
		lhs, rhs := l.Values(op.Operand(0)), l.Values(op.Operand(1))
		out := make([]value.Value, len(idx))
		for r, s := range idx {
			if dst.Apply(r)[last] == 0 {
				out[r] = lhs[s]
			} else {
				out[r] = rhs[s]
			}
		}
		l.Define(op.Result(0), out)
		return nil
	})
	Register("tt.split", func(l *Lowerer, op *ir.Operation) error {
		sl := mustLayout(op.Operand(0).Type())
		in := l.Values(op.Operand(0))
		for j := 0; j < 2; j++ {
			dl := mustLayout(op.Result(j).Type())
			off := make([]int, sl.NumOutDims())
			off[len(off)-1] = j
			idx, err := regRemapOffset(sl, dl, func(c []int) []int { return append(append([]int{}, c...), 0) }, off)
			if err != nil {
				return errorf(op, "%v", err)
			}
			out := make([]value.Value, len(idx))
			for r, s := range idx {
				out[r] = in[s]
			}
			l.Define(op.Result(j), out)
		}
		return nil
	})
	Register("tt.cat", func(l *Lowerer, op *ir.Operation) error {
		// tl.cat may reorder elements (can_reorder): Triton concatenates
		// the register lists.
		out := append(append([]value.Value{}, l.Values(op.Operand(0))...), l.Values(op.Operand(1))...)
		if len(out) != numRegs(op.Result(0).Type()) {
			return errorf(op, "the result layout holds %d registers, the operands %d", numRegs(op.Result(0).Type()), len(out))
		}
		l.Define(op.Result(0), out)
		return nil
	})
	Register("ttg.convert_layout", lowerConvert)
}

// remapOp defines result res of op from operand src's registers, the
// result's coordinates mapped to the operand's by to.
func remapOp(l *Lowerer, op *ir.Operation, src, res int, to func([]int) []int) error {
	sl := mustLayout(op.Operand(src).Type())
	dl := mustLayout(op.Result(res).Type())
	idx, err := regRemap(sl, dl, to)
	if err != nil {
		return errorf(op, "%v", err)
	}
	in := l.Values(op.Operand(src))
	out := make([]value.Value, len(idx))
	for r, s := range idx {
		out[r] = in[s]
	}
	l.Define(op.Result(res), out)
	return nil
}

// lowerConvert lowers ttg.convert_layout by smem's classification: no-op
// and register permutations rearrange registers, the rest moves data
// through warp shuffles or shared memory.
func lowerConvert(l *Lowerer, op *ir.Operation) error {
	st, dt := op.Operand(0).Type(), op.Result(0).Type()
	sl, dl := mustLayout(st), mustLayout(dt)
	c, err := smem.Classify(*sl, *dl)
	if err != nil {
		return errorf(op, "%v", err)
	}
	switch c.Kind {
	case smem.NoOp, smem.Registers:
		if idx, err := regRemap(sl, dl, func(c []int) []int { return c }); err == nil {
			in := l.Values(op.Operand(0))
			out := make([]value.Value, len(idx))
			for r, s := range idx {
				out[r] = in[s]
			}
			l.Define(op.Result(0), out)
			return nil
		}
	case smem.WarpShuffle:
		if ok, err := l.convertShuffle(op, sl, dl); ok || err != nil {
			return err
		}
	}
	if c.CrossCTA {
		return errorf(op, "conversions across CTAs are not supported")
	}
	return l.convertShared(op, sl, dl)
}

var _ = linear.Layout{}
