package ttg_test

import (
	"fmt"

	"github.com/layoutopt/layoutopt/dialect/ttg"
	"github.com/layoutopt/layoutopt/ir"
)

// The generated typed accessors (ops_gen.go) read an op's parts by the
// names its declaration gives them: AsConvertLayout checks the op's name,
// Src and ResultValue are its declared operand and result.
func ExampleAsConvertLayout() {
	src := `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %c = ttg.convert_layout %r : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
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
		if cvt, ok := ttg.AsConvertLayout(op); ok {
			fmt.Println("src defined by", cvt.Src().DefiningOp().Name())
			fmt.Println("from", ir.TypeString(cvt.Src().Type()))
			fmt.Println("to  ", ir.TypeString(cvt.ResultValue().Type()))
		}
		return ir.Advance
	})
	// Output:
	// src defined by tt.make_range
	// from tensor<128xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
	// to   tensor<128xi32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
}
