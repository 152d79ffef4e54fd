// Package ttng declares the ops of Triton's TritonNvidiaGPU dialect
// (TritonNvidiaGPUOps.td in Triton 3.6): Hopper warp-group MMAs, Blackwell
// tensor memory and tcgen05 MMAs, mbarriers and TMA copies. Importing it
// registers them in ir.Default().
package ttng

import "github.com/layoutopt/layoutopt/ir"

// Dialect is the ttng dialect.
var Dialect = &ir.Dialect{
	Name:    "ttng",
	Summary: "NVIDIA-specific TritonGPU ops (Hopper and Blackwell)",
	Ops:     ops(),
}

func init() { ir.MustRegisterDialect(Dialect) }

// inputPrecision is Triton's TT_InputPrecisionAttr (an I32EnumAttr).
var inputPrecision = &ir.Enum{Name: "allowed 32-bit signless integer cases: 0, 1, 2, 3, 4",
	Cases: []string{"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"}}

// scaleDotElemType is Triton's TT_ScaleDotElemTypeAttr.
var scaleDotElemType = &ir.Enum{Name: "allowed 32-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6",
	Cases: []string{"e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "bf16", "fp16"}}

// cacheModifier and evictionPolicy are Triton's TT_CacheModifierAttr and
// TT_EvictionPolicyAttr.
var (
	cacheModifier  = &ir.Enum{Name: "cache modifier", Cases: []string{"none", "ca", "cg", "wb", "cs", "wt", "cv"}, Base: 1}
	evictionPolicy = &ir.Enum{Name: "eviction policy", Cases: []string{"evict_normal", "evict_first", "evict_last"}, Base: 1}
)

// i1 is the type rule of a predicate operand: always i1.
func i1(ir.Type) ir.Type { return ir.I1 }

func ops() []*ir.OpDef {
	return append(baseOps(), append(mmaOps(), tmaOps()...)...)
}

func baseOps() []*ir.OpDef {
	return []*ir.OpDef{
		{Name: "ttng.fence_async_shared", Summary: "fence proxy async",
			Attrs:  []ir.AttrDef{{Name: "bCluster", Kind: ir.BoolAttrKind}},
			Format: "attr-dict"},
		{Name: "ttng.warp_group_dot", Summary: "warp group dot", Traits: ir.MemoryRead,
			Operands: []ir.ArgDef{ir.Arg("a"), ir.Arg("b"), ir.Arg("c"), ir.Opt("useC")},
			Results:  []ir.ArgDef{ir.Arg("d")},
			Attrs: []ir.AttrDef{
				{Name: "inputPrecision", Kind: ir.EnumAttrKind, Enum: inputPrecision, Default: inputPrecision.Attr(2)},
				{Name: "maxNumImpreciseAcc", Kind: ir.I32Attr, Default: ir.Int(0, ir.I32)},
				{Name: "isAsync", Kind: ir.BoolAttrKind, Default: ir.False},
			},
			Format:    "$a`,` $b`,` $c (`,` $useC^)? attr-dict `:` type($a) `*` qualified(type($b)) `->` type($d)",
			TypeRules: []ir.TypeRule{ir.Same("c", "d"), {Target: "useC", From: "d", Fn: i1}},
			Verify:    verifyWarpGroupDot},
		{Name: "ttng.warp_group_dot_wait", Summary: "warp group dot wait",
			Operands: []ir.ArgDef{ir.Vars("inputs")}, Results: []ir.ArgDef{ir.Vars("outputs")},
			Attrs:  []ir.AttrDef{{Name: "pendings", Kind: ir.I32Attr}},
			Format: "$inputs attr-dict `:` type($inputs)",
			// Each output is its input, in the same layout: layouts pass
			// through (Triton's propagateToUsers and rewriteOp).
			Layout: &ir.LayoutRule{Kind: ir.LayoutPassThrough, Cost: ir.CostFree},
			InferTypes: func(fs *ir.FormatState) error {
				fs.SetTypes("outputs", fs.Types("inputs"))
				return nil
			}},
		{Name: "ttng.init_barrier", Summary: "initialize a barrier in the given shared memory allocation", Traits: ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("alloc")},
			Attrs:    []ir.AttrDef{{Name: "count", Kind: ir.I32Attr}},
			Format:   "$alloc `,` $count attr-dict `:` qualified(type($alloc))",
			Verify:   verifyBarrierAlloc},
		{Name: "ttng.inval_barrier", Summary: "invalidate a barrier allocation", Traits: ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("alloc")},
			Format:   "$alloc attr-dict `:` qualified(type($alloc))",
			Verify:   verifyBarrierAlloc},
		{Name: "ttng.barrier_expect", Summary: "signal a barrier of an expected number of bytes to be copied", Traits: ir.MemoryWrite,
			Operands:  []ir.ArgDef{ir.Arg("alloc"), ir.Arg("pred")},
			Attrs:     []ir.AttrDef{{Name: "size", Kind: ir.I32Attr}},
			Format:    "$alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))",
			TypeRules: []ir.TypeRule{{Target: "pred", From: "alloc", Fn: i1}},
			Verify:    verifyBarrierAlloc},
		{Name: "ttng.wait_barrier", Summary: "wait until the mbarrier phase completes",
			Traits:    ir.MemoryRead | ir.MemoryWrite | ir.AttrSizedOperandSegments,
			Operands:  []ir.ArgDef{ir.Arg("alloc"), ir.Arg("phase"), ir.Opt("pred"), ir.Vars("deps")},
			Format:    "$alloc `,` $phase (`,` $pred^)? (`deps` $deps^)? attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?",
			TypeRules: []ir.TypeRule{{Target: "phase", From: "alloc", Fn: func(ir.Type) ir.Type { return ir.I32 }}, {Target: "pred", From: "alloc", Fn: i1}},
			Verify:    verifyBarrierAlloc},
		{Name: "ttng.arrive_barrier", Summary: "perform the arrive operation on an mbarrier", Traits: ir.MemoryRead | ir.MemoryWrite,
			Operands:  []ir.ArgDef{ir.Arg("alloc"), ir.Opt("pred")},
			Attrs:     []ir.AttrDef{{Name: "count", Kind: ir.I32Attr}},
			Format:    "$alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))",
			TypeRules: []ir.TypeRule{{Target: "pred", From: "alloc", Fn: i1}},
			Verify:    verifyArriveBarrier},
		// Triton names the results of the tensor memory ops (getAsmResultNames).
		{Name: "ttng.tmem_alloc", Summary: "allocate tensor memory",
			Operands: []ir.ArgDef{ir.Opt("src")}, Results: []ir.ArgDef{ir.Arg("result"), ir.Opt("token")},
			Format:      "($src^)? attr-dict `:` functional-type(operands, results)",
			ResultNames: []string{"result", "token"},
			Verify:      verifyTMEMAlloc},
		{Name: "ttng.tmem_load", Summary: "load a buffer from tensor memory into a distributed tensor", Traits: ir.MemoryRead,
			Operands: []ir.ArgDef{ir.Arg("src"), ir.Opt("dep")}, Results: []ir.ArgDef{ir.Arg("result"), ir.Opt("token")},
			Format:      "$src `` custom<Token>($dep, type($token)) attr-dict `:` qualified(type($src)) `->` type($result)",
			Custom:      tokenCustom("dep"),
			ResultNames: []string{"result", "token"}},
		{Name: "ttng.tmem_store", Summary: "store a distributed tensor into a buffer in tensor memory", Traits: ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("dst"), ir.Opt("dep"), ir.Arg("src"), ir.Arg("pred")},
			Results:  []ir.ArgDef{ir.Opt("token")},
			Format:   "$src `,` $dst `` custom<Token>($dep, type($token)) `,` $pred attr-dict `:` type($src) `->` qualified(type($dst))",
			Custom:   tokenCustom("dep"),
			InferTypes: func(fs *ir.FormatState) error {
				fs.SetTypes("pred", []ir.Type{ir.I1})
				return nil
			},
			Verify: verifyTMEMStore},
		{Name: "ttng.tmem_subslice", Summary: "take a subslice of a tensor memory allocation", Traits: ir.Pure,
			Operands: []ir.ArgDef{ir.Arg("src")}, Results: []ir.ArgDef{ir.Arg("result")},
			Attrs:  []ir.AttrDef{{Name: "N", Kind: ir.I32Attr}},
			Format: "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))"},
	}
}
