package ir

import (
	"strings"
	"testing"
)

// roundTrip parses src, prints it, and checks that the printed text is a
// fixed point of parse and print; it returns the printed text.
func roundTrip(t *testing.T, src string) string {
	t.Helper()
	cfg := ParseConfig{Filename: "t.mlir", AllowUnregistered: true}
	m, diags := ParseString(src, cfg)
	if len(diags) > 0 {
		t.Fatalf("parse: %s", diags.Error())
	}
	var b1, b2 strings.Builder
	if err := Print(&b1, m, PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	m2, diags := ParseString(b1.String(), cfg)
	if len(diags) > 0 {
		t.Fatalf("reparse: %s\n%s", diags.Error(), b1.String())
	}
	if err := Print(&b2, m2, PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	if b1.String() != b2.String() {
		t.Fatalf("not a fixed point:\n%s\nthen:\n%s", b1.String(), b2.String())
	}
	return b1.String()
}

// An op whose results have no left-hand side is accepted, as in MLIR, and
// its results print with fresh names.
func TestUnboundResults(t *testing.T) {
	got := roundTrip(t, `tt.func @f(%a: i32) {
  ttg.async_wait {num = 0 : i32}
  arith.addi %a, %a : i32
  "foo.two"(%a) : (i32) -> (i32, i32)
  tt.return
}
`)
	want := `module {
  tt.func @f(%arg0: i32) {
    %0 = ttg.async_wait {num = 0 : i32}
    %1 = arith.addi %arg0, %arg0 : i32
    %2:2 = "foo.two"(%arg0) : (i32) -> (i32, i32)
    tt.return
  }
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A layout alias written over several lines parses (Triton's
// verify-blocked-layout.mlir), errors inside it are placed on their line,
// and the lines after it keep their numbers.
func TestMultiLineEncodingAlias(t *testing.T) {
	const def = "#b = #ttg.blocked<{\n  sizePerThread = [1],\n  threadsPerWarp = [32],\n  warpsPerCTA = [4], order = [0]\n}>\n"
	got := roundTrip(t, def+"tt.func @f(%a: tensor<4xi32, #b>) {\n  tt.return\n}\n")
	if !strings.HasPrefix(got, "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n") {
		t.Errorf("got:\n%s", got)
	}
	for _, tc := range []struct{ src, want string }{
		{"#b = #ttg.blocked<{\n  sizePerThread = [1],\n  threadsPerWarp = [32], bogus = 1,\n  warpsPerCTA = [4], order = [0]}>\n",
			"t.mlir:3:26: error: unexpected key: bogus"},
		{def + "tt.func @f() {\n  tt.return %x : i32\n}\n",
			"t.mlir:7:13: error: use of undeclared SSA value name '%x'"},
	} {
		_, diags := ParseString(tc.src, ParseConfig{Filename: "t.mlir"})
		if got := diags.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// After an alias definition fails, its uses report nothing more (the
// definition's error stands alone), and an error inside an attribute
// dictionary skips the rest of the op, not the rest of the region.
func TestNoCascadeAfterBadAlias(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"bad alias uses", `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#shared = #ttg.nvmma_shared<{transposed = false, elementBitWidth = 16}>
!t = !tt.ptr<f16, bad>
#loc1 = loc(nope)
tt.func @f(%a: i32) {
  %0 = tt.splat %a : i32 -> tensor<4xi32, #blocked>
  %1 = arith.addi %0, %0 : tensor<4xi32, #blocked>
  %2 = ttg.local_alloc : () -> !ttg.memdesc<4xi32, #shared, #ttg.shared_memory, mutable>
  %3 = "foo.x"() {a = #blocked, b = #foo.bar<#slice>} : () -> (!t) loc(#loc1)
  %4 = "foo.x"() {a = #ttg.slice<{dim = 0, parent = #blocked}>} : () -> !t
  tt.return %x : i32
}`, "t.mlir:1:102: error: unexpected key: bogus\n" +
			"t.mlir:3:11: error: #ttg.nvmma_shared: missing key 'swizzlingByteWidth'\n" +
			"t.mlir:4:19: error: expected integer value\n" +
			"t.mlir:5:13: error: expected location instance\n" +
			"t.mlir:12:13: error: use of undeclared SSA value name '%x'"},
		{"error inside an attribute dictionary", `tt.func @f(%a: i32) {
  %0 = "foo.x"() {a = #undefined, b = 1} : () -> (i32)
  tt.return %x : i32
}`, "t.mlir:2:23: error: undefined symbol alias id 'undefined'\n" +
			"t.mlir:3:13: error: use of undeclared SSA value name '%x'"},
		{"unknown op whose types continue on the next lines", `tt.func @f(%a: !ttg.memdesc<4xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory>) {
  ttng.frob %a, %a :
    !ttg.memdesc<4xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory>,
    !ttg.memdesc<4xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory>
  tt.return %x : i32
}`, "t.mlir:2:3: error: custom op 'ttng.frob' is unknown\n" +
			"t.mlir:5:13: error: use of undeclared SSA value name '%x'"},
		{"unknown op with keyword-led regions on the next lines", `tt.func @f(%a: i32) {
  ttg.frob(%a) attributes {n = 1 : i32}
  default {
    ttg.frob_return
  }
  partition0(%b: i32) num_warps(4) {
    ttg.frob_return
  } : (i32) -> ()
  tt.return %x : i32
}`, "t.mlir:2:3: error: custom op 'ttg.frob' is unknown\n" +
			"t.mlir:9:13: error: use of undeclared SSA value name '%x'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := ParseString(tc.src, ParseConfig{Filename: "t.mlir", AllowUnregistered: true})
			if got := diags.Error(); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// A file metadata dictionary is parsed; its external resources print back
// after the module (and the deferred aliases) as mlir-opt prints them,
// dialect resources (unused blobs) are dropped, and errors are MLIR's.
func TestFileMetadata(t *testing.T) {
	got := roundTrip(t, `{-# external_resources: {r: {"a key": "x\"y"}} #-}
module {
} loc(#loc)
#loc = loc("f.py":1:2)
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x08000000010000000200000003000000"
    }
  },
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(cse)",
      disable_threading: false
    },
    r: {b: true}
  }
#-}
`)
	want := `module {
}

{-#
  external_resources: {
    r: {
      "a key": "x\22y",
      b: true
    },
    mlir_reproducer: {
      pipeline: "builtin.module(cse)",
      disable_threading: false
    }
  }
#-}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	m, _ := ParseString("{-# external_resources: {r: {k: true}} #-}", ParseConfig{})
	if len(m.Clone().Resources) != 1 {
		t.Errorf("Clone drops the resources")
	}
	for _, tc := range []struct{ src, want string }{
		{"{-# foo: {} #-}", "t.mlir:1:5: error: unknown key 'foo' in file metadata dictionary"},
		{"{-# 1 #-}", "t.mlir:1:5: error: expected identifier key in file metadata dictionary"},
		{"{-# external_resources: {r: {k: 1}} #-}", "t.mlir:1:33: error: expected string value for key 'k'"},
		{"{-# dialect_resources: {nope: {}} #-}", "t.mlir:1:25: error: dialect 'nope' is unknown"},
		{`{-# dialect_resources: {builtin: {b: "0x0800"}} #-}`, "t.mlir:1:38: error: expected hex string blob for key 'b' to encode alignment in first 4 bytes"},
		{"{-# external_resources: {r: {k: true}}", "t.mlir:1:39: error: expected ',' or '#-}'"},
	} {
		_, diags := ParseString(tc.src, ParseConfig{Filename: "t.mlir"})
		if got := diags.Error(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.src, got, tc.want)
		}
	}
}
