package ir

import (
	"strings"
	"testing"
)

// TestOpSyntaxRoundTrip checks the custom form of ops that the shared
// files do not contain: each body prints back exactly as written.
func TestOpSyntaxRoundTrip(t *testing.T) {
	const pre = "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n" +
		"#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n" +
		"#smem = #ttg.shared_memory\n" +
		"module {\n  tt.func @f(%a: i32, %b: i32, %c: i1, %t: tensor<16x16xf32, #blocked>, %p: !tt.ptr<f32>) -> i32 {\n"
	const post = "  }\n}\n"
	bodies := []string{
		"    %0 = scf.if %c -> (i32) {\n      scf.yield %a : i32\n    } else {\n      scf.yield %b : i32\n    }\n    tt.return %0 : i32\n",
		"    scf.if %c {\n      %0 = arith.addi %a, %b : i32\n    }\n    tt.return %a : i32\n",
		"    %0:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32, i32) {\n      %1 = arith.cmpi slt, %x, %y : i32\n      scf.condition(%1) %x, %y : i32, i32\n    } do {\n    ^bb0(%x_0: i32, %y_1: i32):\n      scf.yield %x_0, %y_1 : i32, i32\n    }\n    tt.return %0#1 : i32\n",
		"    cf.cond_br %c, ^bb1(%a : i32), ^bb2\n  ^bb1(%0: i32):\n    cf.br ^bb2\n  ^bb2:\n    tt.return %a : i32\n",
		"    %0 = tt.call @f(%a, %b, %c, %t, %p) : (i32, i32, i1, tensor<16x16xf32, #blocked>, !tt.ptr<f32>) -> i32\n    tt.return %0 : i32\n",
		"    %0 = arith.select %c, %a, %b : i32\n    %1 = arith.index_cast %0 : i32 to index\n    %c-3_i64 = arith.constant -3 : i64\n    %cst = arith.constant 1.500000e+00 : f32\n    %true = arith.constant true\n    tt.return %0 : i32\n",
		"    %0 = ttg.local_alloc %t : (tensor<16x16xf32, #blocked>) -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>\n    ttg.local_store %t, %0 : tensor<16x16xf32, #blocked> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>\n    %1 = ttg.local_load %0 : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> tensor<16x16xf32, #blocked>\n    ttg.local_dealloc %0 : !ttg.memdesc<16x16xf32, #shared, #smem, mutable>\n    tt.return %a : i32\n",
		"    %0 = tt.reshape %t allow_reorder : tensor<16x16xf32, #blocked> -> tensor<256xf32, #ttg.slice<{dim = 0, parent = #blocked}>>\n    %1 = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #blocked>\n    %2 = tt.load %1 cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<16x16x!tt.ptr<f32>, #blocked>\n    tt.store %1, %2 evictionPolicy = evict_first : tensor<16x16x!tt.ptr<f32>, #blocked>\n    tt.return %a : i32\n",
		"    %0 = tt.fp_to_fp %t, rounding = rtne : tensor<16x16xf32, #blocked> -> tensor<16x16xf16, #blocked>\n    %1 = math.exp2 %t : tensor<16x16xf32, #blocked>\n    %2 = arith.cmpf oge, %t, %t : tensor<16x16xf32, #blocked>\n    %3 = ub.poison : i32\n    %4 = tt.get_num_programs y : i32\n    gpu.barrier\n    tt.return %3 : i32\n",
		"    %0 = \"tt.scan\"(%t) <{axis = 1 : i32, reverse = false}> ({\n    ^bb0(%arg5: f32, %arg6: f32):\n      %1 = arith.addf %arg5, %arg6 : f32\n      tt.scan.return %1 : f32\n    }) : (tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>\n    tt.return %a : i32\n",
	}
	for i, body := range bodies {
		src := pre + body + post
		// Aliases the body does not use are not printed.
		for _, a := range []string{"#shared", "#smem"} {
			if !strings.Contains(body, a) {
				src = strings.Replace(src, a+" = ", "", 1)
				lines := strings.Split(src, "\n")
				for k, l := range lines {
					if strings.HasPrefix(l, "#ttg.") {
						lines = append(lines[:k], lines[k+1:]...)
						break
					}
				}
				src = strings.Join(lines, "\n")
			}
		}
		m, d := ParseString(src, ParseConfig{Filename: "t.mlir"})
		if d.HasErrors() {
			t.Errorf("case %d: %v", i, d)
			continue
		}
		if out := keep(m); out != src {
			t.Errorf("case %d:\n%s", i, firstDiff(src, out))
		}
		if d := Verify(m); len(d) > 0 {
			t.Errorf("case %d: verify: %v", i, d)
		}
		// Generic form reparses to the same custom form.
		var b strings.Builder
		Print(&b, m, PrintConfig{Generic: true, KeepNames: true})
		m2, d := ParseString(b.String(), ParseConfig{Filename: "g.mlir"})
		if d.HasErrors() {
			t.Errorf("case %d generic: %v\n%s", i, d, b.String())
			continue
		}
		if out := keep(m2); out != src {
			t.Errorf("case %d via generic:\n%s", i, firstDiff(src, out))
		}
	}
}
