package opgen

import (
	"reflect"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// The naming rules.
//
// Op types: an op's Go type is its MLIR C++ class name. For most ops that
// is the CamelCase of the mnemonic (the op name less its dialect prefix),
// split at '_' and '.', plus "Op": ttg.convert_layout is ConvertLayoutOp,
// tt.reduce.return is ReduceReturnOp. Words that Triton's C++ spells as
// initialisms or joins differently come from wordNames (tmem → TMEM, mma
// → MMA, memdesc → MemDesc: ttng.tmem_alloc is TMEMAllocOp), and the ops
// whose class name is not derived from the mnemonic at all (arith.addi is
// AddIOp, arith.xori XOrIOp, math.ctlz CountLeadingZerosOp, cf.br
// BranchOp) come from opNames. The checked cast is "As" plus the type
// name less "Op": AsConvertLayout, AsAddI.
//
// Accessors: the CamelCase of the declared name, split at '_' with the
// first letter of each part upper-cased and the rest kept
// (maxNumImpreciseAcc → MaxNumImpreciseAcc, a_scale → AScale, N → N).
// Where that name is a method or field of *ir.Operation (Result, Operands,
// Name, Block, Region, Attrs, ...), an operand or result accessor gets the
// suffix "Value" (ResultValue, OperandsValue), a region accessor "Region"
// (RegionRegion) and an attribute accessor "Attr". An attribute of a
// declared kind also gets the raw accessor Name+"Attr" (the attribute as
// the op carries it, nil when absent) and an enum attribute the keyword
// accessor Name+"Name".

// opNames holds the ops whose C++ class name does not follow from the
// mnemonic (MLIR's ArithOps.td, MathOps.td, ControlFlowOps.td, LLVM's
// intrinsics, Triton's TritonOps.td).
var opNames = map[string]string{
	"arith.addi": "AddIOp", "arith.subi": "SubIOp", "arith.muli": "MulIOp",
	"arith.divsi": "DivSIOp", "arith.divui": "DivUIOp",
	"arith.ceildivsi": "CeilDivSIOp", "arith.ceildivui": "CeilDivUIOp", "arith.floordivsi": "FloorDivSIOp",
	"arith.remsi": "RemSIOp", "arith.remui": "RemUIOp",
	"arith.andi": "AndIOp", "arith.ori": "OrIOp", "arith.xori": "XOrIOp",
	"arith.shli": "ShLIOp", "arith.shrsi": "ShRSIOp", "arith.shrui": "ShRUIOp",
	"arith.maxsi": "MaxSIOp", "arith.minsi": "MinSIOp", "arith.maxui": "MaxUIOp", "arith.minui": "MinUIOp",
	"arith.mulhiui": "MulHiUIOp",
	"arith.addf":    "AddFOp", "arith.subf": "SubFOp", "arith.mulf": "MulFOp", "arith.divf": "DivFOp", "arith.remf": "RemFOp",
	"arith.maxnumf": "MaxNumFOp", "arith.minnumf": "MinNumFOp", "arith.maximumf": "MaximumFOp", "arith.minimumf": "MinimumFOp",
	"arith.negf": "NegFOp",
	"arith.extf": "ExtFOp", "arith.extsi": "ExtSIOp", "arith.extui": "ExtUIOp",
	"arith.trunci": "TruncIOp", "arith.truncf": "TruncFOp",
	"arith.sitofp": "SIToFPOp", "arith.uitofp": "UIToFPOp", "arith.fptosi": "FPToSIOp", "arith.fptoui": "FPToUIOp",
	"arith.index_castui": "IndexCastUIOp",
	"arith.cmpi":         "CmpIOp", "arith.cmpf": "CmpFOp",
	"math.absf": "AbsFOp", "math.absi": "AbsIOp", "math.roundeven": "RoundEvenOp", "math.powf": "PowFOp",
	"math.ctlz": "CountLeadingZerosOp", "math.cttz": "CountTrailingZerosOp", "math.ctpop": "CtPopOp",
	"math.copysign": "CopySignOp", "math.expm1": "ExpM1Op", "math.fpowi": "FPowIOp", "math.ipowi": "IPowIOp",
	"math.isnan": "IsNaNOp", "math.isinf": "IsInfOp", "math.isfinite": "IsFiniteOp",
	"cf.br": "BranchOp", "cf.cond_br": "CondBranchOp",
	"llvm.intr.assume": "AssumeOp",
	"tt.precise_divf":  "PreciseDivFOp", "tt.mulhiui": "MulhiUIOp", "tt.clampf": "ClampFOp",
}

// wordNames spells the words of mnemonics that Triton's C++ class names
// write other than capitalized.
var wordNames = map[string]string{
	"addptr":  "AddPtr",
	"cas":     "CAS",
	"memdesc": "MemDesc",
	"mma":     "MMA",
	"rmw":     "RMW",
	"tc":      "TC",
	"tma":     "TMA",
	"tmem":    "TMEM",
}

// TypeName returns the Go type name of op name (see the naming rules).
func TypeName(opName string) string {
	if n, ok := opNames[opName]; ok {
		return n
	}
	mnemonic := opName
	if i := strings.IndexByte(opName, '.'); i >= 0 {
		mnemonic = opName[i+1:]
	}
	var b strings.Builder
	for _, w := range strings.FieldsFunc(mnemonic, func(r rune) bool { return r == '_' || r == '.' }) {
		if n, ok := wordNames[w]; ok {
			b.WriteString(n)
		} else {
			b.WriteString(upperFirst(w))
		}
	}
	b.WriteString("Op")
	return b.String()
}

// CastName returns the name of the checked cast to type typeName.
func CastName(typeName string) string { return "As" + strings.TrimSuffix(typeName, "Op") }

// GoName returns the CamelCase of a declared operand, result, region or
// attribute name.
func GoName(declared string) string {
	var b strings.Builder
	for _, w := range strings.Split(declared, "_") {
		b.WriteString(upperFirst(w))
	}
	return b.String()
}

func upperFirst(w string) string {
	if w == "" {
		return ""
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// operationMembers are the names a generated method must not take: the
// methods and exported fields of *ir.Operation (which the generated types
// embed) and the embedded field itself.
var operationMembers = func() map[string]bool {
	m := map[string]bool{"Operation": true}
	t := reflect.TypeOf((*ir.Operation)(nil))
	for i := 0; i < t.NumMethod(); i++ {
		m[t.Method(i).Name] = true
	}
	s := t.Elem()
	for i := 0; i < s.NumField(); i++ {
		if f := s.Field(i); f.IsExported() {
			m[f.Name] = true
		}
	}
	return m
}()

// accessorName returns GoName(declared), with suffix appended when that
// name is a member of *ir.Operation.
func accessorName(declared, suffix string) string {
	n := GoName(declared)
	if operationMembers[n] {
		n += suffix
	}
	return n
}
