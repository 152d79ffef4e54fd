package ir_test

import (
	"fmt"
	"os"

	"github.com/layoutopt/layoutopt/ir"
)

// An op with custom syntax is one declaration: its parts by name, its
// traits, its assembly format (MLIR's declarative notation) and, when it
// matters to the layout passes, its layout rule. Parser, printer, the
// checks that follow from the declaration and the named accessors come
// from it.
func ExampleRegistry_RegisterDialect() {
	scale := &ir.OpDef{
		Name: "my.scale", Summary: "multiply by a constant factor",
		Traits:   ir.Pure | ir.SameOperandsAndResultType,
		Operands: []ir.ArgDef{ir.Arg("x"), ir.Opt("mask")},
		Results:  []ir.ArgDef{ir.Arg("y")},
		Attrs:    []ir.AttrDef{{Name: "factor", Kind: ir.I32Attr, Default: ir.Int(1, ir.I32)}},
		Format:   "$x (`if` $mask^)? (`by` $factor^)? attr-dict `:` type($x)",
		TypeRules: []ir.TypeRule{{Target: "mask", From: "x",
			Fn: func(t ir.Type) ir.Type { return ir.WithElem(t, ir.I1) }}},
		Layout: &ir.LayoutRule{Kind: ir.LayoutSame},
	}
	reg := ir.NewRegistry()
	if err := reg.RegisterDialect(&ir.Dialect{Name: "my", Ops: []*ir.OpDef{scale}}); err != nil {
		fmt.Println(err)
		return
	}
	m, diags := ir.ParseString(`"test.f"() ({
^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xi1>):
  %0 = my.scale %arg0 by 3 : tensor<4xf32>
  %1 = my.scale %0 if %arg1 : tensor<4xf32>
  "test.use"(%1) : (tensor<4xf32>) -> ()
}) : () -> ()
`, ir.ParseConfig{Registry: reg, AllowUnregistered: true})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	ir.Print(os.Stdout, m, ir.PrintConfig{})
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "my.scale" {
			fmt.Println(op.NamedOperand("mask") != nil, ir.AttrString(op.AttrOrDefault("factor")))
		}
		return ir.Advance
	})
	// Output:
	// module {
	//   "test.f"() ({
	//   ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xi1>):
	//     %0 = my.scale %arg0 by 3 : tensor<4xf32>
	//     %1 = my.scale %0 if %arg1 : tensor<4xf32>
	//     "test.use"(%1) : (tensor<4xf32>) -> ()
	//   }) : () -> ()
	// }
	// false 3 : i32
	// true 1 : i32
}
