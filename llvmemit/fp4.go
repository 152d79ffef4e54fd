package llvmemit

import (
	"fmt"
	"slices"
	"strings"

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
// and the rest is the operand's layout with the axis doubled).
//
// Four bytes (eight values) at a time go through one block of inline PTX,
// as Triton's sm_80 path does: the 3-bit magnitude code of each nibble
// indexes byte tables with prmt.b32 (prmt's selector nibble picks one of
// the 8 bytes of its two source words), one for the high bytes of the
// results and, for bf16, one for the low bytes (f16's are all zero); the
// sign bits become 0x80 bytes the same way; then prmt interleaves the
// bytes into 16-bit pairs. About two instructions per value, integer only,
// valid on sm_80; the values are exact, -0 included.
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
	text := fp4UnpackPTX(bits)
	unpack := pureAsm(types.NewStruct(types.I32, types.I32, types.I32, types.I32), text, "=r,=r,=r,=r,r", types.I32)
	var et types.Type = types.I16
	if kind == "f16" {
		et = types.Half
	}
	in := l.Values(op.Operand(0))
	out := make([]value.Value, 2*len(in))
	for g := 0; g < len(in); g += 4 {
		// Registers g..g+3 as the bytes of one word, low byte first
		// (zeros past the end).
		var bytes [4]value.Value
		copy(bytes[:], in[g:min(g+4, len(in))])
		res := l.cur.NewCall(unpack, l.pack8(bytes))
		for i := 0; i < 4 && g+i < len(in); i++ {
			out[2*(g+i)], out[2*(g+i)+1] = l.unpack16(l.cur.NewExtractValue(res, uint64(i)), et)
		}
	}
	l.Define(op.Result(0), out)
	return nil
}

// fp4UnpackPTX is the inline PTX that unpacks the eight e2m1 values of $4
// (byte i holds values 2i, low nibble, and 2i+1) into $0..$3 (word i holds
// value 2i in its low half and 2i+1 in its high half) with the 16-bit
// patterns mags of the eight magnitude codes.
func fp4UnpackPTX(mags [8]uint16) string {
	// table packs byte k of the patterns into prmt's two source words.
	table := func(k uint) (lo, hi uint32) {
		for c := 0; c < 4; c++ {
			lo |= uint32(mags[c]>>(8*k)&0xff) << (8 * c)
			hi |= uint32(mags[c+4]>>(8*k)&0xff) << (8 * c)
		}
		return lo, hi
	}
	var t strings.Builder
	t.WriteString("{\n.reg .b32 c0, c1, s0, s1, h0, h1, g0, g1, l0, l1;\n")
	// The codes of values 0-3 select with c0's low four nibbles, those of
	// 4-7 with c1's; a sign nibble shifted down to bit 0 selects 0x80.
	t.WriteString("and.b32 c0, $4, 0x77777777;\nshr.u32 c1, c0, 16;\n")
	t.WriteString("and.b32 s0, $4, 0x88888888;\nshr.u32 s0, s0, 3;\nshr.u32 s1, s0, 16;\n")
	hlo, hhi := table(1)
	for i := range 2 {
		fmt.Fprintf(&t, "prmt.b32 h%d, %#x, %#x, c%d;\n", i, hlo, hhi, i)
		fmt.Fprintf(&t, "prmt.b32 g%d, 0x8000, 0, s%d;\n", i, i)
		fmt.Fprintf(&t, "or.b32 h%d, h%d, g%d;\n", i, i, i)
	}
	llo, lhi := table(0)
	if llo == 0 && lhi == 0 {
		// Low bytes all zero (f16): interleave with the zero bytes of 0.
		for i := range 4 {
			fmt.Fprintf(&t, "prmt.b32 $%d, h%d, 0, %#x;\n", i, i/2, []uint32{0x1404, 0x3424}[i%2])
		}
	} else {
		for i := range 2 {
			fmt.Fprintf(&t, "prmt.b32 l%d, %#x, %#x, c%d;\n", i, llo, lhi, i)
		}
		// Word i: low byte of value 2i, its high byte, then value 2i+1's.
		for i := range 4 {
			fmt.Fprintf(&t, "prmt.b32 $%d, l%d, h%d, %#x;\n", i, i/2, i/2, []uint32{0x5140, 0x7362}[i%2])
		}
	}
	t.WriteString("}")
	return t.String()
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
