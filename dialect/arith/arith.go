// Package arith declares the ops of MLIR's arith dialect that Triton
// kernels use: integer and float arithmetic, comparisons, select, casts
// and constants. Importing the package registers them in ir.Default().
//
// Every op is declared once (ir.OpDef): its operands, results and
// attributes by name, its traits, and its assembly format in MLIR's
// declarative notation, from which the parser and printer come.
package arith

import (
	"errors"
	"slices"
	"strconv"

	"github.com/layoutopt/layoutopt/ir"
)

// Dialect is the arith dialect.
var Dialect = &ir.Dialect{Name: "arith", Summary: "integer and floating-point arithmetic", Ops: ops()}

func init() { ir.MustRegisterDialect(Dialect) }

// Elementwise are the traits of arith's same-type elementwise ops.
const Elementwise = ir.Pure | ir.Elementwise | ir.SameOperandsAndResultType | ir.SameOperandsAndResultEncoding | ir.SameOperandsAndResultShape

var (
	// CmpIPredicate is arith.cmpi's predicate (stored as i64).
	CmpIPredicate = &ir.Enum{Name: "arith.cmpi predicate", Type: ir.I64,
		Cases: []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}}
	// CmpFPredicate is arith.cmpf's predicate (stored as i64).
	CmpFPredicate = &ir.Enum{Name: "arith.cmpf predicate", Type: ir.I64,
		Cases: []string{"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
			"ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"}}
)

// ExpensiveLayout is the layout rule of elementwise ops that are dear to
// compute again (divisions; math's transcendental functions).
var ExpensiveLayout = &ir.LayoutRule{Kind: ir.LayoutSame, Cost: ir.CostExpensive}

// flagged reports which flags an arith binary op carries.
func flagged(name string) *Flags {
	switch name {
	case "addi", "subi", "muli", "shli":
		return Overflow
	}
	if name[len(name)-1] == 'f' {
		return FastMath
	}
	return nil
}

// Binary declares a same-type elementwise op `$lhs, $rhs` (or `$operand`
// for a unary one) with the optional flags of arith.
func Binary(name, summary string, nargs int, traits ir.Trait, flags *Flags) *ir.OpDef {
	d := &ir.OpDef{Name: name, Summary: summary, Traits: traits, Results: []ir.ArgDef{ir.Arg("result")}}
	switch nargs {
	case 1:
		d.Operands = []ir.ArgDef{ir.Arg("operand")}
		d.Format = "$operand"
	case 2:
		d.Operands = []ir.ArgDef{ir.Arg("lhs"), ir.Arg("rhs")}
		d.Format = "$lhs `,` $rhs"
	case 3:
		d.Operands = []ir.ArgDef{ir.Arg("a"), ir.Arg("b"), ir.Arg("c")}
		d.Format = "$a `,` $b `,` $c"
	}
	if flags != nil {
		d.Attrs = []ir.AttrDef{{Name: flags.Prop, Optional: true}}
		d.Custom = map[string]*ir.Custom{"Flags": flags.Custom()}
		d.Format += " custom<Flags>()"
	}
	d.Format += " attr-dict `:` type($result)"
	return d
}

