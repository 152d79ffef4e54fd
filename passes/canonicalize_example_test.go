package passes_test

import (
	"fmt"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// Write every layout as a #ttg.linear, then back in named form: the
// #ttg.blocked that matches is found again.
func ExampleCanonicalizeLayoutsPass() {
	const src = `#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<256xf32, #blocked>) {
    tt.return
  }
}`
	for _, pipeline := range []string{
		"builtin.module(canonicalize-layouts{form=linear})",
		"builtin.module(canonicalize-layouts{form=linear},canonicalize-layouts)",
	} {
		m := ir.MustParse(src)
		p, err := passes.ParsePipeline(pipeline)
		if err != nil {
			fmt.Println(err)
			return
		}
		if _, err := p.Run(m, passes.RunConfig{}); err != nil {
			fmt.Println(err)
			return
		}
		fn := m.Body().First()
		fmt.Println(ir.TypeString(fn.Region(0).Entry().Arg(0).Type()))
	}
	// Output:
	// tensor<256xf32, #ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [128]], block = []}>>
	// tensor<256xf32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
}
