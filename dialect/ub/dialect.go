// Package ub declares the ops of MLIR's ub (undefined behavior) dialect:
// ub.poison. Importing it registers them in ir.Default().
package ub

import "github.com/layoutopt/layoutopt/ir"

// Dialect is the ub dialect.
var Dialect = &ir.Dialect{
	Name:    "ub",
	Summary: "MLIR's undefined-behavior dialect",
	Ops: []*ir.OpDef{
		// MLIR's PoisonOp has an optional PoisonAttrInterface value,
		// written `<#attr>`; Triton's files never use it.
		{Name: "ub.poison", Summary: "a poison value", Traits: ir.Pure,
			Results: []ir.ArgDef{ir.Arg("result")},
			Format:  "attr-dict `:` type($result)"},
	},
}

func init() { ir.MustRegisterDialect(Dialect) }
