package tt

import "fmt"

// Triton's packing of tt.elementwise_inline_asm, which the code generator
// (llvmemit) and the interpreter both follow: the asm runs on blocks of
// packed_element consecutive registers of a thread; each operand's and
// result's block elements narrower than 32 bits share 32-bit asm
// registers, InlineAsmPerRegister of them to one.

// Packing returns packed_element (1 when the op does not carry it), or an
// error when it is not positive.
func (op ElementwiseInlineAsmOp) Packing() (int, error) {
	n := 1
	if op.PackedElementAttr() != nil {
		n = int(op.PackedElement())
	}
	if n < 1 {
		return 0, fmt.Errorf("packed_element must be positive, got %d", n)
	}
	return n, nil
}

// InlineAsmPerRegister returns how many elements of the given bit width one
// 32-bit asm register holds in a block of packed elements: 32 / bits of
// them, packed at most (one for 32 bits and wider).
func InlineAsmPerRegister(bits, packed int) (int, error) {
	per := 1
	if bits < 32 {
		per = min(32/bits, packed)
	}
	if packed%per != 0 {
		return 0, fmt.Errorf("packed_element %d is not a multiple of the %d elements of %d bits a 32-bit register holds", packed, per, bits)
	}
	return per, nil
}

// CheckInlineAsmCounts checks that the constraints name as many outputs and
// inputs (outs, ins) as a block of packed elements of the results and the
// operands takes registers (wantOuts, wantIns).
func CheckInlineAsmCounts(constraints string, outs, ins, packed, wantOuts, wantIns int) error {
	if outs != wantOuts || ins != wantIns {
		return fmt.Errorf("constraints %q name %d outputs and %d inputs; packed_element %d of these results and operands makes %d and %d",
			constraints, outs, ins, packed, wantOuts, wantIns)
	}
	return nil
}
