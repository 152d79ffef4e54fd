package passes

import "github.com/layoutopt/layoutopt/ir"

// Folds of MLIR's arith integer ops (ArithOps.cpp) for scalars and splat
// tensors: constant operands are computed, and the identities MLIR folds
// (x+0, x*1, x*0, x-x, x&x, ...) are applied. Values are kept sign-extended
// to their width (i1 as 0 or 1).

// intWidth returns the bit width of an integer or index type (or of a
// tensor's elements).
func intWidth(t ir.Type) (int, bool) {
	switch e := ir.ElementType(t).(type) {
	case *ir.IntegerType:
		return e.Width, true
	case *ir.IndexType:
		return 64, true
	}
	return 0, false
}

// normInt wraps v to w bits: sign-extended, or 0/1 for i1.
func normInt(v int64, w int) int64 {
	if w >= 64 || w <= 0 {
		return v
	}
	if w == 1 {
		return v & 1
	}
	s := 64 - w
	return v << s >> s
}

// intConst returns the integer value of a scalar or splat constant.
func intConst(a ir.Attribute) (int64, bool) {
	if e := splatElem(a); e != nil {
		a = e
	}
	switch x := a.(type) {
	case *ir.IntegerAttr:
		return x.Value, true
	case *ir.BoolAttr:
		if x.Value {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// intResult is the constant v of type t (a scalar or a splat tensor).
func intResult(v int64, t ir.Type) FoldResult {
	w, _ := intWidth(t)
	e := ir.Int(normInt(v, w), ir.ElementType(t))
	if isTensor(t) {
		return constant(splatOf(e, t))
	}
	if w == 1 {
		return constant(&ir.BoolAttr{Value: e.Value != 0})
	}
	return constant(e)
}

type intOp struct {
	eval func(a, b int64, w int) (int64, bool)
	// identity folds with a constant right operand c (after the
	// commutative swap): keep the lhs, or give a constant.
	keepLHS   func(c int64, w int) bool
	constRHS  func(c int64, w int) (int64, bool)
	sameValue func() (keep bool, c int64, ok bool) // op(x, x)
}

func isAllOnes(c int64, w int) bool { return normInt(c, w) == normInt(-1, w) }

func unsigned(v int64, w int) uint64 {
	if w >= 64 {
		return uint64(v)
	}
	return uint64(v) & (1<<uint(w) - 1)
}

var intBinary = map[string]intOp{
	"arith.addi": {
		eval:    func(a, b int64, w int) (int64, bool) { return a + b, true },
		keepLHS: func(c int64, w int) bool { return c == 0 },
	},
	"arith.subi": {
		eval:      func(a, b int64, w int) (int64, bool) { return a - b, true },
		keepLHS:   func(c int64, w int) bool { return c == 0 },
		sameValue: func() (bool, int64, bool) { return false, 0, true },
	},
	"arith.muli": {
		eval:     func(a, b int64, w int) (int64, bool) { return a * b, true },
		keepLHS:  func(c int64, w int) bool { return normInt(c, w) == normInt(1, w) },
		constRHS: func(c int64, w int) (int64, bool) { return 0, c == 0 },
	},
	"arith.andi": {
		eval:      func(a, b int64, w int) (int64, bool) { return a & b, true },
		keepLHS:   isAllOnes,
		constRHS:  func(c int64, w int) (int64, bool) { return 0, c == 0 },
		sameValue: func() (bool, int64, bool) { return true, 0, true },
	},
	"arith.ori": {
		eval:      func(a, b int64, w int) (int64, bool) { return a | b, true },
		keepLHS:   func(c int64, w int) bool { return c == 0 },
		constRHS:  func(c int64, w int) (int64, bool) { return -1, isAllOnes(c, w) },
		sameValue: func() (bool, int64, bool) { return true, 0, true },
	},
	"arith.xori": {
		eval:      func(a, b int64, w int) (int64, bool) { return a ^ b, true },
		keepLHS:   func(c int64, w int) bool { return c == 0 },
		sameValue: func() (bool, int64, bool) { return false, 0, true },
	},
	"arith.divsi": {
		eval: func(a, b int64, w int) (int64, bool) {
			if b == 0 || b == -1 && normInt(a, w) == normInt(int64(1)<<uint(min(w, 64)-1), w) {
				return 0, false
			}
			return a / b, true
		},
		keepLHS: func(c int64, w int) bool { return normInt(c, w) == normInt(1, w) },
	},
	"arith.divui": {
		eval: func(a, b int64, w int) (int64, bool) {
			ub := unsigned(b, w)
			if ub == 0 {
				return 0, false
			}
			return int64(unsigned(a, w) / ub), true
		},
		keepLHS: func(c int64, w int) bool { return normInt(c, w) == normInt(1, w) },
	},
	"arith.remsi": {
		eval: func(a, b int64, w int) (int64, bool) {
			if b == 0 || b == -1 {
				return 0, b == -1
			}
			return a % b, true
		},
		constRHS: func(c int64, w int) (int64, bool) { return 0, normInt(c, w) == normInt(1, w) },
	},
	"arith.remui": {
		eval: func(a, b int64, w int) (int64, bool) {
			ub := unsigned(b, w)
			if ub == 0 {
				return 0, false
			}
			return int64(unsigned(a, w) % ub), true
		},
		constRHS: func(c int64, w int) (int64, bool) { return 0, normInt(c, w) == normInt(1, w) },
	},
	"arith.shli": {
		eval: func(a, b int64, w int) (int64, bool) {
			if unsigned(b, w) >= uint64(w) {
				return 0, false
			}
			return a << uint(b), true
		},
		keepLHS: func(c int64, w int) bool { return c == 0 },
	},
	"arith.shrsi": {
		eval: func(a, b int64, w int) (int64, bool) {
			if unsigned(b, w) >= uint64(w) {
				return 0, false
			}
			return a >> uint(b), true
		},
		keepLHS: func(c int64, w int) bool { return c == 0 },
	},
	"arith.shrui": {
		eval: func(a, b int64, w int) (int64, bool) {
			if unsigned(b, w) >= uint64(w) {
				return 0, false
			}
			return int64(unsigned(a, w) >> uint(b)), true
		},
		keepLHS: func(c int64, w int) bool { return c == 0 },
	},
	"arith.maxsi": {
		eval:      func(a, b int64, w int) (int64, bool) { return max(a, b), true },
		sameValue: func() (bool, int64, bool) { return true, 0, true },
	},
	"arith.minsi": {
		eval:      func(a, b int64, w int) (int64, bool) { return min(a, b), true },
		sameValue: func() (bool, int64, bool) { return true, 0, true },
	},
	"arith.maxui": {
		eval: func(a, b int64, w int) (int64, bool) {
			if unsigned(a, w) >= unsigned(b, w) {
				return a, true
			}
			return b, true
		},
		sameValue: func() (bool, int64, bool) { return true, 0, true },
	},
	"arith.minui": {
		eval: func(a, b int64, w int) (int64, bool) {
			if unsigned(a, w) <= unsigned(b, w) {
				return a, true
			}
			return b, true
		},
		sameValue: func() (bool, int64, bool) { return true, 0, true },
	},
}

func foldIntBinary(_ string, f intOp) Folder {
	return func(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
		if op.NumOperands() != 2 || op.NumResults() != 1 {
			return nil, false
		}
		t := op.Result(0).Type()
		w, ok := intWidth(t)
		if !ok {
			return nil, false
		}
		a, aok := intConst(operands[0])
		b, bok := intConst(operands[1])
		if aok && bok {
			if r, ok := f.eval(normInt(a, w), normInt(b, w), w); ok {
				return []FoldResult{intResult(r, t)}, true
			}
			return nil, false
		}
		if bok {
			if f.keepLHS != nil && f.keepLHS(b, w) {
				return []FoldResult{value(op.Operand(0))}, true
			}
			if f.constRHS != nil {
				if c, ok := f.constRHS(b, w); ok {
					return []FoldResult{intResult(c, t)}, true
				}
			}
		}
		if f.sameValue != nil && op.Operand(0) == op.Operand(1) {
			keep, c, ok := f.sameValue()
			if ok && keep {
				return []FoldResult{value(op.Operand(0))}, true
			}
			if ok {
				return []FoldResult{intResult(c, t)}, true
			}
		}
		return nil, false
	}
}

// foldCmpI folds comparisons of constants and of a value with itself.
func foldCmpI(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	p, ok := op.IntAttr("predicate")
	if !ok {
		return nil, false
	}
	t := op.Result(0).Type()
	if op.Operand(0) == op.Operand(1) {
		switch p {
		case 0, 3, 5, 7, 9: // eq, sle, sge, ule, uge
			return []FoldResult{intResult(1, t)}, true
		default:
			return []FoldResult{intResult(0, t)}, true
		}
	}
	w, ok := intWidth(op.Operand(0).Type())
	if !ok {
		return nil, false
	}
	a, aok := intConst(operands[0])
	b, bok := intConst(operands[1])
	if !aok || !bok {
		return nil, false
	}
	a, b = normInt(a, w), normInt(b, w)
	if w == 1 {
		// i1 is signed: true is -1.
		a, b = -a, -b
	}
	ua, ub := unsigned(a, w), unsigned(b, w)
	var r bool
	switch p {
	case 0:
		r = a == b
	case 1:
		r = a != b
	case 2:
		r = a < b
	case 3:
		r = a <= b
	case 4:
		r = a > b
	case 5:
		r = a >= b
	case 6:
		r = ua < ub
	case 7:
		r = ua <= ub
	case 8:
		r = ua > ub
	case 9:
		r = ua >= ub
	default:
		return nil, false
	}
	v := int64(0)
	if r {
		v = 1
	}
	return []FoldResult{intResult(v, t)}, true
}

// foldSelect: select(true, a, b) = a, select(false, a, b) = b,
// select(c, a, a) = a.
func foldSelect(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
	if op.NumOperands() != 3 {
		return nil, false
	}
	if op.Operand(1) == op.Operand(2) {
		return []FoldResult{value(op.Operand(1))}, true
	}
	c, ok := intConst(operands[0])
	if !ok {
		return nil, false
	}
	if c != 0 {
		return []FoldResult{value(op.Operand(1))}, true
	}
	return []FoldResult{value(op.Operand(2))}, true
}

// foldIntCast folds integer extensions, truncations and index casts of
// constants.
func foldIntCast(name string) Folder {
	return func(op *ir.Operation, operands []ir.Attribute) ([]FoldResult, bool) {
		v, ok := intConst(operands[0])
		if !ok {
			return nil, false
		}
		sw, ok1 := intWidth(op.Operand(0).Type())
		t := op.Result(0).Type()
		if _, ok2 := intWidth(t); !ok1 || !ok2 {
			return nil, false
		}
		v = normInt(v, sw)
		if sw == 1 && v != 0 && name != "arith.extui" && name != "arith.index_castui" {
			v = -1 // i1 true sign-extends to all ones
		}
		if name == "arith.extui" || name == "arith.index_castui" {
			v = int64(unsigned(v, sw))
		}
		return []FoldResult{intResult(v, t)}, true
	}
}
