package llvmemit

import (
	"fmt"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// asConst is NVPTX's constant address space (32-bit pointers under the
// data layout's p4:32:32).
const asConst = types.AddrSpace(4)

// denseConstant lowers a non-splat dense arith.constant (elems in
// row-major order). A register that holds the same element value in
// every thread is that constant; the others load their element from the
// whole tensor, put in constant memory once, at the row-major index of
// the register's coordinates (emitIndices).
func (l *Lowerer) denseConstant(op *ir.Operation, elems []ir.Attribute) error {
	t := op.Result(0).Type()
	shape := intShape(ir.ShapeOrScalar(t))
	n := 1
	for _, s := range shape {
		n *= s
	}
	if len(elems) != n {
		return errorf(op, "a dense constant of %d elements for %d", len(elems), n)
	}
	et := ir.ElementType(t)
	cs := make([]constant.Constant, n)
	for i, a := range elems {
		c, err := scalarConst(et, a)
		if err != nil {
			return errorf(op, "element %d: %v", i, err)
		}
		cs[i] = c
	}
	ll := mustLayout(t)
	if ll == nil {
		return errorf(op, "a dense constant of %d elements for a scalar", n)
	}
	flat := func(c []int) int {
		f := 0
		for d, x := range c {
			f = f*shape[d] + x
		}
		return f
	}
	threads := 32 * l.e.numWarps
	out := make([]value.Value, ll.InDimSize(dimReg))
	var table *lir.Global
	var idx [][]value.Value
	for r := range out {
		first := cs[flat(ll.Apply(r, 0, 0))]
		uniform := true
		for tid := 1; tid < threads && uniform; tid++ {
			uniform = cs[flat(ll.Apply(r, tid&31, tid>>5))].Ident() == first.Ident()
		}
		if uniform {
			out[r] = first
			continue
		}
		if table == nil {
			table = l.e.constTable(cs)
			idx = l.emitIndices(t)
		}
		at := table.ContentType
		p := l.cur.NewGetElementPtr(at, table, i32(0), l.flatten(idx[r], shape))
		ld := l.cur.NewLoad(at.(*types.ArrayType).ElemType, p)
		out[r] = l.unstorable(ld, mustType(et))
	}
	l.Define(op.Result(0), out)
	return nil
}

// constTable puts the constants cs in a new array in constant memory
// (i1 as i8).
func (e *emitter) constTable(cs []constant.Constant) *lir.Global {
	et := storableType(cs[0].Type())
	elems := make([]constant.Constant, len(cs))
	for i, c := range cs {
		if ci, ok := c.(*constant.Int); ok && !c.Type().Equal(et) {
			c = constant.NewInt(et.(*types.IntType), ci.X.Int64()&1)
		}
		elems[i] = c
	}
	arr := constant.NewArray(types.NewArray(uint64(len(cs)), et), elems...)
	g := e.m.NewGlobalDef(fmt.Sprintf("cst.%d", len(e.m.Globals)), arr)
	g.Linkage = enum.LinkageInternal
	g.Immutable = true
	g.AddrSpace = asConst
	g.Typ.AddrSpace = asConst
	g.Align = lir.Align(max(typeBits(et)/8, 1))
	return g
}
