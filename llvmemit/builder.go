package llvmemit

import (
	"fmt"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// NVPTX address spaces.
const (
	asGlobal = types.AddrSpace(1)
	asShared = types.AddrSpace(3)
)

// DataLayout is LLVM 14's NVPTX layout with 32-bit shared, constant and
// local pointers, the one llc-14 uses under --nvptx-short-ptr.
const DataLayout = "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"

// TargetTriple is the NVPTX 64-bit CUDA triple.
const TargetTriple = "nvptx64-nvidia-cuda"

// ptrTo returns elem addrspace(as)*.
func ptrTo(elem types.Type, as types.AddrSpace) *types.PointerType {
	p := types.NewPointer(elem)
	p.AddrSpace = as
	return p
}

func i32(v int64) *constant.Int { return constant.NewInt(types.I32, v) }
func i64(v int64) *constant.Int { return constant.NewInt(types.I64, v) }

// intrinsics declares each function of the module once.
type intrinsics struct {
	m    *lir.Module
	seen map[string]*lir.Func
}

var (
	attrsPure = []lir.FuncAttribute{enum.FuncAttrNoUnwind, enum.FuncAttrReadNone}
	attrsConv = []lir.FuncAttribute{enum.FuncAttrConvergent, enum.FuncAttrNoUnwind}
)

// get returns the declaration of name, creating it on first use. An
// llvm.nvvm.* name must be on the allow-list (LLVM 14 would make an
// unknown one an external function without a word).
func (x *intrinsics) get(name string, ret types.Type, attrs []lir.FuncAttribute, params ...types.Type) *lir.Func {
	if f, ok := x.seen[name]; ok {
		return f
	}
	if isNVVM(name) && !NVVMIntrinsics[name] {
		panic(fmt.Sprintf("llvmemit: intrinsic %s is not known to LLVM 14 (add it to NVVMIntrinsics only after checking libLLVM-14)", name))
	}
	ps := make([]*lir.Param, len(params))
	for i, t := range params {
		ps[i] = lir.NewParam("", t)
	}
	f := x.m.NewFunc(name, ret, ps...)
	f.FuncAttrs = attrs
	x.seen[name] = f
	return f
}

func isNVVM(name string) bool { return len(name) > 10 && name[:10] == "llvm.nvvm." }

// inlineAsm returns a side-effecting inline-asm callee of type
// ret(params...); llir needs the callee's type to be a function pointer.
func inlineAsm(ret types.Type, text, constraints string, params ...types.Type) *lir.InlineAsm {
	a := lir.NewInlineAsm(types.NewPointer(types.NewFunc(ret, params...)), text, constraints)
	a.SideEffect = true
	return a
}

// pureAsm is inlineAsm without side effects (LLVM may move or drop it).
func pureAsm(ret types.Type, text, constraints string, params ...types.Type) *lir.InlineAsm {
	a := lir.NewInlineAsm(types.NewPointer(types.NewFunc(ret, params...)), text, constraints)
	return a
}

// constInt returns the value of v when it is an integer constant.
func constInt(v value.Value) (int64, bool) {
	if c, ok := v.(*constant.Int); ok {
		return c.X.Int64(), true
	}
	return 0, false
}

// builder wraps the current block with constant-folding integer helpers
// for index arithmetic (llir folds nothing).
type builder struct {
	b *lir.Block
}

func (b *builder) intBin(op string, x, y value.Value) value.Value {
	cx, okx := constInt(x)
	cy, oky := constInt(y)
	t := x.Type().(*types.IntType)
	if okx && oky {
		var r int64
		switch op {
		case "add":
			r = cx + cy
		case "sub":
			r = cx - cy
		case "mul":
			r = cx * cy
		case "and":
			r = cx & cy
		case "or":
			r = cx | cy
		case "xor":
			r = cx ^ cy
		case "shl":
			r = cx << uint(cy)
		case "lshr":
			r = int64(uint64(cx)&(1<<t.BitSize-1)) >> uint(cy)
		}
		if t.BitSize < 64 {
			r &= 1<<t.BitSize - 1
			if t.BitSize > 1 && r&(1<<(t.BitSize-1)) != 0 {
				r -= 1 << t.BitSize
			}
		}
		return constant.NewInt(t, r)
	}
	switch op {
	case "add", "or", "xor":
		if oky && cy == 0 {
			return x
		}
		if okx && cx == 0 {
			return y
		}
	case "sub", "shl", "lshr":
		if oky && cy == 0 {
			return x
		}
	case "mul":
		if oky && cy == 1 {
			return x
		}
		if okx && cx == 1 {
			return y
		}
	case "and":
		if oky && cy == 0 || okx && cx == 0 {
			return constant.NewInt(t, 0)
		}
	}
	switch op {
	case "add":
		return b.b.NewAdd(x, y)
	case "sub":
		return b.b.NewSub(x, y)
	case "mul":
		return b.b.NewMul(x, y)
	case "and":
		return b.b.NewAnd(x, y)
	case "or":
		return b.b.NewOr(x, y)
	case "xor":
		return b.b.NewXor(x, y)
	case "shl":
		return b.b.NewShl(x, y)
	case "lshr":
		return b.b.NewLShr(x, y)
	}
	panic("llvmemit: unknown integer op " + op)
}

func (b *builder) add(x, y value.Value) value.Value  { return b.intBin("add", x, y) }
func (b *builder) sub(x, y value.Value) value.Value  { return b.intBin("sub", x, y) }
func (b *builder) mul(x, y value.Value) value.Value  { return b.intBin("mul", x, y) }
func (b *builder) and(x, y value.Value) value.Value  { return b.intBin("and", x, y) }
func (b *builder) or(x, y value.Value) value.Value   { return b.intBin("or", x, y) }
func (b *builder) xor(x, y value.Value) value.Value  { return b.intBin("xor", x, y) }
func (b *builder) shl(x, y value.Value) value.Value  { return b.intBin("shl", x, y) }
func (b *builder) lshr(x, y value.Value) value.Value { return b.intBin("lshr", x, y) }

// disjointOr is x | c for a constant c sharing no set bit with x, written
// as the add it equals, add nuw nsw (LLVM 14 has no "or disjoint"): then
// EarlyCSE's simplification knows x < x | c and folds the comparisons of a
// tensor's index values that differ only in register bits (an argmin's
// tie-breaks), as the or disjoint of newer LLVM lets it. InstCombine turns
// the add back into an or afterwards.
func (b *builder) disjointOr(x value.Value, c int64) value.Value {
	if c == 0 {
		return x
	}
	if _, ok := constInt(x); ok {
		return b.or(x, constant.NewInt(x.Type().(*types.IntType), c))
	}
	a := b.b.NewAdd(x, constant.NewInt(x.Type().(*types.IntType), c))
	a.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNUW, enum.OverflowFlagNSW}
	return a
}

// shift shifts x left by s (right when s < 0).
func (b *builder) shift(x value.Value, s int) value.Value {
	switch {
	case s > 0:
		return b.shl(x, i32(int64(s)))
	case s < 0:
		return b.lshr(x, i32(int64(-s)))
	}
	return x
}
