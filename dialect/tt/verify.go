package tt

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// The op verifiers of the tt ops, with the messages of Triton's verifiers
// (lib/Dialect/Triton/IR/Ops.cpp) where they exist.

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func verifyFunc(op *ir.Operation) error {
	ft := FuncType(op)
	if ft == nil {
		return errors.New("requires a 'function_type' attribute of function type")
	}
	entry := op.Region(0).Entry()
	if entry == nil {
		return nil
	}
	if entry.NumArgs() != len(ft.Inputs) {
		return fmt.Errorf("entry block must have %d arguments to match function signature", len(ft.Inputs))
	}
	for i, a := range entry.Args() {
		if !ir.TypesEqual(a.Type(), ft.Inputs[i]) {
			return fmt.Errorf("type of entry block argument #%d('%s') must match the type of the corresponding argument in function signature('%s')",
				i, ir.TypeString(a.Type()), ir.TypeString(ft.Inputs[i]))
		}
	}
	for _, b := range op.Region(0).Blocks {
		if t := b.Last(); t != nil && t.Name() == "tt.return" {
			if !ir.TypeListsEqual(t.OperandTypes(), ft.Results) {
				return fmt.Errorf("has a tt.return whose operand types do not match the function result types")
			}
		}
	}
	return nil
}

// LookupSymbol returns the op named name in the nearest symbol table above
// op (the enclosing builtin.module), or nil.
func LookupSymbol(op *ir.Operation, name string) *ir.Operation {
	m := op.ParentOp()
	for m != nil && m.Name() != "builtin.module" {
		m = m.ParentOp()
	}
	if m == nil || len(m.Regions()) == 0 || m.Region(0).Entry() == nil {
		return nil
	}
	for o := m.Region(0).Entry().First(); o != nil; o = o.Next() {
		if s, ok := o.Attr("sym_name").(*ir.StringAttr); ok && s.Value == name {
			return o
		}
	}
	return nil
}

// verifyCall is Triton's CallOp::verifySymbolUses: the callee is a tt.func
// of the enclosing module whose type matches the call.
func verifyCall(op *ir.Operation) error {
	callee, ok := op.Attr("callee").(*ir.SymbolRefAttr)
	if !ok {
		return errors.New("requires a 'callee' symbol reference attribute")
	}
	fn := LookupSymbol(op, callee.Root)
	if fn == nil || fn.Name() != "tt.func" || FuncType(fn) == nil {
		return fmt.Errorf("'%s' does not reference a valid function", callee.Root)
	}
	ft := FuncType(fn)
	if len(ft.Inputs) != op.NumOperands() {
		return errors.New("incorrect number of operands for callee")
	}
	for i, t := range ft.Inputs {
		if got := op.Operand(i).Type(); !ir.TypesEqual(got, t) {
			return fmt.Errorf("operand type mismatch: expected operand type %s, but provided %s for operand number %d",
				ir.TypeString(t), ir.TypeString(got), i)
		}
	}
	if len(ft.Results) != op.NumResults() {
		return errors.New("incorrect number of results for callee")
	}
	for i, t := range ft.Results {
		if !ir.TypesEqual(op.Result(i).Type(), t) {
			return fmt.Errorf("result type mismatch at index %d", i)
		}
	}
	return nil
}

// verifyMakeRange is MakeRangeOp::verify.
func verifyMakeRange(op *ir.Operation) error {
	start, _ := op.IntAttr("start")
	end, ok := op.IntAttr("end")
	if !ok {
		return errors.New("requires 'start' and 'end' attributes")
	}
	rt, isTensor := op.Result(0).Type().(*ir.RankedTensorType)
	if !isTensor {
		// TT_IntTensor: MLIR's parser rejects the type.
		return errors.New("invalid kind of type specified")
	}
	if len(rt.Shape) != 1 {
		return errors.New("return type must be a 1D tensor")
	}
	if end <= start {
		return errors.New("start must be less than end")
	}
	if !ir.TypesEqual(rt.Elem, ir.I32) {
		return errors.New("returned tensor must have i32 elements")
	}
	if rt.Shape[0] != end-start {
		return errors.New("number of elements in returned tensor, " + itoa(rt.Shape[0]) + ", must match size of range, " + itoa(end-start))
	}
	return nil
}