func ops() []*ir.OpDef {
	var out []*ir.OpDef
	for _, n := range []string{"addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui",
		"andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui", "mulhiui",
		"addf", "subf", "mulf", "divf", "remf", "maxnumf", "minnumf", "maximumf", "minimumf", "negf"} {
		traits := Elementwise
		switch n {
		case "addi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui", "addf", "mulf", "maxnumf", "minnumf", "maximumf", "minimumf":
			traits |= ir.Commutative
		}
		nargs := 2
		if n == "negf" {
			nargs = 1
		}
		d := Binary("arith."+n, "elementwise "+n, nargs, traits, flagged(n))
		switch n {
		case "divf", "divsi", "divui", "remf", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi":
			d.Layout = ExpensiveLayout
		}
		out = append(out, d)
	}
	for _, n := range []string{"extf", "extsi", "extui", "trunci", "truncf", "sitofp", "uitofp", "fptosi", "fptoui",
		"bitcast", "index_cast", "index_castui"} {
		out = append(out, &ir.OpDef{Name: "arith." + n, Summary: "elementwise cast " + n,
			Traits:   ir.Pure | ir.Elementwise | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultEncoding,
			Operands: []ir.ArgDef{ir.Arg("in")}, Results: []ir.ArgDef{ir.Arg("out")},
			Attrs:  []ir.AttrDef{{Name: "fastmath", Optional: true}, {Name: "roundingmode", Optional: true}},
			Format: "$in attr-dict `:` type($in) `to` type($out)"})
	}
	i1Like := func(t ir.Type) ir.Type { return ir.WithElem(t, ir.I1) }
	for _, c := range []struct {
		name string
		pred *ir.Enum
	}{{"arith.cmpi", CmpIPredicate}, {"arith.cmpf", CmpFPredicate}} {
		d := &ir.OpDef{Name: c.name, Summary: "elementwise comparison",
			Traits:    ir.Pure | ir.Elementwise | ir.SameOperandsAndResultShape | ir.SameOperandsAndResultEncoding,
			Operands:  []ir.ArgDef{ir.Arg("lhs"), ir.Arg("rhs")},
			Results:   []ir.ArgDef{ir.Arg("result")},
			Attrs:     []ir.AttrDef{{Name: "predicate", Kind: ir.EnumAttrKind, Enum: c.pred}},
			Format:    "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
			TypeRules: []ir.TypeRule{ir.Same("rhs", "lhs"), {Target: "result", From: "lhs", Fn: i1Like}},
		}
		if c.name == "arith.cmpf" {
			d.Attrs = append(d.Attrs, ir.AttrDef{Name: "fastmath", Optional: true})
		}
		out = append(out, d)
	}
	out = append(out, &ir.OpDef{Name: "arith.select", Summary: "elementwise select",
		Traits:    ir.Pure | ir.Elementwise,
		Operands:  []ir.ArgDef{ir.Arg("condition"), ir.Arg("true_value"), ir.Arg("false_value")},
		Results:   []ir.ArgDef{ir.Arg("result")},
		Format:    "$condition `,` $true_value `,` $false_value attr-dict `:` custom<SelectOpType>()",
		Custom:    map[string]*ir.Custom{"SelectOpType": selectOpType},
		TypeRules: []ir.TypeRule{ir.Same("true_value", "result"), ir.Same("false_value", "result")},
		Verify:    verifySelect,
	})
	out = append(out, &ir.OpDef{Name: "arith.constant", Summary: "a constant", Traits: ir.Pure | ir.ConstantLike,
		Results: []ir.ArgDef{ir.Arg("result")},
		Attrs:   []ir.AttrDef{{Name: "value"}},
		Parse:   parseConstant, Print: printConstant, Verify: verifyConstant,
		AsmResultNames: constantNames,
		Layout:         &ir.LayoutRule{Kind: ir.LayoutFree, Cost: ir.CostFree}})
	return out
}

// selectOpType is MLIR's custom<SelectOpType>: `T` when the condition is
// a scalar i1, else `C, T`.
var selectOpType = &ir.Custom{
	Parse: func(p *ir.OpParser, st *ir.OpState, fs *ir.FormatState) error {
		pos := p.Pos()
		ts, err := p.ParseTypeList()
		if err != nil {
			return err
		}
		switch len(ts) {
		case 1:
			fs.SetTypes("condition", []ir.Type{ir.I1})
			fs.SetTypes("result", ts)
		case 2:
			fs.SetTypes("condition", ts[:1])
			fs.SetTypes("result", ts[1:])
		default:
			return p.Errorf(pos, "expected one or two types")
		}
		return nil
	},
	Print: func(p *ir.OpPrinter, op *ir.Operation) {
		if c := op.NamedOperand("condition").Type(); !ir.TypesEqual(c, ir.I1) {
			p.Type(c)
			p.Raw(", ")
		}
		p.Type(op.NamedResult("result").Type())
	},
}

