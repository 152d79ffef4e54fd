package passes

import "github.com/layoutopt/layoutopt/ir"

// CanonicalizePass is -canonicalize, MLIR's canonicalizer.
var CanonicalizePass = &Pass{
	Name:    "canonicalize",
	Summary: "Canonicalize operations (fold, apply canonicalization patterns, erase dead ops)",
	Anchor:  AnyOp,
	Doc: `MLIR's canonicalizer (mlir/lib/Transforms/Canonicalizer.cpp): the greedy pattern
driver applies, to every op nested in the op it runs on until nothing changes (at most
max-iterations rounds), in this order: erase the op if it is trivially dead (unused,
and only reading memory or allocating its own result; scf.for/if/while count with
their bodies); fold it; apply its canonicalization patterns by decreasing benefit.
Ops are visited top-down (pre-order) from a worklist, and whatever a rewrite touches is
revisited. Folded constants become arith.constant ops; at the start of each round the
constants are uniqued per region of the nearest isolated-from-above op (tt.func) and
moved to the start of its entry block, as MLIR's OperationFolder does.

The folders and patterns are Triton's and MLIR's for the ops Triton's tests exercise
(see canonicalize_patterns.go; RegisterCanonicalization adds more): ttg.convert_layout
(into the same type, of a convert, splat, make_range, splat constant, histogram,
local_load or reshape) and the ops that absorb a convert of their operand (tt.reshape,
tt.trans, tt.gather, tt.histogram, ttg.local_alloc, ttg.local_store, and ttng.tmem_store
when the convert's source is a layout a tcgen05.st of the buffer takes as it is:
attr.IsTMemCompatible, Triton's isDistributedLayoutTMemCompatible, single-CTA only);
ttg.local_alloc
of a local_load of the same memdesc; tt.reshape/trans/broadcast/expand_dims/splat of
constants and of each other; tt.addptr and tt.advance by zero; a one-element
tt.make_range; tt.fp_to_fp of zeros; tt.load/tt.store with an all-true or all-false
mask; arith identities and constant folding of integer ops, comparisons, selects and
casts; commutative ops get their constant operand on the right.

Differences from MLIR: only the patterns above exist (MLIR's arith and scf dialects
have many more: no float constant folding except zeros, no scf.if/for
simplification); region simplification (unreachable-block and dead-block-argument
elimination, block merging) is not done; an op that does not converge within
max-iterations is left as it is, without an error.`,
	Options: []Option{
		{Name: "max-iterations", Doc: "rounds of the driver before it gives up (MLIR's default)", Default: "10", Kind: IntOption},
	},
	Run: runCanonicalizePatterns,
}

func init() { MustRegister(CanonicalizePass) }

func runCanonicalizePatterns(ctx *Context, op *ir.Operation) error {
	cfg := greedyConfig{maxIterations: ctx.IntOption("max-iterations"), fold: true, cseConstants: true}
	if cfg.maxIterations < 1 {
		cfg.maxIterations = 1
	}
	if applyGreedily(op, cfg) {
		ctx.MarkChanged()
	}
	return nil
}
