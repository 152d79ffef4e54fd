package llvmemit

import (
	"fmt"
	"math/bits"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// tt.atomic_rmw and tt.atomic_cas as Triton's predicated inline PTX
// (atom.SEM.SCOPE.global.OP.TYPE), one per element, issued only by the
// first of the threads and registers that hold the same element (by
// thread 0 for a scalar). When other holders read the result, the issuing
// thread stores the old value to the op's shared-memory scratch (one slot
// per element, sized by allocate-shared-memory), and after a barrier every
// holder loads it, as Triton does.

func init() {
	Register("tt.atomic_rmw", lowerAtomicRMW)
	Register("tt.atomic_cas", lowerAtomicCAS)
}

func lowerAtomicRMW(l *Lowerer, op *ir.Operation) error {
	a, _ := tt.AsAtomicRMW(op)
	elemIR, err := pointee(a.Ptr().Type())
	if err != nil {
		return errorf(op, "%v", err)
	}
	et := mustType(elemIR)
	bitsN := typeBits(et)
	isFloat := false
	if _, ok := et.(*types.FloatType); ok {
		isFloat = true
	}
	opName := tt.RMWOp.Cases[ir.AttrIntValue(op.Attr("atomic_rmw_op"))-tt.RMWOp.Base]
	var ptxOp, ptxType string
	switch opName {
	case "add":
		ptxOp, ptxType = "add", fmt.Sprintf("u%d", bitsN)
	case "fadd":
		if !isFloat || bitsN == 16 {
			return errorf(op, "fadd on %s is not supported", et)
		}
		ptxOp, ptxType = "add", fmt.Sprintf("f%d", bitsN)
	case "max", "min":
		ptxOp, ptxType = opName, fmt.Sprintf("s%d", bitsN)
	case "umax", "umin":
		ptxOp, ptxType = opName[1:], fmt.Sprintf("u%d", bitsN)
	case "and", "or", "xor":
		ptxOp, ptxType = opName, fmt.Sprintf("b%d", bitsN)
	case "exch":
		ptxOp, ptxType = "exch", fmt.Sprintf("b%d", bitsN)
	}
	if isFloat && opName != "fadd" && opName != "exch" {
		return errorf(op, "%s on %s is not supported", opName, et)
	}
	if bitsN != 32 && bitsN != 64 {
		return errorf(op, "%d-bit atomics are not supported", bitsN)
	}
	text := fmt.Sprintf("@$3 atom.%s.%s.global.%s.%s $0, [ $1 + 0 ], $2;", a.SemName(), a.ScopeName(), ptxOp, ptxType)
	cons := constraintFor(bitsN)
	if isFloat {
		cons = "f"
		if bitsN == 64 {
			cons = "d"
		}
	}
	var masks []value.Value
	if a.Mask() != nil {
		masks = l.Values(a.Mask())
	}
	vals := l.Values(a.Val())
	return l.atomic(op, a.Ptr(), masks, et, func(r int, ptr, pred value.Value) value.Value {
		return l.cur.NewCall(inlineAsm(et, text, "="+cons+",l,"+cons+",b", ptr.Type(), et, types.I1), ptr, vals[r], pred)
	})
}

func lowerAtomicCAS(l *Lowerer, op *ir.Operation) error {
	a, _ := tt.AsAtomicCAS(op)
	elemIR, err := pointee(a.Ptr().Type())
	if err != nil {
		return errorf(op, "%v", err)
	}
	et := mustType(elemIR)
	bitsN := typeBits(et)
	if bitsN != 32 && bitsN != 64 {
		return errorf(op, "%d-bit compare-and-swap is not supported", bitsN)
	}
	// The operands travel as bits (floats compare by their bits, as PTX's
	// cas does).
	bt := types.NewInt(uint64(bitsN))
	asBits := func(v value.Value) value.Value {
		if v.Type().Equal(bt) {
			return v
		}
		return l.cur.NewBitCast(v, bt)
	}
	text := fmt.Sprintf("@$4 atom.%s.%s.global.cas.b%d $0, [ $1 + 0 ], $2, $3;", a.SemName(), a.ScopeName(), bitsN)
	cons := constraintFor(bitsN)
	cmps, vals := l.Values(a.Cmp()), l.Values(a.Val())
	return l.atomic(op, a.Ptr(), nil, et, func(r int, ptr, pred value.Value) value.Value {
		old := l.cur.NewCall(inlineAsm(bt, text, "="+cons+",l,"+cons+","+cons+",b", ptr.Type(), bt, bt, types.I1),
			ptr, asBits(cmps[r]), asBits(vals[r]), pred)
		if et.Equal(bt) {
			return old
		}
		return l.cur.NewBitCast(old, et)
	})
}

// atomic issues one atomic per element of the pointers ptr (masked by
// masks when given) through issue(register, pointer, predicate), which
// returns the old value, and defines op's result: the old values, shared
// through scratch memory when other threads or registers hold the same
// elements and the result is read.
func (l *Lowerer) atomic(op *ir.Operation, ptr *ir.Value, masks []value.Value, et types.Type, issue func(r int, ptr, pred value.Value) value.Value) error {
	ptrs := l.Values(ptr)
	ll := mustLayout(ptr.Type()) // nil for a scalar
	dup, uniq := l.writer(ptr.Type())
	out := make([]value.Value, len(ptrs))
	preds := make([]value.Value, len(ptrs))
	for r := range ptrs {
		if r&dup != 0 {
			continue
		}
		var pred value.Value = constant.NewInt(types.I1, 1)
		if masks != nil {
			pred = masks[r]
		}
		if uniq != nil {
			pred = l.cur.NewAnd(pred, uniq)
		}
		preds[r] = pred
		out[r] = issue(r, ptrs[r], pred)
	}
	if op.Result(0).UseEmpty() || uniq == nil && dup == 0 {
		for r := range out {
			out[r] = out[r&^dup]
		}
		l.Define(op.Result(0), out)
		return nil
	}
	// Broadcast: the issuing thread stores its old value to the slot of
	// the element; every holder reads it back.
	st := storableType(et)
	eb := typeBits(st) / 8
	n := 1
	var idx [][]value.Value
	var shape []int
	if ll != nil {
		shape = intShape(shapeOf(ptr.Type()))
		for _, s := range shape {
			n *= s
		}
		idx = l.emitIndices(ptr.Type())
	}
	base := l.scratch(op, n*eb)
	slot := func(r int) value.Value {
		if ll == nil {
			return i32(base)
		}
		return l.b().add(l.b().shl(l.flatten(idx[r], shape), i32(int64(bits.TrailingZeros(uint(eb))))), i32(base))
	}
	l.syncShared()
	for r := range out {
		if r&dup != 0 {
			continue
		}
		p := l.smemPtr(slot(r), st)
		text := fmt.Sprintf("@$2 st.shared.b%d [ $0 + 0 ], $1;", 8*eb)
		l.cur.NewCall(inlineAsm(types.Void, text, "r,"+constraintFor(8*eb)+",b", p.Type(), st, types.I1), p, l.storable(out[r]), preds[r])
	}
	l.barrier()
	for r := range out {
		if r&dup != 0 {
			out[r] = out[r&^dup]
			continue
		}
		ld := l.cur.NewLoad(st, l.smemPtr(slot(r), st))
		out[r] = l.unstorable(ld, et)
	}
	l.Define(op.Result(0), out)
	return nil
}
