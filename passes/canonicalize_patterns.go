package passes

import (
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// The canonicalizations of Triton's ops (lib/Dialect/Triton/IR/Ops.cpp,
// Canonicalize.td, lib/Dialect/TritonGPU/IR/Ops.cpp) and of the arith ops
// Triton's tests rely on (MLIR's ArithOps.cpp), registered for
// -canonicalize.

func init() {
	// ttg
	RegisterCanonicalization(opConvert, nil, Pattern{Name: "CanonicalizeConvertFromConvert", Rewrite: convertFromConvert})
	RegisterCanonicalization("tt.reshape", foldReshape, Pattern{Name: "CanonicalizeConvertFromReshape", Rewrite: reshapeOfConvert})
	RegisterCanonicalization("tt.trans", foldTrans, Pattern{Name: "CanonicalizeConvertFromTranspose", Rewrite: transOfConvert})
	RegisterCanonicalization("tt.gather", nil, Pattern{Name: "CanonicalizeConvertFromGatherSource", Rewrite: gatherOfConvert})
	RegisterCanonicalization("tt.histogram", nil, Pattern{Name: "CanonicalizeConvertFromHistogram", Rewrite: histogramOfConvert})
	RegisterCanonicalization("ttg.local_alloc", foldLocalAlloc, Pattern{Name: "CanonicalizeConvertFromAlloc", Rewrite: allocOfConvert})
	RegisterCanonicalization("ttg.memdesc_reinterpret", foldReinterpret)
	RegisterCanonicalization("ttg.local_store", nil, Pattern{Name: "CanonicalizeConvertFromLocalStore", Rewrite: localStoreOfConvert})
	RegisterCanonicalization("ttng.tmem_store", nil, Pattern{Name: "CanonicalizeConvertFromTMemStore", Rewrite: tmemStoreOfConvert})

	// tt
	RegisterCanonicalization("tt.addptr", foldAddPtr)
	RegisterCanonicalization("tt.advance", foldAdvance)
	RegisterCanonicalization("tt.make_range", foldMakeRange)
	RegisterCanonicalization("tt.splat", foldSplat)
	RegisterCanonicalization("tt.broadcast", foldBroadcast, Pattern{Name: "BroadcastCanonicalize", Rewrite: broadcastCanonicalize})
	RegisterCanonicalization("tt.expand_dims", foldViewLike, Pattern{Name: "ExpandDimsCanonicalize", Rewrite: expandDimsCanonicalize})
	RegisterCanonicalization("tt.fp_to_fp", foldFpToFp)
	RegisterCanonicalization("tt.load", nil, Pattern{Name: "CanonicalizeMaskedLoadPattern", Rewrite: maskedLoad})
	RegisterCanonicalization("tt.store", nil, Pattern{Name: "CanonicalizeMaskedStorePattern", Rewrite: maskedStore})

	// amdg
	RegisterCanonicalization("amdg.concat", foldConcat)
	RegisterCanonicalization("amdg.extract_slice", nil, Pattern{Name: "CanonicalizeExtractSliceAndConcat", Rewrite: extractSliceOfConcat})

	// arith
	for name, f := range intBinary {
		RegisterCanonicalization(name, foldIntBinary(name, f))
	}
	RegisterCanonicalization("arith.cmpi", foldCmpI)
	RegisterCanonicalization("arith.select", foldSelect)
	for _, name := range []string{"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui"} {
		RegisterCanonicalization(name, foldIntCast(name))
	}
}

// Helpers.

func defOp(v *ir.Value, name string) *ir.Operation {
	if v == nil {
		return nil
	}
	if d := v.DefiningOp(); d != nil && d.Name() == name {
		return d
	}
	return nil
}

func allAttrs(op *ir.Operation) []ir.NamedAttr {
	return append(slices.Clone(op.Props), op.Attrs...)
}

func hasUnit(op *ir.Operation, name string) bool {
	switch a := op.Attr(name).(type) {
	case *ir.UnitAttr:
		return true
	case *ir.BoolAttr:
		return a.Value
	}
	return false
}

func value(v *ir.Value) FoldResult { return FoldResult{Value: v} }

func constant(a ir.Attribute) FoldResult { return FoldResult{Attr: a} }

// splatElem returns the element of a splat dense attribute, or nil.
func splatElem(a ir.Attribute) ir.Attribute {
	if d, ok := a.(*ir.DenseElementsAttr); ok && d.Hex == "" && len(d.Elems) == 1 {
		return d.Elems[0]
	}
	return nil
}

// withType returns a dense attribute with a's elements and type t (MLIR's
// resizeSplat for a splat, reshape otherwise).
func withType(a ir.Attribute, t ir.Type) ir.Attribute {
	d, ok := a.(*ir.DenseElementsAttr)
	if !ok || d.Hex != "" {
		return nil
	}
	if len(d.Elems) != 1 {
		shape, ok := ir.ShapeOf(t)
		if !ok || int64(len(d.Elems)) != product(shape) {
			return nil
		}
	}
	return &ir.DenseElementsAttr{Type: t, Elems: d.Elems}
}

func product(s []int64) int64 {
	n := int64(1)
	for _, x := range s {
		n *= x
	}
	return n
}

// splatOf returns the splat dense attribute of element e (an integer,
// float or bool scalar attribute) and tensor type t.
func splatOf(e ir.Attribute, t ir.Type) ir.Attribute {
	if b, ok := e.(*ir.BoolAttr); ok {
		v := int64(0)
		if b.Value {
			v = 1
		}
		e = ir.Int(v, ir.I1)
	}
	return &ir.DenseElementsAttr{Type: t, Elems: []ir.Attribute{e}}
}

func isTensor(t ir.Type) bool {
	_, ok := t.(*ir.RankedTensorType)
	return ok
}

// convertTrivial reports whether a ttg.convert_layout maps equal layouts
// (Triton's isConvertTrivial: verifyLayoutsAreEqual).
func convertTrivial(cvt *ir.Operation) bool {
	_, se, shape := tensorInfo(cvt.Operand(0).Type())
	_, de, _ := tensorInfo(cvt.Result(0).Type())
	if se == nil || de == nil {
		return ir.TypesEqual(cvt.Operand(0).Type(), cvt.Result(0).Type())
	}
	return attr.SameLayout(se, de, shape)
}

// expensiveView is Triton's isExpensiveView: a reshape between the two
// tensor types moves data between threads when the layouts' free-variable
// masks or their numbers of registers differ.
func expensiveView(src, dst ir.Type) bool {
	_, se, ss := tensorInfo(src)
	_, de, ds := tensorInfo(dst)
	if se == nil || de == nil {
		return false
	}
	ls, err1 := attr.Linear(se, ss)
	ld, err2 := attr.Linear(de, ds)
	if err1 != nil || err2 != nil {
		return true
	}
	ms, md := ls.FreeVariableMasks(), ld.FreeVariableMasks()
	if !slices.Equal(ms, md) {
		return true
	}
	return ls.InDimSize("register") != ld.InDimSize("register")
}

func isIota(order []int64) bool {
	for i, v := range order {
		if v != int64(i) {
			return false
		}
	}
	return true
}

func orderOf(op *ir.Operation) []int64 {
	if d, ok := op.Attr("order").(*ir.DenseArrayAttr); ok {
		return d.Ints
	}
	return nil
}

// ttg.convert_layout.

func convertFromConvert(rw *Rewriter, op *ir.Operation) bool {
	src, dstT := op.Operand(0), op.Result(0).Type()
	if ir.TypesEqual(src.Type(), dstT) {
		rw.ReplaceOp(op, src)
		return true
	}
	_, se, _ := tensorInfo(src.Type())
	_, de, _ := tensorInfo(dstT)
	if _, ok := de.(*attr.DotOperand); ok {
		if _, ok := se.(*attr.NvidiaMma); ok {
			return false
		}
	}
	arg := src.DefiningOp()
	if arg == nil {
		return false
	}
	types := []ir.Type{dstT}
	switch arg.Name() {
	case "tt.reshape":
		if !hasUnit(arg, "allow_reorder") || hasUnit(arg, "efficient_layout") || expensiveView(arg.Operand(0).Type(), dstT) {
			return false
		}
		if _, ok := se.(*attr.DotOperand); ok {
			return false
		}
		if _, ok := de.(*attr.DotOperand); ok {
			return false
		}
		rw.ReplaceOpWithNew(op, "tt.reshape", []*ir.Value{arg.Result(0)}, types, []ir.NamedAttr{{Name: "allow_reorder", Value: &ir.UnitAttr{}}})
		return true
	case "tt.histogram":
		rw.ReplaceOpWithNew(op, "tt.histogram", arg.Operands(), types, allAttrs(arg))
		return true
	case "ttg.local_load":
		n := rw.Create(arg, "ttg.local_load", arg.Operands(), types, allAttrs(arg))
		rw.ReplaceOp(op, n.Result(0))
		return true
	case opConvert:
		rw.ReplaceOpWithNew(op, opConvert, []*ir.Value{arg.Operand(0)}, types, nil)
		return true
	case "tt.splat":
		rw.ReplaceOpWithNew(op, "tt.splat", []*ir.Value{arg.Operand(0)}, types, nil)
		return true
	case "tt.make_range":
		rw.ReplaceOpWithNew(op, "tt.make_range", nil, types, allAttrs(arg))
		return true
	case "arith.constant":
		if e := splatElem(arg.Attr("value")); e != nil {
			rw.ReplaceOpWithNew(op, "arith.constant", nil, types, []ir.NamedAttr{{Name: "value", Value: splatOf(e, dstT)}})
			return true
		}
	}
	return false
}

// Ops that absorb a conversion of their operand.

func reshapeOfConvert(rw *Rewriter, op *ir.Operation) bool {
	cvt := defOp(op.Operand(0), opConvert)
	if cvt == nil {
		return false
	}
	resT := op.Result(0).Type()
	if !convertTrivial(cvt) && (expensiveView(cvt.Operand(0).Type(), resT) || !hasUnit(op, "allow_reorder")) {
		return false
	}
	rw.ReplaceOpWithNew(op, "tt.reshape", []*ir.Value{cvt.Operand(0)}, []ir.Type{resT}, allAttrs(op))
	return true
}

func transOfConvert(rw *Rewriter, op *ir.Operation) bool {
	resT := op.Result(0).Type()
	if isIota(orderOf(op)) {
		rw.ReplaceOpWithNew(op, opConvert, []*ir.Value{op.Operand(0)}, []ir.Type{resT}, nil)
		return true
	}
	cvt := defOp(op.Operand(0), opConvert)
	if cvt == nil || !convertTrivial(cvt) {
		return false
	}
	rw.ReplaceOpWithNew(op, "tt.trans", []*ir.Value{cvt.Operand(0)}, []ir.Type{resT}, allAttrs(op))
	return true
}

func gatherOfConvert(rw *Rewriter, op *ir.Operation) bool {
	if hasUnit(op, "efficient_layout") {
		return false
	}
	cvt := defOp(op.Operand(0), opConvert)
	if cvt == nil {
		return false
	}
	rw.ReplaceOpWithNew(op, "tt.gather", []*ir.Value{cvt.Operand(0), op.Operand(1)}, op.ResultTypes(),
		[]ir.NamedAttr{{Name: "axis", Value: op.Attr("axis")}})
	return true
}

func histogramOfConvert(rw *Rewriter, op *ir.Operation) bool {
	cvt := defOp(op.Operand(0), opConvert)
	if cvt == nil {
		return false
	}
	src := cvt.Operand(0)
	operands := []*ir.Value{src}
	if op.NumOperands() > 1 {
		mask := op.Operand(1)
		mt := ir.WithElem(src.Type(), ir.I1)
		operands = append(operands, rw.Create(op, opConvert, []*ir.Value{mask}, []ir.Type{mt}, nil).Result(0))
	}
	rw.ReplaceOpWithNew(op, "tt.histogram", operands, op.ResultTypes(), allAttrs(op))
	return true
}

func allocOfConvert(rw *Rewriter, op *ir.Operation) bool {
	if op.NumOperands() != 1 {
		return false
	}
	cvt := defOp(op.Operand(0), opConvert)
	if cvt == nil {
		return false
	}
	rw.ReplaceOpWithNew(op, "ttg.local_alloc", []*ir.Value{cvt.Operand(0)}, op.ResultTypes(), allAttrs(op))
	return true
}

func localStoreOfConvert(rw *Rewriter, op *ir.Operation) bool {
	cvt := defOp(op.Operand(0), opConvert)
	if cvt == nil {
		return false
	}
	rw.ReplaceOpWithNew(op, "ttg.local_store", []*ir.Value{cvt.Operand(0), op.Operand(1)}, nil, allAttrs(op))
	return true
}

// tmemStoreOfConvert: tmem_store(convert(x)) stores x instead when x's
// layout is one a tcgen05.st of the buffer can take as it is
// (attr.IsTMemCompatible, Triton's isDistributedLayoutTMemCompatible).
func tmemStoreOfConvert(rw *Rewriter, op *ir.Operation) bool {
	src := op.NamedOperand("src")
	cvt := defOp(src, opConvert)
	if cvt == nil {
		return false
	}
	_, enc, shape := tensorInfo(cvt.Operand(0).Type())
	dist, ok := enc.(attr.Distributed)
	md, ok2 := op.NamedOperand("dst").Type().(*ir.MemDescType)
	if !ok || !ok2 {
		return false
	}
	mem, ok := ir.Encoding(md).(*attr.TensorMemory)
	warps, ok2 := lookupNumWarps(op)
	if !ok || !ok2 {
		return false
	}
	compatible, err := attr.IsTMemCompatible(dist, shape, mem, intShape(md.Shape), elemBits(md), warps)
	if err != nil || !compatible {
		return false
	}
	// src is the op's only tensor operand (dst is a memdesc, pred an i1).
	for i, v := range op.Operands() {
		if _, isTensor := v.Type().(*ir.RankedTensorType); isTensor && v == src {
			rw.SetOperand(op, i, cvt.Operand(0))
			return true
		}
	}
	return false
}

// lookupNumWarps is Triton's lookupNumWarps: the warps op runs with — its
// partition's entry of partitionNumWarps inside a ttg.warp_specialize,
// otherwise the "ttg.num-warps" of the nearest function or module.
func lookupNumWarps(op *ir.Operation) (int, bool) {
	for child, p := op, op.ParentOp(); p != nil; child, p = p, p.ParentOp() {
		if p.Name() == "ttg.warp_specialize.partitions" {
			ws := p.ParentOp()
			d, ok := ws.Attr("partitionNumWarps").(*ir.DenseArrayAttr)
			if ws == nil || !ok {
				return 0, false
			}
			for i, rg := range p.Regions() {
				if child.Block() != nil && child.Block().Parent() == rg && i < len(d.Ints) {
					return int(d.Ints[i]), true
				}
			}
			return 0, false
		}
		if n, ok := p.IntAttr("ttg.num-warps"); ok {
			return int(n), true
		}
	}
	return 0, false
}

// foldLocalAlloc: local_alloc(local_load(x)) is x for an immutable alloc
// of x's own type.
func foldLocalAlloc(op *ir.Operation, _ []ir.Attribute) ([]FoldResult, bool) {
	if op.NumOperands() != 1 {
		return nil, false
	}
	if md, ok := op.Result(0).Type().(*ir.MemDescType); !ok || md.Mutable {
		return nil, false
	}
	ld := defOp(op.Operand(0), "ttg.local_load")
	if ld == nil || !ir.TypesEqual(ld.Operand(0).Type(), op.Result(0).Type()) {
		return nil, false
	}
	return []FoldResult{value(ld.Operand(0))}, true
}

// View-like tt ops.

// foldViewLike folds a view of a constant into a constant of the result
// type (Triton's foldViewLikeOp).
func foldViewLike(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	if len(operands) == 0 || operands[0] == nil {
		return nil, false
	}
	if a := withType(operands[0], op.Result(0).Type()); a != nil {
		return []FoldResult{constant(a)}, true
	}
	return nil, false
}

// foldReinterpret folds a ttg.memdesc_reinterpret to the type it has to
// its source (MemDescReinterpretOp::fold).
func foldReinterpret(op *ir.Operation, _ []ir.Attribute) ([]FoldResult, bool) {
	if src := op.Operand(0); ir.TypesEqual(src.Type(), op.Result(0).Type()) {
		return []FoldResult{value(src)}, true
	}
	return nil, false
}

func foldReshape(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	src := op.Operand(0)
	if ir.TypesEqual(src.Type(), op.Result(0).Type()) && !hasUnit(op, "allow_reorder") {
		return []FoldResult{value(src)}, true
	}
	if inner := defOp(src, "tt.reshape"); inner != nil {
		op.SetOperand(0, inner.Operand(0))
		return nil, true
	}
	return foldViewLike(op, operands)
}

func foldTrans(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	order := orderOf(op)
	if isIota(order) && ir.TypesEqual(op.Operand(0).Type(), op.Result(0).Type()) {
		return []FoldResult{value(op.Operand(0))}, true
	}
	if inner := defOp(op.Operand(0), "tt.trans"); inner != nil {
		io := orderOf(inner)
		if len(io) == len(order) {
			composed := make([]int64, len(order))
			for i, o := range order {
				composed[i] = io[o]
			}
			op.SetAttr("order", &ir.DenseArrayAttr{Elem: ir.I32, Ints: composed})
			op.SetOperand(0, inner.Operand(0))
			return nil, true
		}
	}
	if operands[0] != nil && splatElem(operands[0]) != nil {
		return foldViewLike(op, operands)
	}
	return nil, false
}

func foldBroadcast(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	if ir.TypesEqual(op.Operand(0).Type(), op.Result(0).Type()) {
		return []FoldResult{value(op.Operand(0))}, true
	}
	if e := splatElem(operands[0]); e != nil {
		return []FoldResult{constant(splatOf(e, op.Result(0).Type()))}, true
	}
	return nil, false
}

func broadcastCanonicalize(rw *Rewriter, op *ir.Operation) bool {
	d := op.Operand(0).DefiningOp()
	if d == nil {
		return false
	}
	switch d.Name() {
	case "tt.splat":
		rw.ReplaceOpWithNew(op, "tt.splat", []*ir.Value{d.Operand(0)}, op.ResultTypes(), nil)
		return true
	case "tt.broadcast":
		rw.ReplaceOpWithNew(op, "tt.broadcast", []*ir.Value{d.Operand(0)}, op.ResultTypes(), nil)
		return true
	}
	return false
}

func expandDimsCanonicalize(rw *Rewriter, op *ir.Operation) bool {
	d := op.Operand(0).DefiningOp()
	if d == nil {
		return false
	}
	switch d.Name() {
	case "tt.splat":
		rw.ReplaceOpWithNew(op, "tt.splat", []*ir.Value{d.Operand(0)}, op.ResultTypes(), nil)
		return true
	case "tt.broadcast":
		// expand_dims(broadcast(x)) -> broadcast(expand_dims(x))
		x := d.Operand(0)
		xt, ok := x.Type().(*ir.RankedTensorType)
		axis, ok2 := op.IntAttr("axis")
		if !ok || !ok2 || axis < 0 || int(axis) > len(xt.Shape) {
			return false
		}
		shape := slices.Insert(slices.Clone(xt.Shape), int(axis), 1)
		var enc ir.Attribute
		if xt.Encoding != nil {
			e := ir.Encoding(xt)
			s, ok := e.(*attr.Slice)
			if !ok || s.Dim != int(axis) {
				return false
			}
			enc = &ir.EncodingAttr{Enc: s.Parent}
		}
		nt := &ir.RankedTensorType{Shape: shape, Elem: xt.Elem, Encoding: enc}
		ne := rw.Create(op, "tt.expand_dims", []*ir.Value{x}, []ir.Type{nt}, allAttrs(op))
		nb := rw.Create(op, "tt.broadcast", []*ir.Value{ne.Result(0)}, op.ResultTypes(), nil)
		nb.Loc = d.Loc
		rw.ReplaceOp(op, nb.Result(0))
		return true
	}
	return false
}

func foldSplat(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	switch operands[0].(type) {
	case *ir.IntegerAttr, *ir.FloatAttr, *ir.BoolAttr:
		if isTensor(op.Result(0).Type()) {
			return []FoldResult{constant(splatOf(operands[0], op.Result(0).Type()))}, true
		}
	}
	return nil, false
}

// isZero reports whether a is an integer zero or a splat of one.
func isZero(a ir.Attribute) bool {
	if e := splatElem(a); e != nil {
		a = e
	}
	switch x := a.(type) {
	case *ir.IntegerAttr:
		return x.Value == 0
	case *ir.BoolAttr:
		return !x.Value
	}
	return false
}

func foldAddPtr(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	if isZero(operands[1]) {
		return []FoldResult{value(op.Operand(0))}, true
	}
	return nil, false
}

func foldAdvance(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	for _, a := range operands[1:] {
		if !isZero(a) {
			return nil, false
		}
	}
	return []FoldResult{value(op.Operand(0))}, true
}

func foldMakeRange(op *ir.Operation, _ []ir.Attribute) ([]FoldResult, bool) {
	start, ok1 := op.IntAttr("start")
	end, ok2 := op.IntAttr("end")
	t := op.Result(0).Type()
	if !ok1 || !ok2 || end-start != 1 {
		return nil, false
	}
	return []FoldResult{constant(splatOf(ir.Int(start, ir.ElementType(t)), t))}, true
}

// foldFpToFp folds conversions of ±0: to the same zero in the result type,
// or to +0 for the types without a negative zero (the FNUZ ones).
func foldFpToFp(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	a := operands[0]
	splat := false
	if e := splatElem(a); e != nil {
		a, splat = e, true
	}
	f, ok := a.(*ir.FloatAttr)
	if !ok || f.Value != 0 {
		return nil, false
	}
	t := op.Result(0).Type()
	et, ok := ir.ElementType(t).(*ir.FloatType)
	if !ok {
		return nil, false
	}
	v := f.Value
	if len(et.Kind) > 4 && et.Kind[len(et.Kind)-4:] == "FNUZ" {
		v = 0
	}
	z := &ir.FloatAttr{Value: v, Type: et}
	if splat {
		return []FoldResult{constant(splatOf(z, t))}, true
	}
	if isTensor(t) {
		return nil, false
	}
	return []FoldResult{constant(z)}, true
}

// splatBool reports the value of a constant splat i1 mask.
func splatBool(v *ir.Value) (val, ok bool) {
	e := splatElem(constantValue(v))
	switch x := e.(type) {
	case *ir.IntegerAttr:
		return x.Value != 0, true
	case *ir.BoolAttr:
		return x.Value, true
	}
	return false, false
}

func maskedLoad(rw *Rewriter, op *ir.Operation) bool {
	mask := op.NamedOperand("mask")
	if mask == nil {
		return false
	}
	on, ok := splatBool(mask)
	if !ok {
		return false
	}
	if !on {
		other := op.NamedOperand("other")
		if other == nil {
			return false
		}
		rw.ReplaceOp(op, other)
		return true
	}
	var attrs []ir.NamedAttr
	for _, a := range allAttrs(op) {
		if a.Name != "operandSegmentSizes" {
			attrs = append(attrs, a)
		}
	}
	attrs = append(attrs, ir.Segments(1, 0, 0))
	rw.ReplaceOpWithNew(op, "tt.load", []*ir.Value{op.NamedOperand("ptr")}, op.ResultTypes(), attrs)
	return true
}

func maskedStore(rw *Rewriter, op *ir.Operation) bool {
	mask := op.NamedOperand("mask")
	if mask == nil {
		return false
	}
	on, ok := splatBool(mask)
	if !ok {
		return false
	}
	if !on {
		rw.EraseOp(op)
		return true
	}
	rw.ReplaceOpWithNew(op, "tt.store", []*ir.Value{op.Operand(0), op.Operand(1)}, nil, allAttrs(op))
	return true
}

// foldConcat folds an amdg.concat of one source of the result's type to
// that source.
func foldConcat(op *ir.Operation, _ []ir.Attribute) ([]FoldResult, bool) {
	if op.NumOperands() == 1 && ir.TypesEqual(op.Operand(0).Type(), op.Result(0).Type()) {
		return []FoldResult{value(op.Operand(0))}, true
	}
	return nil, false
}

// extractSliceOfConcat replaces an amdg.extract_slice that takes exactly
// one source of an amdg.concat by that source (Triton's
// CanonicalizeExtractSliceAndConcat): the slice has the sources' type, and
// its offsets, divided by the source shape, index the sources in row-major
// order over the grid of tiles. (Triton's pattern does not check that the
// offsets are multiples of the source shape; an unaligned slice stays here.)
func extractSliceOfConcat(rw *Rewriter, op *ir.Operation) bool {
	concat := defOp(op.Operand(0), "amdg.concat")
	offsets, ok := op.Attr("static_offsets").(*ir.DenseArrayAttr)
	if concat == nil || !ok || concat.NumOperands() == 0 {
		return false
	}
	item := concat.Operand(0)
	if !ir.TypesEqual(item.Type(), op.Result(0).Type()) {
		return false
	}
	src, dst := ir.IntShape(item.Type()), ir.IntShape(concat.Result(0).Type())
	if len(src) == 0 || len(src) != len(dst) || len(offsets.Ints) != len(src) {
		return false
	}
	index := 0
	for i, n := range src {
		if n <= 0 || offsets.Ints[i] < 0 || offsets.Ints[i]%int64(n) != 0 || dst[i]%n != 0 {
			return false
		}
		index = index*(dst[i]/n) + int(offsets.Ints[i])/n
	}
	if index >= concat.NumOperands() {
		return false
	}
	rw.ReplaceOp(op, concat.Operand(index))
	return true
}
