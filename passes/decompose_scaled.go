package passes

import (
	"fmt"
	"math"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/dialect/arith"
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// DecomposeScaledBlockedPass is Triton 3.6's DecomposeScaledBlocked pattern
// (which its accelerate-matmul applies where no scaled MMA instruction runs
// tt.dot_scaled) as a pass. See its Doc.
var DecomposeScaledBlockedPass = &Pass{
	Name:    "tritongpu-decompose-scaled-blocked",
	Summary: "Rewrite tt.dot_scaled without an MMA layout into upcasts, scale multiplications and tt.dot (Triton's DecomposeScaledBlocked)",
	Doc: `Triton 3.6's DecomposeScaledBlocked, the rewrite accelerate-matmul falls back
on where no scaled MMA instruction runs a tt.dot_scaled (every NVIDIA target
before Blackwell): each tt.dot_scaled whose result layout is not an MMA one
becomes, for each operand,

  - an upcast to the compute type (f16 if either element kind is fp16, else
    bf16): ttg.fp4_to_fp for e2m1 (along K, or M/N when lhs_k_pack/rhs_k_pack
    is false), tt.fp_to_fp otherwise (an fp8 operand held as i8 bit-cast to
    its f8 type first: Triton's pattern expects a float there);
  - with a scale: the scale in the compute type (an e8m0 byte shifted into a
    bf16's exponent, or into an f32's and truncated to f16; a float scale
    converted), B's transposed first, expanded and broadcast over the scale
    group of K (in Triton's default blocked layout, through a slice), moved
    into place (tt.trans, tt.reshape), converted to the operand's layout and
    multiplied in (arith.mulf); unless fastMath, elements whose scale is
    0xFF (or NaN) become NaN (arith.select);

then both are converted to dot operands of the result layout and multiplied
by tt.dot (into the same accumulator). The interpreter's tt.dot_scaled
computes exactly this; layout-translate runs the pass on modules holding a
tt.dot_scaled, which llvmemit does not lower directly.`,
	Run: runDecomposeScaled,
}

func init() { MustRegister(DecomposeScaledBlockedPass) }

// DecomposeScaledDots runs tritongpu-decompose-scaled-blocked on m when it
// holds a tt.dot_scaled (layout-translate's step before the lowering). The
// diagnostics and error are the pipeline's.
func DecomposeScaledDots(m *ir.Module) (ir.Diagnostics, error) {
	if !m.HasOp("tt.dot_scaled") {
		return nil, nil
	}
	return runAlone(m, DecomposeScaledBlockedPass)
}

func runDecomposeScaled(ctx *Context, module *ir.Operation) error {
	var dots []*ir.Operation
	module.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "tt.dot_scaled" {
			dots = append(dots, op)
		}
		return ir.Advance
	})
	changed := false
	for _, op := range dots {
		enc := encodingOf(op.Result(0))
		if enc == nil || isMMALike(enc) {
			continue
		}
		d := scaledDecomposer{numWarps: 4, threadsPerWarp: int(ctx.Module.IntAttr("ttg.threads-per-warp", 32))}
		if n, ok := lookupNumWarps(op); ok {
			d.numWarps = n
		}
		if err := d.rewrite(op); err != nil {
			return ctx.Errorf(op, "decompose-scaled-blocked: %v", err)
		}
		changed = true
	}
	if changed {
		regenerateAttrAliases(ctx.Module)
		ctx.MarkChanged()
	}
	return nil
}

type scaledDecomposer struct {
	numWarps, threadsPerWarp int
}

// typedTensor is the tensor type of the given shape, element and layout.
func typedTensor(shape []int64, elem ir.Type, enc attr.Encoding) *ir.RankedTensorType {
	t := tensorOf(shape, elem)
	t.Encoding = &ir.EncodingAttr{Enc: enc}
	return t
}

func shapeOf(v *ir.Value) []int64 { return v.Type().(*ir.RankedTensorType).Shape }

