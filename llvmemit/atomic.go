package llvmemit

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// tt.atomic_rmw and tt.atomic_cas as Triton's predicated inline PTX
// (atom.SEM.SCOPE.global.OP.TYPE), issued only by the first of the threads
// and registers that hold the same element (by thread 0 for a scalar).
// When other holders read the result, the issuing thread stores the old
// value to the op's shared-memory scratch (one slot per element, sized by
// allocate-shared-memory), and after a barrier every holder loads it, as
// Triton does.
//
// As in Triton's AtomicRMWOpConversion, an fadd covers several elements
// per instruction where the pointers' contiguity and alignment (and the
// mask's constancy) allow: on sm_90 a vector atom (.v2/.v4 f32, .v2 to .v8
// f16 and bf16; PTX ISA 8.1), below it two f16 packed as .f16x2. An
// atomic_rmw whose result is unused and whose semantics are relaxed or
// release (the only ones PTX's red takes) is a red: the same update
// without the old value.

func init() {
	Register("tt.atomic_rmw", lowerAtomicRMW)
	Register("tt.atomic_cas", lowerAtomicCAS)
}

// atomElem is how one element travels through an atomic's inline PTX:
// its register type and constraint (f16 as its 16 bits: "h" registers).
func atomElem(et types.Type) (types.Type, string) {
	switch {
	case et.Equal(types.Float):
		return et, "f"
	case et.Equal(types.Double):
		return et, "d"
	case et.Equal(types.Half):
		return types.I16, "h"
	}
	return et, constraintFor(typeBits(et))
}

