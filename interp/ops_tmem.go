package interp

import (
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/dialect/ttng"
	"github.com/layoutopt/layoutopt/ir"
)

// Tensor memory (Blackwell's TMEM) and the tcgen05 MMA: ttng.tmem_alloc,
// tmem_load, tmem_store, tmem_subslice, tmem_copy, tc_gen5_mma and
// tc_gen5_commit.
//
// Tensor memory is simulated like shared memory (ops_mem.go): a
// tmem_alloc is a *MemDesc over a buffer of the memdesc's element type,
// and memdesc_index and tmem_subslice make views of it. Its layouts
// (#ttng.tensor_memory_encoding's blockM, blockN, colStride, two CTAs)
// decide where an element lives, not its value, so they play no part.
// Triton verifies (verifyMemoryOpTypes) that the tensor a tmem_alloc,
// tmem_load or tmem_store moves has the memdesc's element type and shape:
// nothing is converted, and a mismatch is an error.
//
//   - tmem_alloc: a new buffer of the result's shape, holding src when
//     given (zeros otherwise, where the GPU leaves it undefined);
//   - tmem_load: a copy of the view; tmem_store: when pred is true,
//     src's elements into the view (pred false stores nothing);
//   - tmem_subslice: the view of columns [N, N + n) of a view, n the
//     result's last dimension (Triton 3.6 slices only the inner one);
//   - tmem_copy (tcgen05.cp, from shared memory) into a
//     #ttng.tensor_memory_encoding destination copies the elements as they
//     are; into the scales layout (#ttng.tensor_memory_scales_encoding) it
//     also reorders them, which is not implemented (an error);
//   - tc_gen5_mma: when pred is true, D = A·B + D, or D = A·B when useD is
//     false (D's old value is not read), computed as tt.dot computes it
//     (ops_dot.go: sequential over k, each step rounded to D's element
//     type), A read from shared or tensor memory, B from shared memory
//     (memory spaces are not checked: they do not change values). f32
//     operands are tf32 (tcgen05's kind::tf32, the only f32 kind Triton's
//     verifier accepts), rounded as tt.dot's inputPrecision = tf32 rounds
//     them (to nearest, ties away: cvt.rna), whatever the tensor core does
//     with the low bits of an f32. pred false leaves D unchanged. two_ctas
//     changes where the operands live, not the product of the whole tiles
//     the interpreter sees.
//
// The interpreter runs one op at a time, so an asynchronous op has
// completed when the next one starts: tokens (acc_dep, dep and the token
// results) are Token, the completion barriers of tc_gen5_mma and
// tc_gen5_commit are not touched, and is_async changes nothing.
// tc_gen5_mma_scaled is not implemented: its fp4 packing dimension depends
// on the operands' shared layouts and its scales come in the tensor-memory
// scales layout.

// tmemCheckTensor checks that tensor t has the element type and shape of
// the memdesc view m (Triton's verifyMemoryOpTypes).
func tmemCheckTensor(t *Tensor, m *MemDesc, what string) error {
	if !ir.TypesEqual(t.Elem.Type, m.Buf.Elem.Type) {
		return fmt.Errorf("%s of element type %s for a memdesc of element type %s", what, ir.TypeString(t.Elem.Type), ir.TypeString(m.Buf.Elem.Type))
	}
	if !slices.Equal(t.Shape, m.Shape) {
		return fmt.Errorf("%s of shape %v for a memdesc of shape %v", what, t.Shape, m.Shape)
	}
	return nil
}

// predOperand is the value of the i1 operand v of op, named name.
func predOperand(ex *Exec, v *ir.Value, name string) (bool, error) {
	b, err := scalarBool(ex.Get(v))
	if err != nil {
		return false, fmt.Errorf("%s: %v", name, err)
	}
	return b, nil
}

func evalTMEMAlloc(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if op.NumResults() < 1 || op.NumResults() > 2 || len(args) > 1 {
		return nil, fmt.Errorf("malformed ttng.tmem_alloc")
	}
	mt, ok := op.Result(0).Type().(*ir.MemDescType)
	if !ok {
		return nil, fmt.Errorf("result is not a memdesc")
	}
	if len(args) == 1 {
		src, err := tensorArg(args[0])
		if err != nil {
			return nil, fmt.Errorf("src: %v", err)
		}
		want := shapeOf(mt)
		if !ir.TypesEqual(src.Elem.Type, mt.Elem) || !slices.Equal(src.Shape, want) {
			return nil, fmt.Errorf("src of type %s%v for a memdesc of type %s%v", ir.TypeString(src.Elem.Type), src.Shape, ir.TypeString(mt.Elem), want)
		}
	}
	res, err := evalLocalAlloc(ex, op, args)
	if err != nil {
		return nil, err
	}
	return tokens(op, res...), nil
}

