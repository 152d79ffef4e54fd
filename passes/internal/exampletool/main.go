// Command exampletool shows another Go program using the pass framework: it
// registers a pass of its own, count-converts, next to the layout passes,
// and runs a pipeline that mixes them.
//
//	exampletool FILE PIPELINE
//
// It prints the diagnostics to standard error and the resulting module to
// standard output, and exits with status 1 on any error.
package main

import (
	"fmt"
	"os"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// countConverts reports how many ttg.convert_layout ops each function has,
// and fails above its max option.
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

func init() { passes.MustRegister(countConverts) }

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: exampletool FILE PIPELINE")
		return 1
	}
	pl, err := passes.ParsePipeline(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	src, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	m, diags := ir.Parse(src, ir.ParseConfig{Filename: args[0]})
	if diags.HasErrors() {
		fmt.Fprintln(os.Stderr, diags)
		return 1
	}
	diags, err = pl.Run(m, passes.RunConfig{})
	for _, d := range diags {
		fmt.Fprintln(os.Stderr, d)
	}
	if err != nil {
		return 1
	}
	if err := ir.Print(os.Stdout, m, ir.PrintConfig{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
