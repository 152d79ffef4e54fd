package passes

import (
	"errors"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// AllocateSharedMemoryPass is Triton's -allocate-shared-memory. See its Doc.
var AllocateSharedMemoryPass = &Pass{
	Name:    "allocate-shared-memory",
	Summary: "Assign shared-memory offsets to every buffer and scratch buffer (allocation.offset) and the module's total (ttg.shared), as Triton 3.6 does",
	Doc: `Triton 3.6's shared-memory allocation (lib/Analysis/Allocation.cpp) with its
target-independent scratch sizes. Every ttg.local_alloc in shared memory owns a
buffer live over the ops where its result, or any view or loop-carried value
aliasing it, is live (MLIR's Liveness over post-order op numbers); every op that
needs shared memory while it runs owns a scratch buffer live over that op alone:
a ttg.convert_layout that goes through shared memory (the tile of the optimal
swizzle, package smem), a tt.reduce across warps, a tt.scan across warps, a
tt.gather that is not warp-local, a tt.histogram, an atomic whose result is
broadcast, a ttng.tensormap_create; a tt.call reserves its callee's frame.
Offsets come from Triton's algorithm (largest buffers first, first-fit over
free (offset, liveness) slots, then first-fit graph colouring of the buffers that
still overlap, until none do), with Triton's alignments (128 for scratch, the
shared encoding's for explicit buffers: 16 for swizzled layouts, 128·maxPhase
for nvmma_shared).

The result is written as Triton writes it: {allocation.offset = N : i32} on every
op that owns a buffer and ttg.shared = N : i32 (the largest frame of a kernel) on
the module. The NVIDIA variant, allocate-shared-memory-nv, sizes conversions with
the instruction-aware swizzle as the real compile does. Unsupported:
ttg.warp_specialize and cross-CTA conversions (located errors).`,
	Run: func(ctx *Context, op *ir.Operation) error {
		return runAllocation(ctx, op, DefaultScratchSize)
	},
}

// AllocateSharedMemoryNvPass is Triton's -allocate-shared-memory-nv.
var AllocateSharedMemoryNvPass = &Pass{
	Name:    "allocate-shared-memory-nv",
	Summary: "allocate-shared-memory with NVIDIA's scratch sizes (instruction-aware swizzles for a compute capability)",
	Options: []Option{
		{Name: "compute-capability", Default: "80", Kind: IntOption, Doc: "NVIDIA compute capability"},
		{Name: "ptx-version", Default: "80", Kind: IntOption, Doc: "PTX version (accepted for Triton's command lines; it does not change the allocation)"},
	},
	Doc: `The allocation of allocate-shared-memory, with the scratch of each
ttg.convert_layout through shared memory sized by the swizzle that NVIDIA's
lowering picks for the compute capability (stmatrix/ldmatrix tiles where they
apply), as make_llir runs it (add_allocate_shared_memory_nv). For the shared
Triton 3.6 kernels both give the ttg.shared that Triton prints.`,
	Run: func(ctx *Context, op *ir.Operation) error {
		return runAllocation(ctx, op, NvidiaScratchSize(ctx.IntOption("compute-capability")))
	},
}

// TestPrintAllocationPass is Triton's -test-print-allocation.
var TestPrintAllocationPass = &Pass{
	Name:    "test-print-allocation",
	Summary: "Report the shared-memory allocation as remarks (Triton's test pass)",
	Doc: `Runs allocate-shared-memory's analysis without changing the IR and reports it as
Triton's TestAllocation pass does: for each tt.func a remark with its name, one
per buffer ("offset = N, size = M" on a local_alloc, "scratch offset = N, size =
M" or "virtual offset = N, size = M" on an op with scratch), and "size = N" (the
function's frame). Use it with -verify-diagnostics.`,
	Run: runTestPrintAllocation,
}

func init() {
	MustRegister(AllocateSharedMemoryPass)
	MustRegister(AllocateSharedMemoryNvPass)
	MustRegister(TestPrintAllocationPass)
}

// reportError turns an analysis error into a located diagnostic.
func reportError(ctx *Context, at *ir.Operation, err error) error {
	var oe *OpError
	if errors.As(err, &oe) {
		return ctx.Errorf(oe.Op, "%s", oe.Msg)
	}
	return ctx.Errorf(at, "%v", err)
}

func runAllocation(ctx *Context, module *ir.Operation, scratch ScratchSizeFunc) error {
	m, err := AllocateModule(module, scratch)
	if err != nil {
		return reportError(ctx, module, err)
	}
	AttachAllocation(m)
	ctx.MarkChanged()
	return nil
}

// AttachAllocation writes an allocation into the IR as Triton's
// attachAllocationSizeAndOffsetAttr does: allocation.offset = N : i32 on
// every op with a scratch or virtual buffer and on every op whose single
// result owns an explicit buffer, and ttg.shared = N : i32 on the module.
func AttachAllocation(m *ModuleAllocation) {
	for _, f := range m.Order {
		fa := m.Funcs[f]
		f.Walk(func(op *ir.Operation) ir.WalkResult {
			b := fa.OpBuffer(op)
			if b == nil && op.NumResults() == 1 {
				b = fa.ValueBuffer(op.Result(0))
			}
			if b != nil {
				setSortedAttr(op, "allocation.offset", ir.Int(int64(b.Offset), ir.I32))
			}
			return ir.Advance
		})
	}
	setSortedAttr(m.Module, "ttg.shared", ir.Int(int64(m.SharedMemorySize()), ir.I32))
}

// setSortedAttr sets a discardable attribute, inserting a new one where a
// sorted dictionary (as MLIR keeps and prints them) has it.
func setSortedAttr(op *ir.Operation, name string, v ir.Attribute) {
	for i := range op.Attrs {
		if op.Attrs[i].Name == name {
			op.Attrs[i].Value = v
			return
		}
	}
	i := 0
	for i < len(op.Attrs) && strings.Compare(op.Attrs[i].Name, name) < 0 {
		i++
	}
	op.Attrs = append(op.Attrs, ir.NamedAttr{})
	copy(op.Attrs[i+1:], op.Attrs[i:])
	op.Attrs[i] = ir.NamedAttr{Name: name, Value: v}
}

func runTestPrintAllocation(ctx *Context, module *ir.Operation) error {
	m, err := AllocateModule(module, DefaultScratchSize)
	if err != nil {
		return reportError(ctx, module, err)
	}
	module.Walk(func(f *ir.Operation) ir.WalkResult {
		if f.Name() != "tt.func" {
			return ir.Advance
		}
		fa := m.Funcs[f]
		name, _ := f.Attr("sym_name").(*ir.StringAttr)
		if name != nil {
			ctx.Remarkf(f, "%s", name.Value)
		}
		f.Walk(func(op *ir.Operation) ir.WalkResult {
			if b := fa.OpBuffer(op); b != nil {
				kind := "scratch"
				if b.Kind == Virtual {
					kind = "virtual"
				}
				ctx.Remarkf(op, "%s offset = %d, size = %d", kind, b.Offset, b.Size)
			}
			for _, r := range op.Results() {
				if b := fa.ValueBuffer(r); b != nil {
					ctx.Remarkf(op, "offset = %d, size = %d", b.Offset, b.Size)
				}
			}
			return ir.Advance
		})
		ctx.Remarkf(f, "size = %d", fa.SharedMemorySize)
		return ir.Skip
	})
	return nil
}

// PrepareSharedMemory does to module what Triton 3.6's NVIDIA backend does
// before lowering to LLVM: the allocation with NVIDIA's scratch sizes for
// computeCapability, written as allocation.offset / ttg.shared, then Membar
// with NVIDIA's filter. It returns the allocation (for the offsets of each
// buffer and scratch) and the number of barriers inserted.
func PrepareSharedMemory(module *ir.Operation, computeCapability int) (*ModuleAllocation, int, error) {
	m, err := AllocateModule(module, NvidiaScratchSize(computeCapability))
	if err != nil {
		return nil, 0, err
	}
	AttachAllocation(m)
	n, err := InsertBarriers(m, NvidiaCanSkipBarSync)
	return m, n, err
}
