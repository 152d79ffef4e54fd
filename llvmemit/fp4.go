package llvmemit

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// ttg.fp4_to_fp unpacks e2m1 (fp4) values, two to a byte, low nibble
// first, along its axis into bf16 or f16 (Triton 3.6's Fp4ToFpOp): the
// result's register 2i is the low nibble of the operand's register i and
// 2i+1 the high one, which the result layout must allow (Triton infers
// such a layout: register bit 0 of the result is the axis's lowest bit,
// and the rest is the operand's layout with the axis doubled). Each
// nibble becomes its 16-bit pattern through a table of the eight
// magnitudes packed in two i64 words, and the sign bit moved to bit 15:
// integer instructions only, valid on sm_80 (Triton's sm_80 path is PTX
// prmt tables; the values are the same, -0 included).
func init() {
	Register("ttg.fp4_to_fp", lowerFp4ToFp)
}

// e2m1Bits are the bf16 and f16 bit patterns of e2m1 codes 0 to 7: 0,
// 0.5, 1, 1.5, 2, 3, 4, 6.
var e2m1Bits = map[string][8]uint16{
	"bf16": {0x0000, 0x3f00, 0x3f80, 0x3fc0, 0x4000, 0x4040, 0x4080, 0x40c0},
	"f16":  {0x0000, 0x3800, 0x3c00, 0x3e00, 0x4000, 0x4200, 0x4400, 0x4600},
}

func lowerFp4ToFp(l *Lowerer, op *ir.Operation) error {
	src, dst := op.Operand(0).Type(), op.Result(0).Type()
	if it, ok := ir.ElementType(src).(*ir.IntegerType); !ok || it.Width != 8 {
		return errorf(op, "the packed e2m1 values must be i8, got %s", ir.TypeString(ir.ElementType(src)))
	}
	kind := ""
	if ft, ok := ir.ElementType(dst).(*ir.FloatType); ok {
		kind = ft.Kind
	}
	bits, ok := e2m1Bits[kind]
	if !ok {
		return errorf(op, "e2m1 values unpack to bf16 or f16, not %s", ir.TypeString(ir.ElementType(dst)))
	}
	axis := int(ir.AttrIntValue(op.Attr("axis")))
	S, D := mustLayout(src), mustLayout(dst)
	if S == nil || D == nil {
		return errorf(op, "the operand and the result must be tensors")
	}
	if axis < 0 || axis >= S.NumOutDims() {
		return errorf(op, "axis %d out of range for rank %d", axis, S.NumOutDims())
	}
	if err := checkUnpackLayouts(*S, *D, axis); err != nil {
		return errorf(op, "%v", err)
	}
	var lo, hi uint64
	for c := 0; c < 4; c++ {
		lo |= uint64(bits[c]) << (16 * c)
		hi |= uint64(bits[c+4]) << (16 * c)
	}
	in := l.Values(op.Operand(0))
	out := make([]value.Value, 2*len(in))
	b := l.cur
	for r, x := range in {
		for h := 0; h < 2; h++ {
			n := x
			if h == 1 {
				n = b.NewLShr(x, constant.NewInt(types.I8, 4))
			}
			n = b.NewAnd(n, constant.NewInt(types.I8, 15))
			code := b.NewZExt(b.NewAnd(n, constant.NewInt(types.I8, 7)), types.I64)
			word := b.NewSelect(b.NewICmp(enum.IPredULT, code, constant.NewInt(types.I64, 4)),
				constant.NewInt(types.I64, int64(lo)), constant.NewInt(types.I64, int64(hi)))
			shift := b.NewShl(b.NewAnd(code, constant.NewInt(types.I64, 3)), constant.NewInt(types.I64, 4))
			mag := b.NewTrunc(b.NewLShr(word, shift), types.I16)
			sign := b.NewShl(b.NewZExt(b.NewAnd(n, constant.NewInt(types.I8, 8)), types.I16), constant.NewInt(types.I16, 12))
			var v value.Value = b.NewOr(mag, sign)
			if kind == "f16" {
				v = b.NewBitCast(v, types.Half)
			}
			out[2*r+h] = v
		}
	}
	l.Define(op.Result(0), out)
	return nil
}

// checkUnpackLayouts checks that D, the layout of the unpacked result,
// holds in its registers 2i and 2i+1 the two values of the byte that
// register i of S holds: D's first register basis is the axis's unit and
// its other bases are S's with the axis coordinate doubled.
func checkUnpackLayouts(S, D linear.Layout, axis int) error {
	doubled := func(v []int) []int {
		w := slices.Clone(v)
		w[axis] *= 2
		return w
	}
	if D.InDimSize(dimReg) != 2*S.InDimSize(dimReg) {
		return fmt.Errorf("the result holds %d registers per thread, the operand %d: not two per byte", D.InDimSize(dimReg), S.InDimSize(dimReg))
	}
	unit := make([]int, D.NumOutDims())
	unit[axis] = 1
	if !slices.Equal(D.Basis(dimReg, 0), unit) {
		return fmt.Errorf("the result's register 1 holds %v, not the high nibble of register 0 (%v along axis %d): the layouts do not unpack in place", D.Basis(dimReg, 0), unit, axis)
	}
	for _, in := range S.InDimNames() {
		off := 0
		if in == dimReg {
			off = 1
		}
		for i := range S.InDimSizeLog2(in) {
			if want, got := doubled(S.Basis(in, i)), D.Basis(in, i+off); !slices.Equal(want, got) {
				return fmt.Errorf("%s basis %d of the result is %v, the operand's doubled along axis %d is %v: the layouts do not unpack in place", in, i+off, got, axis, want)
			}
		}
	}
	return nil
}