// verifySelect checks arith.select's BooleanConditionOrMatchingShape and
// AllTypesMatch<["true_value", "false_value", "result"]>.
func verifySelect(op *ir.Operation) error {
	c, r := op.NamedOperand("condition").Type(), op.NamedResult("result").Type()
	if !ir.TypesEqual(op.NamedOperand("true_value").Type(), r) || !ir.TypesEqual(op.NamedOperand("false_value").Type(), r) {
		return errors.New("failed to verify that all of {true_value, false_value, result} have same type")
	}
	if ir.TypesEqual(c, ir.I1) {
		return nil
	}
	cs, cok := ir.ShapeOf(c)
	rs, rok := ir.ShapeOf(r)
	if !cok || !rok || !slices.Equal(cs, rs) {
		return errors.New("failed to verify that condition is signless i1 or has matching shape")
	}
	return nil
}

// parseConstant parses `attr-dict VALUE` where VALUE carries its type.
func parseConstant(p *ir.OpParser, st *ir.OpState) error {
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	pos := p.Pos()
	v, err := p.ParseAttr()
	if err != nil {
		return err
	}
	t, ok := ConstantType(v)
	if !ok {
		return p.Errorf(pos, "expected a typed constant value")
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: "value", Value: v})
	st.Types = []ir.Type{t}
	return nil
}

// ConstantType returns the type that the value of a constant carries, and
// false for an attribute that is not such a value.
func ConstantType(v ir.Attribute) (ir.Type, bool) {
	switch x := v.(type) {
	case *ir.IntegerAttr:
		return x.Type, true
	case *ir.FloatAttr:
		return x.Type, true
	case *ir.BoolAttr:
		return ir.I1, true
	case *ir.DenseElementsAttr:
		return x.Type, true
	}
	return nil, false
}

func printConstant(p *ir.OpPrinter, op *ir.Operation) {
	p.AttrDict(op, "value")
	p.Raw(" ")
	// The value always carries its type here, even the default i64/f64.
	switch v := op.Attr("value").(type) {
	case *ir.IntegerAttr:
		p.IntValue(v.Value, v.Type)
		if it, ok := v.Type.(*ir.IntegerType); !ok || it.Width != 1 {
			p.Raw(" : ")
			p.Type(v.Type)
		}
	case *ir.FloatAttr:
		p.FloatValue(v.Value, v.Type)
		p.Raw(" : ")
		p.Type(v.Type)
	default:
		p.Attr(v)
	}
}

// constantNames is arith::ConstantOp::getAsmResultNames: %true and %false
// for i1, %c<value>_<type> for other integers (the value read as signed
// at the type's width, as APInt prints it; %c<value> for index), %cst for
// everything else (floats, dense tensors).
func constantNames(op *ir.Operation, set func(int, string)) {
	var name string
	switch v := op.Attr("value").(type) {
	case *ir.BoolAttr:
		name = strconv.FormatBool(v.Value)
	case *ir.IntegerAttr:
		it, isInt := v.Type.(*ir.IntegerType)
		switch {
		case isInt && it.Width == 1:
			name = strconv.FormatBool(v.Value != 0)
		case isInt:
			x := v.Value
			if w := uint(it.Width); w < 64 {
				x = x << (64 - w) >> (64 - w)
			}
			name = "c" + strconv.FormatInt(x, 10) + "_" + ir.TypeString(it)
		default:
			name = "c" + strconv.FormatInt(v.Value, 10)
		}
	default:
		name = "cst"
	}
	set(0, name)
}

func verifyConstant(op *ir.Operation) error {
	t, ok := ConstantType(op.Attr("value"))
	if !ok {
		return errors.New("requires a 'value' attribute")
	}
	if op.NumResults() != 1 || !ir.TypesEqual(t, op.Result(0).Type()) {
		return errors.New("value type must match the result type")
	}
	return nil
}
