// Package gpu declares the ops of MLIR's gpu dialect that TTGIR uses:
// gpu.barrier, a block-wide barrier. Importing it registers them in
// ir.Default().
package gpu

import "github.com/layoutopt/layoutopt/ir"

// Dialect is the gpu dialect (the part of it Triton's tests use).
var Dialect = &ir.Dialect{
	Name:    "gpu",
	Summary: "MLIR's GPU dialect: the ops Triton uses",
	Ops: []*ir.OpDef{
		{Name: "gpu.barrier", Summary: "synchronizes all work items of a workgroup", Format: "attr-dict"},
	},
}

func init() { ir.MustRegisterDialect(Dialect) }
