package llvmemit

import (
	"fmt"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// The mbarrier ops of ttng, as Triton 3.6's BarrierOpToLLVM lowers them
// for one CTA: a barrier is an i64 in shared memory (its memdesc's byte
// offset, as every memdesc).
//
//	ttng.init_barrier %b, N     @p mbarrier.init.shared.b64 [b], N;    p: thread 0
//	ttng.inval_barrier %b       @p mbarrier.inval.shared.b64 [b];      p: thread 0
//	ttng.arrive_barrier %b, N   @p mbarrier.arrive.shared.b64 _, [b];  p: thread 0 (and %pred)
//	ttng.barrier_expect %b, S   @p mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], S;  (sm_90)
//	ttng.wait_barrier %b, %ph   a loop on mbarrier.try_wait.parity (sm_90) or on
//	                            mbarrier.test_wait.parity with nanosleep 20 (sm_80),
//	                            skipped where %pred is false
//
// Thread 0 stands for Triton's elect of one thread of warp 0 on sm_90 (the
// same thread count, one arrival). The barriers between ops are Membar's
// (passes.InsertBarriers knows these ops: an initialisation is a write, a
// wait or arrive a read and a write); without an allocation the lowering
// puts a barrier before each mbarrier op and after an initialisation
// (syncShared). An arrive of several counts and barrier_expect exist on
// sm_90 only (PTX: mbarrier.arrive's count operand, expect_tx), and are an
// error below it. The waits need PTX ISA 7.1 (test_wait.parity, the sink
// operand _) on sm_80, and the sm_90 forms PTX ISA 8.0 (Result.PTXVersion).
func init() {
	Register("ttng.init_barrier", func(l *Lowerer, op *ir.Operation) error {
		l.syncShared()
		l.mbarrierOp(op, fmt.Sprintf("mbarrier.init.%s.b64 [$1], %d;", l.sharedSpace(), ir.AttrIntValue(op.Attr("count"))), nil)
		l.syncShared()
		return nil
	})
	Register("ttng.inval_barrier", func(l *Lowerer, op *ir.Operation) error {
		l.syncShared()
		l.mbarrierOp(op, fmt.Sprintf("mbarrier.inval.%s.b64 [$1];", l.sharedSpace()), nil)
		return nil
	})
	Register("ttng.arrive_barrier", func(l *Lowerer, op *ir.Operation) error {
		count := ir.AttrIntValue(op.Attr("count"))
		if count > 1 && l.e.cc < 90 {
			return errorf(op, "an arrive of count %d needs sm_90 (the module targets compute capability %d)", count, l.e.cc)
		}
		text := "mbarrier.arrive." + l.sharedSpace() + ".b64 _, [$1]"
		if count > 1 {
			text += fmt.Sprintf(", %d", count)
		}
		l.syncShared()
		l.mbarrierOp(op, text+";", l.optionalPred(op))
		return nil
	})
	Register("ttng.barrier_expect", func(l *Lowerer, op *ir.Operation) error {
		if l.e.cc < 90 {
			return errorf(op, "a transaction count (mbarrier.expect_tx) needs sm_90 (the module targets compute capability %d)", l.e.cc)
		}
		l.syncShared()
		l.mbarrierOp(op, fmt.Sprintf("mbarrier.arrive.expect_tx.%s.b64 _, [$1], %d;", l.sharedSpace(), ir.AttrIntValue(op.Attr("size"))), l.optionalPred(op))
		return nil
	})
	Register("ttng.wait_barrier", lowerWaitBarrier)
}

// sharedSpace is the state space of the mbarrier instructions: .shared
// below sm_90 (PTX ISA 7.1 has no .shared::cta), .shared::cta from it.
func (l *Lowerer) sharedSpace() string {
	if l.e.cc >= 90 {
		l.e.hopper = true
		return "shared::cta"
	}
	l.e.needPTX(MbarrierPTXVersion)
	return "shared"
}

// barrierPtr is the shared-memory address of the barrier memdesc v.
func (l *Lowerer) barrierPtr(v *ir.Value) value.Value {
	off := l.Values(v)[0]
	if md, ok := l.mem[v]; ok && md.xor != 0 {
		off = l.b().add(off, i32(int64(md.xor)*8))
	}
	return l.smemPtr(off, types.I8)
}

// optionalPred is the value of op's pred operand, nil when it has none.
func (l *Lowerer) optionalPred(op *ir.Operation) value.Value {
	if p := op.NamedOperand("pred"); p != nil {
		return l.Values(p)[0]
	}
	return nil
}

// mbarrierOp emits text ($1 the barrier) under the predicate "thread 0
// and pred" ($0).
func (l *Lowerer) mbarrierOp(op *ir.Operation, text string, pred value.Value) {
	var p value.Value = l.cur.NewICmp(enum.IPredEQ, l.tid, i32(0))
	if pred != nil {
		p = l.cur.NewAnd(p, pred)
	}
	bar := l.barrierPtr(op.NamedOperand("alloc"))
	l.cur.NewCall(inlineAsm(types.Void, "@$0 "+text, "b,r", types.I1, bar.Type()), p, bar)
}

// lowerWaitBarrier spins until the barrier's phase of parity %phase has
// completed, every thread (those with a false %pred skip it).
func lowerWaitBarrier(l *Lowerer, op *ir.Operation) error {
	space := l.sharedSpace()
	wait := "mbarrier.try_wait.parity." + space + ".b64 complete, [$0], $1;"
	if l.e.cc < 90 {
		wait = "mbarrier.test_wait.parity." + space + ".b64 complete, [$0], $1;\n\t@!complete nanosleep.u32 20;"
	}
	skip, done := "", ""
	bar := l.barrierPtr(op.NamedOperand("alloc"))
	cons, params := "r,r", []types.Type{bar.Type(), types.I32}
	args := []value.Value{bar, l.Values(op.NamedOperand("phase"))[0]}
	if p := l.optionalPred(op); p != nil {
		if c, ok := constInt(p); !ok || c == 0 {
			skip, done = "\t@!$2 bra.uni skipWait;\n", "\tskipWait:\n"
			cons += ",b"
			params = append(params, types.I1)
			args = append(args, p)
		}
	}
	text := "{\n" + skip + "\t.reg .pred complete;\n\twaitLoop:\n\t" + wait + "\n\t@!complete bra.uni waitLoop;\n" + done + "}"
	l.syncShared()
	l.cur.NewCall(inlineAsm(types.Void, text, cons, params...), args...)
	return nil
}
