package interp

import (
	"fmt"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/dialect/ttg"
	"github.com/layoutopt/layoutopt/ir"
)

// Global memory: tt.load, tt.store and the atomics access Exec.M.Mem one
// element at a time in row-major order of the pointer tensor. A masked-off
// element is not accessed at all (a load gives `other`, or 0 without it).
// Loads and stores through block pointers are in ops_blockptr.go.

func optTensor(ex *Exec, v *ir.Value) (*Tensor, error) {
	if v == nil {
		return nil, nil
	}
	return tensorArg(ex.Get(v))
}

// broadcastScalar returns t as a tensor of n elements: a scalar is
// repeated (masks and `other` may be scalars in TTGIR's generic forms).
func elemI(t *Tensor, i int) int64 {
	if len(t.I) == 1 {
		return t.I[0]
	}
	return t.I[i]
}

func elemF(t *Tensor, i int) float64 {
	if len(t.F) == 1 {
		return t.F[0]
	}
	return t.F[i]
}

func evalLoad(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	l := tt.LoadOp{Operation: op}
	if b, ok := ex.Get(l.Ptr()).(*BlockPtr); ok {
		return loadBlock(ex, l, b)
	}
	ptr, err := optTensor(ex, l.Ptr())
	if err != nil {
		return nil, err
	}
	if !ptr.Elem.IsPtr() {
		return nil, fmt.Errorf("the pointer operand is not a tensor of pointers or a block pointer")
	}
	mask, err := optTensor(ex, l.Mask())
	if err != nil {
		return nil, err
	}
	other, err := optTensor(ex, l.Other())
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	if err := loadInto(ex, out, ptr, mask, other); err != nil {
		return nil, err
	}
	return []Value{out}, nil
}

func loadInto(ex *Exec, out, ptr, mask, other *Tensor) error {
	if out.Len() != ptr.Len() {
		return fmt.Errorf("%d pointers for %d elements", ptr.Len(), out.Len())
	}
	e := out.Elem
	buf := make([]byte, e.Bytes())
	for i := 0; i < out.Len(); i++ {
		if mask != nil && elemI(mask, i) == 0 {
			if other != nil {
				if out.F != nil {
					out.F[i] = elemF(other, i)
				} else {
					out.I[i] = elemI(other, i)
				}
			}
			continue
		}
		if err := ex.M.Mem.Load(ptr.I[i], buf); err != nil {
			return fmt.Errorf("element %v: %v", unflatten(i, ptr.Shape), err)
		}
		iv, fv := loadElem(e, buf)
		if out.F != nil {
			out.F[i] = fv
		} else {
			out.I[i] = iv
		}
	}
	return nil
}

func unflatten(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = i % shape[d]
		i /= shape[d]
	}
	return idx
}

func evalStore(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	s := tt.StoreOp{Operation: op}
	if b, ok := ex.Get(s.Ptr()).(*BlockPtr); ok {
		return storeBlock(ex, s, b)
	}
	ptr, err := optTensor(ex, s.Ptr())
	if err != nil {
		return nil, err
	}
	val, err := optTensor(ex, s.Value())
	if err != nil {
		return nil, err
	}
	mask, err := optTensor(ex, s.Mask())
	if err != nil {
		return nil, err
	}
	if !ptr.Elem.IsPtr() {
		return nil, fmt.Errorf("the pointer operand is not a tensor of pointers or a block pointer")
	}
	return nil, storeFrom(ex, ptr, val, mask)
}

// storeFrom stores the elements of val at the addresses ptr, in row-major
// order, skipping those where mask (when not nil) is false.
func storeFrom(ex *Exec, ptr, val, mask *Tensor) error {
	if val.Len() != ptr.Len() {
		return fmt.Errorf("%d pointers for %d values", ptr.Len(), val.Len())
	}
	buf := make([]byte, val.Elem.Bytes())
	for i := 0; i < ptr.Len(); i++ {
		if mask != nil && elemI(mask, i) == 0 {
			continue
		}
		var iv int64
		var fv float64
		if val.F != nil {
			fv = val.F[i]
		} else {
			iv = val.I[i]
		}
		storeElem(val.Elem, buf, iv, fv)
		if err := ex.M.Mem.Store(ptr.I[i], buf); err != nil {
			return fmt.Errorf("element %v: %v", unflatten(i, ptr.Shape), err)
		}
	}
	return nil
}

