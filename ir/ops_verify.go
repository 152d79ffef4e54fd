package ir

import (
	"errors"
	"fmt"
	"strings"
)

// Op verifiers of the control-flow, call and shared-memory ops, with the
// messages of MLIR's and Triton's verifiers.

// HasParent returns a verifier for MLIR's HasParent / ParentOneOf traits:
// the op's parent must be one of names (given sorted, as MLIR prints them).
func HasParent(names ...string) func(*Operation) error {
	return func(op *Operation) error {
		if p := op.ParentOp(); p != nil {
			for _, n := range names {
				if p.name == n {
					return nil
				}
			}
		}
		if len(names) == 1 {
			return fmt.Errorf("expects parent op '%s'", names[0])
		}
		return fmt.Errorf("expects parent op to be one of '%s'", strings.Join(names, ", "))
	}
}

// lookupSymbol returns the op named name in the nearest symbol table above
// op (the enclosing builtin.module), or nil.
func lookupSymbol(op *Operation, name string) *Operation {
	m := op.ParentOp()
	for m != nil && m.name != "builtin.module" {
		m = m.ParentOp()
	}
	if m == nil || len(m.regions) == 0 || m.Region(0).Entry() == nil {
		return nil
	}
	for o := m.Region(0).Entry().first; o != nil; o = o.next {
		if s, ok := o.Attr("sym_name").(*StringAttr); ok && s.Value == name {
			return o
		}
	}
	return nil
}

// verifyCall is Triton's CallOp::verifySymbolUses: the callee is a tt.func
// of the enclosing module whose type matches the call.
func verifyCall(op *Operation) error {
	callee, ok := op.Attr("callee").(*SymbolRefAttr)
	if !ok {
		return errors.New("requires a 'callee' symbol reference attribute")
	}
	fn := lookupSymbol(op, callee.Root)
	if fn == nil || fn.name != "tt.func" || FuncType(fn) == nil {
		return fmt.Errorf("'%s' does not reference a valid function", callee.Root)
	}
	ft := FuncType(fn)
	if len(ft.Inputs) != op.NumOperands() {
		return errors.New("incorrect number of operands for callee")
	}
	for i, t := range ft.Inputs {
		if got := op.Operand(i).Type(); !TypesEqual(got, t) {
			return fmt.Errorf("operand type mismatch: expected operand type %s, but provided %s for operand number %d",
				TypeString(t), TypeString(got), i)
		}
	}
	if len(ft.Results) != op.NumResults() {
		return errors.New("incorrect number of results for callee")
	}
	for i, t := range ft.Results {
		if !TypesEqual(op.Result(i).Type(), t) {
			return fmt.Errorf("result type mismatch at index %d", i)
		}
	}
	return nil
}

// verifyMemoryOpTypes is Triton's check that a memory op's source and
// destination agree in element type and shape.
func verifyMemoryOpTypes(src, dst Type) error {
	if !TypesEqual(ElementType(src), ElementType(dst)) {
		return fmt.Errorf("source element type %s must match destination element type %s",
			TypeString(src), TypeString(ElementType(dst)))
	}
	s, _ := ShapeOf(src)
	d, _ := ShapeOf(dst)
	if !shapesEqual(s, d) {
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
		b.WriteString(itoa(x))
	}
	return b.String()
}

// verifyLocalLoad is LocalLoadOp::verify.
func verifyLocalLoad(op *Operation) error {
	return verifyMemoryOpTypes(op.Operand(0).Type(), op.Result(0).Type())
}

// verifyLocalStore is LocalStoreOp::verify: the destination is mutable
// and matches the stored tensor.
func verifyLocalStore(op *Operation) error {
	if md, ok := op.Operand(1).Type().(*MemDescType); ok && !md.Mutable {
		//lint:ignore ST1005 Triton's message, word for word
		return errors.New("Cannot store into immutable memory")
	}
	return verifyMemoryOpTypes(op.Operand(0).Type(), op.Operand(1).Type())
}

// verifyAddPtr is tt.addptr's TypesMatchWith<"result type matches ptr
// type"> (shapes and encodings are checked by its traits).
func verifyAddPtr(op *Operation) error {
	if !TypesEqual(op.Result(0).Type(), op.Operand(0).Type()) {
		return errors.New("failed to verify that result type matches ptr type")
	}
	return nil
}
