package passes

import "github.com/layoutopt/layoutopt/ir"

// GlobalScratchAllocationPass is Triton's
// -tritongpu-global-scratch-memory-allocation. See its Doc.
var GlobalScratchAllocationPass = &Pass{
	Name:    "tritongpu-global-scratch-memory-allocation",
	Summary: "Assign offsets in the kernel's global scratch buffer to ttg.global_scratch_alloc ops and calls (Triton's global-scratch allocation)",
	Doc: `Triton 3.6's TritonGPUGlobalScratchAllocationPass: in each tt.func, every
ttg.global_scratch_alloc and every call of a function that needs global scratch
(its own ttg.global_scratch_memory_size) gets ttg.global_scratch_memory_offset =
N : i32, in post-order, each at the next multiple of its alignment, without
reusing memory (Triton's "dumb allocation" that ignores liveness). The function
gets ttg.global_scratch_memory_size (the end, rounded up to the largest
alignment) and ttg.global_scratch_memory_alignment (the largest alignment, 1
when there is none); the public function (the kernel) passes both to the module,
which the launcher reads to size the buffer behind the kernel's global-scratch
parameter. Callees are allocated before their callers; a module with two public
functions or recursive calls is an error.`,
	Run: runGlobalScratch,
}

func init() { MustRegister(GlobalScratchAllocationPass) }

// The attributes of Triton's global scratch allocation: a function's (and
// the module's) bytes of global scratch per program and their alignment,
// and an alloc's or a call's offset in its function's.
const (
	GlobalScratchSizeAttr   = "ttg.global_scratch_memory_size"
	GlobalScratchAlignAttr  = "ttg.global_scratch_memory_alignment"
	GlobalScratchOffsetAttr = "ttg.global_scratch_memory_offset"
)

// AllocateGlobalScratch runs the global scratch allocation on m when a
// function of it allocates global scratch (ttg.global_scratch_alloc) and
// the module has no ttg.global_scratch_memory_size yet: Triton runs the
// allocation when it lowers to LLVM, after the TTGIR it prints, so TTGIR
// files lack it. The diagnostics and error are the pipeline's.
func AllocateGlobalScratch(m *ir.Module) (ir.Diagnostics, error) {
	if m.Op.Attr(GlobalScratchSizeAttr) != nil || !m.HasOp("ttg.global_scratch_alloc") {
		return nil, nil
	}
	return runAlone(m, GlobalScratchAllocationPass)
}

// runAlone runs pass, with its default options, alone on module m.
func runAlone(m *ir.Module, pass *Pass) (ir.Diagnostics, error) {
	pl := NewPipeline("builtin.module")
	if err := pl.AddPass(pass, ""); err != nil {
		return nil, err
	}
	return pl.Run(m, RunConfig{})
}

func runGlobalScratch(ctx *Context, module *ir.Operation) error {
	funcs, all := moduleFuncs(module)
	onStack := map[*ir.Operation]bool{}
	var alloc func(f *ir.Operation) error
	alloc = func(f *ir.Operation) error {
		var err error
		// Callees first.
		f.Walk(func(op *ir.Operation) ir.WalkResult {
			if op.Name() != "tt.call" {
				return ir.Advance
			}
			g := callee(op, funcs)
			if g == nil {
				err = ctx.Errorf(op, "global scratch allocation: cannot resolve the callee of this call")
				return ir.Interrupt
			}
			if g.Attr(GlobalScratchSizeAttr) == nil {
				if onStack[g] {
					err = ctx.Errorf(op, "global scratch allocation: recursive calls are not supported")
					return ir.Interrupt
				}
				onStack[f] = true
				err = alloc(g)
				onStack[f] = false
				if err != nil {
					return ir.Interrupt
				}
			}
			return ir.Advance
		})
		if err != nil {
			return err
		}
		offset, largest := 0, 1
		f.WalkPost(func(op *ir.Operation) ir.WalkResult {
			var nbytes, align int64
			switch op.Name() {
			case "ttg.global_scratch_alloc":
				nbytes, _ = op.IntAttr("nbytes")
				align, _ = op.IntAttr("alignment")
			case "tt.call":
				g := callee(op, funcs)
				nbytes, _ = g.IntAttr(GlobalScratchSizeAttr)
				align, _ = g.IntAttr(GlobalScratchAlignAttr)
			}
			if nbytes > 0 {
				offset = alignTo(offset, int(align))
				setSortedAttr(op, GlobalScratchOffsetAttr, ir.Int(int64(offset), ir.I32))
				offset += int(nbytes)
				largest = max(largest, int(align))
			}
			return ir.Advance
		})
		setSortedAttr(f, GlobalScratchSizeAttr, ir.Int(int64(alignTo(offset, largest)), ir.I32))
		setSortedAttr(f, GlobalScratchAlignAttr, ir.Int(int64(largest), ir.I32))
		return nil
	}
	var kernel *ir.Operation
	for _, f := range all {
		if err := alloc(f); err != nil {
			return err
		}
		if v, ok := f.Attr("sym_visibility").(*ir.StringAttr); !ok || v.Value == "public" {
			if kernel != nil {
				return ctx.Errorf(f, "global scratch allocation: more than one public function (kernel) in the module")
			}
			kernel = f
		}
	}
	if kernel != nil {
		setSortedAttr(module, GlobalScratchSizeAttr, kernel.Attr(GlobalScratchSizeAttr))
		setSortedAttr(module, GlobalScratchAlignAttr, kernel.Attr(GlobalScratchAlignAttr))
	}
	ctx.MarkChanged()
	return nil
}
