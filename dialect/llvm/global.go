package llvm

import (
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// llvm.mlir.global, as MLIR's GlobalOp::parse and print write it:
//
//	llvm.mlir.global [linkage] [constant] @name `(` [value] `)` attr-dict [`:` type]
//
// Triton's AMD and NVIDIA backends declare their shared-memory base this
// way (`llvm.mlir.global external @global_smem() {addr_space = 3 : i32,
// alignment = 16 : i64} : !llvm.array<0 x i8>`). The linkage is kept as
// the property `linkage = #llvm.linkage<...>`; initializer regions,
// visibility, thread_local and unnamed_addr are not supported.

var linkages = []string{"private", "internal", "available_externally", "linkonce", "weak",
	"common", "appending", "extern_weak", "linkonce_odr", "weak_odr", "external"}

var globalDef = &ir.OpDef{Name: "llvm.mlir.global", Summary: "an LLVM global variable",
	Traits: ir.Symbol | ir.IsolatedFromAbove | ir.SingleBlock,
	Props:  []string{"linkage", "constant", "sym_name", "value", "global_type"},
	Parse:  parseGlobal, Print: printGlobal}

func parseGlobal(p *ir.OpParser, st *ir.OpState) error {
	linkage := "external"
	for _, l := range linkages {
		if p.ParseOptionalKeyword(l) {
			linkage = l
			break
		}
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: "linkage", Value: &ir.OpaqueAttr{Text: "llvm.linkage<" + linkage + ">"}})
	if p.ParseOptionalKeyword("constant") {
		st.Props = append(st.Props, ir.NamedAttr{Name: "constant", Value: &ir.UnitAttr{}})
	}
	name, err := p.ParseSymbolName()
	if err != nil {
		return err
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: "sym_name", Value: &ir.StringAttr{Value: name}})
	if err := p.Expect("("); err != nil {
		return err
	}
	if !p.IsPunct(")") {
		v, err := p.ParseAttr()
		if err != nil {
			return err
		}
		st.Props = append(st.Props, ir.NamedAttr{Name: "value", Value: v})
	}
	if err := p.Expect(")"); err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	if p.ParseOptional(":") {
		t, err := p.ParseType()
		if err != nil {
			return err
		}
		st.Props = append(st.Props, ir.NamedAttr{Name: "global_type", Value: &ir.TypeAttr{Type: t}})
	}
	if p.IsPunct("{") {
		return p.Errorf(p.Pos(), "llvm.mlir.global initializer regions are not supported")
	}
	return nil
}

func printGlobal(p *ir.OpPrinter, op *ir.Operation) {
	if l, ok := op.Attr("linkage").(*ir.OpaqueAttr); ok {
		if w, ok := strings.CutPrefix(l.Text, "llvm.linkage<"); ok {
			p.Raw(" " + strings.TrimSuffix(w, ">"))
		}
	}
	if op.Attr("constant") != nil {
		p.Raw(" constant")
	}
	p.Raw(" ")
	if s, ok := op.Attr("sym_name").(*ir.StringAttr); ok {
		p.Symbol(s.Value)
	}
	p.Raw("(")
	if v := op.Attr("value"); v != nil {
		p.Attr(v)
	}
	p.Raw(")")
	p.AttrDict(op, "linkage", "constant", "sym_name", "value", "global_type")
	if t, ok := op.Attr("global_type").(*ir.TypeAttr); ok {
		p.Raw(" : ")
		p.Type(t.Type)
	}
}