// verifyMapElementwise is MapElementwiseOp::verify: the region takes
// pack scalars of each operand's element type.
func verifyMapElementwise(op *ir.Operation) error {
	pack, _ := op.IntAttr("pack")
	body := op.Region(0).Entry()
	if body == nil {
		return nil
	}
	n := op.NumOperands()
	if int64(body.NumArgs()) != int64(n)*pack {
		return errors.New("region has wrong number of arguments")
	}
	for i, a := range body.Args() {
		if !ir.TypesEqual(a.Type(), ir.ElementType(op.Operand(i%n).Type())) {
			return errors.New("argument types did not match")
		}
	}
	var store *ir.Operation
	for _, b := range op.Region(0).Blocks {
		for o := b.First(); o != nil && store == nil; o = o.Next() {
			o.Walk(func(x *ir.Operation) ir.WalkResult {
				if x.HasTrait(ir.MemoryWrite) {
					store = x
					return ir.Interrupt
				}
				return ir.Advance
			})
		}
	}
	if store != nil {
		return &ir.OpError{Op: store, Err: errors.New("Stores are not supported inside map_elementwise")}
	}
	return nil
}

// verifyMapReturn is MapElementwiseReturnOp::verify.
func verifyMapReturn(op *ir.Operation) error {
	parent := op.ParentOp()
	if parent == nil || parent.Name() != "tt.map_elementwise" {
		return errors.New("expects parent op 'tt.map_elementwise'")
	}
	pack, _ := parent.IntAttr("pack")
	n := parent.NumResults()
	if int64(op.NumOperands()) != int64(n)*pack {
		return errors.New("region return does not match map_elementwise result")
	}
	for i, v := range op.Operands() {
		if !ir.TypesEqual(v.Type(), ir.ElementType(parent.Result(i%n).Type())) {
			return errors.New("region return does not match map_elementwise result")
		}
	}
	return nil
}

func verifyLoadStore(op *ir.Operation) error {
	if op.NumOperands() == 0 {
		return errors.New("expects a pointer operand")
	}
	if _, ok := ir.PointeeLike(op.Operand(0).Type()); !ok {
		return errors.New("expects a pointer or a tensor of pointers")
	}
	return nil
}

func verifyDot(op *ir.Operation) error {
	a, _ := ir.ShapeOf(op.Operand(0).Type())
	b, _ := ir.ShapeOf(op.Operand(1).Type())
	c, _ := ir.ShapeOf(op.Operand(2).Type())
	if len(a) < 2 || len(b) != len(a) || len(c) != len(a) {
		return errors.New("expects operands of the same rank >= 2")
	}
	n := len(a)
	if a[n-1] != b[n-2] {
		return fmt.Errorf("expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand")
	}
	if c[n-2] != a[n-2] || c[n-1] != b[n-1] {
		return fmt.Errorf("expected the accumulator shape to be [%d, %d]", a[n-2], b[n-1])
	}
	if !ir.TypesEqual(op.Operand(2).Type(), op.Result(0).Type()) {
		return errors.New("expects the result type to equal the accumulator type")
	}
	return verifyDotEncodings(op)
}

