package ttng

import "github.com/layoutopt/layoutopt/ir"

// The Blackwell tcgen05 ops: MMAs on tensor memory, their commit, and the
// shared-to-tensor-memory copy.
func mmaOps() []*ir.OpDef {
	unit := func(name string) ir.AttrDef { return ir.AttrDef{Name: name, Kind: ir.UnitAttrKind, Optional: true} }
	return []*ir.OpDef{
		{Name: "ttng.tc_gen5_mma", Summary: "block-level op mapping to Tensor Core Gen5 MMA",
			Traits: ir.MemoryRead | ir.MemoryWrite | ir.AttrSizedOperandSegments,
			Operands: []ir.ArgDef{ir.Arg("a"), ir.Arg("b"), ir.Arg("d"), ir.Opt("acc_dep"), ir.Arg("useD"), ir.Arg("pred"),
				ir.Vars("barriers"), ir.Vars("barrier_preds")},
			Results: []ir.ArgDef{ir.Opt("token")},
			Attrs:   []ir.AttrDef{unit("is_async"), unit("two_ctas")},
			Format: "$a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $useD`,` $pred " +
				"`` custom<BarriersAndPreds>($barriers, $barrier_preds) attr-dict `:` qualified(type($a)) `,` " +
				"qualified(type($b)) `,` qualified(type($d)) (`,` qualified(type($barriers))^)?",
			Custom:     mmaCustom(),
			InferTypes: inferI1("useD", "pred", "barrier_preds"),
			Verify:     verifyTCGen5MMA},
		{Name: "ttng.tc_gen5_mma_scaled", Summary: "block-level op mapping to Tensor Core Gen5 MMA with block scaling",
			Traits: ir.MemoryRead | ir.MemoryWrite | ir.AttrSizedOperandSegments,
			Operands: []ir.ArgDef{ir.Arg("a"), ir.Arg("b"), ir.Arg("d"), ir.Opt("acc_dep"), ir.Arg("a_scale"), ir.Arg("b_scale"),
				ir.Arg("useD"), ir.Arg("pred"), ir.Vars("barriers"), ir.Vars("barrier_preds")},
			Results: []ir.ArgDef{ir.Opt("token")},
			Attrs: []ir.AttrDef{
				{Name: "a_type", Kind: ir.EnumAttrKind, Enum: scaleDotElemType},
				{Name: "b_type", Kind: ir.EnumAttrKind, Enum: scaleDotElemType},
				unit("is_async"), unit("two_ctas"),
			},
			Format: "$a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $a_scale `,` $b_scale `,` $useD `,` $pred " +
				"`lhs` `=` $a_type `rhs` `=` $b_type `` custom<BarriersAndPreds>($barriers, $barrier_preds) attr-dict `:` " +
				"qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($d)) `,` qualified(type($a_scale)) `,` " +
				"qualified(type($b_scale)) (`,` qualified(type($barriers))^)?",
			Custom:     mmaCustom(),
			InferTypes: inferI1("useD", "pred", "barrier_preds")},
		{Name: "ttng.tc_gen5_commit", Summary: "make an mbarrier track completion of all prior async tcgen5 ops",
			Traits:     ir.MemoryWrite,
			Operands:   []ir.ArgDef{ir.Arg("barrier"), ir.Opt("pred")},
			Format:     "$barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))",
			InferTypes: inferI1("pred"),
			Verify:     func(op *ir.Operation) error { return verifyBarrierType(op.NamedOperand("barrier")) }},
		{Name: "ttng.tmem_copy", Summary: "initiate an asynchronous copy from shared memory to tensor memory",
			Traits:   ir.MemoryRead | ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("src"), ir.Arg("dst"), ir.Opt("barrier")},
			Format:   "$src `,` $dst (`,` $barrier^)? attr-dict `:` qualified(type(operands))",
			Verify:   verifyTMEMCopy},
	}
}
