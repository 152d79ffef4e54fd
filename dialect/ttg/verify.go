package ttg

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// The op verifiers of the ttg ops, with the messages of Triton's
// verifiers (lib/Dialect/TritonGPU/IR/Ops.cpp).

// verifyMemoryOpTypes is Triton's check that a memory op's source and
// destination agree in element type and shape.
func verifyMemoryOpTypes(src, dst ir.Type) error {
	if !ir.TypesEqual(ir.ElementType(src), ir.ElementType(dst)) {
		return fmt.Errorf("source element type %s must match destination element type %s",
			ir.TypeString(src), ir.TypeString(ir.ElementType(dst)))
	}
	s, _ := ir.ShapeOf(src)
	d, _ := ir.ShapeOf(dst)
	if !slices.Equal(s, d) {
		return fmt.Errorf("source shape [%s] must match [destination shape %s]", joinInts(s), joinInts(d))
	}
	return nil
}

func joinInts(xs []int64) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(x, 10))
	}
	return b.String()
}

// verifyLocalAlloc is LocalAllocOp::verify (verifyAllocOp): an
// allocation without a source is mutable, one with a source holds its
// element type and shape.
func verifyLocalAlloc(op *ir.Operation) error {
	dst := op.Result(0).Type()
	if op.NumOperands() == 0 {
		if md, ok := dst.(*ir.MemDescType); ok && !md.Mutable {
			return errors.New("uninitialized alloc must have a mutable memdesc type")
		}
		return nil
	}
	return verifyMemoryOpTypes(op.Operand(0).Type(), dst)
}

// verifyLocalLoad is LocalLoadOp::verify.
func verifyLocalLoad(op *ir.Operation) error {
	return verifyMemoryOpTypes(op.Operand(0).Type(), op.Result(0).Type())
}

// verifyLocalStore is LocalStoreOp::verify: the destination is mutable
// and matches the stored tensor.
func verifyLocalStore(op *ir.Operation) error {
	if md, ok := op.Operand(1).Type().(*ir.MemDescType); ok && !md.Mutable {
		return errors.New("Cannot store into immutable memory")
	}
	return verifyMemoryOpTypes(op.Operand(0).Type(), op.Operand(1).Type())
}
