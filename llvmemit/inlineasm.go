package llvmemit

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// tt.elementwise_inline_asm (tl.inline_asm_elementwise) runs its PTX on
// each block of packed_element consecutive registers of the thread, as
// Triton 3.6's ElementwiseInlineAsmOpConversion: the block's elements of
// each operand, in operand order, are packed into 32-bit registers where
// they are narrower (min(32 / width, packed_element) per register), and
// the asm's outputs, result by result, hold the block's elements of each
// result packed the same way. The constraints are the op's, "=" outputs
// first; each operand takes the type its constraint names (h: 16 bits,
// r: 32, l: 64, f: f32, d: f64, c: 8; a digit: its output's), a packed
// register or element of that width as its bits, a narrower integer
// zero-extended. The asm has side effects unless the op is pure. Its PTX
// may use any instruction of the module's target, as Triton compiles it
// for that target: on sm_90 the header becomes Hopper's (HopperArch, PTX
// ISA HopperPTXVersion: fp8 conversions such as cvt.rn.satfinite.e4m3x2
// need sm_89 and 7.8), below it llc's.
func init() {
	Register("tt.elementwise_inline_asm", lowerInlineAsm)
}

func lowerInlineAsm(l *Lowerer, op *ir.Operation) error {
	a, _ := tt.AsElementwiseInlineAsm(op)
	if l.e.cc >= 90 {
		l.e.hopper = true
	}
	n, err := a.Packing()
	if err != nil {
		return errorf(op, "%v", err)
	}
	results := a.ResultValue()
	if len(results) == 0 {
		return errorf(op, "inline asm without results is not supported")
	}
	regs := numRegs(results[0].Type())
	for i, r := range results[1:] {
		if k := numRegs(r.Type()); k != regs {
			return errorf(op, "result %d holds %d registers per thread, result 0 %d", i+1, k, regs)
		}
	}
	if regs%n != 0 {
		return errorf(op, "packed_element %d does not divide the %d elements each thread holds", n, regs)
	}
	args := a.Args()
	ins := make([][]value.Value, len(args))
	for i, v := range args {
		ins[i] = l.Values(v)
		if len(ins[i]) != regs {
			return errorf(op, "operand %d holds %d elements per thread, the results %d", i, len(ins[i]), regs)
		}
	}
	packs := func(vs []*ir.Value) ([]asmPack, int, error) {
		var ps []asmPack
		total := 0
		for _, v := range vs {
			et, err := llvmType(ir.ElementType(v.Type()))
			if err != nil {
				return nil, 0, err
			}
			p, err := newAsmPack(et, n)
			if err != nil {
				return nil, 0, err
			}
			ps = append(ps, p)
			total += n / p.per
		}
		return ps, total, nil
	}
	inPacks, nIn, err := packs(args)
	if err != nil {
		return errorf(op, "%v", err)
	}
	outPacks, nOut, err := packs(results)
	if err != nil {
		return errorf(op, "%v", err)
	}
	cons := a.Constraints()
	outTypes, inTypes, err := asmConstraintTypes(cons)
	if err != nil {
		return errorf(op, "constraints %q: %v", cons, err)
	}
	if err := tt.CheckInlineAsmCounts(cons, len(outTypes), len(inTypes), n, nOut, nIn); err != nil {
		return errorf(op, "%v", err)
	}
	ret := outTypes[0] // every result has a register at least
	if len(outTypes) > 1 {
		ret = types.NewStruct(outTypes...)
	}
	asm := pureAsm(ret, a.AsmString(), cons, inTypes...)
	if !a.Pure() {
		asm = inlineAsm(ret, a.AsmString(), cons, inTypes...)
	}
	out := make([][]value.Value, len(results))
	b := l.cur
	for blk := 0; blk < regs; blk += n {
		var operands []value.Value
		for i, p := range inPacks {
			for j := 0; j < n; j += p.per {
				v, err := p.pack(l, ins[i][blk+j:blk+j+p.per], inTypes[len(operands)])
				if err != nil {
					return errorf(op, "operand %d: %v", i, err)
				}
				operands = append(operands, v)
			}
		}
		call := b.NewCall(asm, operands...)
		k := 0
		for i, p := range outPacks {
			for j := 0; j < n; j += p.per {
				var x value.Value = call
				if len(outTypes) > 1 {
					x = b.NewExtractValue(call, uint64(k))
				}
				vals, err := p.unpack(l, x)
				if err != nil {
					return errorf(op, "result %d: %v", i, err)
				}
				out[i] = append(out[i], vals...)
				k++
			}
		}
	}
	for i, r := range results {
		l.Define(r, out[i])
	}
	return nil
}

