package llvmemit

import (
	"fmt"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// tt.atomic_rmw as Triton's predicated inline PTX
// (atom.SEM.SCOPE.global.OP.TYPE), one per element, issued only by the
// first of the threads and registers that hold the same element. Results
// read by other ops need every holder of an element to see the old value,
// which Triton broadcasts through shared memory; that case is refused.

func init() { Register("tt.atomic_rmw", lowerAtomicRMW) }

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
	sem := tt.MemSemantic.Cases[ir.AttrIntValue(op.Attr("sem"))-tt.MemSemantic.Base]
	scope := tt.MemSyncScope.Cases[ir.AttrIntValue(op.Attr("scope"))-tt.MemSyncScope.Base]
	text := fmt.Sprintf("@$3 atom.%s.%s.global.%s.%s $0, [ $1 + 0 ], $2;", sem, scope, ptxOp, ptxType)
	cons := constraintFor(bitsN)
	if isFloat {
		cons = "f"
		if bitsN == 64 {
			cons = "d"
		}
	}
	ptrs := l.Values(a.Ptr())
	vals := l.Values(a.Val())
	var masks []value.Value
	if a.Mask() != nil {
		masks = l.Values(a.Mask())
	}
	var uniq value.Value
	dup := 0
	if ll := mustLayout(a.Ptr().Type()); ll != nil {
		uniq = l.uniqueThread(ll)
		dup = dupRegisters(ll)
	}
	if !op.Result(0).UseEmpty() && (uniq != nil || dup != 0) {
		return errorf(op, "the result of an atomic on a broadcast layout is not supported (Triton broadcasts it through shared memory)")
	}
	out := make([]value.Value, len(ptrs))
	for r := range ptrs {
		if r&dup != 0 {
			out[r] = out[r&^dup]
			continue
		}
		var pred value.Value = constant.NewInt(types.I1, 1)
		if masks != nil {
			pred = masks[r]
		}
		if uniq != nil {
			pred = l.cur.NewAnd(pred, uniq)
		}
		call := l.cur.NewCall(inlineAsm(et, text, "="+cons+",l,"+cons+",b", ptrs[r].Type(), et, types.I1), ptrs[r], vals[r], pred)
		out[r] = call
	}
	l.Define(op.Result(0), out)
	return nil
}
