package llvmemit

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// Device functions (see function): tt.call passes the tt.func arguments
// register by register, then the callee's shared-memory frame as an i32
// byte offset in global_smem (the caller's frame plus the call's
// allocation.offset, where
// allocate-shared-memory put the callee's buffers, as Triton's
// getStackPointer does), the caller's global scratch at the call's offset
// (globalScratch) and its profile scratch pointer; the
// callee's registers come back as its return value. tt.return returns a
// device function's registers.

func init() {
	Register("tt.return", lowerReturn)
	Register("tt.call", lowerCall)
}

func lowerReturn(l *Lowerer, op *ir.Operation) error {
	if l.f.kernel {
		if op.NumOperands() != 0 {
			return errorf(op, "a kernel returns nothing")
		}
		l.cur.NewRet(nil)
		return nil
	}
	var regs []value.Value
	for _, v := range op.Operands() {
		regs = append(regs, l.Values(v)...)
	}
	if len(regs) != len(l.f.results) {
		return errorf(op, "returns %d registers, the function's type %d", len(regs), len(l.f.results))
	}
	switch len(regs) {
	case 0:
		l.cur.NewRet(nil)
	case 1:
		l.cur.NewRet(regs[0])
	default:
		var agg value.Value = constant.NewUndef(l.fn.Sig.RetType)
		for i, r := range regs {
			agg = l.cur.NewInsertValue(agg, r, uint64(i))
		}
		l.cur.NewRet(agg)
	}
	return nil
}

func lowerCall(l *Lowerer, op *ir.Operation) error {
	c, _ := tt.AsCall(op)
	ref := c.Callee()
	if ref == nil {
		return errorf(op, "the call has no callee")
	}
	g, ok := l.e.funcs[ref.Root]
	if !ok {
		return errorf(op, "no function @%s in the module", ref.Root)
	}
	if g.kernel {
		return errorf(op, "@%s is a kernel (a public function returning nothing): kernels cannot be called", ref.Root)
	}
	var args []value.Value
	for _, v := range op.Operands() {
		args = append(args, l.Values(v)...)
	}
	if len(args) != g.nArgs {
		return errorf(op, "passes %d registers, @%s takes %d", len(args), ref.Root, g.nArgs)
	}
	off := int64(0)
	if v, ok := op.IntAttr("allocation.offset"); ok {
		off = v
	}
	var frame value.Value = i32(off)
	if l.frame != nil {
		frame = l.cur.NewAdd(l.frame, frame)
	}
	n := len(l.fn.Params)
	args = append(args, frame, l.globalScratch(op), l.fn.Params[n-1])
	call := l.cur.NewCall(g.fn, args...)
	i := 0
	for _, r := range op.Results() {
		k := numRegs(r.Type())
		out := make([]value.Value, k)
		for j := range out {
			if len(g.results) == 1 {
				out[j] = call
			} else {
				out[j] = l.cur.NewExtractValue(call, uint64(i))
			}
			i++
		}
		l.Define(r, out)
	}
	return nil
}