// verifyDotEncodings is DotOp::verify: the bit widths of A and B, then
// TritonGPU's verifyDotOpEncodingCompatibility.
func verifyDotEncodings(op *ir.Operation) error {
	aTy, bTy := op.Operand(0).Type(), op.Operand(1).Type()
	aElem, bElem := ir.ElementType(aTy), ir.ElementType(bTy)
	if bitWidth(aElem) != bitWidth(bElem) {
		return errors.New("element types of operands A and B must have same bit width")
	}
	aEnc, bEnc := ir.EncodingOf(aTy), ir.EncodingOf(bTy)
	if aEnc == nil && bEnc == nil {
		return nil
	}
	if aEnc == nil || bEnc == nil {
		return errors.New("mismatching encoding between A and B operands")
	}
	if ir.EncodingOf(op.Operand(2).Type()) == nil {
		return errors.New("miss encoding of C operand")
	}
	aDot, aOK := encOf(aEnc).(*attr.DotOperand)
	bDot, bOK := encOf(bEnc).(*attr.DotOperand)
	if !aOK && !bOK {
		return nil
	}
	if !aOK || !bOK {
		return errors.New("mismatching encoding between A and B operands")
	}
	if aDot.KWidth != bDot.KWidth {
		return errors.New("mismatching kWidth between A and B operands")
	}
	aMma, aIs := aDot.Parent.(*attr.NvidiaMma)
	bMma, bIs := bDot.Parent.(*attr.NvidiaMma)
	resMma, resIs := encOf(ir.EncodingOf(op.Result(0).Type())).(*attr.NvidiaMma)
	if !aIs && !bIs && !resIs {
		return nil
	}
	if !aIs || !bIs || !resIs {
		return errors.New("mismatching MMA encoding")
	}
	if aMma.VersionMajor != bMma.VersionMajor || aMma.VersionMajor != resMma.VersionMajor {
		return errors.New("mismatched MMA version.")
	}
	if !supportMMA(op, aElem, bElem, resMma.VersionMajor) {
		return errors.New("unsupported MMA version")
	}
	return nil
}

func encOf(a ir.Attribute) attr.Encoding {
	if e, ok := a.(*ir.EncodingAttr); ok {
		return e.Enc
	}
	return nil
}

// supportMMA is the operand-type part of Triton's supportMMA(DotOp, int)
// (lib/Analysis/Utility.cpp): f32 operands need TF32 precision and MMA v2
// or later; otherwise each operand is fp8, f16, bf16, or (from v2) f32 or
// i8. The shape conditions of MMA v3, which decide the version chosen
// rather than validity, are not checked.
func supportMMA(op *ir.Operation, a, b ir.Type, version int) bool {
	f32 := func(t ir.Type) bool { f, ok := t.(*ir.FloatType); return ok && f.Kind == "f32" }
	if f32(a) && f32(b) {
		prec, ok := op.IntAttr("inputPrecision")
		if !ok {
			prec = 0 // tf32, the default
		}
		tf32, _ := InputPrecision.Value("tf32")
		return prec == tf32 && version >= 2
	}
	one := func(t ir.Type) bool {
		switch x := t.(type) {
		case *ir.FloatType:
			switch x.Kind {
			case "f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f16", "bf16":
				return true
			case "f32":
				return version >= 2
			}
		case *ir.IntegerType:
			return x.Width == 8 && version >= 2
		}
		return false
	}
	return one(a) && one(b)
}

func verifySplat(op *ir.Operation) error {
	rt, ok := op.Result(0).Type().(*ir.RankedTensorType)
	if !ok {
		return errors.New("result must be a tensor")
	}
	// SameOperandsAndResultElementType: a 0-d tensor splats too.
	if !ir.TypesEqual(rt.Elem, ir.ElementType(op.Operand(0).Type())) {
		return fmt.Errorf("operand type '%s' does not match the result element type '%s'",
			ir.TypeString(op.Operand(0).Type()), ir.TypeString(rt.Elem))
	}
	return nil
}

// verifyUnsplat is UnsplatOp::verify.
func verifyUnsplat(op *ir.Operation) error {
	s, _ := ir.ShapeOf(op.Operand(0).Type())
	n := int64(1)
	for _, d := range s {
		n *= d
	}
	if n != 1 {
		return errors.New("source tensor must have exactly one element")
	}
	return nil
}

// verifyBroadcast is BroadcastOp::verify.
func verifyBroadcast(op *ir.Operation) error {
	src, _ := ir.ShapeOf(op.Operand(0).Type())
	dst, _ := ir.ShapeOf(op.Result(0).Type())
	if len(src) != len(dst) {
		return errors.New("rank of source must be same as rank of result")
	}
	for i := range src {
		if src[i] != 1 && src[i] != dst[i] {
			return fmt.Errorf("Different dimensions at index %d between source and result.  Broadcast requires the source dimension to be 1.", i)
		}
	}
	return nil
}

