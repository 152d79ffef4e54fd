package passes

import (
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/smem"
)

// BankConflictsPass is bank-conflicts, an analysis: a remark with the bank
// conflicts of every shared-memory access. See its Doc.
var BankConflictsPass = &Pass{
	Name:    "bank-conflicts",
	Summary: "Remark on the bank conflicts of every shared-memory access (local_alloc, local_store, local_load, and conversions through shared memory)",
	Anchor:  "tt.func",
	Options: []Option{
		{Name: "compute-capability", Default: "0", Kind: IntOption,
			Doc: "NVIDIA compute capability of the conversions' lowering (0: from the module's ttg.target, cuda:NN; 80 when there is none)"},
		{Name: "generic", Default: "false", Kind: BoolOption,
			Doc: "plan conversions with Triton's target-independent swizzle (st/ld.shared only)"},
	},
	Doc: `An analysis: it changes nothing and reports one remark per shared-memory access,

  ttg.local_alloc %x, ttg.local_store   store: N bank conflicts (N+1 wavefronts, V-bit vectors, st.shared)
  ttg.local_load                        load: N bank conflicts (N+1 wavefronts, V-bit vectors, ld.shared)
  ttg.convert_layout via shared memory  store: ...; load: ...; R rounds, B bytes of scratch

N is the number of bank conflicts of one access instruction (excess wavefronts,
2^k - 1: 0 is conflict free, 31 a 32-way conflict), exactly as Triton 3.6's
bankConflictsMemDesc (gluon's get_shared_bank_conflicts) counts them: the access
is vectorised as far as largestVectorisation of the register -> offset map allows
(V bits), and every access instruction of every warp has the same count. For a
ttg.local_* op the register layout is the tensor's and the shared layout the
memdesc's; sub-byte elements are counted as bytes.

For a ttg.convert_layout that Triton lowers through shared memory the remark
describes the round trip its lowering would use (smem.PlanConversion, the NVIDIA
instruction-aware variant for the compute capability, or the generic one): each
side's instruction (st.shared, stmatrix, stmatrix.trans; ld.shared, ldmatrix,
ldmatrix.trans), its vector width and conflicts as Triton's swizzling scores
them, the number of rounds that reuse one scratch tile and the scratch size.
Conversions that need no shared memory get no remark.

Where Triton would abort (a tensor smaller than one vector times one 128-byte
line, layouts that do not match) the remark says "not counted" and why. Run it
with -verify-diagnostics and expected-remark lines to pin the counts in a test.`,
	Run: runBankConflicts,
}

func init() { MustRegister(BankConflictsPass) }

func runBankConflicts(ctx *Context, fn *ir.Operation) error {
	t := smemTarget(fn, ctx.IntOption("compute-capability"), ctx.BoolOption("generic"))
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		switch op.Name() {
		case "ttg.local_alloc":
			if op.NumOperands() == 1 && op.NumResults() == 1 {
				ctx.Remarkf(op, "%s", localRemark("store", op.Operand(0).Type(), op.Result(0).Type()))
			}
		case "ttg.local_store":
			if op.NumOperands() == 2 {
				ctx.Remarkf(op, "%s", localRemark("store", op.Operand(0).Type(), op.Operand(1).Type()))
			}
		case "ttg.local_load":
			if op.NumOperands() >= 1 && op.NumResults() == 1 {
				ctx.Remarkf(op, "%s", localRemark("load", op.Result(0).Type(), op.Operand(0).Type()))
			}
		case opConvert:
			c, err := planConvert(op, t)
			switch {
			case err != nil:
				ctx.Remarkf(op, "shared-memory round trip not counted: %v", err)
			case c == nil || c.plan.Kind != smem.SharedMemory:
			case c.plan.CrossCTA:
				ctx.Remarkf(op, "cross-CTA conversion (distributed shared memory): not counted")
			default:
				ctx.Remarkf(op, "%s", cvtRemark(c.plan))
			}
		}
		return ir.Advance
	})
	return nil
}

// accessText formats one side: "store: 2 bank conflicts (3 wavefronts,
// 128-bit vectors, st.shared)".
func accessText(side string, a smem.Access, bitwidth int) string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	return fmt.Sprintf("%s: %d bank %s (%d %s, %d-bit vectors, %s)", side, a.Conflicts,
		plural(a.Conflicts, "conflict", "conflicts"), a.Conflicts+1, plural(a.Conflicts+1, "wavefront", "wavefronts"),
		a.VecBits(bitwidth), a.Instr.Name(side == "store"))
}

// localAccess counts the st/ld.shared access of a tensor of type tensor to
// or from the memdesc of type mem.
func localAccess(tensor, mem ir.Type) (smem.Access, int, error) {
	rt, ok := tensor.(*ir.RankedTensorType)
	md, ok2 := mem.(*ir.MemDescType)
	if !ok || !ok2 {
		return smem.Access{}, 0, fmt.Errorf("not a tensor and a memdesc")
	}
	if md.AllocShape != nil && !slices.Equal(md.AllocShape, md.Shape) {
		return smem.Access{}, 0, fmt.Errorf("a view of a larger allocation")
	}
	if !slices.Equal(rt.Shape, md.Shape) {
		return smem.Access{}, 0, fmt.Errorf("the tensor and the memdesc have different shapes")
	}
	bw := accessBits(rt)
	if bw > 128 {
		return smem.Access{}, 0, fmt.Errorf("%d-bit elements", bw)
	}
	shape := intShape(rt.Shape)
	re, se := ir.Encoding(rt), ir.Encoding(md)
	if !isDistributed(re) {
		return smem.Access{}, 0, fmt.Errorf("the tensor has no distributed layout")
	}
	if _, ok := se.(attr.Shared); !ok {
		return smem.Access{}, 0, fmt.Errorf("the memdesc has no shared layout")
	}
	rl, err := attr.Linear(re, shape)
	if err != nil {
		return smem.Access{}, 0, err
	}
	sl, err := attr.Linear(se, shape)
	if err != nil {
		return smem.Access{}, 0, err
	}
	a, err := smem.LocalAccess(rl, sl, bw)
	return a, bw, err
}

func localRemark(side string, tensor, mem ir.Type) string {
	a, bw, err := localAccess(tensor, mem)
	if err != nil {
		return fmt.Sprintf("%s: bank conflicts not counted: %v", side, err)
	}
	return accessText(side, a, bw)
}

func cvtRemark(p *smem.Plan) string {
	rounds := "1 round"
	if p.Reps != 1 {
		rounds = fmt.Sprintf("%d rounds", p.Reps)
	}
	return fmt.Sprintf("%s; %s; %s, %d bytes of scratch", accessText("store", p.Store, p.Bitwidth),
		accessText("load", p.Load, p.Bitwidth), rounds, p.ScratchBytes)
}
