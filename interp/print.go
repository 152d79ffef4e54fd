package interp

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// evalPrint is tt.print: with Machine.Print set, one line per element of
// each operand, in row-major order, in the format of Triton's lowering
// (llvmemit's tt.print):
//
//	pid (0, 0, 0) idx ( 3,  1) x: 1.500000
//
// The GPU prints one line per register of each thread, duplicated
// registers included, in no particular order; here each element once. A
// float printed with hex shows the bits of its type (0x3e00 for f16 1.5;
// the GPU's vprintf reads the widened double's low bits instead).
func evalPrint(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	w := ex.M.Print
	if w == nil {
		return nil, nil
	}
	prefix := ir.AttrStringValue(op.Attr("prefix"))
	hex := ir.AttrBoolValue(op.Attr("hex"))
	signed := ir.AttrInts(op.Attr("isSigned"))
	pid := fmt.Sprintf("pid (%d, %d, %d)", ex.PID[0], ex.PID[1], ex.PID[2])
	var b strings.Builder
	if len(args) == 0 {
		b.WriteString(pid + prefix + "\n")
	}
	for i, a := range args {
		t, err := tensorArg(a)
		if err != nil {
			return nil, err
		}
		isSigned := i < len(signed) && signed[i] > 0
		operand := ""
		if len(args) > 1 {
			operand = fmt.Sprintf("(operand %d) ", i)
		}
		_, ranked := op.Operand(i).Type().(*ir.RankedTensorType)
		for e := 0; e < t.Len(); e++ {
			idx := ""
			if ranked {
				parts := make([]string, len(t.Shape))
				for d, x := range unflatten(e, t.Shape) {
					width := 0
					if t.Shape[d] > 0 {
						width = int(math.Ceil(math.Log10(float64(t.Shape[d]))))
					}
					parts[d] = fmt.Sprintf("%*d", width, x)
				}
				idx = strings.Join(parts, ", ")
			}
			fmt.Fprintf(&b, "%s idx (%s)%s%s%s\n", pid, idx, prefix, operand, formatElem(t, e, hex, isSigned))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return nil, fmt.Errorf("tt.print: %v", err)
	}
	return nil, nil
}

// formatElem formats element e of t as Triton's printf conversion for its
// type does (%f, %i or %u, %lli or %llu, %p, or 0x%0Nx with hex).
func formatElem(t *Tensor, e int, hex, signed bool) string {
	el := t.Elem
	switch {
	case el.IsPtr():
		return fmt.Sprintf("%#x", uint64(t.I[e]))
	case el.Float != nil:
		if hex {
			return fmt.Sprintf("0x%0*x", el.Float.StoreBits/4, el.Float.Bits(t.F[e]))
		}
		return fmt.Sprintf("%f", t.F[e])
	}
	w := el.Width
	if hex {
		// "0x%0Nx" with N the type's hex digits, applied as vprintf does
		// to the value widened to 32 bits (64 above 32): N is a minimum.
		if w > 32 {
			return fmt.Sprintf("0x%0*x", w/4, uint64(t.I[e]))
		}
		return fmt.Sprintf("0x%0*x", w/4, unsigned(printWidened(t.I[e], w, signed), 32))
	}
	if signed {
		return fmt.Sprint(t.I[e])
	}
	if w > 32 {
		return fmt.Sprint(unsigned(t.I[e], w))
	}
	return fmt.Sprint(unsigned(printWidened(t.I[e], w, signed), 32))
}

// printWidened is a w-bit integer as vprintf receives it: extended to 32
// bits, with its sign when signed.
func printWidened(v int64, w int, signed bool) int64 {
	if signed || w >= 32 {
		return v
	}
	return int64(unsigned(v, w))
}
