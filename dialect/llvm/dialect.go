// Package llvm declares the ops of MLIR's LLVM dialect that TTGIR files
// use before lowering: llvm.intr.assume, which Triton's AMD passes read
// as value-range facts, and llvm.mlir.global, the shared-memory base. Importing it registers them in ir.Default().
package llvm

import "github.com/layoutopt/layoutopt/ir"

// Dialect is the llvm dialect (the part of it Triton's tests use on TTGIR).
var Dialect = &ir.Dialect{
	Name:    "llvm",
	Summary: "MLIR's LLVM dialect: the ops TTGIR uses",
	Ops: []*ir.OpDef{
		// MLIR writes `$cond (custom<OpBundles>(...)^)? : type($cond)
		// attr-dict`; operand bundles are not supported here (Triton
		// never writes them), and op_bundle_sizes defaults to empty.
		{Name: "llvm.intr.assume", Summary: "assume a condition holds",
			Traits:   ir.AttrSizedOperandSegments,
			Operands: []ir.ArgDef{ir.Arg("cond"), ir.Vars("op_bundle_operands")},
			Attrs: []ir.AttrDef{
				{Name: "op_bundle_sizes", Kind: ir.DenseI32Array, Default: &ir.DenseArrayAttr{Elem: ir.I32, Ints: []int64{}}},
				{Name: "op_bundle_tags", Optional: true},
			},
			Format:     "$cond `:` type($cond) attr-dict",
			InferTypes: func(*ir.FormatState) error { return nil }},
		globalDef,
	},
}

func init() { ir.MustRegisterDialect(Dialect) }
