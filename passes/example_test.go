package passes_test

import (
	"fmt"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

const kernel = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%out: !tt.ptr<i32>) {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %2 = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked1>
    %3 = tt.addptr %2, %1 : tensor<128x!tt.ptr<i32>, #blocked1>, tensor<128xi32, #blocked1>
    tt.store %3, %1 : tensor<128x!tt.ptr<i32>, #blocked1>
    tt.return
  }
}
`

// countConverts is a pass of the program's own: it counts the conversions
// in each function.
var countConverts = &passes.Pass{
	Name:    "count-converts",
	Summary: "Remark on the number of ttg.convert_layout ops in each function",
	Anchor:  "tt.func",
	Options: []passes.Option{{Name: "max", Doc: "fail above this many (-1: no limit)", Default: "-1", Kind: passes.IntOption}},
	Run: func(ctx *passes.Context, fn *ir.Operation) error {
		n := 0
		fn.Walk(func(op *ir.Operation) ir.WalkResult {
			if op.Name() == "ttg.convert_layout" {
				n++
			}
			return ir.Advance
		})
		if max := ctx.IntOption("max"); max >= 0 && n > max {
			return ctx.Errorf(fn, "%d conversions, more than %d", n, max)
		}
		ctx.Remarkf(fn, "%d conversions", n)
		return nil
	},
}

// Passes are registered once, typically in an init function.
func init() { passes.MustRegister(countConverts) }

// A program registers a pass of its own (countConverts, above) and runs it
// in a pipeline with the layout passes of this package.
func Example() {
	pl, err := passes.ParsePipeline("builtin.module(count-converts, remove-redundant-conversions, count-converts{max=0})")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, diags := ir.Parse([]byte(kernel), ir.ParseConfig{Filename: "kernel.mlir"})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	diags, err = pl.Run(m, passes.RunConfig{})
	for _, d := range diags {
		fmt.Println(d)
	}
	fmt.Println("error:", err)
	fmt.Println(pl)
	// Output:
	// kernel.mlir:4:3: remark: 1 conversions
	// kernel.mlir:4:3: remark: 0 conversions
	// error: <nil>
	// builtin.module(count-converts,remove-redundant-conversions,count-converts{max=0})
}
