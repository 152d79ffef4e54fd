// Package math declares the ops of MLIR's math dialect that Triton kernels
// use (exp, log, sqrt, fma, …). Importing the package registers them in
// ir.Default(). The package is named after its dialect; import it under
// another name (`mathd`) where the standard library's math is also used.
package math

import (
	"github.com/layoutopt/layoutopt/dialect/arith"
	"github.com/layoutopt/layoutopt/ir"
)

// Dialect is the math dialect.
var Dialect = &ir.Dialect{Name: "math", Summary: "mathematical functions", Ops: ops()}

func init() { ir.MustRegisterDialect(Dialect) }

func ops() []*ir.OpDef {
	var out []*ir.OpDef
	for _, o := range []struct {
		name  string
		nargs int
	}{
		{"exp", 1}, {"exp2", 1}, {"log", 1}, {"log2", 1}, {"log1p", 1}, {"sqrt", 1}, {"rsqrt", 1}, {"absf", 1}, {"absi", 1},
		{"sin", 1}, {"cos", 1}, {"tan", 1}, {"tanh", 1}, {"erf", 1}, {"floor", 1}, {"ceil", 1}, {"round", 1}, {"roundeven", 1},
		{"trunc", 1}, {"fma", 3}, {"powf", 2}, {"atan2", 2}, {"ctlz", 1}, {"cttz", 1}, {"ctpop", 1}, {"copysign", 2},
	} {
		flags := arith.FastMath
		switch o.name {
		case "absi", "ctlz", "cttz", "ctpop":
			flags = nil
		}
		d := arith.Binary("math."+o.name, "elementwise "+o.name, o.nargs, arith.Elementwise, flags)
		d.Layout = arith.ExpensiveLayout
		out = append(out, d)
	}
	return out
}
