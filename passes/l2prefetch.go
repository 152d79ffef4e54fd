package passes

import (
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/axisinfo"
	"github.com/layoutopt/layoutopt/ir"
)

// L2PrefetchAttr is the attribute l2-prefetch puts on a tt.load: the bytes
// (256) the L2 cache should fetch around each sector the load misses.
// llvmemit lowers a load carrying it with ld.global.L2::256B (PTX ISA 7.4,
// sm_80), whoever set it.
const L2PrefetchAttr = "layoutopt.l2_prefetch_bytes"

// l2PrefetchBytes is the largest prefetch size PTX offers (.L2::256B).
const l2PrefetchBytes = 256

// L2PrefetchPass is l2-prefetch. See its Doc.
var L2PrefetchPass = &Pass{
	Name:    "l2-prefetch",
	Summary: "Mark the global loads of a 2-D tile kernel whose short rows are completed by programs launched far away with a 256-byte L2 prefetch",
	Anchor:  "tt.func",
	Doc: `A GPU launches the programs (CTAs) of a grid with x varying fastest (y fastest
once order-programs has renumbered them). When a kernel's program reads rows
shorter than 256 bytes (a 64x64 f16 tile: rows of 128 bytes), the bytes beside them
are read by the program at y+1, launched a whole grid row later, while program x+1,
launched next, reads rows a stride away: DRAM then serves many short pieces of rows
and stays well below its bandwidth. A load marked with

  layoutopt.l2_prefetch_bytes = 256 : i32

is lowered to ld.global.L2::256B, which makes the L2 cache fetch the 256-byte
block around each sector it misses, so that the neighbouring program finds its rows
in L2 (on an H200: a 64x64 f16 transpose from 92.5% to 95.4% of a device-to-device
copy). Where the bytes beside are read by the program launched next, or by the
program itself, the prefetch only costs: measured 0.3 to 1 point of the copy on
memory-bound kernels whose rows are 256 bytes or longer.

So the pass marks a tt.load (in a module for sm_80 or newer) when an affine analysis
of its pointers in the program ids (as order-programs') and the axis analysis show
that

 1. each row it reads, the contiguous run of its fastest dim, is S < 256 bytes;
 2. its pointers move by a constant step from program y to y+1, at least S and less
    than 256 bytes: program y+1 reads the bytes beside;
 3. they move by a runtime stride, or by 256 bytes or more, from x to x+1: the
    program launched next does not.

In a kernel order-programs renumbered (its program ids are read as such), x and y
trade places: program y+1 is launched next, x+1 reads the bytes beside. Loads in
loops whose pointers are carried by the loop are not analysed (their steps are not
known), and no load is marked there. The computation is unchanged: the attribute is a cache hint.
A remark on each tt.func says which loads were marked and why, or why none.
layout-translate runs this pass after order-programs and specialize-divisibility,
so that it sees the bodies and program order that will be lowered.`,
	Run: runL2Prefetch,
}

func init() { MustRegister(L2PrefetchPass) }

func runL2Prefetch(ctx *Context, fn *ir.Operation) error {
	d := MarkL2Prefetch(fn)
	ctx.Remarkf(fn, "%s", d.Remark())
	if len(d.Loads) > 0 {
		ctx.MarkChanged()
	}
	return nil
}

// L2Prefetch is what MarkL2Prefetch decided for one tt.func.
type L2Prefetch struct {
	// Loads are the tt.loads marked with L2PrefetchAttr.
	Loads []*ir.Operation
	// Why says why they were marked, or why none was.
	Why string
}

// Remark is the remark l2-prefetch (and layout-translate -remarks) makes
// of the decision.
func (d L2Prefetch) Remark() string {
	if len(d.Loads) == 0 {
		return "L2 prefetch: none (" + d.Why + ")"
	}
	at := make([]string, len(d.Loads))
	for i, ld := range d.Loads {
		at[i] = OpPos(ld).String()
	}
	return fmt.Sprintf("L2 prefetch: %d B for the loads at %s (%s)", l2PrefetchBytes, strings.Join(dedup(at), ", "), d.Why)
}

