// Package passes is layout-opt's pass framework and the home of its passes.
//
// # Passes
//
// A pass is a plain, documented value — a name, a one-line summary, options
// with defaults, the op it runs on and a Run function — in the spirit of
// golang.org/x/tools/go/analysis:
//
//	var countConverts = &passes.Pass{
//		Name:    "count-converts",
//		Summary: "Remark on the number of ttg.convert_layout ops in each function",
//		Anchor:  "tt.func",
//		Options: []passes.Option{{Name: "max", Default: "-1", Kind: passes.IntOption, Doc: "fail above this many"}},
//		Run: func(ctx *passes.Context, fn *ir.Operation) error { ... },
//	}
//
//	func init() { passes.MustRegister(countConverts) }
//
// Run sees its options through the Context (already checked against the
// declaration, defaults applied) and reports problems with ctx.Errorf,
// Warningf and Remarkf, located at an op. A pass fails when Run returns an
// error or reports an error diagnostic; a panic in Run is turned into an
// error naming the pass.
//
// # Registry
//
// Passes are registered by name and aliases (Triton's flag spellings, such
// as tritongpu-remove-layout-conversions) in a Registry. The passes of this
// package register themselves in the default registry when the package is
// imported, so a program that imports it can register its own passes next
// to ours and run pipelines that mix them (see the package example, and
// internal/exampletool for a complete program). NewRegistry makes an
// isolated registry.
//
// # Pipelines
//
// Pipelines use MLIR's textual syntax, with nesting and pass options in
// braces:
//
//	builtin.module(canonicalize-layouts{form=linear},tt.func(count-converts{max=2}))
//
// ParsePipeline parses the text against the registry and reports errors as
// *PipelineError values that carry the column of the problem;
// Pipeline.String prints a pipeline back in the same syntax.
//
// # Running
//
// Pipeline.Run is the pass manager. A nested pipeline runs on every op of
// its anchor kind directly nested in the op of the enclosing pipeline, and
// a pass anchored on another op than its pipeline is nested implicitly, as
// mlir-opt does. After each pass the module is verified
// (RunConfig.DisableVerify turns that off), and a pass that breaks it is named:
// "pass 'NAME' produced IR that does not verify", followed by the
// verifier's diagnostics. RunConfig also carries the instrumentation that
// the layout-opt driver (package optdriver) uses: BeforePass and AfterPass
// hooks for -mlir-print-ir-*, OnDiagnostic to stream diagnostics, and a
// Timing tree for -mlir-timing.
//
// # Shared memory before LLVM lowering
//
// The passes allocate-shared-memory (-nv), test-print-allocation,
// test-print-membar and tritongpu-global-scratch-memory-allocation are
// Triton 3.6's analyses that run right before the LLVM lowering, with the
// same conventions: {allocation.offset = N : i32} on every op that owns a
// shared buffer or scratch, ttg.shared = N : i32 on the module, and a
// ttg.local_barrier between conflicting shared-memory accesses. A lowering
// calls them as functions:
//
//	alloc, barriers, err := passes.PrepareSharedMemory(module.Op, 90)
//	fa := alloc.Funcs[fn]            // one function's frame
//	fa.OpBuffer(cvt).Offset          // scratch of a conversion, reduce, ...
//	fa.ValueBuffers(memdesc)         // the allocations a memdesc may refer to
//	alloc.SharedMemorySize()         // the kernel's dynamic shared memory
//
// or step by step: AllocateModule (with DefaultScratchSize or
// NvidiaScratchSize), AttachAllocation, InsertBarriers (with
// NvidiaCanSkipBarSync). A tt.call's virtual buffer is where its callee's
// frame starts in the caller's.
package passes
