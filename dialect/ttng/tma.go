package ttng

import "github.com/layoutopt/layoutopt/ir"

// The TMA (tensor memory accelerator) ops: copies between global memory,
// through a tensor descriptor, and shared memory.
func tmaOps() []*ir.OpDef {
	return []*ir.OpDef{
		{Name: "ttng.async_tma_copy_global_to_local", Summary: "copy data based on descriptor from global memory to local memory asynchronously",
			Traits:   ir.MemoryRead | ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("desc"), ir.Vars("coord"), ir.Arg("barrier"), ir.Arg("result"), ir.Arg("pred")},
			Attrs: []ir.AttrDef{
				{Name: "cache", Kind: ir.EnumAttrKind, Enum: cacheModifier, Default: cacheModifier.Attr(1)},
				{Name: "evict", Kind: ir.EnumAttrKind, Enum: evictionPolicy, Default: evictionPolicy.Attr(1)},
				{Name: "isVolatile", Kind: ir.BoolAttrKind, Default: ir.False},
			},
			// Triton writes oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict);
			// the two optional groups print the same, in this order.
			Format: "$desc `[` $coord `]` $result `,` $barrier `,` $pred (`cacheModifier` `=` $cache^)? " +
				"(`evictionPolicy` `=` $evict^)? attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))",
			InferTypes: func(fs *ir.FormatState) error {
				_ = inferI32("coord")(fs)
				return inferI1("pred")(fs)
			},
			Verify: verifyTMALoad},
		{Name: "ttng.async_tma_copy_local_to_global", Summary: "copy data based on descriptor from local memory to global memory asynchronously",
			Traits:     ir.MemoryRead | ir.MemoryWrite,
			Operands:   []ir.ArgDef{ir.Arg("desc"), ir.Vars("coord"), ir.Arg("src")},
			Format:     "$desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))",
			InferTypes: inferI32("coord")},
		{Name: "ttng.async_tma_gather", Summary: "gather data based on descriptor from global memory to local memory asynchronously",
			Traits:   ir.MemoryRead | ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("desc"), ir.Arg("x_offsets"), ir.Arg("y_offset"), ir.Arg("barrier"), ir.Arg("result"), ir.Arg("pred")},
			Format:   "$desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred attr-dict `:` type(operands)",
			Verify:   verifyTMALoad},
		{Name: "ttng.async_tma_scatter", Summary: "scatter data from local memory into global memory based on a descriptor asynchronously",
			Traits:   ir.MemoryRead | ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("desc"), ir.Arg("x_offsets"), ir.Arg("y_offset"), ir.Arg("src")},
			Format:   "$desc `[` $x_offsets `,` $y_offset `]` $src attr-dict `:` type(operands)"},
		{Name: "ttng.async_tma_store_wait", Summary: "wait for pending TMA store operations",
			Attrs:  []ir.AttrDef{{Name: "pendings", Kind: ir.I32Attr}},
			Format: "attr-dict"},
		{Name: "ttng.reinterpret_tensor_descriptor", Summary: "reinterpret a pointer as a tensor descriptor", Traits: ir.Pure,
			Operands: []ir.ArgDef{ir.Arg("rawDesc")}, Results: []ir.ArgDef{ir.Arg("result")},
			Format: "$rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))"},
		{Name: "ttng.tensormap_create", Summary: "create a new TMA descriptor on device",
			Traits: ir.MemoryRead | ir.MemoryWrite | ir.AttrSizedOperandSegments,
			Operands: []ir.ArgDef{ir.Arg("desc_ptr"), ir.Arg("global_address"), ir.Vars("box_dim"), ir.Vars("global_dim"),
				ir.Vars("global_stride"), ir.Vars("element_stride")},
			Attrs: []ir.AttrDef{{Name: "elem_type", Kind: ir.I32Attr}, {Name: "interleave_layout", Kind: ir.I32Attr},
				{Name: "swizzle_mode", Kind: ir.I32Attr}, {Name: "fill_mode", Kind: ir.I32Attr}},
			Format: "$desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,` `[` $global_stride `]` `,` " +
				"`[` $element_stride `]` attr-dict `:` functional-type(operands, results)"},
		{Name: "ttng.tensormap_fenceproxy_acquire", Summary: "acquire fence on a tensormap object", Traits: ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("desc_ptr")},
			Format:   "$desc_ptr attr-dict `:` qualified(type($desc_ptr))"},
	}
}
