package passes

import (
	"slices"

	"github.com/layoutopt/layoutopt/ir"
)

// FenceInsertionPass is Triton's -triton-nvidia-gpu-fence-insertion. See
// its Doc.
var FenceInsertionPass = &Pass{
	Name:    "triton-nvidia-gpu-fence-insertion",
	Summary: "Insert ttng.fence_async_shared before a wgmma or tcgen05 MMA whose shared-memory operands were written by generic stores (Triton 3.6's FenceInsertion)",
	Doc: `Triton 3.6's FenceInsertion, the last pass of make_ttgir on sm_90 and later.
An MMA reading shared memory through the async proxy (ttng.warp_group_dot,
ttng.tc_gen5_mma, ttng.tc_gen5_mma_scaled) sees what generic stores wrote
there only after a fence.proxy.async: the pass puts a
ttng.fence_async_shared {bCluster = false} before such an MMA when one of
its A and B operands depends on a copy from registers to shared memory,
found by walking the operand's definitions (through any op's operands, the
iteration arguments of scf.for to their initial and yielded values, and
the partition arguments of ttg.warp_specialize to its captures):

  - a ttg.local_alloc with a source;
  - a ttg.local_store to a ttg.local_alloc's buffer (through views that
    have one user);
  - an argument of any other region (a function's, an scf.while's),
    conservatively.

The fence is hoisted out of every enclosing loop (scf.for, scf.while) that
holds none of those copies (not out of a function or a ttg.warp_specialize
partition), and dropped when the op before it is already
such a fence. Modules below compute capability 90 are left as they are.
layout-translate does not need the pass: its wgmma lowering fences the
same writes itself (see llvmemit).`,
	Options: []Option{
		{Name: "compute-capability", Default: "90", Kind: IntOption, Doc: "NVIDIA compute capability: below 90 the pass does nothing"},
	},
	Run: func(ctx *Context, module *ir.Operation) error {
		if ctx.IntOption("compute-capability") < 90 {
			return nil
		}
		var dots []*ir.Operation
		module.Walk(func(op *ir.Operation) ir.WalkResult {
			switch op.Name() {
			case "ttng.warp_group_dot", "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled":
				dots = append(dots, op)
			}
			return ir.Advance
		})
		for _, dot := range dots {
			insertFence(dot)
		}
		return nil
	},
}

func init() { MustRegister(FenceInsertionPass) }

// insertFence is FenceInsertion's work for one MMA.
func insertFence(dot *ir.Operation) {
	if dot.NumOperands() < 2 {
		return
	}
	copiesA := copiesToShared(dot.Operand(0))
	copiesB := copiesToShared(dot.Operand(1))
	if len(copiesA) == 0 && len(copiesB) == 0 {
		return
	}
	fence := opBuilder{at: dot}.create("ttng.fence_async_shared", nil, nil,
		ir.NamedAttr{Name: "bCluster", Value: &ir.BoolAttr{Value: false}})
	inside := func(loop *ir.Operation, copies []*ir.Operation) bool {
		return slices.ContainsFunc(copies, loop.IsAncestor)
	}
	for loop := enclosingLoop(fence); loop != nil; loop = enclosingLoop(fence) {
		if inside(loop, copiesA) || inside(loop, copiesB) {
			break
		}
		fence.MoveBefore(loop)
	}
	if prev := fence.Prev(); prev != nil && prev.Name() == "ttng.fence_async_shared" && !isClusterFence(prev) {
		_ = fence.Erase() // a fence just made has no uses
	}
}

func isClusterFence(op *ir.Operation) bool {
	b, ok := op.Attr("bCluster").(*ir.BoolAttr)
	return ok && b.Value
}

// enclosingLoop is the nearest scf.for or scf.while holding op within
// the nearest op isolated from above (a function, the partitions of a
// ttg.warp_specialize: a fence is not moved out of a partition).
func enclosingLoop(op *ir.Operation) *ir.Operation {
	for p := op.ParentOp(); p != nil && !p.HasTrait(ir.IsolatedFromAbove); p = p.ParentOp() {
		if p.Name() == "scf.for" || p.Name() == "scf.while" {
			return p
		}
	}
	return nil
}

// copiesToShared is FenceInsertion's findCopyRegToSharedOps: the ops that
// copy registers to the shared memory operand v depends on.
func copiesToShared(v *ir.Value) []*ir.Operation {
	var found []*ir.Operation
	visited := map[*ir.Value]bool{}
	add := func(op *ir.Operation) {
		if !slices.Contains(found, op) {
			found = append(found, op)
		}
	}
	var walk func(v *ir.Value)
	walk = func(v *ir.Value) {
		if v == nil || visited[v] {
			return
		}
		visited[v] = true
		if _, ok := v.Type().(*ir.MemDescType); !ok {
			return
		}
		if op := v.DefiningOp(); op != nil {
			if op.Name() == "ttg.local_alloc" {
				if op.NumOperands() > 0 {
					add(op)
				}
				for _, user := range op.Result(0).Users() {
					for viewOps[user.Name()] && user.NumResults() == 1 && user.Result(0).HasOneUse() {
						user = user.Result(0).Users()[0]
					}
					if user.Name() == "ttg.local_store" {
						add(user)
						return
					}
				}
			}
			for _, w := range op.Operands() {
				walk(w)
			}
			return
		}
		b := v.OwnerBlock()
		if b == nil {
			return
		}
		owner := b.ParentOp()
		if owner == nil {
			return
		}
		switch owner.Name() {
		case "scf.for":
			i := v.ArgIndex() - 1
			if i < 0 || 3+i >= owner.NumOperands() {
				return
			}
			walk(owner.Operand(3 + i))
			if y := b.Last(); y != nil && i < y.NumOperands() {
				walk(y.Operand(i))
			}
			return
		case "ttg.warp_specialize.partitions":
			if ws := owner.ParentOp(); ws != nil && v.ArgIndex() < ws.NumOperands() {
				walk(ws.Operand(v.ArgIndex()))
			}
			return
		}
		add(owner)
	}
	walk(v)
	return found
}
