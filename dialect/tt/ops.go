package tt

import "github.com/layoutopt/layoutopt/ir"

var (
	arg  = ir.Arg
	opt  = ir.Opt
	vars = ir.Vars
)

func args(names ...string) []ir.ArgDef {
	out := make([]ir.ArgDef, len(names))
	for i, n := range names {
		out[i] = ir.Arg(n)
	}
	return out
}

// Type functions of the TypesMatchWith constraints.
func pointee(t ir.Type) ir.Type {
	if d, ok := ir.PointeeLike(t); ok {
		return d
	}
	return nil
}
func i1Like(t ir.Type) ir.Type { return ir.WithElem(t, ir.I1) }
func i32(ir.Type) ir.Type      { return ir.I32 }
func elemOf(t ir.Type) ir.Type { return ir.ElementType(t) }
func rule(target, from string, fn func(ir.Type) ir.Type) ir.TypeRule {
	return ir.TypeRule{Target: target, From: from, Fn: fn}
}

const (
	pure     = ir.Pure
	castLike = ir.Pure | ir.Elementwise | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultEncoding
	arrow    = "$src attr-dict `:` type($src) `->` type($result)"
)

func withVerify(d *ir.OpDef, fn func(*ir.Operation) error) *ir.OpDef {
	d.Verify = fn
	return d
}

// unary declares `$src attr-dict : type($src) -> type($result)` ops.
func unary(name, summary string, traits ir.Trait, attrs ...ir.AttrDef) *ir.OpDef {
	return &ir.OpDef{Name: name, Summary: summary, Traits: traits,
		Operands: args("src"), Results: args("result"), Attrs: attrs, Format: arrow}
}