func (d scaledDecomposer) rewrite(op *ir.Operation) error {
	ret, ok := encodingOf(op.Result(0)).(attr.Distributed)
	if !ok {
		return fmt.Errorf("the result's layout is not a distributed one")
	}
	ds, _ := tt.AsDotScaled(op)
	aKind, bKind := ds.AElemTypeName(), ds.BElemTypeName()
	compute := ir.BF16
	if aKind == "fp16" || bKind == "fp16" {
		compute = ir.F16
	}
	b := opBuilder{at: op}
	a, err := d.scaleArg(b, op, 0, compute)
	if err != nil {
		return fmt.Errorf("operand A: %v", err)
	}
	bv, err := d.scaleArg(b, op, 1, compute)
	if err != nil {
		return fmt.Errorf("operand B: %v", err)
	}
	a = d.cvt(b, a, &attr.DotOperand{OpIdx: 0, Parent: ret})
	bv = d.cvt(b, bv, &attr.DotOperand{OpIdx: 1, Parent: ret})
	// Triton's defaults: inputPrecision ieee, maxNumImpreciseAcc 0.
	dot := b.create("tt.dot", []*ir.Value{a, bv, ds.C()}, []ir.Type{op.Result(0).Type()})
	op.Result(0).ReplaceAllUsesWith(dot.Result(0))
	return op.Erase()
}

// cvt converts v to layout enc (nothing when it has it already).
func (d scaledDecomposer) cvt(b opBuilder, v *ir.Value, enc attr.Encoding) *ir.Value {
	rt := v.Type().(*ir.RankedTensorType)
	if cur := encodingOf(v); cur != nil && attr.Equal(cur, enc) {
		return v
	}
	return b.create("ttg.convert_layout", []*ir.Value{v}, []ir.Type{typedTensor(rt.Shape, rt.Elem, enc)}).Result(0)
}

