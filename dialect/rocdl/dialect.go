// Package rocdl declares the ops of MLIR's ROCDL dialect that TTGIR files
// use before lowering (rocdl.workitem.id.x, rocdl.s.setprio). Importing it
// registers them in ir.Default().
package rocdl

import (
	"strconv"

	"github.com/layoutopt/layoutopt/ir"
)

// Dialect is the rocdl dialect (the part of it Triton's tests use on TTGIR).
var Dialect = &ir.Dialect{
	Name:    "rocdl",
	Summary: "MLIR's ROCDL dialect: the ops TTGIR uses",
	Ops: []*ir.OpDef{
		// MLIR writes `(`range` $range^)? attr-dict : type($res)`; the
		// range form is not supported here (Triton never writes it).
		{Name: "rocdl.workitem.id.x", Summary: "the work-item id along x", Traits: ir.Pure,
			Results: []ir.ArgDef{ir.Arg("res")}, Format: "attr-dict `:` type($res)"},
		{Name: "rocdl.s.setprio", Summary: "set the wave priority",
			Props: []string{"priority"}, Parse: parseSetPrio, Print: printSetPrio},
	},
}

func init() { ir.MustRegisterDialect(Dialect) }

var i16 = ir.IntType(16)

// parseSetPrio parses `$priority attr-dict`, the priority an i16.
func parseSetPrio(p *ir.OpParser, st *ir.OpState) error {
	pos := p.Pos()
	v, err := p.ParseInt()
	if err != nil {
		return err
	}
	if v < -1<<15 || v >= 1<<16 {
		return p.Errorf(pos, "integer value too large")
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: "priority", Value: ir.Int(v, i16)})
	return p.ParseOptionalAttrDict(st)
}

func printSetPrio(p *ir.OpPrinter, op *ir.Operation) {
	if v, ok := op.IntAttr("priority"); ok {
		p.Raw(" " + strconv.FormatInt(v, 10))
	}
	p.AttrDict(op, "priority")
}
