// Command layout-opt is an mlir-opt-style driver for TritonGPU IR: it reads
// a module, runs a pipeline of layout passes and writes the result.
//
//	layout-opt in.mlir -canonicalize-layouts -remove-redundant-conversions
//	layout-opt in.mlir -pass-pipeline='builtin.module(canonicalize-layouts{form=linear})'
//
// Run layout-opt -help for every flag and pass; see package optdriver.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/optdriver"
	_ "github.com/layoutopt/layoutopt/passes" // registers the layout passes
	"github.com/layoutopt/layoutopt/proc"
)

// One run per process: the collector is tuned for it and a large input is
// mapped rather than read (see optdriver.Tool; GOGC and GOMEMLIMIT in the
// environment win).
func main() {
	os.Exit((&optdriver.Tool{BatchGC: true, MapInput: true}).Main(proc.OS()))
}