// MarkL2Prefetch marks the tt.loads of fn as the l2-prefetch pass does and
// returns the decision.
func MarkL2Prefetch(fn *ir.Operation) L2Prefetch {
	if cc, ok := targetCC(moduleTarget(fn)); !ok || cc < 80 {
		return L2Prefetch{Why: "ld.global.L2::256B needs a cuda target of sm_80 or newer"}
	}
	var loads []*ir.Operation
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() != "tt.load" || op.NumOperands() == 0 {
			return ir.Advance
		}
		if t, ok := op.Operand(0).Type().(*ir.RankedTensorType); ok {
			if _, ok := t.Elem.(*ir.PointerType); ok {
				loads = append(loads, op)
			}
		}
		return ir.Advance
	})
	if len(loads) == 0 {
		return L2Prefetch{Why: "no global load of a tensor of pointers"}
	}
	ax := axisinfo.Analyze(fn)
	pc := programCoefs{}
	yFastest := renumbered(fn)
	var out L2Prefetch
	var marked, whyNot []string
	for _, ld := range loads {
		why, ok := l2PrefetchReason(ax, pc, yFastest, ld)
		if !ok {
			whyNot = append(whyNot, why)
			continue
		}
		ld.SetAttr(L2PrefetchAttr, &ir.IntegerAttr{Value: l2PrefetchBytes, Type: ir.I32})
		out.Loads = append(out.Loads, ld)
		marked = append(marked, why)
	}
	if len(out.Loads) > 0 {
		out.Why = strings.Join(dedup(marked), "; ")
	} else {
		out.Why = strings.Join(dedup(whyNot), "; ")
	}
	return out
}

// l2PrefetchReason says whether tt.load ld should be marked, and why (or
// why not), in a kernel whose programs are launched x fastest, or y
// fastest (yFastest: renumbered by order-programs).
func l2PrefetchReason(ax *axisinfo.Analysis, pc programCoefs, yFastest bool, ld *ir.Operation) (string, bool) {
	ptr := ld.Operand(0)
	shape := ptr.Type().(*ir.RankedTensorType).Shape
	info := ax.Get(ptr)
	if len(shape) == 0 || len(info.Contiguity) != len(shape) {
		return "a load of unknown shape", false
	}
	// The dim along which memory runs longest is the one its rows lie along.
	dim := len(shape) - 1
	for d := range shape {
		if info.Contiguity[d] > info.Contiguity[dim] {
			dim = d
		}
	}
	row := min(info.Contiguity[dim], shape[dim]) * axisinfo.ElemBytes(ptr.Type())
	if row >= l2PrefetchBytes {
		return fmt.Sprintf("rows of %d bytes", row), false
	}
	// The program launched next differs in program id next (x, or y in a
	// kernel order-programs renumbered), the one a grid row of launches
	// away in far.
	c := pc.of(ptr)
	next, far := 0, 1
	if yFastest {
		next, far = 1, 0
	}
	n, f := c[next], c[far]
	nextName, farName := "xy"[next:next+1], "xy"[far:far+1]
	switch {
	case !f.dep || !f.known:
		return fmt.Sprintf("rows of %d bytes, but no program %s+1 known to read beside them", row, farName), false
	case abs64(f.c) < row || abs64(f.c) >= l2PrefetchBytes:
		return fmt.Sprintf("rows of %d bytes; program %s+1 reads %d bytes away", row, farName, f.c), false
	case !n.dep || n.known && n.c == 0:
		return fmt.Sprintf("rows of %d bytes; program %s+1 reads the same", row, nextName), false
	case n.known && abs64(n.c) < l2PrefetchBytes:
		return fmt.Sprintf("rows of %d bytes; program %s+1, launched next, reads %d bytes away", row, nextName, n.c), false
	}
	ns := "a runtime stride"
	if n.known {
		ns = fmt.Sprintf("%d bytes", abs64(n.c))
	}
	return fmt.Sprintf("rows of %d bytes; program %s+1 reads %d bytes away, program %s+1 %s away", row, farName, abs64(f.c), nextName, ns), true
}