// rmw applies an atomic read-modify-write op to old and v.
func rmw(kind string, e Elem, oldI, vI int64, oldF, vF float64) (int64, float64, error) {
	w := e.Width
	switch kind {
	case "and":
		return oldI & vI, 0, nil
	case "or":
		return oldI | vI, 0, nil
	case "xor":
		return oldI ^ vI, 0, nil
	case "add":
		return wrap(oldI+vI, w), 0, nil
	case "fadd":
		return 0, e.Float.Round(oldF+vF, NearestEven, false), nil
	case "max":
		if e.Float != nil {
			return 0, maxNum(oldF, vF), nil
		}
		return max(oldI, vI), 0, nil
	case "min":
		if e.Float != nil {
			return 0, minNum(oldF, vF), nil
		}
		return min(oldI, vI), 0, nil
	case "umax":
		if unsigned(oldI, w) >= unsigned(vI, w) {
			return oldI, 0, nil
		}
		return vI, 0, nil
	case "umin":
		if unsigned(oldI, w) <= unsigned(vI, w) {
			return oldI, 0, nil
		}
		return vI, 0, nil
	case "exch":
		return vI, vF, nil
	}
	return 0, 0, fmt.Errorf("unsupported atomic op %q", kind)
}

// evalAtomicRMW applies the op element by element in row-major order and
// returns the old values (0 for masked-off elements). Programs run one
// after another, so the order between programs is launch order; on the
// GPU it is not, which matters only for floats (fadd).
func evalAtomicRMW(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	a := tt.AtomicRMWOp{Operation: op}
	ptr, err := optTensor(ex, a.Ptr())
	if err != nil {
		return nil, err
	}
	val, err := optTensor(ex, a.Val())
	if err != nil {
		return nil, err
	}
	mask, err := optTensor(ex, a.Mask())
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	kind := a.AtomicRmwOpName()
	e := val.Elem
	buf := make([]byte, e.Bytes())
	for i := 0; i < ptr.Len(); i++ {
		if mask != nil && elemI(mask, i) == 0 {
			continue
		}
		if err := ex.M.Mem.Load(ptr.I[i], buf); err != nil {
			return nil, fmt.Errorf("element %v: %v", unflatten(i, ptr.Shape), err)
		}
		oi, of := loadElem(e, buf)
		var vi int64
		var vf float64
		if val.F != nil {
			vf = val.F[i]
		} else {
			vi = val.I[i]
		}
		ni, nf, err := rmw(kind, e, oi, vi, of, vf)
		if err != nil {
			return nil, err
		}
		storeElem(e, buf, ni, nf)
		if err := ex.M.Mem.Store(ptr.I[i], buf); err != nil {
			return nil, fmt.Errorf("element %v: %v", unflatten(i, ptr.Shape), err)
		}
		if out.F != nil {
			out.F[i] = of
		} else {
			out.I[i] = oi
		}
	}
	return []Value{out}, nil
}

// evalAtomicCAS: where memory equals cmp (bit for bit), write val; return
// the old values.
func evalAtomicCAS(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	a := tt.AtomicCASOp{Operation: op}
	ptr, err := optTensor(ex, a.Ptr())
	if err != nil {
		return nil, err
	}
	cmp, err := optTensor(ex, a.Cmp())
	if err != nil {
		return nil, err
	}
	val, err := optTensor(ex, a.Val())
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	e := val.Elem
	buf := make([]byte, e.Bytes())
	cbuf := make([]byte, e.Bytes())
	for i := 0; i < ptr.Len(); i++ {
		if err := ex.M.Mem.Load(ptr.I[i], buf); err != nil {
			return nil, fmt.Errorf("element %v: %v", unflatten(i, ptr.Shape), err)
		}
		oi, of := loadElem(e, buf)
		if cmp.F != nil {
			storeElem(e, cbuf, 0, cmp.F[i])
		} else {
			storeElem(e, cbuf, cmp.I[i], 0)
		}
		if string(cbuf) == string(buf) {
			if val.F != nil {
				storeElem(e, buf, 0, val.F[i])
			} else {
				storeElem(e, buf, val.I[i], 0)
			}
			if err := ex.M.Mem.Store(ptr.I[i], buf); err != nil {
				return nil, err
			}
		}
		if out.F != nil {
			out.F[i] = of
		} else {
			out.I[i] = oi
		}
	}
	return []Value{out}, nil
}

// Shared memory is simulated at the level of values: ttg.local_alloc makes
// a buffer (a Tensor of the allocation shape, filled from its operand if it
// has one), views select elements of it, local_load copies a view out and
// local_store copies a tensor in. Swizzling and padding are layouts: they
// decide where an element lives, not its value, so they play no part.

