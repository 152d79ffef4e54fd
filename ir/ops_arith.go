package ir

import "strings"

// Registration of the arith and math ops.

var (
	cmpiPredicates = enumKeyword{names: []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}}
	cmpfPredicates = enumKeyword{names: []string{"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
		"ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"}}
)

func init() {
	elem := Pure | Elementwise | SameOperandsAndResultType | SameOperandsAndResultEncoding | SameOperandsAndResultShape
	binary := []string{"addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui",
		"andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui", "mulhiui",
		"addf", "subf", "mulf", "divf", "remf", "maxnumf", "minnumf", "maximumf", "minimumf", "negf"}
	for _, n := range binary {
		traits := elem
		switch n {
		case "addi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui", "addf", "mulf", "maxnumf", "minnumf", "maximumf", "minimumf":
			traits |= Commutative
		}
		d := &OpDef{Name: "arith." + n, Summary: "elementwise " + n, Traits: traits, Props: []string{"fastmath", "overflowFlags"}}
		switch {
		case n == "addi" || n == "subi" || n == "muli" || n == "shli":
			flagsFormat(d, overflowFlags)
		case strings.HasSuffix(n, "f"):
			flagsFormat(d, fastMathFlags)
		default:
			SameTypeFormat(d)
		}
		Register(d)
	}
	for _, n := range []string{"exp", "exp2", "log", "log2", "log1p", "sqrt", "rsqrt", "absf", "absi", "sin", "cos", "tan",
		"tanh", "erf", "floor", "ceil", "round", "roundeven", "trunc", "fma", "powf", "atan2", "ctlz", "cttz", "ctpop", "copysign"} {
		d := &OpDef{Name: "math." + n, Summary: "elementwise " + n, Traits: elem, Props: []string{"fastmath"}}
		switch n {
		case "absi", "ctlz", "cttz", "ctpop":
			SameTypeFormat(d)
		default:
			flagsFormat(d, fastMathFlags)
		}
		Register(d)
	}
	for _, n := range []string{"extf", "extsi", "extui", "trunci", "truncf", "sitofp", "uitofp", "fptosi", "fptoui",
		"bitcast", "index_cast", "index_castui"} {
		d := &OpDef{Name: "arith." + n, Summary: "elementwise cast " + n,
			Traits: Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding, Props: []string{"fastmath", "roundingmode"}}
		CastFormat(d)
		Register(d)
	}
	Register(&OpDef{Name: "arith.cmpi", Summary: "integer comparison", Props: []string{"predicate"},
		Traits: Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Parse:  func(p *OpParser, st *OpState) error { return parseCmp(p, st, cmpiPredicates) },
		Print:  func(p *OpPrinter, op *Operation) { printCmp(p, op, cmpiPredicates) }})
	Register(&OpDef{Name: "arith.cmpf", Summary: "float comparison", Props: []string{"predicate", "fastmath"},
		Traits: Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Parse:  func(p *OpParser, st *OpState) error { return parseCmp(p, st, cmpfPredicates) },
		Print:  func(p *OpPrinter, op *Operation) { printCmp(p, op, cmpfPredicates) }})
	Register(&OpDef{Name: "arith.select", Summary: "elementwise select",
		Traits: Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Parse:  parseSelect, Print: printSelect})
	Register(&OpDef{Name: "arith.constant", Summary: "a constant", Traits: Pure | ConstantLike, Props: []string{"value"},
		Parse: parseConstant, Print: printConstant, Verify: verifyConstant})
}

func parseCmp(p *OpParser, st *OpState, preds enumKeyword) error {
	pos := p.Pos()
	var word string
	if p.tok.kind == tString {
		word = p.tok.text
		p.advance()
	} else {
		var err error
		if word, err = p.ParseIdent("comparison predicate"); err != nil {
			return err
		}
	}
	v, ok := preds.value(word)
	if !ok {
		return p.Errorf(pos, "unknown comparison predicate \"%s\"", word)
	}
	st.Props = append(st.Props, NamedAttr{"predicate", Int(v, I64)})
	if err := p.Expect(","); err != nil {
		return err
	}
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if len(refs) != 2 {
		return p.Errorf(p.Pos(), "expected 2 operands")
	}
	t, tpos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	if st.Operands, err = p.resolveAll(refs, []Type{t}, tpos); err != nil {
		return err
	}
	st.Types = []Type{p.maskOf(t)}
	return nil
}

func printCmp(p *OpPrinter, op *Operation, preds enumKeyword) {
	v, _ := op.IntAttr("predicate")
	p.Raw(" " + preds.name(v) + ", ")
	p.Operands(op.Operands())
	p.AttrDict(op, "predicate")
	p.Raw(" : ")
	p.Type(op.Operand(0).Type())
}

