package llvmemit

import (
	"fmt"
	"math"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// tt.print and tt.assert, as Triton 3.6 lowers them for NVIDIA GPUs.
//
// tt.print: every thread prints each register of each operand with CUDA's
// vprintf, one line apiece, duplicates included:
//
//	pid (%u, %u, %u) idx (%3u, %2u)<prefix>[(operand N) ]<value>
//
// the index padded to the digits of each dimension (ceil(log10(size))),
// "(operand N) " only when the op prints several operands, the value as
// %f (f16, bf16, f32, f64, widened to double), %i/%u (%lli/%llu for 64
// bits; isSigned chooses, narrower integers are extended to 32 bits the
// same way; fp8 prints its bits), %p for pointers, or with hex
// 0x%0Nx (N hex digits of the type, ll for 64 bits). An op without
// operands prints "pid (%u, %u, %u)<prefix>".
//
// tt.assert: a thread any of whose condition registers is false calls
// CUDA's __assertfail(message, file, line, function, 1), the file and line
// from the op's location (that of its text in the input when it carries
// none, as MLIR's parser gives it), the function "unknown" as in Triton;
// the kernel then traps. A barrier follows, so no thread runs past an
// assert that another thread fails.
//
// vprintf and __assertfail are the two external functions the PTX may
// declare (CompilePTX allows them; the CUDA driver links them).
func init() {
	Register("tt.print", lowerPrint)
	Register("tt.assert", lowerAssert)
}

// cudaSyscalls are the external functions a kernel's PTX may call: CUDA's
// device-side printf and assert, which the driver provides.
var cudaSyscalls = []string{"vprintf", "__assertfail"}

func lowerPrint(l *Lowerer, op *ir.Operation) error {
	prefix := ir.AttrStringValue(op.Attr("prefix"))
	hex := ir.AttrBoolValue(op.Attr("hex"))
	signed := ir.AttrInts(op.Attr("isSigned"))
	pid := make([]value.Value, 3)
	for a := range pid {
		pid[a] = l.sreg("ctaid." + string(rune('x'+a)))
	}
	if op.NumOperands() == 0 {
		l.printf("pid (%u, %u, %u)"+prefix, pid)
		return nil
	}
	if len(signed) != op.NumOperands() {
		return errorf(op, "isSigned has %d entries for %d operands", len(signed), op.NumOperands())
	}
	for i := 0; i < op.NumOperands(); i++ {
		arg := op.Operand(i)
		elem := ir.ElementType(arg.Type())
		valueFmt, err := printFormat(elem, hex, signed[i] > 0)
		if err != nil {
			return errorf(op, "operand %d: %v", i, err)
		}
		var idx [][]value.Value
		var widths []int
		if _, ok := arg.Type().(*ir.RankedTensorType); ok {
			idx = l.emitIndices(arg.Type())
			for _, d := range ir.ShapeOrScalar(arg.Type()) {
				w := 0
				if d > 0 {
					w = int(math.Ceil(math.Log10(float64(d))))
				}
				widths = append(widths, w)
			}
		}
		var f strings.Builder
		f.WriteString("pid (%u, %u, %u) idx (")
		const maxOperands = 32 // vprintf's limit; Triton truncates the index
		maxRank := maxOperands - len(pid) - 2
		rank := 0
		for d, w := range widths {
			if d != 0 {
				f.WriteString(", ")
			}
			if d == maxRank {
				f.WriteString("... (truncated)")
				break
			}
			fmt.Fprintf(&f, "%%%du", w)
			rank++
		}
		f.WriteString(")" + prefix)
		if op.NumOperands() > 1 {
			fmt.Fprintf(&f, "(operand %d) ", i)
		}
		f.WriteString(valueFmt)
		format := l.e.cString("printfFormat_", f.String()+"\n")
		for r, v := range l.Values(arg) {
			args := append([]value.Value{}, pid...)
			if idx != nil {
				args = append(args, idx[r][:rank]...)
			}
			l.vprintf(format, append(args, l.printable(v, elem, signed[i] > 0)))
		}
	}
	return nil
}

// printFormat is the conversion of a value of type t (Triton's
// getFormatSubstr).
func printFormat(t ir.Type, hex, signed bool) (string, error) {
	if _, ok := t.(*ir.PointerType); ok {
		return "%p", nil
	}
	bits := 0
	isFloat := false
	switch x := t.(type) {
	case *ir.IntegerType:
		bits = x.Width
	case *ir.FloatType:
		switch x.Kind {
		case "f16", "bf16":
			bits, isFloat = 16, true
		case "f32":
			bits, isFloat = 32, true
		case "f64":
			bits, isFloat = 64, true
		case "f8E4M3FN", "f8E5M2":
			bits = 8 // Triton's LLVM values of fp8 are i8: printed as integers
		default:
			return "", fmt.Errorf("printing %s is not supported", x.Kind)
		}
	default:
		return "", fmt.Errorf("printing %s is not supported", ir.TypeString(t))
	}
	if hex {
		ll := ""
		if bits > 32 {
			ll = "ll"
		}
		return fmt.Sprintf("0x%%0%d%sx", bits/4, ll), nil
	}
	switch {
	case isFloat:
		return "%f", nil
	case bits == 64 && signed:
		return "%lli", nil
	case bits == 64:
		return "%llu", nil
	case signed:
		return "%i", nil
	}
	return "%u", nil
}

// printable is register v (of element type t) as vprintf takes it:
// floats as double (bf16 through f32), integers narrower than 32 bits
// extended to i32 (signed or not), pointers as they are. A float printed
// with hex is the widened double too, as in Triton, whose 0x%0Nx then
// shows the double's low bits, not the element's.
func (l *Lowerer) printable(v value.Value, t ir.Type, signed bool) value.Value {
	if f, ok := t.(*ir.FloatType); ok {
		switch f.Kind {
		case "bf16":
			return l.cur.NewFPExt(l.bf16ToF32(v), types.Double)
		case "f16", "f32":
			return l.cur.NewFPExt(v, types.Double)
		}
	}
	if it, ok := v.Type().(*types.IntType); ok && it.BitSize < 32 {
		if signed {
			return l.cur.NewSExt(v, types.I32)
		}
		return l.cur.NewZExt(v, types.I32)
	}
	return v
}

// printf calls vprintf once with a new format string.
func (l *Lowerer) printf(format string, args []value.Value) {
	l.vprintf(l.e.cString("printfFormat_", format+"\n"), args)
}

// vprintf calls vprintf(format, buffer), the arguments stored into a
// struct on the stack (entryAlloca).
func (l *Lowerer) vprintf(format value.Value, args []value.Value) {
	i8p := types.NewPointer(types.I8)
	var bufPtr value.Value = constant.NewNull(i8p)
	if len(args) > 0 {
		ts := make([]types.Type, len(args))
		for i, a := range args {
			ts[i] = a.Type()
		}
		st := types.NewStruct(ts...)
		buf := l.entryAlloca(st)
		for i, a := range args {
			l.cur.NewStore(a, l.cur.NewGetElementPtr(st, buf, i32(0), i32(int64(i))))
		}
		bufPtr = l.cur.NewBitCast(buf, i8p)
	}
	l.cur.NewCall(l.e.nv.get("vprintf", types.I32, nil, i8p, i8p), format, bufPtr)
}

// entryAlloca returns a t allocated at the start of the function's entry
// block (NVPTX has no dynamic allocas: one in a loop would be one), one per
// type: vprintf copies its buffer before it returns.
func (l *Lowerer) entryAlloca(t types.Type) value.Value {
	key := t.LLString()
	if a, ok := l.allocas[key]; ok {
		return a
	}
	entry := l.fn.Blocks[0]
	a := lir.NewAlloca(t)
	entry.Insts = append([]lir.Instruction{a}, entry.Insts...)
	if l.allocas == nil {
		l.allocas = map[string]value.Value{}
	}
	l.allocas[key] = a
	return a
}

// cString returns a generic i8* to a NUL-terminated constant string in
// global memory (one global per distinct string).
func (e *emitter) cString(prefix, s string) value.Value {
	if e.strings == nil {
		e.strings = map[string]*lir.Global{}
	}
	g, ok := e.strings[s]
	if !ok {
		data := constant.NewCharArrayFromString(s + "\x00")
		g = e.m.NewGlobalDef(fmt.Sprintf("%s%d", prefix, len(e.strings)), data)
		g.Linkage = enum.LinkageInternal
		g.Immutable = true
		g.AddrSpace = asGlobal
		g.Typ.AddrSpace = asGlobal
		g.Align = 1
		e.strings[s] = g
	}
	gep := constant.NewGetElementPtr(g.ContentType, g, constant.NewInt(types.I32, 0), constant.NewInt(types.I32, 0))
	return constant.NewAddrSpaceCast(gep, types.NewPointer(types.I8))
}

func lowerAssert(l *Lowerer, op *ir.Operation) error {
	message := ir.AttrStringValue(op.Attr("message"))
	file, line := "unknown", 0
	if loc, ok := innermostLoc(op.Loc).(ir.FileLineColLoc); ok {
		file, line = loc.File, loc.Line
	} else if p := op.Pos(); op.Loc == nil && p.IsValid() {
		// No loc(...): MLIR's parser gives an op the place of its text.
		file, line = p.File, p.Line
	}
	cond := op.Operand(0)
	if _, ok := ir.ElementType(cond.Type()).(*ir.IntegerType); !ok {
		return errorf(op, "the condition must be integers, got %s", ir.TypeString(cond.Type()))
	}
	var fail value.Value = constant.False
	for _, v := range l.Values(cond) {
		zero := constant.NewInt(v.Type().(*types.IntType), 0)
		fail = l.cur.NewOr(fail, l.cur.NewICmp(enum.IPredEQ, v, zero))
	}
	then := l.NewBlock("assert.fail")
	done := l.NewBlock("assert.done")
	l.cur.NewCondBr(fail, then, done)
	l.SetBlock(then)
	i8p := types.NewPointer(types.I8)
	f := l.e.nv.get("__assertfail", types.Void, nil, i8p, i8p, types.I32, i8p, types.I64)
	l.cur.NewCall(f, l.e.cString("assertMessage_", message), l.e.cString("assertFile_", file), i32(int64(line)),
		l.e.cString("assertFunc_", "unknown"), constant.NewInt(types.I64, 1))
	l.cur.NewBr(done)
	l.SetBlock(done)
	l.barrier()
	return nil
}

// innermostLoc strips call sites (the callee's), names and aliases
// from a location, as Triton does before reading a file and line.
func innermostLoc(loc ir.Location) ir.Location {
	for i := 0; i < 100; i++ {
		switch x := ir.Resolve(loc).(type) {
		case ir.CallSiteLoc:
			loc = x.Callee
		case ir.NameLoc:
			if x.Child == nil {
				return x
			}
			loc = x.Child
		default:
			return x
		}
	}
	return nil
}
