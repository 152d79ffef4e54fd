package ir

import (
	"bytes"
	"strings"
	"testing"
)

var testEnum = &Enum{Name: "test mode", Cases: []string{"fast", "slow"}, Base: 1}

// testFormatRegistry declares ops in a dialect of its own, one for each
// kind of format element.
func testFormatRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	err := r.RegisterDialect(&Dialect{Name: "fmt", Ops: []*OpDef{
		{Name: "fmt.cast", Operands: []ArgDef{Arg("src")}, Results: []ArgDef{Arg("result")},
			Format: "$src attr-dict : type($src) -> type($result)"},
		{Name: "fmt.add", Traits: SameOperandsAndResultType, Operands: []ArgDef{Arg("lhs"), Arg("rhs")}, Results: []ArgDef{Arg("result")},
			Format: "$lhs `,` $rhs attr-dict `:` type($result)"},
		{Name: "fmt.wait", Operands: []ArgDef{Vars("deps")}, Results: []ArgDef{Arg("token")},
			Attrs:     []AttrDef{{Name: "num", Kind: I32Attr}},
			Format:    "$deps attr-dict",
			TypeRules: []TypeRule{{Target: "deps", From: "token"}, {Target: "token", From: "token", Fn: func(Type) Type { return nil }}},
			InferTypes: func(fs *FormatState) error {
				fs.SetTypes("token", []Type{AsyncToken})
				fs.SetTypes("deps", repeatType(AsyncToken, len(fs.Operands("deps"))))
				return nil
			}},
		{Name: "fmt.load", Traits: AttrSizedOperandSegments,
			Operands: []ArgDef{Arg("ptr"), Opt("mask"), Opt("other")}, Results: []ArgDef{Arg("result")},
			Attrs: []AttrDef{{Name: "mode", Kind: EnumAttrKind, Enum: testEnum, Default: testEnum.Attr(1)},
				{Name: "volatile", Kind: UnitAttrKind, Optional: true}},
			Format: "$ptr (`,` $mask^)? (`,` $other^)? (`mode` `=` $mode^)? (`volatile` $volatile^)? attr-dict `:` type($ptr)",
			TypeRules: []TypeRule{{Target: "mask", From: "ptr", Fn: func(Type) Type { return I1 }},
				Same("other", "ptr"), Same("result", "ptr")}},
		{Name: "fmt.trans", Operands: []ArgDef{Arg("src")}, Results: []ArgDef{Arg("result")},
			Attrs:  []AttrDef{{Name: "order", Kind: DenseI32Array}},
			Format: "$src `,` $order attr-dict `:` type($src) `->` type($result)"},
		{Name: "fmt.ret", Operands: []ArgDef{Vars("srcs")},
			Format: "attr-dict ($srcs^ `:` type($srcs))?"},
		{Name: "fmt.call", Operands: []ArgDef{Vars("args")}, Results: []ArgDef{Vars("results")},
			Attrs:  []AttrDef{{Name: "callee", Kind: SymbolRef}},
			Format: "$callee `(` $args `)` attr-dict `:` functional-type($args, results)"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Functions to hold the test ops.
	if err := r.Register(Lookup("tt.func"), Lookup("tt.return")); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFormatRoundTrip(t *testing.T) {
	r := testFormatRegistry(t)
	src := `module {
  tt.func @f(%a: i32, %b: i32, %p: f32, %m: i1, %t: !ttg.async.token) {
    %0 = fmt.cast %a {k = 1 : i32} : i32 -> i64
    %1 = fmt.add %a, %b : i32
    %2 = fmt.wait %t, %t {num = 2 : i32}
    %3 = fmt.wait {num = 0 : i32}
    %4 = fmt.load %p : f32
    %5 = fmt.load %p, %m, %p mode = slow volatile : f32
    %6 = fmt.trans %a, [1, 0] : i32 -> i32
    %7:2 = fmt.call @g(%a, %b) : (i32, i32) -> (i32, f32)
    fmt.ret %a, %p : i32, f32
    fmt.ret
    tt.return
  }
}
`
	m, diags := ParseString(src, ParseConfig{Filename: "in.mlir", Registry: r, AllowUnregistered: true})
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	var buf bytes.Buffer
	if err := Print(&buf, m, PrintConfig{KeepNames: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"%0 = fmt.cast %a {k = 1 : i32} : i32 -> i64",
		"%1 = fmt.add %a, %b : i32",
		"%2 = fmt.wait %t, %t {num = 2 : i32}",
		"%3 = fmt.wait {num = 0 : i32}",
		"%4 = fmt.load %p : f32",
		"%5 = fmt.load %p, %m, %p mode = slow volatile : f32",
		"%6 = fmt.trans %a, [1, 0] : i32 -> i32",
		"%7:2 = fmt.call @g(%a, %b) : (i32, i32) -> (i32, f32)",
		"fmt.ret %a, %p : i32, f32\n    fmt.ret\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
	// Named accessors follow the declared groups and segment sizes.
	var load *Operation
	m.Walk(func(op *Operation) WalkResult {
		if op.Name() == "fmt.load" && op.NumOperands() == 3 {
			load = op
		}
		return Advance
	})
	if load == nil {
		t.Fatal("no fmt.load with three operands")
	}
	if load.NamedOperand("mask") != load.Operand(1) || load.NamedOperand("other") != load.Operand(2) {
		t.Errorf("named operands of fmt.load do not follow operandSegmentSizes")
	}
	if a, ok := load.Attr("mode").(*IntegerAttr); !ok || a.Value != 2 || !TypesEqual(a.Type, I32) {
		t.Errorf("mode = %v, want 2 : i32", load.Attr("mode"))
	}
	if load.Attr("volatile") == nil {
		t.Errorf("volatile unit attribute not set by its optional group")
	}
	// The generic form carries the properties, and reads back.
	buf.Reset()
	if err := Print(&buf, m, PrintConfig{Generic: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "operandSegmentSizes = array<i32: 1, 1, 1>") {
		t.Errorf("generic form lacks operandSegmentSizes:\n%s", buf.String())
	}
	m2, diags := ParseString(buf.String(), ParseConfig{Registry: r, AllowUnregistered: true})
	if diags.HasErrors() {
		t.Fatalf("generic form does not parse back: %v", diags)
	}
	if d := Verify(m2); d.HasErrors() {
		t.Fatalf("generic form does not verify: %v", d)
	}
}

func TestFormatErrors(t *testing.T) {
	r := testFormatRegistry(t)
	for _, c := range []struct{ src, want string }{
		{"%0 = fmt.cast %a i32 -> i64", "expected ':'"},
		{"%0 = fmt.add %a %b : i32", "expected ','"},
		{"%0 = fmt.load %p mode = medium : f32", "expected test mode to be one of: fast, slow"},
		{"%0 = fmt.trans %a, [1, x] : i32 -> i32", "expected integer"},
	} {
		src := "tt.func @f(%a: i32, %b: i32, %p: f32) {\n  " + c.src + "\n  tt.return\n}\n"
		_, diags := ParseString(src, ParseConfig{Registry: r, AllowUnregistered: true})
		if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.src, diags, c.want)
		}
	}
}

func TestFormatDeclarationErrors(t *testing.T) {
	for _, c := range []struct {
		def  *OpDef
		want string
	}{
		{&OpDef{Name: "x.a", Operands: []ArgDef{Arg("src")}, Format: "$src : type($src)"}, "'attr-dict' directive not found"},
		{&OpDef{Name: "x.b", Operands: []ArgDef{Arg("src")}, Format: "$dst attr-dict"}, "unknown variable '$dst'"},
		{&OpDef{Name: "x.c", Operands: []ArgDef{Arg("src")}, Format: "$src attr-dict"}, "type of operand 'src' is neither written nor inferable"},
		{&OpDef{Name: "x.d", Operands: []ArgDef{Opt("src")}, Format: "($src)? attr-dict"}, "optional group has no anchor"},
		{&OpDef{Name: "x.e", Format: "attr-dict custom<Nope>()"}, "unknown custom directive 'Nope'"},
		{&OpDef{Name: "x.f", Format: "attr-dict attr-dict"}, "'attr-dict' directive has already been seen"},
		{&OpDef{Name: "x.g", Format: "attr-dict ("}, "assembly format"},
	} {
		err := NewRegistry().Register(c.def)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: got %v, want %q", c.def.Name, c.def.Format, err, c.want)
		}
	}
	r := NewRegistry()
	if err := r.Register(&OpDef{Name: "x.same"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(&OpDef{Name: "x.same"}); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("duplicate registration: got %v", err)
	}
}
