// Package tt declares the ops of Triton's tt dialect (TritonOps.td of
// Triton 3.6): tensor creation and shape ops, pointer arithmetic, loads
// and stores, atomics, dots, reductions, tensor descriptors, functions,
// calls and returns. Importing it registers them in ir.Default().
//
// Most ops are declared with their ODS assembly format (ir.OpDef.Format);
// the few whose syntax Triton writes in C++ (tt.func) or that print types
// without their dialect prefix (block pointers, tensor descriptors) keep
// hand-written parsers and printers, built on ir's exported toolkit.
package tt

import "github.com/layoutopt/layoutopt/ir"

// Dialect is the tt dialect.
var Dialect = &ir.Dialect{
	Name:    "tt",
	Summary: "Triton's target-independent tensor ops",
	Ops:     ops(),
}

func init() { ir.MustRegisterDialect(Dialect) }