func verifyExpandDims(op *ir.Operation) error {
	axis, ok := op.IntAttr("axis")
	if !ok {
		return errors.New("requires attribute 'axis'")
	}
	src, _ := ir.ShapeOf(op.Operand(0).Type())
	dst, _ := ir.ShapeOf(op.Result(0).Type())
	if len(dst) != len(src)+1 || axis < 0 || axis > int64(len(src)) || dst[axis] != 1 {
		return fmt.Errorf("result shape must be the operand shape with a size-1 dimension inserted at axis %d", axis)
	}
	for i, j := 0, 0; i < len(dst); i++ {
		if int64(i) == axis {
			continue
		}
		if dst[i] != src[j] {
			return fmt.Errorf("result shape must be the operand shape with a size-1 dimension inserted at axis %d", axis)
		}
		j++
	}
	return nil
}

func verifyTrans(op *ir.Operation) error {
	order, ok := op.Attr("order").(*ir.DenseArrayAttr)
	if !ok {
		return errors.New("requires attribute 'order'")
	}
	src, _ := ir.ShapeOf(op.Operand(0).Type())
	dst, _ := ir.ShapeOf(op.Result(0).Type())
	if len(order.Ints) != len(src) || len(dst) != len(src) {
		return errors.New("order must be a permutation of the operand's dimensions")
	}
	seen := make([]bool, len(src))
	for _, o := range order.Ints {
		if o < 0 || o >= int64(len(src)) || seen[o] {
			return errors.New("order must be a permutation of the operand's dimensions")
		}
		seen[o] = true
	}
	for i, o := range order.Ints {
		if dst[i] != src[o] {
			return fmt.Errorf("result dimension %d must be operand dimension %d", i, o)
		}
	}
	return verifyTransEncoding(op, intsOf(order.Ints))
}

// verifyTransEncoding is TransOp's InferTypeOpWithLayoutEquivalence: the
// result's encoding must be the operand's transposed (inferTransOpEncoding,
// attr.Transpose: every field permuted, the CGA layout's bases included),
// compared as linear layouts. An encoding attr.Transpose cannot infer is
// left alone rather than reported.
func verifyTransEncoding(op *ir.Operation, order []int) error {
	st, _ := op.Operand(0).Type().(*ir.RankedTensorType)
	rt, _ := op.Result(0).Type().(*ir.RankedTensorType)
	if st == nil || rt == nil {
		return nil
	}
	se := ir.Encoding(st)
	if se == nil {
		return nil
	}
	want := attr.Transpose(se, order, intsOf(st.Shape))
	if want == nil {
		return nil
	}
	if re := ir.Encoding(rt); re != nil {
		wl, err1 := attr.Linear(want, intsOf(rt.Shape))
		rl, err2 := attr.Linear(re, intsOf(rt.Shape))
		if err1 == nil && err2 == nil && wl.Equal(rl) || want.Format(nil) == re.Format(nil) {
			return nil
		}
	}
	inferred := &ir.RankedTensorType{Shape: rt.Shape, Elem: rt.Elem, Encoding: &ir.EncodingAttr{Enc: want}}
	return errors.Join(fmt.Errorf("inferred type(s) %s are incompatible with return type(s) of operation %s",
		quotedTypes([]ir.Type{inferred}), quotedTypes([]ir.Type{rt})), errors.New("failed to infer returned types"))
}

// verifyAddPtr is tt.addptr's TypesMatchWith<"result type matches ptr
// type"> (shapes and encodings are checked by its traits).
func verifyAddPtr(op *ir.Operation) error {
	if !ir.TypesEqual(op.Result(0).Type(), op.Operand(0).Type()) {
		return errors.New("failed to verify that result type matches ptr type")
	}
	return nil
}
