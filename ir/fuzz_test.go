package ir

import (
	"bytes"
	"os"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// FuzzParse checks that Parse never panics or hangs, that Verify and Print
// never panic on what it accepts, and that printing is a fixed point:
// print(parse(print(parse(x)))) == print(parse(x)).
func FuzzParse(f *testing.F) {
	f.Add([]byte(blockedDef + "module {\n  tt.func @f(%a: i32) {\n    %0 = tt.splat %a : i32 -> tensor<4xi32, #blocked>\n    tt.return\n  }\n}\n"))
	f.Add([]byte("\"x.y\"() ({\n^bb0(%a: i32):\n  \"x.z\"(%a)[^bb1] : (i32) -> ()\n^bb1:\n  \"x.w\"() : () -> ()\n}) : () -> ()\n"))
	f.Add([]byte("module attributes {a = dense<[1, 2]> : tensor<2xi32>, b = array<i32: 1, 0>, c = \"s\\n\\22\", d = [1.5, @f::@g]} {\n} loc(fused[\"a\":1:2, callsite(unknown at \"n\"(unknown))])\n"))
	if s := testenv.SharedDir(); s != "" {
		for _, name := range []string{"ttgir/softmax_b1024_sm90_w4.ttgir", "ttgir/jit_matmul_128x128x64_w8_s3.ttgir", "prepost/transpose_64x64_f32_sm90_w4.pre.ttgir"} {
			if src, err := os.ReadFile(s + "/triton36/" + name); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, diags := Parse(src, ParseConfig{Filename: "fuzz.mlir", AllowUnregistered: true})
		if m == nil {
			if !diags.HasErrors() {
				t.Fatal("no module and no errors")
			}
			return
		}
		Verify(m)
		// Names from locations read back, but need not be a fixed point:
		// a region argument's location may not be printed (scf.for's).
		for _, cfg := range []PrintConfig{{DebugInfo: true, NameLocAsPrefix: true}, {NameLocAsPrefix: true, Generic: true}} {
			var b bytes.Buffer
			if err := Print(&b, m, cfg); err != nil {
				t.Fatal(err)
			}
			if m2, d2 := Parse(b.Bytes(), ParseConfig{Filename: "printed.mlir", AllowUnregistered: true}); m2 == nil || d2.HasErrors() && !diags.HasErrors() {
				t.Fatalf("printed form (%+v) does not parse: %v\n%s", cfg, d2, b.String())
			}
		}
		for _, cfg := range []PrintConfig{{DebugInfo: true}, {Generic: true}, {KeepNames: true}} {
			var b1 bytes.Buffer
			if err := Print(&b1, m, cfg); err != nil {
				t.Fatal(err)
			}
			m2, d2 := Parse(b1.Bytes(), ParseConfig{Filename: "printed.mlir", AllowUnregistered: true})
			if m2 == nil {
				t.Fatalf("printed form does not parse: %v\n%s", d2, b1.String())
			}
			var b2 bytes.Buffer
			Print(&b2, m2, cfg)
			if b1.String() != b2.String() {
				t.Fatalf("not a fixed point:\n%s", firstDiff(b1.String(), b2.String()))
			}
		}
	})
}
