package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/internal/ptxint"
	"github.com/layoutopt/layoutopt/ir"
)

// evalInlineAsm runs tt.elementwise_inline_asm whose PTX is made of the
// 16-, 32- and 64-bit integer, f32, f64, f16, bf16 and fp8 instructions
// package ptxint runs, on "h", "r", "f", "l" and "d" registers (any other
// asm is an error naming the instruction; 64-bit elements take a register
// each). As on the GPU, the asm runs on blocks of packed_element
// consecutive registers of a thread, in the register order the result's
// layout gives (row-major order without a layout); each operand's block
// elements are packed into 32-bit registers where they are narrower
// (min(32 / width, packed_element) to a register, element k at bit
// k·width, the rest zero), and
// each result's are unpacked from its outputs the same way.
func evalInlineAsm(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	a := tt.ElementwiseInlineAsmOp{Operation: op}
	n, err := a.Packing()
	if err != nil {
		return nil, err
	}
	srcs, err := tensorArgs(args)
	if err != nil {
		return nil, err
	}
	outs := make([]*Tensor, op.NumResults())
	for i := range outs {
		if outs[i], err = newResult(op, i); err != nil {
			return nil, err
		}
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("inline asm without results")
	}
	prog, err := ptxint.Parse(a.AsmString(), a.Constraints())
	if err != nil {
		return nil, fmt.Errorf("inline asm: %v", err)
	}
	inPacks, nIn, err := asmPacking(srcs, n)
	if err != nil {
		return nil, err
	}
	outPacks, nOut, err := asmPacking(outs, n)
	if err != nil {
		return nil, err
	}
	if err := tt.CheckInlineAsmCounts(a.Constraints(), prog.Outs, prog.Ins, n, nOut, nIn); err != nil {
		return nil, err
	}
	if err := checkRegisterWidths(prog.Regs, outPacks, inPacks, n); err != nil {
		return nil, err
	}
	blocks, err := registerBlocks(op.Result(0).Type(), outs[0].Len(), n)
	if err != nil {
		return nil, err
	}
	for _, s := range srcs {
		if s.Len() != outs[0].Len() {
			return nil, fmt.Errorf("an operand of %d elements for results of %d", s.Len(), outs[0].Len())
		}
	}
	ins := make([]uint64, 0, nIn)
	for _, blk := range blocks {
		ins = ins[:0]
		for i, s := range srcs {
			p := inPacks[i]
			for j := 0; j < n; j += p.per {
				var w uint64
				for k := range p.per {
					w |= elemBits(s, blk[j+k]) << (k * p.bits)
				}
				ins = append(ins, w)
			}
		}
		res, err := prog.Run(ins)
		if err != nil {
			return nil, err
		}
		r := 0
		for o, t := range outs {
			p := outPacks[o]
			for j := 0; j < n; j += p.per {
				for k := range p.per {
					setElemBits(t, blk[j+k], res[r]>>(k*p.bits)&(1<<p.bits-1))
				}
				r++
			}
		}
	}
	return tensorValues(outs), nil
}

// checkRegisterWidths checks that each register's constraint letter
// (ptxint.Program.Regs) fits its elements, as LLVM's NVPTX back end
// requires: "l" or "d" (64 bits) for a 64-bit element, another letter for
// narrower ones (an input tied to an output is not checked).
func checkRegisterWidths(regs []byte, outs, ins []asmPack, n int) error {
	var want []int // the element bits of each register, outputs first
	for _, ps := range [][]asmPack{outs, ins} {
		for _, p := range ps {
			for range n / p.per {
				want = append(want, p.bits)
			}
		}
	}
	for k, c := range regs {
		if k < len(want) && c != 0 {
			if wide := c == 'l' || c == 'd'; wide != (want[k] == 64) {
				return fmt.Errorf("constraint %q of register %d does not fit its %d-bit elements (64-bit ones take \"l\" or \"d\", others not)", string(c), k, want[k])
			}
		}
	}
	return nil
}

// asmPack is how a tensor's elements sit in asm registers: per of them in
// each (32-bit registers; a 64-bit element alone in a 64-bit one), element
// k at bit k·bits (as the GPU packs <per x iN> into an integer of per·bits
// bits, the rest of the register zero).
type asmPack struct{ per, bits int }

// asmPacking returns the packing of each tensor (packed_element n) and
// the registers a block takes.
func asmPacking(ts []*Tensor, n int) ([]asmPack, int, error) {
	packs := make([]asmPack, len(ts))
	total := 0
	for i, t := range ts {
		bits := t.Elem.Bytes() * 8
		if t.Elem.IsInt() && t.Elem.Width < 8 {
			bits = t.Elem.Width
		}
		if bits > 64 {
			return nil, 0, fmt.Errorf("inline asm on %d-bit elements is not supported by the interpreter (registers of at most 64 bits)", bits)
		}
		p, err := tt.InlineAsmPerRegister(bits, n)
		if err != nil {
			return nil, 0, err
		}
		packs[i] = asmPack{p, bits}
		total += n / p
	}
	return packs, total, nil
}

// registerBlocks returns the element indices (row-major) of every asm
// call: blocks of n consecutive registers of each thread of t's layout,
// each block once (threads holding copies of the same elements run the
// same block); without a layout, blocks of n consecutive elements.
func registerBlocks(t ir.Type, elems, n int) ([][]int, error) {
	shape := shapeOf(t)
	enc := ir.Encoding(t)
	if enc == nil || len(shape) == 0 {
		if elems%n != 0 {
			return nil, fmt.Errorf("packed_element %d does not divide the %d elements", n, elems)
		}
		var out [][]int
		for b := 0; b < elems; b += n {
			blk := make([]int, n)
			for i := range blk {
				blk[i] = b + i
			}
			out = append(out, blk)
		}
		return out, nil
	}
	ll, err := attr.Linear(enc, shape)
	if err != nil {
		return nil, err
	}
	size := func(d string) int {
		if ll.HasInDim(d) {
			return ll.InDimSize(d)
		}
		return 1
	}
	regs, lanes, warps, ctas := size("register"), size("lane"), size("warp"), size("block")
	if regs%n != 0 {
		return nil, fmt.Errorf("packed_element %d does not divide the %d elements each thread holds", n, regs)
	}
	str := strides(shape)
	seen := map[int]bool{}
	var out [][]int
	for c := range ctas {
		for w := range warps {
			for l := range lanes {
				for r0 := 0; r0 < regs; r0 += n {
					blk := make([]int, n)
					for i := range blk {
						idx := 0
						for d, x := range ll.Apply(r0+i, l, w, c) {
							idx += x * str[d]
						}
						blk[i] = idx
					}
					if !seen[blk[0]] {
						seen[blk[0]] = true
						out = append(out, blk)
					}
				}
			}
		}
	}
	return out, nil
}

// elemBits is element k of t as its bits (an integer of its width, a float
// in its format).
func elemBits(t *Tensor, k int) uint64 {
	if t.F != nil {
		return t.Elem.Float.Bits(t.F[k])
	}
	return uint64(unsigned(t.I[k], t.Elem.Width))
}

// setElemBits sets element k of t from its bits.
func setElemBits(t *Tensor, k int, b uint64) {
	if t.F != nil {
		t.F[k] = t.Elem.Float.FromBits(b)
		return
	}
	t.I[k] = wrap(int64(b), t.Elem.Width)
}

func init() {
	register(map[string]OpFunc{"tt.elementwise_inline_asm": evalInlineAsm})
}
