package ir

import (
	"strings"
	"testing"
)

// TestAttrPrinting checks the printed form of builtin attributes against
// mlir-opt's: integer and float types are elided only for i1 and, inside
// arrays, for i64 and f64 (AttrTypeElision::May); strings are escaped as
// llvm::printEscapedString does.
func TestAttrPrinting(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"i64 in dictionary", `{a = 1 : i64}`, `{a = 1 : i64}`},
		{"untyped integer is i64", `{a = 2}`, `{a = 2 : i64}`},
		{"i32", `{a = 2 : i32}`, `{a = 2 : i32}`},
		{"index", `{a = 2 : index}`, `{a = 2 : index}`},
		{"i1 elides its type", `{a = 1 : i1}`, `{a = true}`},
		{"f64 in dictionary", `{a = 2.5 : f64}`, `{a = 2.500000e+00 : f64}`},
		{"untyped float is f64", `{a = 2.5}`, `{a = 2.500000e+00 : f64}`},
		{"f32", `{a = 2.5 : f32}`, `{a = 2.500000e+00 : f32}`},
		{"array elides i64 and f64", `{a = [1, 2 : i64, 3 : i32, 2.5, 1.0 : f16]}`, `{a = [1, 2, 3 : i32, 2.500000e+00, 1.000000e+00 : f16]}`},
		{"nested dictionary keeps i64", `{a = [{b = 1}]}`, `{a = [{b = 1 : i64}]}`},
		{"quote", `{s = "say \"hi\""}`, `{s = "say \22hi\22"}`},
		{"backslash and control", `{s = "a\\b\n"}`, `{s = "a\\b\0A"}`},
		{"hex escape of quote reads back", `{s = "\22"}`, `{s = "\22"}`},
		{"quoted key", `{"a b" = 1 : i32}`, `{"a b" = 1 : i32}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "module attributes " + tc.in + " {\n}\n"
			m, d := ParseString(src, ParseConfig{Filename: "t.mlir"})
			if d.HasErrors() {
				t.Fatal(d)
			}
			got := m.String()
			want := "module attributes " + tc.want + " {\n}\n"
			if got != want {
				t.Errorf("got  %q\nwant %q", got, want)
			}
			// The printed form is a fixed point.
			m2, d := ParseString(got, ParseConfig{Filename: "t.mlir"})
			if d.HasErrors() {
				t.Fatal(d)
			}
			if again := m2.String(); again != got {
				t.Errorf("not a fixed point: %q", again)
			}
		})
	}
}

// TestAttrString checks AttrString on attributes built in code.
func TestAttrString(t *testing.T) {
	tests := []struct {
		a    Attribute
		want string
	}{
		{Int(3, I64), "3 : i64"},
		{&IntegerAttr{Value: 3}, "3 : i64"},
		{Int(1, I1), "true"},
		{&FloatAttr{Value: 0.5}, "5.000000e-01 : f64"},
		{&ArrayAttr{Elems: []Attribute{Int(3, I64), Int(4, I32), &FloatAttr{Value: 0.5, Type: F64}}}, "[3, 4 : i32, 5.000000e-01]"},
		{Str(`"\`), `"\22\\"`},
	}
	for _, tc := range tests {
		if got := AttrString(tc.a); got != tc.want {
			t.Errorf("AttrString(%#v) = %s, want %s", tc.a, got, tc.want)
		}
	}
	if s := string(appendQuoted(nil, "a\"b")); !strings.Contains(s, `\22`) {
		t.Errorf("appendQuoted: %s", s)
	}
}
