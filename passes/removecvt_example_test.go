package passes_test

import (
	"fmt"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// Remove the conversions around an element-wise op: the addition is
// computed in the layout its operand and its user already share.
func ExampleRemoveConversionsPass() {
	m := ir.MustParse(`#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<256x!tt.ptr<f32>, #blocked>, %x: tensor<256xf32, #blocked>) {
    %0 = ttg.convert_layout %x : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    %1 = arith.addf %0, %0 : tensor<256xf32, #blocked1>
    %2 = ttg.convert_layout %1 : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked>
    tt.store %p, %2 : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}`)
	p, err := passes.ParsePipeline("builtin.module(tritongpu-remove-layout-conversions)")
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := p.Run(m, passes.RunConfig{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(m)
	// Output:
	// #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
	// module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
	//   tt.func @f(%arg0: tensor<256x!tt.ptr<f32>, #blocked>, %arg1: tensor<256xf32, #blocked>) {
	//     %0 = arith.addf %arg1, %arg1 : tensor<256xf32, #blocked>
	//     tt.store %arg0, %0 : tensor<256x!tt.ptr<f32>, #blocked>
	//     tt.return
	//   }
	// }
}
