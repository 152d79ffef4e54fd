package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// Reductions and scans call their combine region on scalars.
//
// Order of a reduction (tt.reduce) along an axis of n elements x[0..n):
// a halving tree. While n > 1, h = ceil(n/2) and x[i] = combine(x[i],
// x[i+h]) for every i < n-h; then n = h. For n a power of two this is
// the butterfly of Triton's warp reduction (shuffles with xor offsets
// n/2, n/4, ..., 1, each lane combining its own value first), which is
// Triton's own order whenever the axis is spread over the lanes of a warp
// one element per lane; when a layout puts several elements of the axis
// in one thread's registers (Triton combines those first, in register
// order) or across warps, the GPU associates differently and float
// results may differ by rounding: see Tolerance. The interpreter's order
// depends on nothing but n, so two programs that differ only in layouts
// reduce bit-identically.
//
// Order of a scan (tt.scan): sequential, y[0] = x[0], y[i] =
// combine(y[i-1], x[i]); with reverse, from the end: y[n-1] = x[n-1],
// y[i] = combine(y[i+1], x[i]).

// combiner calls a combine region on scalars.
type combiner struct {
	ex    *Exec
	block *ir.Block
	elems []Elem
	args  []Value
	// Set when the region is one binary op of the package's tables on its
	// two arguments, in order (a single operand): the reduction then runs
	// on raw elements, without calling the region.
	fastI intBinFn
	fastF floatBinFn
}

// setFast recognises a combine region that is one integer or float binary
// op applied to its arguments in order, returning its result.
func (c *combiner) setFast() {
	b := c.block
	if b.NumArgs() != 2 {
		return
	}
	op := b.First()
	if op == nil || op.Next() != b.Last() || op.NumOperands() != 2 || op.NumResults() != 1 {
		return
	}
	term := b.Last()
	if term.NumOperands() != 1 || term.Operand(0) != op.Result(0) || op.Operand(0) != b.Arg(0) || op.Operand(1) != b.Arg(1) {
		return
	}
	if !ir.TypesEqual(op.Result(0).Type(), b.Arg(0).Type()) {
		return
	}
	if c.ex.M.Ops[op.Name()] == nil || !isDefault(c.ex.M.Ops, op.Name()) {
		return
	}
	if f, ok := intBinOps[op.Name()]; ok && c.elems[0].IsInt() {
		c.fastI = f
	}
	if f, ok := floatBinOps[op.Name()]; ok && c.elems[0].Float != nil {
		c.fastF = f
	}
}

// fold combines x[0..n) (a line of elements at stride) in the halving
// tree order with the fast op; it returns the result in the canonical
// form of e.
func (c *combiner) foldF(x []float64, ff *FloatFormat) float64 {
	for m := len(x); m > 1; {
		h := (m + 1) / 2
		for i := 0; i+h < m; i++ {
			x[i] = ff.Round(c.fastF(x[i], x[i+h]), NearestEven, false)
		}
		m = h
	}
	return x[0]
}

func (c *combiner) foldI(x []int64, w int) int64 {
	for m := len(x); m > 1; {
		h := (m + 1) / 2
		for i := 0; i+h < m; i++ {
			x[i] = wrap(c.fastI(x[i], x[i+h], w), w)
		}
		m = h
	}
	return x[0]
}

func newCombiner(ex *Exec, r *ir.Region, srcs []*Tensor) (*combiner, error) {
	if r == nil || r.Entry() == nil {
		return nil, fmt.Errorf("no combine region")
	}
	b := r.Entry()
	if b.NumArgs() != 2*len(srcs) {
		return nil, fmt.Errorf("combine region takes %d arguments for %d operands", b.NumArgs(), len(srcs))
	}
	c := &combiner{ex: ex, block: b, args: make([]Value, 2*len(srcs))}
	for _, s := range srcs {
		c.elems = append(c.elems, s.Elem)
	}
	return c, nil
}

