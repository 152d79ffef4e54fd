package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// Shape ops: they move elements and never change one, so they are exact.

// remap makes a tensor of result 0's type whose element at flat index o
// is src's element at src(o) (the multi-index of o given in idx).
func remap(op *ir.Operation, src *Tensor, fn func(idx []int) int) (*Tensor, error) {
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	remapInto(out, src, fn)
	return out, nil
}

func remapInto(out, src *Tensor, fn func(idx []int) int) {
	idx := make([]int, len(out.Shape))
	n := out.Len()
	for o := 0; o < n; o++ {
		s := fn(idx)
		if out.F != nil {
			out.F[o] = src.F[s]
		} else {
			out.I[o] = src.I[s]
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < out.Shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

func flatIndex(idx, strides []int) int {
	f := 0
	for d, i := range idx {
		f += i * strides[d]
	}
	return f
}

func evalSplat(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	t, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	if t.Len() != 1 {
		return nil, fmt.Errorf("splat of a value of %d elements", t.Len())
	}
	return one(remap(op, t, func([]int) int { return 0 }))
}

func evalBroadcast(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	t, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	st := strides(t.Shape)
	for d, n := range t.Shape {
		if n == 1 {
			st[d] = 0
		}
	}
	rank := len(t.Shape)
	if rt := shapeOf(op.Result(0).Type()); len(rt) != rank {
		return nil, fmt.Errorf("broadcast from rank %d to rank %d", rank, len(rt))
	}
	return one(remap(op, t, func(idx []int) int { return flatIndex(idx, st) }))
}

// reshapeLike gives the result the operand's elements in row-major order:
// expand_dims, reshape (with allow_reorder too: the interpreter keeps the
// order), memdesc reshapes.
func reshapeLike(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	t, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	e, shape, err := resultOf(op, 0)
	if err != nil {
		return nil, err
	}
	if numElems(shape) != t.Len() {
		return nil, fmt.Errorf("reshape of %d elements to %d", t.Len(), numElems(shape))
	}
	return []Value{&Tensor{Elem: e, Shape: shape, I: t.I, F: t.F}}, nil
}

func evalTrans(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	t, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	order := tt.TransOp{Operation: op}.Order()
	if len(order) != len(t.Shape) {
		return nil, fmt.Errorf("order of %d dimensions for a rank-%d tensor", len(order), len(t.Shape))
	}
	st := strides(t.Shape)
	// result dim d is source dim order[d]
	pst := make([]int, len(order))
	for d, s := range order {
		pst[d] = st[s]
	}
	return one(remap(op, t, func(idx []int) int { return flatIndex(idx, pst) }))
}

// evalJoin stacks two tensors along a new minor dimension of size 2.
func evalJoin(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	a, b := ts[0], ts[1]
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if a.Len() != b.Len() || out.Len() != 2*a.Len() {
		return nil, fmt.Errorf("join of %d and %d elements into %d", a.Len(), b.Len(), out.Len())
	}
	for i := 0; i < a.Len(); i++ {
		if out.F != nil {
			out.F[2*i], out.F[2*i+1] = a.F[i], b.F[i]
		} else {
			out.I[2*i], out.I[2*i+1] = a.I[i], b.I[i]
		}
	}
	return []Value{out}, nil
}

// evalSplit splits the minor dimension (of size 2) into two tensors.
func evalSplit(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	t, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	lo, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	hi, err := newResult(op, 1)
	if err != nil {
		return nil, err
	}
	if 2*lo.Len() != t.Len() {
		return nil, fmt.Errorf("split of %d elements into two of %d", t.Len(), lo.Len())
	}
	for i := 0; i < lo.Len(); i++ {
		if t.F != nil {
			lo.F[i], hi.F[i] = t.F[2*i], t.F[2*i+1]
		} else {
			lo.I[i], hi.I[i] = t.I[2*i], t.I[2*i+1]
		}
	}
	return []Value{lo, hi}, nil
}

// evalCat concatenates along dimension 0 (the interpreter keeps the
// order, though tt.cat allows a reordering).
func evalCat(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if ts[0].Len()+ts[1].Len() != out.Len() {
		return nil, fmt.Errorf("cat of %d and %d elements into %d", ts[0].Len(), ts[1].Len(), out.Len())
	}
	if out.F != nil {
		copy(out.F, ts[0].F)
		copy(out.F[len(ts[0].F):], ts[1].F)
	} else {
		copy(out.I, ts[0].I)
		copy(out.I[len(ts[0].I):], ts[1].I)
	}
	return []Value{out}, nil
}

// evalGather: out[i] = src[i with i[axis] replaced by indices[i]]. An
// index outside the source is an error.
func evalGather(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	src, ind := ts[0], ts[1]
	axis := int(tt.GatherOp{Operation: op}.Axis())
	if axis < 0 || axis >= len(src.Shape) || len(ind.Shape) != len(src.Shape) {
		return nil, fmt.Errorf("axis %d out of range", axis)
	}
	st := strides(src.Shape)
	ist := strides(ind.Shape)
	var bad error
	out, err := remap(op, src, func(idx []int) int {
		k := ind.I[flatIndex(idx, ist)]
		if k < 0 || k >= int64(src.Shape[axis]) {
			if bad == nil {
				bad = fmt.Errorf("index %d at %v is outside dimension %d of size %d", k, idx, axis, src.Shape[axis])
			}
			return 0
		}
		f := 0
		for d, i := range idx {
			if d == axis {
				i = int(k)
			}
			f += i * st[d]
		}
		return f
	})
	if err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, bad
	}
	return []Value{out}, nil
}

// evalHistogram counts the values of a 1-D integer tensor in bins
// 0..N-1 (N the result's size); values outside are not counted, nor are
// masked-off elements.
func evalHistogram(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	h := tt.HistogramOp{Operation: op}
	src, err := tensorArg(ex.Get(h.Src()))
	if err != nil {
		return nil, err
	}
	var mask *Tensor
	if m := h.Mask(); m != nil {
		if mask, err = tensorArg(ex.Get(m)); err != nil {
			return nil, err
		}
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	nb := int64(out.Len())
	for i, v := range src.I {
		if mask != nil && mask.I[i] == 0 {
			continue
		}
		if v >= 0 && v < nb {
			out.I[v] = wrap(out.I[v]+1, out.Elem.Width)
		}
	}
	return []Value{out}, nil
}

func evalMakeRange(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	r := tt.MakeRangeOp{Operation: op}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if int64(out.Len()) != r.End()-r.Start() {
		return nil, fmt.Errorf("range [%d, %d) in a tensor of %d elements", r.Start(), r.End(), out.Len())
	}
	for i := range out.I {
		out.I[i] = wrap(r.Start()+int64(i), out.Elem.Width)
	}
	return []Value{out}, nil
}

func evalProgramID(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	axis := tt.GetProgramIdOp{Operation: op}.Axis()
	if axis < 0 || axis > 2 {
		return nil, fmt.Errorf("axis %d", axis)
	}
	e, _, err := resultOf(op, 0)
	if err != nil {
		return nil, err
	}
	return []Value{scalarInt(e, int64(ex.PID[axis]))}, nil
}

func evalNumPrograms(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	axis := tt.GetNumProgramsOp{Operation: op}.Axis()
	if axis < 0 || axis > 2 {
		return nil, fmt.Errorf("axis %d", axis)
	}
	e, _, err := resultOf(op, 0)
	if err != nil {
		return nil, err
	}
	return []Value{scalarInt(e, int64(ex.Grid[axis]))}, nil
}

// evalAddPtr advances pointers by offsets counted in elements of the
// pointee type.
func evalAddPtr(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	p, off := ts[0], ts[1]
	if !p.Elem.IsPtr() || off.I == nil || p.Len() != off.Len() {
		return nil, fmt.Errorf("expects pointers and integer offsets of one shape")
	}
	pe, err := ElemOf(p.Elem.Pointee)
	if err != nil {
		return nil, err
	}
	sz := int64(pe.Bytes())
	out := &Tensor{Elem: p.Elem, Shape: p.Shape, I: make([]int64, len(p.I))}
	for i := range out.I {
		out.I[i] = p.I[i] + off.I[i]*sz
	}
	return []Value{out}, nil
}

func evalCall(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	c := tt.CallOp{Operation: op}
	callee := c.Callee()
	if callee == nil {
		return nil, fmt.Errorf("no callee")
	}
	fn := ex.M.Func(callee.Root)
	if fn == nil {
		return nil, fmt.Errorf("no tt.func @%s in the module", callee.Root)
	}
	// The callee's global scratch starts at the call's offset in the
	// caller's (Triton's getGlobalScratchPtr for a call).
	defer func(s int64) { ex.Scratch = s }(ex.Scratch)
	if off, ok := op.IntAttr(scratchOffsetAttr); ok && ex.Scratch != 0 {
		ex.Scratch += off
	}
	return ex.Call(fn, args)
}

// scratchOffsetAttr is where Triton's global scratch allocation puts a
// ttg.global_scratch_alloc's (or a call's) byte offset in its function's
// global scratch.
const scratchOffsetAttr = "ttg.global_scratch_memory_offset"

// evalGlobalScratchAlloc is ttg.global_scratch_alloc: the address of its
// bytes in the program's global scratch, at the offset Triton's global
// scratch allocation gave it (ttgir-run and layout-translate run that
// allocation first when a module lacks it).
func evalGlobalScratchAlloc(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	off, ok := op.IntAttr(scratchOffsetAttr)
	if !ok {
		return nil, fmt.Errorf("no %s: run layout-opt -tritongpu-global-scratch-memory-allocation first", scratchOffsetAttr)
	}
	if ex.Scratch == 0 {
		return nil, fmt.Errorf("no global scratch: the module has no ttg.global_scratch_memory_size, or the program was not started by Machine.Launch")
	}
	e, _, err := resultOf(op, 0)
	if err != nil {
		return nil, err
	}
	return []Value{scalarInt(e, ex.Scratch+off)}, nil
}

// evalFpToFp is tt.fp_to_fp: a float conversion with Triton's rounding
// (rtne unless the op says rtz). Conversions to fp8 saturate to the
// largest finite value, as the PTX Triton emits (cvt.rn.satfinite) does;
// NaN stays NaN.
func evalFpToFp(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	t, err := unaryTensor(args)
	if err != nil {
		return nil, err
	}
	f := tt.FpToFpOp{Operation: op}
	mode := NearestEven
	if f.RoundingAttr() != nil && f.RoundingName() == "rtz" {
		mode = TowardZero
	}
	return convert(op, t, func(o *Tensor, i int) error {
		sat := o.Elem.Float.StoreBits == 8
		o.F[i] = o.Elem.Float.Round(t.F[i], mode, sat)
		return nil
	})
}

// evalClampF is tt.clampf: min(max(x, lo), hi); with propagateNan = all a
// NaN operand gives NaN, otherwise NaNs lose (maxnum/minnum).
func evalClampF(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	ts, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	c := tt.ClampFOp{Operation: op}
	prop := c.PropagateNan() != 0
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	for i := range out.F {
		x, lo, hi := ts[0].F[i], ts[1].F[i], ts[2].F[i]
		if prop {
			out.F[i] = minimum(maximum(x, lo), hi)
		} else {
			out.F[i] = minNum(maxNum(x, lo), hi)
		}
	}
	return []Value{out}, nil
}

func maximum(x, y float64) float64 { return floatBinOps["arith.maximumf"](x, y) }
func minimum(x, y float64) float64 { return floatBinOps["arith.minimumf"](x, y) }

// identity passes its operands through: ttg.convert_layout (layouts change
// where a value lives, not what it is), warp_group_dot_wait, and the like.
func identity(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) < op.NumResults() {
		return nil, fmt.Errorf("%d operands for %d results", len(args), op.NumResults())
	}
	return args[:op.NumResults()], nil
}

// noEffect evaluates ops that change nothing the interpreter models
// (barriers, fences, hints): their results, if any, are tokens.
func noEffect(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	return tokens(op), nil
}

// tokens returns vals followed by a Token for each further result of op
// (its async token results).
func tokens(op *ir.Operation, vals ...Value) []Value {
	for len(vals) < op.NumResults() {
		vals = append(vals, Token{})
	}
	return vals
}

func init() {
	register(map[string]OpFunc{
		"tt.splat":                 evalSplat,
		"tt.broadcast":             evalBroadcast,
		"tt.expand_dims":           reshapeLike,
		"tt.reshape":               reshapeLike,
		"tt.trans":                 evalTrans,
		"tt.join":                  evalJoin,
		"tt.split":                 evalSplit,
		"tt.cat":                   evalCat,
		"tt.gather":                evalGather,
		"tt.histogram":             evalHistogram,
		"tt.make_range":            evalMakeRange,
		"tt.get_program_id":        evalProgramID,
		"tt.get_num_programs":      evalNumPrograms,
		"tt.addptr":                evalAddPtr,
		"tt.call":                  evalCall,
		"ttg.global_scratch_alloc": evalGlobalScratchAlloc,
		"tt.fp_to_fp":              evalFpToFp,
		"tt.clampf":                evalClampF,
		"ttg.convert_layout":       identity,
		"tt.assume":                noEffect,
		"tt.print":                 evalPrint,
		"gpu.barrier":              noEffect,
		"ttg.barrier":              noEffect,
		"ttng.fence_async_shared":  noEffect,
		"ttg.async_commit_group":   noEffect,
		"ttg.async_wait":           noEffect,
		"ttg.local_dealloc":        noEffect,
		"ttng.warp_group_dot_wait": identity,
	})
}
