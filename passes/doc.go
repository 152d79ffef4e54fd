// Package passes is layout-opt's pass framework and the home of its passes.
//
// A pass is a plain, documented value — a name, a one-line summary, options
// with defaults, the op it runs on and a Run function — in the spirit of
// golang.org/x/tools/go/analysis:
//
//	var myPass = &passes.Pass{
//		Name:    "count-converts",
//		Summary: "Warn about every ttg.convert_layout",
//		Anchor:  "tt.func",
//		Options: []passes.Option{{Name: "max", Default: "0", Kind: passes.IntOption, Doc: "conversions allowed"}},
//		Run: func(ctx *passes.Context, fn *dialect.Operation) error { ... },
//	}
//
// Passes are registered by name (and aliases) in a Registry; the passes of
// this package register themselves in the default registry when the package
// is imported, so a program that imports it can register its own passes
// next to ours and run pipelines that mix them.
//
// Pipelines use MLIR's textual syntax, with nesting and pass options in
// braces:
//
//	builtin.module(canonicalize-layouts{form=linear},tt.func(count-converts{max=2}))
//
// ParsePipeline parses that text against the registry, reporting errors
// with the column of the problem; Pipeline.String prints it back.
// Pipeline.Run is the pass manager: it runs each pass on every op of its
// anchor kind, verifies the module after each pass (RunConfig.DisableVerify
// turns that off) and names the pass that broke it, collects diagnostics,
// and calls instrumentation hooks (RunConfig.BeforePass, AfterPass) and a
// timer (Timing) that the layout-opt driver uses for
// -mlir-print-ir-after-all and -mlir-timing.
package passes