// parseSelect parses `%c, %a, %b attr-dict : T` or `: C, T`.
func parseSelect(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if len(refs) != 3 {
		return p.Errorf(p.Pos(), "expected 3 operands")
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	pos := p.Pos()
	if err := p.Expect(":"); err != nil {
		return err
	}
	ts, err := p.ParseTypeList()
	if err != nil {
		return err
	}
	var c, t Type
	switch len(ts) {
	case 1:
		c, t = I1, ts[0]
	case 2:
		c, t = ts[0], ts[1]
	default:
		return p.Errorf(pos, "expected one or two types")
	}
	if st.Operands, err = p.ResolveAll(refs, []Type{c, t, t}, pos); err != nil {
		return err
	}
	st.Types = []Type{t}
	return nil
}

func printSelect(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operands(op.Operands())
	p.AttrDict(op)
	p.Raw(" : ")
	if _, scalar := op.Operand(0).Type().(*IntegerType); !scalar {
		p.Type(op.Operand(0).Type())
		p.Raw(", ")
	}
	p.Type(op.Result(0).Type())
}

// parseConstant parses `attr-dict VALUE` where VALUE carries its type.
func parseConstant(p *OpParser, st *OpState) error {
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	pos := p.Pos()
	v, err := p.ParseAttr()
	if err != nil {
		return err
	}
	t, ok := constantType(v)
	if !ok {
		return p.Errorf(pos, "expected a typed constant value")
	}
	st.Props = append(st.Props, NamedAttr{"value", v})
	st.Types = []Type{t}
	return nil
}

// constantType returns the type that the value of a constant carries, and
// false for an attribute that is not such a value.
func constantType(v Attribute) (Type, bool) {
	switch x := v.(type) {
	case *IntegerAttr:
		return x.Type, true
	case *FloatAttr:
		return x.Type, true
	case *BoolAttr:
		return I1, true
	case *DenseElementsAttr:
		return x.Type, true
	}
	return nil, false
}

func printConstant(p *OpPrinter, op *Operation) {
	p.AttrDict(op, "value")
	p.Raw(" ")
	// The value always carries its type here, even the default i64/f64.
	switch v := op.Attr("value").(type) {
	case *IntegerAttr:
		p.buf = appendIntValue(p.buf, v.Value, v.Type)
		if it, ok := v.Type.(*IntegerType); !ok || it.Width != 1 {
			p.Raw(" : ")
			p.Type(v.Type)
		}
	case *FloatAttr:
		p.buf = appendFloatValue(p.buf, v.Value, v.Type)
		p.Raw(" : ")
		p.Type(v.Type)
	default:
		p.Attr(v)
	}
}

// arithFlags describes an arith bit-enum property printed in the custom
// form as `keyword<flag, ...>` after the operands and in generic form as
// the dialect attribute `#arith.mnemonic<...>` (arith's EnumAttr).
type arithFlags struct {
	keyword, mnemonic, prop string
	names                   []string // in declaration order, as MLIR prints them
	sep                     string   // between flags, as MLIR prints them
	all                     string   // the name of every flag set ("fast"), or ""
}

var (
	// overflowFlags is Arith_IntegerOverflowAttr: `overflow<nsw, nuw>`.
	overflowFlags = arithFlags{keyword: "overflow", mnemonic: "overflow", prop: "overflowFlags",
		names: []string{"nsw", "nuw"}, sep: ", "}
	// fastMathFlags is Arith_FastMathAttr: `fastmath<nnan,ninf>`.
	fastMathFlags = arithFlags{keyword: "fastmath", mnemonic: "fastmath", prop: "fastmath",
		names: []string{"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"}, sep: ",", all: "fast"}
)

// canonical returns the flags of the list text (`nnan, ninf`) in MLIR's
// order and spelling ("none" when empty), or false for an unknown flag.
func (f arithFlags) canonical(list string) (string, bool) {
	set := map[string]bool{}
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		switch {
		case w == "none" || w == "":
		case w == f.all && f.all != "":
			for _, n := range f.names {
				set[n] = true
			}
		default:
			known := false
			for _, n := range f.names {
				known = known || n == w
			}
			if !known {
				return "", false
			}
			set[w] = true
		}
	}
	if len(set) == 0 {
		return "none", true
	}
	if f.all != "" && len(set) == len(f.names) {
		return f.all, true
	}
	var out []string
	for _, n := range f.names {
		if set[n] {
			out = append(out, n)
		}
	}
	return strings.Join(out, f.sep), true
}

// parse reads `keyword<...>` when the keyword is next and stores the
// property as `#arith.mnemonic<...>`.
func (f arithFlags) parse(p *OpParser, st *OpState) error {
	if p.PeekKeyword() != f.keyword {
		return nil
	}
	pos := p.Pos()
	text, _, err := p.parseOpaqueText()
	if err != nil {
		return err
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(text, f.keyword+"<"), ">")
	if inner == text {
		return p.Errorf(pos, "expected '<' after '%s'", f.keyword)
	}
	c, ok := f.canonical(inner)
	if !ok {
		return p.Errorf(pos, "invalid %s flags '%s'", f.keyword, inner)
	}
	st.Props = append(st.Props, NamedAttr{f.prop, &OpaqueAttr{Text: "arith." + f.mnemonic + "<" + c + ">"}})
	return nil
}

// print writes ` keyword<...>` when op has the property set to other than
// none, and reports whether the property is to be left out of attr-dict.
func (f arithFlags) print(p *OpPrinter, op *Operation) bool {
	a, ok := op.Attr(f.prop).(*OpaqueAttr)
	if !ok {
		return false
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(a.Text, "arith."+f.mnemonic+"<"), ">")
	if inner == a.Text || len(a.Refs) > 0 {
		return false
	}
	c, ok := f.canonical(inner)
	if !ok {
		return false
	}
	if c != "none" {
		p.Raw(" " + f.keyword + "<" + c + ">")
	}
	return true
}

// flagsFormat is `%a, %b [keyword<flags>] attr-dict : T` (arith's binary
// ops with overflow or fast-math flags, math's float ops).
func flagsFormat(def *OpDef, f arithFlags) { SameTypeFlagsFormat(def, &f) }