func lowerAtomicRMW(l *Lowerer, op *ir.Operation) error {
	a, _ := tt.AsAtomicRMW(op)
	elemIR, err := pointee(a.Ptr().Type())
	if err != nil {
		return errorf(op, "%v", err)
	}
	et := mustType(elemIR)
	bitsN := typeBits(et)
	kind := ""
	if f, ok := elemIR.(*ir.FloatType); ok {
		kind = f.Kind
	}
	opName := tt.RMWOp.Cases[ir.AttrIntValue(op.Attr("atomic_rmw_op"))-tt.RMWOp.Base]
	var ptxOp, ptxType string
	switch opName {
	case "add":
		ptxOp, ptxType = "add", fmt.Sprintf("u%d", bitsN)
	case "fadd":
		switch kind {
		case "f32", "f64":
			ptxOp, ptxType = "add", kind
		case "f16":
			ptxOp, ptxType = "add.noftz", kind
		case "bf16":
			if l.e.cc < 90 {
				return errorf(op, "fadd on bf16 needs sm_90 (the module targets compute capability %d)", l.e.cc)
			}
			ptxOp, ptxType = "add.noftz", kind
		default:
			return errorf(op, "fadd on %s is not supported", ir.TypeString(elemIR))
		}
	case "max", "min":
		ptxOp, ptxType = opName, fmt.Sprintf("s%d", bitsN)
	case "umax", "umin":
		ptxOp, ptxType = opName[1:], fmt.Sprintf("u%d", bitsN)
	case "and", "or", "xor":
		ptxOp, ptxType = opName, fmt.Sprintf("b%d", bitsN)
	case "exch":
		ptxOp, ptxType = "exch", fmt.Sprintf("b%d", bitsN)
	}
	if kind != "" && opName != "fadd" && opName != "exch" {
		return errorf(op, "%s on %s is not supported", opName, ir.TypeString(elemIR))
	}
	if bitsN != 32 && bitsN != 64 && !(opName == "fadd" && bitsN == 16) {
		return errorf(op, "%d-bit atomics are not supported", bitsN)
	}
	// Elements per instruction: a vector (sm_90) or an f16x2 pair.
	n, packed := 1, false
	if opName == "fadd" && kind != "f64" {
		vec := l.vecWidth(a.Ptr(), a.Mask())
		if ll := mustLayout(a.Ptr().Type()); ll != nil {
			for vec > 1 && dupRegisters(ll)&(vec-1) != 0 {
				vec /= 2
			}
		}
		switch {
		case l.e.cc >= 90 && vec > 1:
			n = vec
			l.e.hopper, l.e.vectorAtomics = true, true
		case kind == "f16" && vec > 1:
			n, packed = 2, true
		}
	}
	sem, scope := a.SemName(), a.ScopeName()
	red := op.Result(0).UseEmpty() && opName != "exch" && (sem == "relaxed" || sem == "release")
	instr := "atom"
	if red {
		instr = "red"
	}
	// The operand of one element, or of a packed pair, or of a vector's
	// elements one by one.
	rt, cons := atomElem(et)
	typ := ptxType
	switch {
	case packed:
		rt, cons, typ = types.I32, "r", ptxType+"x2"
	case n > 1:
		typ = fmt.Sprintf("v%d.%s", n, ptxType)
	}
	regs := 1 // registers per instruction for old values and operands
	if n > 1 && !packed {
		regs = n
	}
	list := func(first int) string {
		if regs == 1 {
			return fmt.Sprintf("$%d", first)
		}
		var s []string
		for i := 0; i < regs; i++ {
			s = append(s, fmt.Sprintf("$%d", first+i))
		}
		return "{ " + strings.Join(s, ", ") + " }"
	}
	var text string
	var conss []string
	outs := 0
	if !red {
		outs = regs
		for i := 0; i < regs; i++ {
			conss = append(conss, "="+cons)
		}
		text = list(0) + ", "
	}
	text = fmt.Sprintf("@$%d %s.%s.%s.global.%s.%s %s[ $%d + 0 ], %s;", outs+1+regs, instr, sem, scope, ptxOp, typ, text, outs, list(outs+1))
	conss = append(conss, "l")
	for i := 0; i < regs; i++ {
		conss = append(conss, cons)
	}
	conss = append(conss, "b")
	var ret types.Type = types.Void
	if !red {
		ret = rt
		if regs > 1 {
			fields := make([]types.Type, regs)
			for i := range fields {
				fields[i] = rt
			}
			ret = types.NewStruct(fields...)
		}
	}

	var masks []value.Value
	if a.Mask() != nil {
		masks = l.Values(a.Mask())
	}
	vals := l.Values(a.Val())
	// toReg and fromReg convert between elements and their registers.
	toReg := func(v value.Value) value.Value {
		if et.Equal(types.Half) {
			return l.cur.NewBitCast(v, types.I16)
		}
		return v
	}
	fromReg := func(v value.Value) value.Value {
		if et.Equal(types.Half) {
			return l.cur.NewBitCast(v, types.Half)
		}
		return v
	}
	return l.atomic(op, a.Ptr(), masks, et, n, func(r int, ptr, pred value.Value) []value.Value {
		var args []value.Value
		params := []types.Type{ptr.Type()}
		args = append(args, ptr)
		if packed {
			pt := types.NewVector(2, types.Half)
			var v value.Value = constant.NewUndef(pt)
			for i := 0; i < 2; i++ {
				v = l.cur.NewInsertElement(v, vals[r+i], i32(int64(i)))
			}
			args = append(args, l.cur.NewBitCast(v, types.I32))
			params = append(params, types.I32)
		} else {
			for i := 0; i < regs; i++ {
				args = append(args, toReg(vals[r+i]))
				params = append(params, rt)
			}
		}
		args = append(args, pred)
		params = append(params, types.I1)
		call := l.cur.NewCall(inlineAsm(ret, text, strings.Join(conss, ","), params...), args...)
		old := make([]value.Value, n)
		switch {
		case red:
			for i := range old {
				old[i] = constant.NewUndef(et)
			}
		case packed:
			v := l.cur.NewBitCast(call, types.NewVector(2, types.Half))
			for i := range old {
				old[i] = l.cur.NewExtractElement(v, i32(int64(i)))
			}
		case regs > 1:
			for i := range old {
				old[i] = fromReg(l.cur.NewExtractValue(call, uint64(i)))
			}
		default:
			old[0] = fromReg(call)
		}
		return old
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
	return l.atomic(op, a.Ptr(), nil, et, 1, func(r int, ptr, pred value.Value) []value.Value {
		old := value.Value(l.cur.NewCall(inlineAsm(bt, text, "="+cons+",l,"+cons+","+cons+",b", ptr.Type(), bt, bt, types.I1),
			ptr, asBits(cmps[r]), asBits(vals[r]), pred))
		if !et.Equal(bt) {
			old = l.cur.NewBitCast(old, et)
		}
		return []value.Value{old}
	})
}

// atomic issues the atomics of the pointers ptr (masked by masks when
// given), n consecutive registers per instruction (n a power of two the
// pointers' contiguity allows), through issue(first register, its
// pointer, predicate), which returns the old values of the n elements,
// and defines op's result: the old values, shared through scratch memory
// when other threads or registers hold the same elements and the result
// is read.
func (l *Lowerer) atomic(op *ir.Operation, ptr *ir.Value, masks []value.Value, et types.Type, n int, issue func(r int, ptr, pred value.Value) []value.Value) error {
	ptrs := l.Values(ptr)
	ll := mustLayout(ptr.Type()) // nil for a scalar
	dup, uniq := l.writer(ptr.Type())
	if dup&(n-1) != 0 {
		return errorf(op, "an atomic over %d registers that hold copies (register mask %#x)", n, dup)
	}
	out := make([]value.Value, len(ptrs))
	preds := make([]value.Value, len(ptrs))
	for r := 0; r < len(ptrs); r += n {
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
		old := issue(r, ptrs[r], pred)
		for i := range old {
			preds[r+i], out[r+i] = pred, old[i]
		}
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
	numel := 1
	var idx [][]value.Value
	var shape []int
	if ll != nil {
		shape = intShape(ir.ShapeOrScalar(ptr.Type()))
		for _, s := range shape {
			numel *= s
		}
		idx = l.emitIndices(ptr.Type())
	}
	base := l.scratch(op, numel*eb)
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