func memDescArg(v Value) (*MemDesc, error) {
	m, ok := v.(*MemDesc)
	if !ok {
		return nil, fmt.Errorf("expected a memdesc operand, got %T", v)
	}
	return m, nil
}

func evalLocalAlloc(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	mt, ok := op.Result(0).Type().(*ir.MemDescType)
	if !ok {
		return nil, fmt.Errorf("result is not a memdesc")
	}
	e, err := ElemOf(mt.Elem)
	if err != nil {
		return nil, err
	}
	shape := make([]int, len(mt.Shape))
	for i, d := range mt.Shape {
		shape[i] = int(d)
	}
	alloc := shape
	if mt.AllocShape != nil {
		alloc = make([]int, len(mt.AllocShape))
		for i, d := range mt.AllocShape {
			alloc[i] = int(d)
		}
	}
	if err := checkShape(alloc); err != nil {
		return nil, err
	}
	if len(alloc) < len(shape) {
		return nil, fmt.Errorf("allocation shape %v of lower rank than %v", alloc, shape)
	}
	buf := NewTensor(e, alloc)
	md := &MemDesc{Buf: buf, Shape: shape, Strides: strides(alloc)[len(alloc)-len(shape):]}
	if len(args) == 1 {
		src, err := tensorArg(args[0])
		if err != nil {
			return nil, err
		}
		if err := md.store(src); err != nil {
			return nil, err
		}
	}
	return []Value{md}, nil
}

