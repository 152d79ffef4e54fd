package ir_test

import (
	"fmt"
	"os"

	"github.com/layoutopt/layoutopt/ir"
)

// Parse a TTGIR function, rewrite it (replace a convert_layout by its
// operand), verify and print it back.
func Example() {
	src := `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %c = ttg.convert_layout %r : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %c : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    tt.return
  }
}
`
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "k.mlir"})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "ttg.convert_layout" &&
			ir.TypesEqual(op.Operand(0).Type(), op.Result(0).Type()) {
			op.Result(0).ReplaceAllUsesWith(op.Operand(0))
			if err := op.Erase(); err != nil {
				fmt.Println(err)
			}
		}
		return ir.Advance
	})
	if d := ir.Verify(m); len(d) > 0 {
		fmt.Println(d)
	}
	ir.Print(os.Stdout, m, ir.PrintConfig{})
	// Output:
	// #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
	// module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
	//   tt.func public @k(%arg0: !tt.ptr<f32>) {
	//     %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
	//     %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
	//     %2 = tt.addptr %1, %0 : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
	//     tt.return
	//   }
	// }
}

// Diagnostics are MLIR-style and located.
func ExampleParse_errors() {
	_, diags := ir.ParseString("tt.func @f(%a: i32) {\n  %0 = arith.addf %a, %a : f32\n  tt.return\n}\n",
		ir.ParseConfig{Filename: "bad.mlir"})
	fmt.Println(diags)
	// Output:
	// bad.mlir:2:19: error: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'
	// bad.mlir:1:12: note: prior use here
}