// combine computes combine(a, b) on tuples of scalars.
func (c *combiner) combine(a, b []*Tensor) ([]*Tensor, error) {
	n := len(a)
	for i := range a {
		c.args[i] = a[i]
		c.args[n+i] = b[i]
	}
	res, err := c.ex.RunBlock(c.block, c.args)
	if err != nil {
		return nil, err
	}
	if len(res) != n {
		return nil, fmt.Errorf("combine region yields %d values for %d operands", len(res), n)
	}
	out := make([]*Tensor, n)
	for i, r := range res {
		t, err := tensorArg(r)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// scalarAt returns element k of t as a scalar tensor.
func scalarAt(t *Tensor, k int) *Tensor {
	if t.F != nil {
		return &Tensor{Elem: t.Elem, F: t.F[k : k+1 : k+1]}
	}
	return &Tensor{Elem: t.Elem, I: t.I[k : k+1 : k+1]}
}

func setAt(t *Tensor, k int, s *Tensor) {
	if t.F != nil {
		t.F[k] = s.F[0]
	} else {
		t.I[k] = s.I[0]
	}
}

// axisLines calls fn for every line of shape along axis with the flat
// index of its first element, the line's stride and the flat index of the
// line in the shape without axis.
func axisLines(shape []int, axis int, fn func(base, stride, line int) error) error {
	st := strides(shape)
	outer := 1
	for d := 0; d < axis; d++ {
		outer *= shape[d]
	}
	inner := st[axis]
	line := 0
	for o := 0; o < outer; o++ {
		for in := 0; in < inner; in++ {
			if err := fn(o*shape[axis]*inner+in, inner, line); err != nil {
				return err
			}
			line++
		}
	}
	return nil
}

// combineSetup checks the operands of a reduce or scan along axis and
// makes its combiner and zero results.
// tensorValues is outs as op results.
func tensorValues(outs []*Tensor) []Value {
	res := make([]Value, len(outs))
	for i, o := range outs {
		res[i] = o
	}
	return res
}

func combineSetup(ex *Exec, op *ir.Operation, args []Value, axis int, region *ir.Region) ([]*Tensor, []*Tensor, *combiner, error) {
	srcs, err := tensorArgs(args)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(srcs) == 0 || len(srcs) != op.NumResults() {
		return nil, nil, nil, fmt.Errorf("%d operands for %d results", len(srcs), op.NumResults())
	}
	if axis < 0 || axis >= len(srcs[0].Shape) {
		return nil, nil, nil, fmt.Errorf("axis %d of a rank-%d tensor", axis, len(srcs[0].Shape))
	}
	for i, s := range srcs[1:] {
		if s.Len() != srcs[0].Len() {
			return nil, nil, nil, fmt.Errorf("operand %d has %d elements, operand 0 %d", i+1, s.Len(), srcs[0].Len())
		}
	}
	c, err := newCombiner(ex, region, srcs)
	if err != nil {
		return nil, nil, nil, err
	}
	outs := make([]*Tensor, len(srcs))
	for i := range outs {
		if outs[i], err = newResult(op, i); err != nil {
			return nil, nil, nil, err
		}
	}
	return srcs, outs, c, nil
}

func evalReduce(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	r := tt.ReduceOp{Operation: op}
	srcs, outs, c, err := combineSetup(ex, op, args, int(r.Axis()), r.CombineOp())
	if err != nil {
		return nil, err
	}
	axis := int(r.Axis())
	shape := srcs[0].Shape
	n := shape[axis]
	var plan *reducePlan
	if ex.M.ReduceOrder == LayoutOrder {
		plan, _ = layoutPlan(op.Operand(0).Type(), axis)
	}
	c.setFast()
	if plan == nil && (c.fastF != nil || c.fastI != nil) {
		src, out := srcs[0], outs[0]
		xf, xi := make([]float64, n), make([]int64, n)
		_ = axisLines(shape, axis, func(base, stride, line int) error {
			if c.fastF != nil {
				for j := range xf {
					xf[j] = src.F[base+j*stride]
				}
				out.F[line] = c.foldF(xf, out.Elem.Float)
			} else {
				for j := range xi {
					xi[j] = src.I[base+j*stride]
				}
				out.I[line] = c.foldI(xi, out.Elem.Width)
			}
			return nil
		})
		return []Value{out}, nil
	}
	vals := make([][]*Tensor, n)
	err = axisLines(shape, axis, func(base, stride, line int) error {
		for j := 0; j < n; j++ {
			vals[j] = vals[j][:0]
			for _, s := range srcs {
				vals[j] = append(vals[j], scalarAt(s, base+j*stride))
			}
		}
		if plan != nil {
			v, err := plan.reduceLine(vals, c.combine)
			if err != nil {
				return err
			}
			for i, o := range outs {
				setAt(o, line, v[i])
			}
			return nil
		}
		for m := n; m > 1; {
			h := (m + 1) / 2
			for i := 0; i+h < m; i++ {
				v, err := c.combine(vals[i], vals[i+h])
				if err != nil {
					return err
				}
				vals[i] = v
			}
			m = h
		}
		for i, o := range outs {
			setAt(o, line, vals[0][i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tensorValues(outs), nil
}

func evalScan(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	s := tt.ScanOp{Operation: op}
	srcs, outs, c, err := combineSetup(ex, op, args, int(s.Axis()), s.CombineOp())
	if err != nil {
		return nil, err
	}
	axis := int(s.Axis())
	shape := srcs[0].Shape
	n := shape[axis]
	rev := s.Reverse()
	acc := make([]*Tensor, len(srcs))
	x := make([]*Tensor, len(srcs))
	err = axisLines(shape, axis, func(base, stride, _ int) error {
		for j := 0; j < n; j++ {
			k := j
			if rev {
				k = n - 1 - j
			}
			for i, src := range srcs {
				x[i] = scalarAt(src, base+k*stride)
			}
			if j == 0 {
				copy(acc, x)
			} else {
				v, err := c.combine(acc, x)
				if err != nil {
					return err
				}
				copy(acc, v)
			}
			for i, o := range outs {
				setAt(o, base+k*stride, acc[i])
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tensorValues(outs), nil
}

// Structured control flow.

func scalarBool(v Value) (bool, error) {
	t, err := tensorArg(v)
	if err != nil {
		return false, err
	}
	if t.Len() != 1 || t.I == nil {
		return false, fmt.Errorf("condition is not a scalar i1")
	}
	return t.I[0] != 0, nil
}

func evalFor(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) < 3 || op.NumRegions() != 1 || op.Region(0).Entry() == nil {
		return nil, fmt.Errorf("malformed scf.for")
	}
	ts, err := tensorArgs(args[:3])
	if err != nil {
		return nil, err
	}
	lb, ub, step := ts[0], ts[1], ts[2]
	if lb.I == nil || len(lb.I) != 1 {
		return nil, fmt.Errorf("bounds must be integer scalars")
	}
	if step.I[0] <= 0 {
		return nil, fmt.Errorf("step %d is not positive", step.I[0])
	}
	body := op.Region(0).Entry()
	iters := append([]Value(nil), args[3:]...)
	bargs := make([]Value, 1+len(iters))
	w := lb.Elem.Width
	for iv := lb.I[0]; iv < ub.I[0]; {
		bargs[0] = scalarInt(lb.Elem, iv)
		copy(bargs[1:], iters)
		res, err := ex.RunBlock(body, bargs)
		if err != nil {
			return nil, err
		}
		if len(res) != len(iters) {
			return nil, fmt.Errorf("body yields %d values for %d loop-carried values", len(res), len(iters))
		}
		iters = res
		next := wrap(iv+step.I[0], w)
		if next <= iv { // the induction variable wrapped: the loop ends
			break
		}
		iv = next
	}
	return iters, nil
}

func evalIf(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) != 1 || op.NumRegions() != 2 {
		return nil, fmt.Errorf("malformed scf.if")
	}
	c, err := scalarBool(args[0])
	if err != nil {
		return nil, err
	}
	r := op.Region(1)
	if c {
		r = op.Region(0)
	}
	if r.Entry() == nil {
		if op.NumResults() != 0 {
			return nil, fmt.Errorf("missing else region")
		}
		return nil, nil
	}
	return ex.RunBlock(r.Entry(), nil)
}

func evalWhile(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if op.NumRegions() != 2 || op.Region(0).Entry() == nil || op.Region(1).Entry() == nil {
		return nil, fmt.Errorf("malformed scf.while")
	}
	before, after := op.Region(0).Entry(), op.Region(1).Entry()
	vals := append([]Value(nil), args...)
	for {
		res, err := ex.RunBlock(before, vals)
		if err != nil {
			return nil, err
		}
		if len(res) < 1 {
			return nil, fmt.Errorf("scf.condition without a condition")
		}
		c, err := scalarBool(res[0])
		if err != nil {
			return nil, err
		}
		if !c {
			return res[1:], nil
		}
		if vals, err = ex.RunBlock(after, res[1:]); err != nil {
			return nil, err
		}
	}
}

// evalAssert fails the program when any element of the condition is false.
func evalAssert(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) < 1 {
		return nil, fmt.Errorf("no condition")
	}
	c, err := tensorArg(args[0])
	if err != nil {
		return nil, err
	}
	for i, v := range c.I {
		if v == 0 {
			return nil, fmt.Errorf("assertion %q failed at element %v", ir.AttrStringValue(op.Attr("message")), unflatten(i, c.Shape))
		}
	}
	return nil, nil
}

func init() {
	register(map[string]OpFunc{
		"tt.reduce": evalReduce,
		"tt.scan":   evalScan,
		"scf.for":   evalFor,
		"scf.if":    evalIf,
		"scf.while": evalWhile,
		"tt.assert": evalAssert,
	})
}
