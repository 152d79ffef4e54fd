// Package ttg declares the ops of Triton's TritonGPU dialect
// (TritonGPUOps.td of Triton 3.6): layout conversions, shared-memory
// allocation, views and accesses, asynchronous copies and barriers.
// Importing it registers them (and the tt dialect it builds on) in
// ir.Default().
//
// The ops are declared with their ODS assembly format (ir.OpDef.Format),
// except ttg.async_copy_global_to_local, whose memdesc result type ODS
// prints without its `!ttg.memdesc` prefix.
package ttg

import "github.com/layoutopt/layoutopt/ir"

// Dialect is the ttg dialect.
var Dialect = &ir.Dialect{
	Name:    "ttg",
	Summary: "Triton's GPU dialect: layouts, shared memory and asynchronous copies",
	Ops:     append(append(ops(), warpSpecializeOps()...), memdescOps()...),
}

func init() { ir.MustRegisterDialect(Dialect) }