// each calls fn with the buffer index of every element of the view, in
// row-major order of the view.
func (m *MemDesc) each(fn func(k, b int)) {
	idx := make([]int, len(m.Shape))
	n := numElems(m.Shape)
	for k := 0; k < n; k++ {
		fn(k, m.Offset+flatIndex(idx, m.Strides))
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < m.Shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

func (m *MemDesc) store(src *Tensor) error {
	if src.Len() != numElems(m.Shape) {
		return fmt.Errorf("storing %d elements into a view of %d", src.Len(), numElems(m.Shape))
	}
	if (src.F != nil) != (m.Buf.F != nil) {
		return fmt.Errorf("storing %s elements into a buffer of %s", ir.TypeString(src.Elem.Type), ir.TypeString(m.Buf.Elem.Type))
	}
	m.each(func(k, b int) {
		if src.F != nil {
			m.Buf.F[b] = src.F[k]
		} else {
			m.Buf.I[b] = src.I[k]
		}
	})
	return nil
}

func (m *MemDesc) load(out *Tensor) error {
	if out.Len() != numElems(m.Shape) {
		return fmt.Errorf("loading %d elements from a view of %d", out.Len(), numElems(m.Shape))
	}
	if (out.F != nil) != (m.Buf.F != nil) {
		return fmt.Errorf("loading %s elements from a buffer of %s", ir.TypeString(out.Elem.Type), ir.TypeString(m.Buf.Elem.Type))
	}
	m.each(func(k, b int) {
		if out.F != nil {
			out.F[k] = m.Buf.F[b]
		} else {
			out.I[k] = m.Buf.I[b]
		}
	})
	return nil
}

// tensor copies the view out as a tensor.
func (m *MemDesc) tensor() *Tensor {
	t := NewTensor(m.Buf.Elem, m.Shape)
	_ = m.load(t)
	return t
}

func evalLocalLoad(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := memDescArg(args[0])
	if err != nil {
		return nil, err
	}
	out, err := newResult(op, 0)
	if err != nil {
		return nil, err
	}
	return []Value{out}, m.load(out)
}

func evalLocalStore(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	s := ttg.LocalStoreOp{Operation: op}
	src, err := tensorArg(ex.Get(s.Src()))
	if err != nil {
		return nil, err
	}
	m, err := memDescArg(ex.Get(s.Dst()))
	if err != nil {
		return nil, err
	}
	return nil, m.store(src)
}

func evalMemDescIndex(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := memDescArg(args[0])
	if err != nil {
		return nil, err
	}
	i, err := tensorArg(args[1])
	if err != nil {
		return nil, err
	}
	k := i.I[0]
	if len(m.Shape) < 1 || k < 0 || k >= int64(m.Shape[0]) {
		return nil, fmt.Errorf("index %d outside dimension 0 of size %v", k, m.Shape)
	}
	return []Value{&MemDesc{Buf: m.Buf, Offset: m.Offset + int(k)*m.Strides[0], Shape: m.Shape[1:], Strides: m.Strides[1:]}}, nil
}

func evalMemDescSubslice(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := memDescArg(args[0])
	if err != nil {
		return nil, err
	}
	offs := ttg.MemDescSubsliceOp{Operation: op}.Offsets()
	shape := shapeOf(op.Result(0).Type())
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	if len(offs) != len(m.Shape) || len(shape) != len(m.Shape) {
		return nil, fmt.Errorf("offsets %v for a view of shape %v", offs, m.Shape)
	}
	v, ok := m.subView(offs, shape)
	if !ok {
		return nil, fmt.Errorf("subslice at %v of shape %v outside %v", offs, shape, m.Shape)
	}
	return []Value{v}, nil
}

// subView is the view of m's elements from offs (one per dimension) on,
// of the given shape, or false when it does not lie inside m.
func (m *MemDesc) subView(offs []int64, shape []int) (*MemDesc, bool) {
	off := m.Offset
	for d, o := range offs {
		if o < 0 || o+int64(shape[d]) > int64(m.Shape[d]) {
			return nil, false
		}
		off += int(o) * m.Strides[d]
	}
	return &MemDesc{Buf: m.Buf, Offset: off, Shape: shape, Strides: m.Strides}, true
}

func evalMemDescTrans(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := memDescArg(args[0])
	if err != nil {
		return nil, err
	}
	order := ttg.MemDescTransOp{Operation: op}.Order()
	if len(order) != len(m.Shape) {
		return nil, fmt.Errorf("order %v for a view of rank %d", order, len(m.Shape))
	}
	shape := make([]int, len(order))
	st := make([]int, len(order))
	for d, s := range order {
		shape[d], st[d] = m.Shape[s], m.Strides[s]
	}
	return []Value{&MemDesc{Buf: m.Buf, Offset: m.Offset, Shape: shape, Strides: st}}, nil
}

// evalMemDescReshape reshapes a view that is contiguous in row-major
// order; other views are copied out and back (they do not occur: Triton
// reshapes only whole buffers).
func evalMemDescReshape(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	m, err := memDescArg(args[0])
	if err != nil {
		return nil, err
	}
	shape := shapeOf(op.Result(0).Type())
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	if numElems(shape) != numElems(m.Shape) {
		return nil, fmt.Errorf("reshape of %v to %v", m.Shape, shape)
	}
	want := strides(m.Shape)
	for d, s := range m.Strides {
		if m.Shape[d] > 1 && s != want[d] {
			return nil, fmt.Errorf("reshape of a non-contiguous view")
		}
	}
	return []Value{&MemDesc{Buf: m.Buf, Offset: m.Offset, Shape: shape, Strides: strides(shape)}}, nil
}

// evalAsyncCopy is ttg.async_copy_global_to_local done at once: a masked
// load into the destination view. Its token is a Token.
func evalAsyncCopy(ex *Exec, op *ir.Operation, args []Value) ([]Value, error) {
	// Operands: source pointers, destination view, then mask and other
	// when present (other only with a mask).
	if len(args) < 2 || len(args) > 4 {
		return nil, fmt.Errorf("expects 2 to 4 operands, has %d", len(args))
	}
	ts := make([]*Tensor, 4)
	for i, a := range args {
		if i == 1 {
			continue
		}
		t, err := tensorArg(a)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %v", i, err)
		}
		ts[i] = t
	}
	m, err := memDescArg(args[1])
	if err != nil {
		return nil, err
	}
	t := NewTensor(m.Buf.Elem, m.Shape)
	if err := loadInto(ex, t, ts[0], ts[2], ts[3]); err != nil {
		return nil, err
	}
	if err := m.store(t); err != nil {
		return nil, err
	}
	return noEffect(ex, op, args)
}

func init() {
	register(map[string]OpFunc{
		"tt.load":                        evalLoad,
		"tt.store":                       evalStore,
		"tt.atomic_rmw":                  evalAtomicRMW,
		"tt.atomic_cas":                  evalAtomicCAS,
		"ttg.local_alloc":                evalLocalAlloc,
		"ttg.local_load":                 evalLocalLoad,
		"ttg.local_store":                evalLocalStore,
		"ttg.memdesc_index":              evalMemDescIndex,
		"ttg.memdesc_subslice":           evalMemDescSubslice,
		"ttg.memdesc_trans":              evalMemDescTrans,
		"ttg.memdesc_reshape":            evalMemDescReshape,
		"ttg.async_copy_global_to_local": evalAsyncCopy,
	})
}