func ops() []*ir.OpDef {
	loadStoreTail := " (`cacheModifier` `=` $cache^)? (`evictionPolicy` `=` $evict^)? attr-dict `:` type($ptr)"
	boundaryCheck := ir.AttrDef{Name: "boundaryCheck", Kind: ir.DenseI32Array, Default: &ir.DenseArrayAttr{Elem: ir.I32, Ints: []int64{}}}
	splat := unary("tt.splat", "broadcast a scalar to a tensor", pure|ir.SameOperandsAndResultEncoding)
	splat.Verify, splat.Layout = verifySplat, freeLayout
	broadcast := unary("tt.broadcast", "broadcast size-1 dimensions", pure|ir.SameOperandsAndResultEncoding|ir.SameOperandsAndResultElementType)
	broadcast.Verify, broadcast.Layout = verifyBroadcast, broadcastLayout
	expand := unary("tt.expand_dims", "insert a size-1 dimension", pure|ir.SameOperandsAndResultElementType, ir.AttrDef{Name: "axis", Kind: ir.I32Attr})
	expand.Verify, expand.Layout = verifyExpandDims, expandDimsLayout
	trans := unary("tt.trans", "permute dimensions", pure|ir.SameOperandsAndResultElementType, ir.AttrDef{Name: "order", Kind: ir.DenseI32Array})
	trans.Verify, trans.Layout = verifyTrans, transLayout
	return []*ir.OpDef{
		splat, broadcast, expand, trans,
		{Name: "tt.unsplat", Summary: "the element of a one-element tensor", Traits: pure,
			Operands: args("src"), Results: args("result"), Format: "$src attr-dict `:` type($src)",
			TypeRules: []ir.TypeRule{rule("result", "src", elemOf)}, Verify: verifyUnsplat},
		{Name: "tt.histogram", Summary: "histogram of a tensor", Traits: pure,
			Operands: []ir.ArgDef{arg("src"), opt("mask")}, Results: args("result"),
			Format:    "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)",
			TypeRules: []ir.TypeRule{rule("mask", "src", i1Like)}},
		withVerify(unary("tt.bitcast", "bit cast", castLike), verifyBitcast),
		unary("tt.int_to_ptr", "integer to pointer", castLike),
		unary("tt.ptr_to_int", "pointer to integer", castLike),
		{Name: "tt.join", Summary: "join two tensors along a new minor dimension", Traits: pure | ir.SameOperandsAndResultElementType,
			Operands: args("lhs", "rhs"), Results: args("result"),
			Format: "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)", TypeRules: []ir.TypeRule{ir.Same("rhs", "lhs")},
			Verify: verifyJoin, Layout: joinLayout},
		{Name: "tt.split", Summary: "split the minor size-2 dimension", Traits: pure, Verify: verifySplit, Layout: splitLayout,
			Operands: args("src"), Results: args("outLHS", "outRHS"),
			Format: "$src attr-dict `:` type($src) `->` type($outLHS)", TypeRules: []ir.TypeRule{ir.Same("outRHS", "outLHS")}},
		{Name: "tt.cat", Summary: "concatenate", Traits: pure | ir.SameOperandsAndResultElementType,
			Operands: args("lhs", "rhs"), Results: args("result"),
			Format: "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)", TypeRules: []ir.TypeRule{ir.Same("rhs", "lhs")},
			Verify: verifyCat},
		{Name: "tt.make_range", Summary: "a 1-D tensor of consecutive integers", Traits: pure,
			Results: args("result"), Attrs: []ir.AttrDef{{Name: "start", Kind: ir.I32Attr}, {Name: "end", Kind: ir.I32Attr}},
			Format: "attr-dict `:` type($result)", Verify: verifyMakeRange, Layout: freeLayout},
		{Name: "tt.get_program_id", Summary: "program id along an axis", Traits: pure,
			Results: args("result"), Attrs: []ir.AttrDef{{Name: "axis", Kind: ir.EnumAttrKind, Enum: ProgramIDDim}},
			Format: "$axis attr-dict `:` type($result)"},
		{Name: "tt.get_num_programs", Summary: "number of programs along an axis", Traits: pure,
			Results: args("result"), Attrs: []ir.AttrDef{{Name: "axis", Kind: ir.EnumAttrKind, Enum: ProgramIDDim}},
			Format: "$axis attr-dict `:` type($result)"},
		{Name: "tt.addptr", Summary: "pointer plus offset", Traits: castLike,
			Operands: args("ptr", "offset"), Results: args("result"),
			Format:    "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)",
			TypeRules: []ir.TypeRule{ir.Same("ptr", "result")}, Verify: verifyAddPtr},
		{Name: "tt.load", Summary: "load from global memory",
			Traits:   ir.MemoryRead | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultEncoding | ir.AttrSizedOperandSegments,
			Operands: []ir.ArgDef{arg("ptr"), opt("mask"), opt("other")}, Results: args("result"),
			Attrs: []ir.AttrDef{boundaryCheck, {Name: "padding", Optional: true},
				enumAttr("cache", CacheModifier, 1), enumAttr("evict", EvictionPolicy, 1),
				{Name: "isVolatile", Kind: ir.BoolAttrKind, Default: ir.False}},
			Format:    "$ptr (`,` $mask^)? (`,` $other^)?" + loadStoreTail,
			TypeRules: []ir.TypeRule{rule("result", "ptr", pointee), rule("mask", "ptr", i1Like), rule("other", "ptr", pointee)},
			Verify:    verifyLoadStore, Layout: loadLayout},
		{Name: "tt.store", Summary: "store to global memory",
			Traits:    ir.MemoryWrite | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultEncoding,
			Operands:  []ir.ArgDef{arg("ptr"), arg("value"), opt("mask")},
			Attrs:     []ir.AttrDef{boundaryCheck, enumAttr("cache", CacheModifier, 1), enumAttr("evict", EvictionPolicy, 1)},
			Format:    "$ptr `,` $value (`,` $mask^)?" + loadStoreTail,
			TypeRules: []ir.TypeRule{rule("value", "ptr", pointee), rule("mask", "ptr", i1Like)},
			Verify:    verifyLoadStore},
		{Name: "tt.dot", Summary: "matrix multiply-accumulate", Traits: pure,
			Operands: args("a", "b", "c"), Results: args("d"),
			Attrs: []ir.AttrDef{enumAttr("inputPrecision", InputPrecision, 2),
				{Name: "maxNumImpreciseAcc", Kind: ir.I32Attr, Default: ir.Int(0, ir.I32)}},
			Format:    "$a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:` type($a) `*` type($b) `->` type($d)",
			TypeRules: []ir.TypeRule{ir.Same("c", "d")}, Verify: verifyDot},
		{Name: "tt.dot_scaled", Summary: "matrix multiply of microscaled operands", Traits: pure | ir.AttrSizedOperandSegments,
			Operands: []ir.ArgDef{arg("a"), arg("b"), arg("c"), opt("a_scale"), opt("b_scale")}, Results: args("d"),
			Attrs: []ir.AttrDef{{Name: "a_elem_type", Kind: ir.EnumAttrKind, Enum: ScaleDotElem},
				{Name: "b_elem_type", Kind: ir.EnumAttrKind, Enum: ScaleDotElem}, {Name: "fastMath", Kind: ir.BoolAttrKind}},
			Format: "$a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict" +
				" `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)",
			TypeRules: []ir.TypeRule{ir.Same("c", "d")}, Verify: verifyDotScaled},
		{Name: "tt.reshape", Summary: "reshape a tensor", Traits: pure | ir.SameOperandsAndResultElementType,
			Operands: args("src"), Results: args("result"),
			Attrs:  []ir.AttrDef{{Name: "allow_reorder", Kind: ir.UnitAttrKind}, {Name: "efficient_layout", Kind: ir.UnitAttrKind}},
			Format: "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict `:` type($src) `->` type($result)",
			Verify: verifyReshape, Layout: reshapeLayout},
		{Name: "tt.gather", Summary: "gather along an axis", Traits: pure,
			Operands: args("src", "indices"), Results: args("result"),
			Attrs:  []ir.AttrDef{{Name: "axis", Kind: ir.I32Attr}, {Name: "efficient_layout", Kind: ir.UnitAttrKind}},
			Format: "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)", Verify: verifyGather,
			Layout: gatherLayout},
		{Name: "tt.fp_to_fp", Summary: "float conversion", Traits: castLike,
			Operands: args("src"), Results: args("result"),
			Attrs:  []ir.AttrDef{{Name: "rounding", Kind: ir.EnumAttrKind, Enum: RoundingMode, Optional: true}},
			Format: "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)", Layout: fpToFpLayout},
		// tt.reduce and tt.scan have no custom form (MLIR hand-writes
		// none either: Triton prints them generically).
		{Name: "tt.reduce", Summary: "reduce along an axis (generic form only)", Traits: pure | ir.SingleBlock,
			Operands: []ir.ArgDef{vars("srcs")}, Results: []ir.ArgDef{vars("result")},
			Attrs: []ir.AttrDef{{Name: "axis", Kind: ir.I32Attr}}, Regions: args("combineOp"), Verify: verifyReduce, Layout: reduceLayout},
		{Name: "tt.reduce.return", Summary: "terminator of tt.reduce", Traits: pure | ir.Terminator | ir.ReturnLike,
			Operands: []ir.ArgDef{vars("result")}, Format: "$result attr-dict `:` type($result)", Verify: ir.HasParent("tt.reduce")},
		{Name: "tt.scan", Summary: "scan along an axis (generic form only)", Traits: pure | ir.SingleBlock,
			Operands: []ir.ArgDef{vars("srcs")}, Results: []ir.ArgDef{vars("result")},
			Attrs:   []ir.AttrDef{{Name: "axis", Kind: ir.I32Attr}, {Name: "reverse", Kind: ir.BoolAttrKind}},
			Regions: args("combineOp"), Verify: verifyScan, Layout: scanLayout},
		{Name: "tt.scan.return", Summary: "terminator of tt.scan", Traits: pure | ir.Terminator | ir.ReturnLike,
			Operands: []ir.ArgDef{vars("result")}, Format: "$result attr-dict `:` type($result)", Verify: ir.HasParent("tt.scan")},
		{Name: "tt.precise_sqrt", Summary: "precise square root", Traits: castLike | ir.SameOperandsAndResultType,
			Operands: args("x"), Results: args("result"), Format: "$x attr-dict `:` type($x)", Layout: expensiveLayout},
		{Name: "tt.precise_divf", Summary: "precise division", Traits: castLike | ir.SameOperandsAndResultType,
			Operands: args("x", "y"), Results: args("result"), Format: "$x `,` $y attr-dict `:` type($x)", Layout: expensiveLayout},
		{Name: "tt.mulhiui", Summary: "high half of the product of two integers", Traits: castLike | ir.SameOperandsAndResultType,
			Operands: args("x", "y"), Results: args("result"), Format: "$x `,` $y attr-dict `:` type($x)", Layout: expensiveLayout},
		{Name: "tt.clampf", Summary: "clamp a float between a minimum and a maximum",
			Traits:   castLike | ir.SameOperandsAndResultType,
			Operands: args("x", "min", "max"), Results: args("result"),
			Attrs: []ir.AttrDef{{Name: "propagateNan", Kind: ir.I32Attr}},
			Parse: parseClampF, Print: printClampF},
		{Name: "tt.atomic_rmw", Summary: "atomic read-modify-write",
			Traits:   ir.MemoryRead | ir.MemoryWrite | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultEncoding,
			Operands: []ir.ArgDef{arg("ptr"), arg("val"), opt("mask")}, Results: args("result"),
			Attrs: []ir.AttrDef{{Name: "atomic_rmw_op", Kind: ir.EnumAttrKind, Enum: RMWOp},
				{Name: "sem", Kind: ir.EnumAttrKind, Enum: MemSemantic}, {Name: "scope", Kind: ir.EnumAttrKind, Enum: MemSyncScope}},
			Format: "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` functional-type(operands, $result)",
			Verify: verifyAtomicRMW},
		{Name: "tt.atomic_cas", Summary: "atomic compare-and-swap",
			Traits:   ir.MemoryRead | ir.MemoryWrite | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultEncoding,
			Operands: args("ptr", "cmp", "val"), Results: args("result"),
			Attrs:  []ir.AttrDef{{Name: "sem", Kind: ir.EnumAttrKind, Enum: MemSemantic}, {Name: "scope", Kind: ir.EnumAttrKind, Enum: MemSyncScope}},
			Format: "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)",
			Verify: verifyAtomicCAS},
		{Name: "tt.make_tensor_ptr", Summary: "block pointer into a tensor", Traits: pure,
			// SameVariadicOperandSize: the operands are not declared, as
			// groups() cannot split several variadic groups without sizes.
			Results: args("result"),
			Attrs:   []ir.AttrDef{{Name: "order", Kind: ir.DenseI32Array}}, Parse: parseMakeTensorPtr, Print: printMakeTensorPtr},
		{Name: "tt.advance", Summary: "advance a block pointer by offsets", Traits: pure,
			Operands: []ir.ArgDef{arg("ptr"), vars("offsets")}, Results: args("result"), Parse: parseAdvance, Print: printAdvance},
		{Name: "tt.make_tensor_descriptor", Summary: "tensor descriptor of a global tensor", Traits: pure,
			Results: args("result"),
			Parse:   parseMakeTensorDesc, Print: printMakeTensorDesc},
		{Name: "tt.descriptor_load", Summary: "load a block through a tensor descriptor", Traits: ir.MemoryRead,
			Operands: []ir.ArgDef{arg("desc"), vars("indices")}, Results: args("result"),
			Attrs:     []ir.AttrDef{enumAttr("cache", CacheModifier, 1), enumAttr("evict", EvictionPolicy, 1)},
			Format:    "$desc `[` $indices `]` (`cacheModifier` `=` $cache^)? (`evictionPolicy` `=` $evict^)? attr-dict `:` qualified(type($desc)) `->` type($result)",
			TypeRules: []ir.TypeRule{rule("indices", "desc", i32)}, Verify: verifyDescriptorLoad},
		{Name: "tt.descriptor_store", Summary: "store a block through a tensor descriptor", Traits: ir.MemoryRead | ir.MemoryWrite,
			Operands:  []ir.ArgDef{arg("desc"), arg("src"), vars("indices")},
			Format:    "$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)",
			TypeRules: []ir.TypeRule{rule("indices", "desc", i32)}, Verify: verifyDescriptorStore},
		{Name: "tt.descriptor_gather", Summary: "gather rows through a tensor descriptor", Traits: ir.MemoryRead,
			Operands: args("desc", "x_offsets", "y_offset"), Results: args("result"),
			Format: "$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)", Verify: verifyDescriptorGather},
		{Name: "tt.descriptor_scatter", Summary: "scatter rows through a tensor descriptor", Traits: ir.MemoryRead | ir.MemoryWrite,
			Operands: args("desc", "x_offsets", "y_offset", "src"),
			Format:   "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)", Verify: verifyDescriptorScatter},
		{Name: "tt.extern_elementwise", Summary: "call an external elementwise function",
			Traits:   ir.Elementwise | ir.SameOperandsAndResultEncoding,
			Operands: []ir.ArgDef{vars("srcs")}, Results: args("result"),
			Attrs: []ir.AttrDef{{Name: "libname", Kind: ir.StrAttr}, {Name: "libpath", Kind: ir.StrAttr},
				{Name: "symbol", Kind: ir.StrAttr}, {Name: "pure", Kind: ir.BoolAttrKind}},
			Format: "operands attr-dict `:` functional-type(operands, $result)", Layout: expensiveLayout},
		{Name: "tt.elementwise_inline_asm", Summary: "inline assembly applied to packed elements",
			Traits:   ir.Elementwise | ir.SameOperandsAndResultEncoding,
			Operands: []ir.ArgDef{vars("args")}, Results: []ir.ArgDef{vars("result")},
			Attrs: []ir.AttrDef{{Name: "asm_string", Kind: ir.StrAttr}, {Name: "constraints", Kind: ir.StrAttr},
				{Name: "pure", Kind: ir.BoolAttrKind}, {Name: "packed_element", Kind: ir.I32Attr}},
			Format: "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)", Verify: verifyInlineAsm},
		{Name: "tt.print", Summary: "device-side print", Traits: ir.MemoryWrite,
			Operands: []ir.ArgDef{vars("args")},
			Attrs: []ir.AttrDef{{Name: "prefix", Kind: ir.StrAttr}, {Name: "hex", Kind: ir.BoolAttrKind},
				{Name: "isSigned", Kind: ir.DenseI32Array}},
			Format: "$prefix attr-dict (`:` $args^ `:` type($args))?"},
		{Name: "tt.assert", Summary: "device-side assert", Traits: ir.MemoryWrite, Layout: assertLayout,
			Operands: args("condition"), Attrs: []ir.AttrDef{{Name: "message", Kind: ir.StrAttr}},
			Format: "$condition `,` $message attr-dict `:` type($condition)"},
		{Name: "tt.map_elementwise", Summary: "apply a scalar region to packs of elements (generic form only)",
			Traits: ir.SingleBlock, Operands: []ir.ArgDef{vars("srcs")}, Results: []ir.ArgDef{vars("result")},
			Attrs: []ir.AttrDef{{Name: "pack", Kind: ir.I32Attr}}, Regions: args("scalarOp"), Verify: verifyMapElementwise},
		{Name: "tt.map_elementwise.return", Summary: "terminator of tt.map_elementwise", Traits: pure | ir.Terminator | ir.ReturnLike,
			Operands: []ir.ArgDef{vars("result")}, Format: "attr-dict ($result^ `:` type($result))?", Verify: verifyMapReturn},
		funcDef,
		{Name: "tt.return", Summary: "return from a tt.func", Traits: pure | ir.Terminator | ir.ReturnLike,
			Operands: []ir.ArgDef{vars("srcs")}, Format: "attr-dict ($srcs^ `:` type($srcs))?", Verify: ir.HasParent("tt.func")},
		{Name: "tt.call", Summary: "call a tt.func",
			Operands: []ir.ArgDef{vars("operands")}, Results: []ir.ArgDef{vars("results")},
			Attrs: []ir.AttrDef{{Name: "callee", Kind: ir.SymbolRef},
				{Name: "arg_attrs", Optional: true}, {Name: "res_attrs", Optional: true}},
			Format: "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)", Verify: verifyCall},
	}
}
