package llvmemit

import (
	"fmt"
	"slices"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// Packed elementwise code: where two registers of a tensor are computed
// by one PTX instruction on a 32-bit pair (bf16x2 arithmetic, e4m3x2 and
// e5m2x2 upcasts, a select of both halves), the lowering packs registers
// r and r+1 into a word and unpacks the result. The packing goes through
// <2 x i16> vectors, so that a value unpacked from a word and packed again
// in the same order folds back into that word at -O3: a chain of packed
// ops keeps its words, as Triton's code does. Bytes and halves that lie
// in other words, or in another order, are picked out of those words with
// prmt (packBytes, packHalves) rather than taken apart and put together.

// pack16 packs two 16-bit registers (i16 or half) into an i32, x in the
// low half.
func (l *Lowerer) pack16(x, y value.Value) value.Value {
	b := l.cur
	v := value.Value(constant.NewUndef(types.NewVector(2, x.Type())))
	v = b.NewInsertElement(v, x, i32(0))
	v = b.NewInsertElement(v, y, i32(1))
	return b.NewBitCast(v, types.I32)
}

// unpack16 splits an i32 into two registers of the 16-bit type t, the low
// half first.
func (l *Lowerer) unpack16(w value.Value, t types.Type) (value.Value, value.Value) {
	b := l.cur
	v := b.NewBitCast(w, types.NewVector(2, t))
	return b.NewExtractElement(v, i32(0)), b.NewExtractElement(v, i32(1))
}

// pack8 packs four i8 registers into an i32, the first in the low byte;
// nil registers (past the end of a tensor's registers) are zero. Bytes
// that lie in words (a load's, an ldmatrix's) are picked out of them with
// prmt (packBytes); others go through a <4 x i8> vector.
func (l *Lowerer) pack8(x [4]value.Value) value.Value {
	for i, r := range x {
		if r == nil {
			x[i] = constant.NewInt(types.I8, 0)
		}
	}
	if w := l.packBytes(x); w != nil {
		return w
	}
	b := l.cur
	v := value.Value(constant.NewUndef(types.NewVector(4, types.I8)))
	for i, r := range x {
		v = b.NewInsertElement(v, r, i32(int64(i)))
	}
	return b.NewBitCast(v, types.I32)
}

// wordRef names a 32-bit word an element lies in: word k of the vector
// vec reinterpreted as words (vec nil: the constant 0). Equal refs are
// the same word, which prmt then takes once.
type wordRef struct {
	vec value.Value
	k   int64
}

// inWord returns the word that holds x, an element of bits bits (8 or 16),
// and x's index in it: x is an element of a vector of such elements (the
// bytes or halves of a load's words, of an ldmatrix's, of a packed op's
// result), or a zero byte.
func inWord(x value.Value, bits int) (wordRef, int, bool) {
	if c, ok := x.(*constant.Int); ok && bits == 8 {
		return wordRef{}, 0, c.X.Sign() == 0
	}
	e, ok := x.(*lir.InstExtractElement)
	if !ok {
		return wordRef{}, 0, false
	}
	vt, ok := e.X.Type().(*types.VectorType)
	i, ok2 := constInt(e.Index)
	per := int64(32 / bits)
	if !ok || !ok2 || typeBits(vt.ElemType) != bits || int64(vt.Len)%per != 0 {
		return wordRef{}, 0, false
	}
	return wordRef{e.X, i / per}, int(i % per), true
}

// word is the i32 that ref names.
func (l *Lowerer) word(ref wordRef) value.Value {
	if ref.vec == nil {
		return i32(0)
	}
	vt := ref.vec.Type().(*types.VectorType)
	n := vt.Len * uint64(typeBits(vt.ElemType)) / 32
	if n == 1 {
		return l.cur.NewBitCast(ref.vec, types.I32)
	}
	return l.cur.NewExtractElement(l.cur.NewBitCast(ref.vec, types.NewVector(n, types.I32)), i32(ref.k))
}

// prmt is prmt.b32 (llvm.nvvm.prmt, which LLVM folds where equal): byte
// i of the result is byte nibble i of sel of {b, a} (a's bytes 0-3).
func (l *Lowerer) prmt(a, b value.Value, sel int64) value.Value {
	f := l.e.nv.get("llvm.nvvm.prmt", types.I32, attrsPure, types.I32, types.I32, types.I32)
	return l.cur.NewCall(f, a, b, i32(sel))
}

// pickBytes is prmt of the bytes (word, index in it) from at most two
// words, byte i of the result from src[i] (four bytes of one word in
// order: the word itself); nil if they lie in more.
func (l *Lowerer) pickBytes(src []wordRef, idx []int) value.Value {
	var words []wordRef
	sel := int64(0)
	for i, w := range src {
		k := slices.Index(words, w)
		if k < 0 {
			if len(words) == 2 {
				return nil
			}
			k = len(words)
			words = append(words, w)
		}
		sel |= int64(4*k+idx[i]) << (4 * i)
	}
	if len(words) == 1 {
		if len(src) == 4 && sel == 0x3210 && words[0].vec != nil { // the word as it is
			return l.word(words[0])
		}
		words = append(words, words[0])
	}
	return l.prmt(l.word(words[0]), l.word(words[1]), sel)
}

// packHalves packs two 16-bit values that lie in words (inWord) into an
// i32 with one prmt.b32 (x in the low half), where each half would be
// taken out of its word and the two put back together; a pair already in
// place in one word is that word. It returns nil where a half's source is
// unknown.
func (l *Lowerer) packHalves(x, y value.Value) value.Value {
	a, i, ok1 := inWord(x, 16)
	b, j, ok2 := inWord(y, 16)
	if !ok1 || !ok2 {
		return nil
	}
	// Half h of a word is its bytes 2h and 2h+1.
	return l.pickBytes([]wordRef{a, a, b, b}, []int{2 * i, 2*i + 1, 2 * j, 2*j + 1})
}

// packBytes packs four bytes that lie in words (inWord) into an i32 with
// prmt.b32: one where they come from at most two words, else one a half
// (pickPair) and one to join the halves; the words' other bytes are never
// taken apart. Bytes already in place in one word are that word. It returns nil
// where a byte's source is unknown.
func (l *Lowerer) packBytes(x [4]value.Value) value.Value {
	src := make([]wordRef, 4)
	idx := make([]int, 4)
	for i, r := range x {
		w, k, ok := inWord(r, 8)
		if !ok {
			return nil
		}
		src[i], idx[i] = w, k
	}
	if w := l.pickBytes(src, idx); w != nil {
		return w
	}
	lo, at := l.pickPair(src[0], src[1], idx[0], idx[1])
	hi, bt := l.pickPair(src[2], src[3], idx[2], idx[3])
	return l.prmt(lo, hi, int64(at|(at+1)<<4|(4+bt)<<8|(4+bt+1)<<12))
}

// pickPair is a word holding byte i of a then byte k of b at bytes at and
// at+1. Where a and b are two words and i, k are both even or both odd,
// the word is prmt of bytes i&^1, k&^1, their successors (at = 0 or 2 by
// parity), which the pair of the other parity takes too: a 4x4 byte
// transpose of four words is then 8 prmt, not 12.
func (l *Lowerer) pickPair(a, b wordRef, i, k int) (value.Value, int) {
	if a != b && a.vec != nil && b.vec != nil && i&1 == k&1 {
		i0, k0 := int64(i&^1), int64(k&^1)
		return l.prmt(l.word(a), l.word(b), i0|(4+k0)<<4|(i0+1)<<8|(4+k0+1)<<12), 2 * (i & 1)
	}
	return l.pickBytes([]wordRef{a, b}, []int{i, k}), 0
}

// bf16x2Fma are arith.addf, subf and mulf of bf16 as one fma.rn.bf16x2
// (sm_80, PTX 7.0): x·y + -0 (the product; -0 keeps a -0 product's sign),
// x·1 + y and y·-1 + x, each rounded once to nearest even. That is what
// widening to f32, the f32 op and cvt.rn.bf16.f32 give too (the f32
// result of two bf16 operands is exact wherever bf16 rounding could see
// its error), in one instruction for two values instead of eight; Triton's
// sm_80 code multiplies bf16 with one fma.rn.bf16 too.
var bf16x2Fma = map[string]func(x, y value.Value) [3]value.Value{
	"arith.mulf": func(x, y value.Value) [3]value.Value { return [3]value.Value{x, y, i32(-0x7fff8000)} },
	"arith.addf": func(x, y value.Value) [3]value.Value { return [3]value.Value{x, i32(0x3f803f80), y} },
	"arith.subf": func(x, y value.Value) [3]value.Value { return [3]value.Value{y, i32(-0x407f4080), x} },
}

// bf16Pairs lowers op, an arith.addf, subf or mulf of bf16 values, two
// registers at a time with bf16x2Fma on sm_80+; it reports whether it
// applied (not below sm_80, nor for an odd number of registers).
func (l *Lowerer) bf16Pairs(op *ir.Operation) bool {
	mk, ok := bf16x2Fma[op.Name()]
	if !ok || l.e.cc < 80 || op.NumOperands() != 2 || !isBF16(op.Result(0).Type()) ||
		!isBF16(op.Operand(0).Type()) || !isBF16(op.Operand(1).Type()) {
		return false
	}
	n := numRegs(op.Result(0).Type())
	if n%2 != 0 {
		return false
	}
	x, y := l.Values(op.Operand(0)), l.Values(op.Operand(1))
	fma := pureAsm(types.I32, "fma.rn.bf16x2 $0, $1, $2, $3;", "=r,r,r,r", types.I32, types.I32, types.I32)
	out := make([]value.Value, n)
	for r := 0; r < n; r += 2 {
		a := mk(l.pack16(regOf(x, r), regOf(x, r+1)), l.pack16(regOf(y, r), regOf(y, r+1)))
		out[r], out[r+1] = l.unpack16(l.cur.NewCall(fma, a[0], a[1], a[2]), types.I16)
	}
	l.Define(op.Result(0), out)
	return true
}

// selectPairs lowers an arith.select of 16-bit values whose condition is
// a scalar or a tensor holding one value in registers r and r+1 (a mask
// broadcast along the registers, as a scaled dot's NaN mask is) as one
// 32-bit select a pair, where each half would be a selp.b16 and the
// halves packed again for the next packed op or the dot. It reports
// whether it applied.
func (l *Lowerer) selectPairs(op *ir.Operation) bool {
	t := op.Result(0).Type()
	et := mustType(ir.ElementType(t))
	if !(et.Equal(types.I16) || et.Equal(types.Half)) || op.NumOperands() != 3 {
		return false
	}
	n := numRegs(t)
	c := l.Values(op.Operand(0))
	if n%2 != 0 {
		return false
	}
	for r := 0; r < n; r += 2 {
		if regOf(c, r) != regOf(c, r+1) {
			return false
		}
	}
	x, y := l.Values(op.Operand(1)), l.Values(op.Operand(2))
	out := make([]value.Value, n)
	for r := 0; r < n; r += 2 {
		w := l.cur.NewSelect(regOf(c, r), l.pack16(regOf(x, r), regOf(x, r+1)), l.pack16(regOf(y, r), regOf(y, r+1)))
		out[r], out[r+1] = l.unpack16(w, et)
	}
	l.Define(op.Result(0), out)
	return true
}

// fp8Upcasts lowers op, a tt.fp_to_fp or arith.extf from f8E4M3FN or
// f8E5M2 to f16, bf16 or f32, on sm_90+ with the hardware's
// cvt.rn.f16x2.e4m3x2 (or .e5m2x2), which makes the module's PTX
// Hopper's (sm_90a, PTX 8.0: the instruction needs sm_90 with PTX 7.8,
// sm_89 only from PTX 8.1, and llc-14 writes sm_80 for either), four
// registers at a time: the four
// bytes as one word, two cvts, then for bf16 each f16 widened to f32
// (cvt.f32.f16, exact) and the two f32s' high halves packed with one prmt
// (exact: an fp8 value is a bf16 value), for f32 the widening alone. Every
// step is exact, NaN stays NaN and E5M2's infinities stay infinite, as the
// software conversion of fp8ToF32 gives. It reports whether it applied.
func (l *Lowerer) fp8Upcasts(op *ir.Operation) bool {
	from, to := op.Operand(0).Type(), op.Result(0).Type()
	f, ok := ir.ElementType(from).(*ir.FloatType)
	if !ok || l.e.cc < 90 || !isFP8(from) || mustLayout(to) == nil {
		return false
	}
	cvt := map[string]string{"f8E4M3FN": "e4m3x2", "f8E5M2": "e5m2x2"}[f.Kind]
	tk := ir.ElementType(to).(*ir.FloatType).Kind
	if tk != "f16" && tk != "bf16" && tk != "f32" {
		return false
	}
	l.e.hopper = true
	var t strings.Builder
	t.WriteString("{\n.reg .b16 q0, q1;\n.reg .b32 h0, h1;\n.reg .b16 e<4>;\n.reg .f32 f<4>;\n")
	t.WriteString("mov.b32 {q0, q1}, $IN;\n")
	for i := range 2 {
		fmt.Fprintf(&t, "cvt.rn.f16x2.%s h%d, q%d;\n", cvt, i, i)
	}
	// Results: two f16x2 words, two bf16x2 words or four f32s.
	var ret types.Type
	var cons string
	switch tk {
	case "f16":
		t.WriteString("mov.b32 $0, h0;\nmov.b32 $1, h1;\n")
		ret, cons = types.NewStruct(types.I32, types.I32), "=r,=r"
	default:
		t.WriteString("mov.b32 {e0, e1}, h0;\nmov.b32 {e2, e3}, h1;\n")
		for i := range 4 {
			fmt.Fprintf(&t, "cvt.f32.f16 f%d, e%d;\n", i, i)
		}
		if tk == "bf16" {
			t.WriteString("prmt.b32 $0, f0, f1, 0x7632;\nprmt.b32 $1, f2, f3, 0x7632;\n")
			ret, cons = types.NewStruct(types.I32, types.I32), "=r,=r"
		} else {
			t.WriteString("mov.b32 $0, f0;\nmov.b32 $1, f1;\nmov.b32 $2, f2;\nmov.b32 $3, f3;\n")
			ret, cons = types.NewStruct(types.Float, types.Float, types.Float, types.Float), "=f,=f,=f,=f"
		}
	}
	t.WriteString("}")
	nret := len(ret.(*types.StructType).Fields)
	text := strings.ReplaceAll(t.String(), "$IN", fmt.Sprintf("$%d", nret))
	asm := pureAsm(ret, text, cons+",r", types.I32)
	et := types.Type(types.Half)
	if tk == "bf16" {
		et = types.I16
	}
	in := l.Values(op.Operand(0))
	out := make([]value.Value, len(in))
	for g := 0; g < len(in); g += 4 {
		var bytes, vals [4]value.Value
		copy(bytes[:], in[g:min(g+4, len(in))])
		res := l.cur.NewCall(asm, l.pack8(bytes))
		for i := range nret {
			if tk == "f32" {
				vals[i] = l.cur.NewExtractValue(res, uint64(i))
			} else {
				vals[2*i], vals[2*i+1] = l.unpack16(l.cur.NewExtractValue(res, uint64(i)), et)
			}
		}
		copy(out[g:], vals[:min(4, len(in)-g)])
	}
	l.Define(op.Result(0), out)
	return true
}