// scaleArg is Triton's scaleArg: operand opIdx upcast to compute, times
// its scale, NaN where the scale is (unless fastMath).
func (d scaledDecomposer) scaleArg(b opBuilder, op *ir.Operation, opIdx int, compute ir.Type) (*ir.Value, error) {
	ds, _ := tt.AsDotScaled(op)
	v, scale, kind, kPackAttr := ds.A(), ds.AScale(), ds.AElemTypeName(), "lhs_k_pack"
	if opIdx == 1 {
		v, scale, kind, kPackAttr = ds.B(), ds.BScale(), ds.BElemTypeName(), "rhs_k_pack"
	}
	shape := shapeOf(v)
	rank := len(shape)
	kDim := rank - 1
	if opIdx == 1 {
		kDim = rank - 2
	}
	enc := encodingOf(v)
	switch kind {
	case "e2m1":
		packed := kDim
		if bv, ok := op.Attr(kPackAttr).(*ir.BoolAttr); ok && !bv.Value {
			packed = rank - 2
			if opIdx == 1 {
				packed = rank - 1
			}
		}
		outShape := slices.Clone(shape)
		outShape[packed] *= 2
		outEnc := attr.MapLinear(enc, intShape(shape), func(l linear.Layout) (linear.Layout, error) {
			return attr.Fp4ToFpLayout(l, packed)
		})
		if outEnc == nil {
			return nil, fmt.Errorf("no layout for the e2m1 values unpacked from %s", ir.TypeString(v.Type()))
		}
		v = b.create("ttg.fp4_to_fp", []*ir.Value{v}, []ir.Type{typedTensor(outShape, compute, outEnc)},
			ir.NamedAttr{Name: "axis", Value: ir.Int(int64(packed), ir.I32)}).Result(0)
	case "e2m3", "e3m2":
		return nil, fmt.Errorf("element kind %s (fp6) is not supported", kind)
	default:
		if it, ok := v.Type().(*ir.RankedTensorType).Elem.(*ir.IntegerType); ok {
			f8 := map[string]string{"e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}[kind]
			if f8 == "" || it.Width != 8 {
				return nil, fmt.Errorf("an operand of %s holding %s values", ir.TypeString(v.Type()), kind)
			}
			v = b.create("tt.bitcast", []*ir.Value{v}, []ir.Type{typedTensor(shape, ir.FloatTypeOf(f8), enc)}).Result(0)
		}
		if !ir.TypesEqual(v.Type().(*ir.RankedTensorType).Elem, compute) {
			v = b.create("tt.fp_to_fp", []*ir.Value{v}, []ir.Type{typedTensor(shape, compute, enc)}, fpToFpRounding(v, compute)...).Result(0)
		}
	}
	if scale == nil {
		return v, nil
	}
	vShape, vType, vEnc := shapeOf(v), v.Type(), encodingOf(v)
	// B's scale comes as [..., N, K/g]: transpose it to B's [..., K/g, N].
	if opIdx == 1 {
		order := make([]int, rank)
		for i := range order {
			order[i] = i
		}
		order[rank-1], order[rank-2] = rank-2, rank-1
		var err error
		if scale, err = d.trans(b, scale, order); err != nil {
			return nil, err
		}
	}
	group := vShape[kDim] / shapeOf(scale)[kDim]
	s16, err := d.scaleTo16(b, scale, compute)
	if err != nil {
		return nil, err
	}
	bs, err := d.broadcastScale(b, s16, kDim, group)
	if err != nil {
		return nil, err
	}
	bs = d.cvt(b, bs, vEnc)
	mx := b.create("arith.mulf", []*ir.Value{v, bs}, []ir.Type{vType}).Result(0)
	if ds.FastMath() {
		return mx, nil
	}
	// tl.where(scale is NaN, nan, mx)
	var isNan *ir.Value
	st := scale.Type().(*ir.RankedTensorType)
	boolT := typedTensor(st.Shape, ir.I1, encodingOf(scale))
	if _, isFloat := st.Elem.(*ir.FloatType); isFloat {
		sf, err := d.scaleTo16(b, scale, compute)
		if err != nil {
			return nil, err
		}
		uno, _ := arith.CmpFPredicate.Value("uno")
		isNan = b.create("arith.cmpf", []*ir.Value{sf, sf}, []ir.Type{boolT},
			ir.NamedAttr{Name: "predicate", Value: arith.CmpFPredicate.Attr(uno)}).Result(0)
	} else {
		ff := b.create("arith.constant", nil, []ir.Type{st},
			ir.NamedAttr{Name: "value", Value: &ir.DenseElementsAttr{Type: st, Elems: []ir.Attribute{ir.Int(-1, st.Elem)}}}).Result(0)
		eq, _ := arith.CmpIPredicate.Value("eq")
		isNan = b.create("arith.cmpi", []*ir.Value{scale, ff}, []ir.Type{boolT},
			ir.NamedAttr{Name: "predicate", Value: arith.CmpIPredicate.Attr(eq)}).Result(0)
	}
	cond, err := d.broadcastScale(b, isNan, kDim, group)
	if err != nil {
		return nil, err
	}
	cond = d.cvt(b, cond, vEnc)
	mt := vType.(*ir.RankedTensorType)
	nan := b.create("arith.constant", nil, []ir.Type{mt},
		ir.NamedAttr{Name: "value", Value: &ir.DenseElementsAttr{Type: mt, Elems: []ir.Attribute{&ir.FloatAttr{Value: math.NaN(), Type: compute}}}}).Result(0)
	return b.create("arith.select", []*ir.Value{cond, nan, mx}, []ir.Type{mt}).Result(0), nil
}

// fpToFpRounding is the rounding attribute of tt.fp_to_fp from v's element
// type to to: round to nearest even where the conversion narrows (Triton's
// verifier wants a mode on downcasts), none where it is exact.
func fpToFpRounding(v *ir.Value, to ir.Type) []ir.NamedAttr {
	from, _ := v.Type().(*ir.RankedTensorType).Elem.(*ir.FloatType)
	dst, _ := to.(*ir.FloatType)
	if from == nil || dst == nil || from.FloatBits() < dst.FloatBits() || from.FloatBits() == 8 {
		return nil
	}
	rtne, _ := tt.RoundingMode.Value("rtne")
	return []ir.NamedAttr{{Name: "rounding", Value: tt.RoundingMode.Attr(rtne)}}
}

// scaleTo16 is Triton's scaleTo16: a float scale converted to compute; an
// integer (e8m0) one zero-extended, shifted into the exponent of bf16 (or
// of f32, then truncated to f16) and bit-cast.
func (d scaledDecomposer) scaleTo16(b opBuilder, scale *ir.Value, compute ir.Type) (*ir.Value, error) {
	st := scale.Type().(*ir.RankedTensorType)
	enc := encodingOf(scale)
	if _, ok := st.Elem.(*ir.FloatType); ok {
		if ir.TypesEqual(st.Elem, compute) {
			return scale, nil
		}
		return b.create("tt.fp_to_fp", []*ir.Value{scale}, []ir.Type{typedTensor(st.Shape, compute, enc)}, fpToFpRounding(scale, compute)...).Result(0), nil
	}
	if it, ok := st.Elem.(*ir.IntegerType); !ok || it.Width != 8 {
		return nil, fmt.Errorf("a scale of %s (an e8m0 scale is i8)", ir.TypeString(st))
	}
	large, width, shift := ir.BF16, 16, int64(7)
	if ir.TypesEqual(compute, ir.F16) {
		large, width, shift = ir.F32, 32, 23
	}
	it := ir.IntType(width)
	z := b.create("arith.extui", []*ir.Value{scale}, []ir.Type{typedTensor(st.Shape, it, enc)}).Result(0)
	c := b.constInt(shift, it)
	sp := b.create("tt.splat", []*ir.Value{c}, []ir.Type{typedTensor(st.Shape, it, enc)}).Result(0)
	sh := b.create("arith.shli", []*ir.Value{z, sp}, []ir.Type{typedTensor(st.Shape, it, enc)}).Result(0)
	f := b.create("tt.bitcast", []*ir.Value{sh}, []ir.Type{typedTensor(st.Shape, large, enc)}).Result(0)
	if !ir.TypesEqual(large, compute) {
		f = b.create("arith.truncf", []*ir.Value{f}, []ir.Type{typedTensor(st.Shape, compute, enc)}).Result(0)
	}
	return f, nil
}

// broadcastScale is Triton's broadcastScale: s ([..., K/g] along dim)
// repeated g times along dim, through Triton's default blocked layout of
// the shape with a trailing 1.
func (d scaledDecomposer) broadcastScale(b opBuilder, s *ir.Value, dim int, group int64) (*ir.Value, error) {
	st := s.Type().(*ir.RankedTensorType)
	rank := len(st.Shape)
	ext := append(slices.Clone(st.Shape), 1)
	order := make([]int, rank+1)
	for i := range order {
		order[i] = rank - i
	}
	ones := make([]int, rank+1)
	for i := range ones {
		ones[i] = 1
	}
	blocked := attr.NewBlocked(intShape(ext), ones, order, d.numWarps, d.threadsPerWarp, attr.CGALayout{})
	s = d.cvt(b, s, &attr.Slice{Dim: rank, Parent: blocked})
	s = b.create("tt.expand_dims", []*ir.Value{s}, []ir.Type{typedTensor(ext, st.Elem, blocked)},
		ir.NamedAttr{Name: "axis", Value: ir.Int(int64(rank), ir.I32)}).Result(0)
	wide := slices.Clone(ext)
	wide[rank] = group
	s = b.create("tt.broadcast", []*ir.Value{s}, []ir.Type{typedTensor(wide, st.Elem, blocked)}).Result(0)
	perm := make([]int, 0, rank+1)
	for i := range rank {
		perm = append(perm, i)
	}
	perm = slices.Insert(perm, dim+1, rank)
	s, err := d.trans(b, s, perm)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(st.Shape)
	out[dim] *= group
	return d.reshape(b, s, out)
}

// trans is tt.trans of v by order, its result's layout inferred as
// Triton's.
func (d scaledDecomposer) trans(b opBuilder, v *ir.Value, order []int) (*ir.Value, error) {
	identity := true
	for i, o := range order {
		identity = identity && i == o
	}
	if identity { // as Triton's folder leaves it
		return v, nil
	}
	vt := v.Type().(*ir.RankedTensorType)
	shape := make([]int64, len(order))
	for i, o := range order {
		shape[i] = vt.Shape[o]
	}
	enc := attr.Transpose(encodingOf(v), order, intShape(vt.Shape))
	if enc == nil {
		return nil, fmt.Errorf("no layout for the transpose of %s", ir.TypeString(vt))
	}
	o := make([]int64, len(order))
	for i, x := range order {
		o[i] = int64(x)
	}
	return b.create("tt.trans", []*ir.Value{v}, []ir.Type{typedTensor(shape, vt.Elem, enc)},
		ir.NamedAttr{Name: "order", Value: &ir.DenseArrayAttr{Elem: ir.I32, Ints: o}}).Result(0), nil
}

// reshape is tt.reshape of v to shape, its result's layout inferred as
// Triton's (no reordering).
func (d scaledDecomposer) reshape(b opBuilder, v *ir.Value, shape []int64) (*ir.Value, error) {
	vt := v.Type().(*ir.RankedTensorType)
	enc := attr.Reshape(encodingOf(v), intShape(vt.Shape), intShape(shape))
	if enc == nil {
		return nil, fmt.Errorf("no layout for the reshape of %s to %v", ir.TypeString(vt), shape)
	}
	return b.create("tt.reshape", []*ir.Value{v}, []ir.Type{typedTensor(shape, vt.Elem, enc)}).Result(0), nil
}
