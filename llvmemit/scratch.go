package llvmemit

import (
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// Global scratch: a kernel's global_scratch parameter points at a buffer
// the launcher allocates, ttg.global_scratch_memory_size bytes (the
// module's, set by Triton's global scratch allocation) for each program.
// A program's part starts at its linear id x + nx·(y + ny·z) times that
// size; a ttg.global_scratch_alloc is its ttg.global_scratch_memory_offset
// into the part, and a call passes the callee the part plus the call's
// offset, which a device function adds its own offsets to — Triton's
// getGlobalScratchPtr, i32 arithmetic included.

func init() {
	Register("ttg.global_scratch_alloc", func(l *Lowerer, op *ir.Operation) error {
		if _, ok := op.IntAttr(passes.GlobalScratchOffsetAttr); !ok {
			return errorf(op, "no %s: run the global scratch allocation first (layout-opt -tritongpu-global-scratch-memory-allocation, which layout-translate runs on a module without ttg.global_scratch_memory_size)", passes.GlobalScratchOffsetAttr)
		}
		p := l.globalScratch(op)
		rt, err := llvmType(op.Result(0).Type())
		if err != nil {
			return errorf(op, "%v", err)
		}
		if !rt.Equal(p.Type()) {
			p = l.cur.NewBitCast(p, rt)
		}
		l.Define(op.Result(0), []value.Value{p})
		return nil
	})
}

// globalScratch is the global scratch of op (a ttg.global_scratch_alloc or
// a tt.call) in the current function: its part of the buffer plus op's
// offset. As Triton, a kernel of a module without a scratch size passes
// the buffer itself, whatever the offset.
func (l *Lowerer) globalScratch(op *ir.Operation) value.Value {
	base := l.fn.Params[len(l.fn.Params)-2]
	off, hasOff := op.IntAttr(passes.GlobalScratchOffsetAttr)
	if !l.f.kernel {
		if off == 0 {
			return base
		}
		return l.cur.NewGetElementPtr(types.I8, base, i32(off))
	}
	size, ok := l.e.src.Op.IntAttr(passes.GlobalScratchSizeAttr)
	if !ok {
		return base
	}
	b := l.b()
	lin := l.sreg("ctaid.z")
	lin = b.add(l.sreg("ctaid.y"), b.mul(lin, l.sreg("nctaid.y")))
	lin = b.add(l.sreg("ctaid.x"), b.mul(lin, l.sreg("nctaid.x")))
	offset := b.mul(lin, i32(size))
	if hasOff {
		offset = b.add(offset, i32(off))
	}
	return l.cur.NewGetElementPtr(types.I8, base, offset)
}
