package arith

import (
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// Flags describes an arith bit-enum property printed in the custom form as
// `keyword<flag, ...>` after the operands and in generic form as the
// dialect attribute `#arith.mnemonic<...>` (arith's EnumAttr).
type Flags struct {
	Keyword, Mnemonic, Prop string
	// Names are the flags in declaration order, as MLIR prints them.
	Names []string
	// Sep separates flags as MLIR prints them.
	Sep string
	// All is the name of every flag set ("fast"), or "".
	All string
}

var (
	// Overflow is Arith_IntegerOverflowAttr: `overflow<nsw, nuw>`.
	Overflow = &Flags{Keyword: "overflow", Mnemonic: "overflow", Prop: "overflowFlags",
		Names: []string{"nsw", "nuw"}, Sep: ", "}
	// FastMath is Arith_FastMathAttr: `fastmath<nnan,ninf>`.
	FastMath = &Flags{Keyword: "fastmath", Mnemonic: "fastmath", Prop: "fastmath",
		Names: []string{"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"}, Sep: ",", All: "fast"}
)

// canonical returns the flags of the list text (`nnan, ninf`) in MLIR's
// order and spelling ("none" when empty), or false for an unknown flag.
func (f *Flags) canonical(list string) (string, bool) {
	set := map[string]bool{}
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		switch {
		case w == "none" || w == "":
		case w == f.All && f.All != "":
			for _, n := range f.Names {
				set[n] = true
			}
		default:
			known := false
			for _, n := range f.Names {
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
	if f.All != "" && len(set) == len(f.Names) {
		return f.All, true
	}
	var out []string
	for _, n := range f.Names {
		if set[n] {
			out = append(out, n)
		}
	}
	return strings.Join(out, f.Sep), true
}

// Custom returns the format directive that reads `keyword<...>` when the
// keyword is next, storing the property as `#arith.mnemonic<...>`, and
// prints it back unless it is none.
func (f *Flags) Custom() *ir.Custom {
	return &ir.Custom{
		OwnSpace: true,
		Attrs:    []string{f.Prop},
		Parse:    func(p *ir.OpParser, st *ir.OpState, _ *ir.FormatState) error { return f.parse(p, st) },
		Print:    func(p *ir.OpPrinter, op *ir.Operation) { f.print(p, op) },
		// Elide reports whether attr-dict must leave the property out: only
		// when print wrote it (or it is none).
		Elide: func(op *ir.Operation) bool {
			_, ok := f.canonicalOf(op)
			return ok
		},
	}
}

func (f *Flags) parse(p *ir.OpParser, st *ir.OpState) error {
	if p.PeekKeyword() != f.Keyword {
		return nil
	}
	pos := p.Pos()
	text, _, err := p.ParseOpaqueText()
	if err != nil {
		return err
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(text, f.Keyword+"<"), ">")
	if inner == text {
		return p.Errorf(pos, "expected '<' after '%s'", f.Keyword)
	}
	c, ok := f.canonical(inner)
	if !ok {
		return p.Errorf(pos, "invalid %s flags '%s'", f.Keyword, inner)
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: f.Prop, Value: &ir.OpaqueAttr{Text: "arith." + f.Mnemonic + "<" + c + ">"}})
	return nil
}

// canonicalOf returns the canonical flags of op's property, and false when
// op has none this directive can print.
func (f *Flags) canonicalOf(op *ir.Operation) (string, bool) {
	a, ok := op.Attr(f.Prop).(*ir.OpaqueAttr)
	if !ok {
		return "", false
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(a.Text, "arith."+f.Mnemonic+"<"), ">")
	if inner == a.Text || len(a.Refs) > 0 {
		return "", false
	}
	return f.canonical(inner)
}

func (f *Flags) print(p *ir.OpPrinter, op *ir.Operation) {
	if c, ok := f.canonicalOf(op); ok && c != "none" {
		p.Raw(" " + f.Keyword + "<" + c + ">")
	}
}