// asmPack packs per elements of type elem into one asm register.
type asmPack struct {
	elem types.Type
	per  int
}

func newAsmPack(elem types.Type, n int) (asmPack, error) {
	per, err := tt.InlineAsmPerRegister(typeBits(elem), n)
	return asmPack{elem, per}, err
}

// word is the type of one packed register: the element, or an integer
// of all the elements' bits.
func (p asmPack) word() types.Type {
	if p.per == 1 {
		return p.elem
	}
	return types.NewInt(uint64(p.per * typeBits(p.elem)))
}

// pack makes one asm operand of type t from elems.
func (p asmPack) pack(l *Lowerer, elems []value.Value, t types.Type) (value.Value, error) {
	var v value.Value = elems[0]
	if p.per > 1 {
		var vec value.Value = constant.NewUndef(types.NewVector(uint64(p.per), p.elem))
		for i, e := range elems {
			vec = l.cur.NewInsertElement(vec, e, i32(int64(i)))
		}
		v = l.cur.NewBitCast(vec, p.word())
	}
	return convertBits(l, v, t)
}

// unpack splits one asm output x into the pack's elements.
func (p asmPack) unpack(l *Lowerer, x value.Value) ([]value.Value, error) {
	w, err := convertBits(l, x, p.word())
	if err != nil {
		return nil, err
	}
	if p.per == 1 {
		return []value.Value{w}, nil
	}
	vec := l.cur.NewBitCast(w, types.NewVector(uint64(p.per), p.elem))
	out := make([]value.Value, p.per)
	for i := range out {
		out[i] = l.cur.NewExtractElement(vec, i32(int64(i)))
	}
	return out, nil
}

// convertBits reinterprets v as type t: the same bits where the widths
// agree (a pointer as its address), an integer zero-extended or truncated
// where they do not.
func convertBits(l *Lowerer, v value.Value, t types.Type) (value.Value, error) {
	from := v.Type()
	if from.Equal(t) {
		return v, nil
	}
	if _, ok := from.(*types.PointerType); ok {
		v, from = l.cur.NewPtrToInt(v, types.I64), types.I64
	}
	if pt, ok := t.(*types.PointerType); ok {
		w, err := convertBits(l, v, types.I64)
		if err != nil {
			return nil, err
		}
		return l.cur.NewIntToPtr(w, pt), nil
	}
	fb, tb := typeBits(from), typeBits(t)
	if fb == tb {
		return l.cur.NewBitCast(v, t), nil
	}
	fi, ok1 := from.(*types.IntType)
	ti, ok2 := t.(*types.IntType)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%s does not fit a register of %s", from.LLString(), t.LLString())
	}
	if fi.BitSize < ti.BitSize {
		return l.cur.NewZExt(v, t), nil
	}
	return l.cur.NewTrunc(v, t), nil
}

// asmConstraintTypes reads an LLVM inline-asm constraint string for NVPTX:
// the types of its outputs ("=" entries) and of its inputs, clobbers
// ("~{…}") left out.
func asmConstraintTypes(cons string) (outs, ins []types.Type, err error) {
	if strings.TrimSpace(cons) == "" {
		return nil, nil, nil
	}
	for _, c := range strings.Split(cons, ",") {
		c = strings.TrimSpace(c)
		switch {
		case strings.HasPrefix(c, "~"):
			continue
		case strings.HasPrefix(c, "="):
			t, err := constraintType(strings.TrimLeft(c, "=&+"), outs)
			if err != nil {
				return nil, nil, err
			}
			outs = append(outs, t)
		default:
			t, err := constraintType(c, outs)
			if err != nil {
				return nil, nil, err
			}
			ins = append(ins, t)
		}
	}
	return outs, ins, nil
}

// constraintType is the LLVM type of one NVPTX register constraint; a
// number ties an input to that output.
func constraintType(c string, outs []types.Type) (types.Type, error) {
	switch c {
	case "h":
		return types.I16, nil
	case "r":
		return types.I32, nil
	case "l":
		return types.I64, nil
	case "f":
		return types.Float, nil
	case "d":
		return types.Double, nil
	case "c":
		return types.I8, nil
	case "b":
		return types.I1, nil
	}
	var k int
	if _, err := fmt.Sscanf(c, "%d", &k); err == nil && fmt.Sprint(k) == c {
		if k < 0 || k >= len(outs) {
			return nil, fmt.Errorf("input tied to output %d, of %d", k, len(outs))
		}
		return outs[k], nil
	}
	return nil, fmt.Errorf("constraint %q is not an NVPTX register constraint (h, r, l, f, d, c, b or an output's number)", c)
}