func evalTMEMLoad(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	l := ttng.TMEMLoadOp{Operation: op}
	m, err := memDescArg(ex.Get(l.Src()))
	if err != nil {
		return nil, fmt.Errorf("src: %v", err)
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if err := tmemCheckTensor(out, m, "result"); err != nil {
		return nil, err
	}
	if err := m.load(out); err != nil {
		return nil, err
	}
	return tokens(op, out), nil
}

func evalTMEMStore(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	s := ttng.TMEMStoreOp{Operation: op}
	src, err := tensorArg(ex.Get(s.Src()))
	if err != nil {
		return nil, fmt.Errorf("src: %v", err)
	}
	m, err := memDescArg(ex.Get(s.Dst()))
	if err != nil {
		return nil, fmt.Errorf("dst: %v", err)
	}
	pred, err := predOperand(ex, s.Pred(), "pred")
	if err != nil {
		return nil, err
	}
	if err := tmemCheckTensor(src, m, "src"); err != nil {
		return nil, err
	}
	if pred {
		if err := m.store(src); err != nil {
			return nil, err
		}
	}
	return tokens(op), nil
}

func evalTMEMSubslice(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("malformed ttng.tmem_subslice")
	}
	m, err := memDescArg(args[0])
	if err != nil {
		return nil, err
	}
	shape := shapeOf(op.Result(0).Type())
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	n := ttng.TMEMSubsliceOp{Operation: op}.N()
	r := len(m.Shape)
	// Only the last dimension is sliced: the others are m's.
	var v *MemDesc
	ok := r >= 1 && len(shape) == r && slices.Equal(shape[:r-1], m.Shape[:r-1])
	if ok {
		offs := make([]int64, r)
		offs[r-1] = n
		v, ok = m.subView(offs, shape)
	}
	if !ok {
		return nil, fmt.Errorf("subslice of shape %v at column %d outside %v", shape, n, m.Shape)
	}
	return []Value{v}, nil
}

func evalTMEMCopy(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	c := ttng.TMEMCopyOp{Operation: op}
	src, err := memDescArg(ex.Get(c.Src()))
	if err != nil {
		return nil, fmt.Errorf("src: %v", err)
	}
	dst, err := memDescArg(ex.Get(c.Dst()))
	if err != nil {
		return nil, fmt.Errorf("dst: %v", err)
	}
	if _, ok := ir.Encoding(c.Dst().Type()).(*attr.TensorMemory); !ok {
		return nil, fmt.Errorf("a copy into a destination of type %s is not supported (only #ttng.tensor_memory_encoding)", ir.TypeString(c.Dst().Type()))
	}
	t := src.tensor()
	if err := tmemCheckTensor(t, dst, "src"); err != nil {
		return nil, err
	}
	if err := dst.store(t); err != nil {
		return nil, err
	}
	return tokens(op), nil
}

func evalTCGen5MMA(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	mma := ttng.TCGen5MMAOp{Operation: op}
	var ops [3]*MemDesc
	for i, v := range []*ir.Value{mma.A(), mma.B(), mma.D()} {
		m, err := memDescArg(ex.Get(v))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", [3]string{"a", "b", "d"}[i], err)
		}
		ops[i] = m
	}
	useD, err := predOperand(ex, mma.UseD(), "useD")
	if err != nil {
		return nil, err
	}
	pred, err := predOperand(ex, mma.Pred(), "pred")
	if err != nil {
		return nil, err
	}
	if pred {
		a, b, d := ops[0], ops[1], ops[2]
		out := NewTensor(d.Buf.Elem, append([]int(nil), d.Shape...))
		// Operands are copied out before D is written: A may live in the
		// same tensor memory.
		if err := dotInto(ex, out, a.tensor(), b.tensor(), d.tensor(), "tf32", useD); err != nil {
			return nil, err
		}
		if err := d.store(out); err != nil {
			return nil, err
		}
	}
	return tokens(op), nil
}

func init() {
	register(map[string]OpFunc{
		"ttng.tmem_alloc":     evalTMEMAlloc,
		"ttng.tmem_load":      evalTMEMLoad,
		"ttng.tmem_store":     evalTMEMStore,
		"ttng.tmem_subslice":  evalTMEMSubslice,
		"ttng.tmem_copy":      evalTMEMCopy,
		"ttng.tc_gen5_mma":    evalTCGen5MMA,
		"ttng.tc_gen5_commit": noEffect,
	})
}
