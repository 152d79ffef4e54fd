package llvmemit

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// tt.dot on #ttg.nvidia_mma version 2 (Triton's MMAv2.cpp): one inline
// mma.sync per 16×8 tile of the accumulator and K step, its operands
// taken from the #ttg.dot_op registers. Which register holds which
// fragment element is read from the linear layouts (at lane 0, warp 0),
// after checking that their lane and warp bases are the ones the PTX
// fragments fix: lanes 0–1 along K (A) or K (B), lanes 2–4 along M (A, C)
// or N (B); warps as the accumulator's, broadcast over the other operand's
// free dim. f16 and bf16 use m16n8k16, f32 operands (input precision
// tf32) m16n8k8, int8 operands m16n8k32 with i32 accumulators; f16
// operands with an f16 accumulator (out_dtype = f16) use the f16 form,
// whose C and D are two f16x2 registers.

func init() { Register("tt.dot", lowerDot) }

type mmaKind struct {
	k     int    // K of one instruction
	elem  string // PTX type of A and B
	elems int    // operand elements per 32-bit register
	acc   string // PTX type of C and D: f32, f16 (f16 operands) or s32 (int8 operands)
}

// text is the mma.sync instruction: int8 products saturate (.satfinite),
// as Triton's MMAv2 table has it.
func (k mmaKind) text() string {
	sat := ""
	if k.acc == "s32" {
		sat = ".satfinite"
	}
	if k.acc == "f16" { // C and D are two f16x2 registers
		return fmt.Sprintf("mma.sync.aligned.m16n8k%d.row.col.f16.%s.%s.f16 {$0, $1}, {$2, $3, $4, $5}, {$6, $7}, {$8, $9};", k.k, k.elem, k.elem)
	}
	return fmt.Sprintf("mma.sync.aligned.m16n8k%d.row.col%s.%s.%s.%s.%s {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", k.k, sat, k.acc, k.elem, k.elem, k.acc)
}

// accType is the LLVM type of an accumulator register.
func (k mmaKind) accType() types.Type {
	if k.acc == "s32" {
		return types.I32
	}
	return types.Float
}

func coordIndex(ll *linear.Layout) map[[2]int]int {
	m := map[[2]int]int{}
	for r := ll.InDimSize(dimReg) - 1; r >= 0; r-- {
		c := ll.Apply(r)
		m[[2]int{c[0], c[1]}] = r
	}
	return m
}

// checkBases checks the lane and warp bases of a 2-D layout.
func checkBases(ll *linear.Layout, d string, want [][2]int) error {
	for k, w := range want {
		b := ll.Basis(d, k)
		if b[0] != w[0] || b[1] != w[1] {
			return fmt.Errorf("%s basis %d is %v, the mma fragment needs %v", d, k, b, w)
		}
	}
	return nil
}

func lowerDot(l *Lowerer, op *ir.Operation) error {
	at, bt, ct := op.Operand(0).Type(), op.Operand(1).Type(), op.Operand(2).Type()
	if _, ok := ir.Encoding(ct).(*attr.Blocked); ok {
		return l.fmaDot(op)
	}
	mma, ok := ir.Encoding(ct).(*attr.NvidiaMma)
	if !ok {
		return errorf(op, "only #ttg.blocked (FMA) and #ttg.nvidia_mma accumulators are supported, not %s", ir.Encoding(ct).Name())
	}
	if mma.VersionMajor != 2 {
		return errorf(op, "only #ttg.nvidia_mma version 2 accumulators are supported (wgmma dots are not)")
	}
	if len(ir.ShapeOrScalar(ct)) != 2 {
		return errorf(op, "batched (3-D) dots are not supported")
	}
	kind, err := mmaKindOf(op, ir.ElementType(at), ir.AttrIntValue(op.AttrOrDefault("inputPrecision")))
	if err != nil {
		return err
	}
	if kind.elem == "f16" && ir.TypeString(ir.ElementType(ct)) == "f16" {
		kind.acc = "f16" // Triton's FP16_FP16_FP16_FP16 (out_dtype = f16)
	}
	if want := map[string]string{"f32": "f32", "s32": "i32", "f16": "f16"}[kind.acc]; ir.TypeString(ir.ElementType(ct)) != want {
		return errorf(op, "%s operands need an %s accumulator, not %s", kind.elem, want, ir.TypeString(ir.ElementType(ct)))
	}
	A, B, C := mustLayout(at), mustLayout(bt), mustLayout(ct)
	out, err := l.mmaV2(op, kind, A, B, C, mustType(ir.ElementType(at)), int(ir.ShapeOrScalar(at)[1]),
		l.Values(op.Operand(0)), l.Values(op.Operand(1)), l.Values(op.Operand(2)))
	if err != nil {
		return err
	}
	l.Define(op.Result(0), out)
	return nil
}

// mmaKindOf is the mma.sync variant for operands of element type elem.
func mmaKindOf(op *ir.Operation, elem ir.Type, precision int64) (mmaKind, error) {
	if it, ok := elem.(*ir.IntegerType); ok && it.Width == 8 && it.Sign != ir.Unsigned {
		return mmaKind{32, "s8", 4, "s32"}, nil
	}
	k, _ := elem.(*ir.FloatType)
	if k == nil {
		return mmaKind{}, errorf(op, "operands of type %s are not supported", ir.TypeString(elem))
	}
	switch k.Kind {
	case "f16":
		return mmaKind{16, "f16", 2, "f32"}, nil
	case "bf16":
		return mmaKind{16, "bf16", 2, "f32"}, nil
	case "f32":
		if precision != 0 {
			return mmaKind{}, errorf(op, "f32 operands need inputPrecision = tf32")
		}
		return mmaKind{8, "tf32", 1, "f32"}, nil
	}
	return mmaKind{}, errorf(op, "operands of type %s are not supported", k.Kind)
}

// mmaV2 computes C + A·B with mma.sync on the registers of A, B and C in
// the layouts given (dot operands of an mma v2 accumulator C).
func (l *Lowerer) mmaV2(op *ir.Operation, kind mmaKind, A, B, C *linear.Layout, opT types.Type, K int, av, bv, cv []value.Value) ([]value.Value, error) {
	e := kind.elems // operand elements per register along K
	// Lanes: t = lane & 3 picks K (A, B) or N (C) pairs, g = lane >> 2 the
	// row. The K that lane bits 0 and 1 select may be any (kWidth larger
	// than the instruction's pairs, as for an operand upcast from 8 or 4
	// bits): mma.sync sums over K in whatever order the lanes and
	// registers hold it, as long as A and B hold it alike.
	ka, kb := A.Basis(dimLane, 0)[1], A.Basis(dimLane, 1)[1]
	for _, c := range []struct {
		ll   *linear.Layout
		want [][2]int
	}{
		{A, [][2]int{{0, ka}, {0, kb}, {1, 0}, {2, 0}, {4, 0}}},
		{B, [][2]int{{ka, 0}, {kb, 0}, {0, 1}, {0, 2}, {0, 4}}},
		{C, [][2]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
	} {
		if err := checkBases(c.ll, dimLane, c.want); err != nil {
			return nil, errorf(op, "%v", err)
		}
	}
	for k := 0; k < C.InDimSizeLog2(dimWarp); k++ {
		w := C.Basis(dimWarp, k)
		a, b := A.Basis(dimWarp, k), B.Basis(dimWarp, k)
		if a[0] != w[0] || a[1] != 0 || b[1] != w[1] || b[0] != 0 {
			return nil, errorf(op, "warp basis %d: A %v, B %v do not follow the accumulator's %v", k, a, b, w)
		}
	}
	am, bm, cm := coordIndex(A), coordIndex(B), coordIndex(C)
	// The K that lane 0 holds (of A's row 0, B's column 0), in order: each
	// instruction takes the next 2e, e for its first K half and e for its
	// second; the lanes' bases (equal in A and B) give the rest.
	var aks, bks []int
	for c := range am {
		if c[0] == 0 {
			aks = append(aks, c[1])
		}
	}
	for c := range bm {
		if c[1] == 0 {
			bks = append(bks, c[0])
		}
	}
	slices.Sort(aks)
	slices.Sort(bks)
	if !slices.Equal(aks, bks) || len(aks)%(2*e) != 0 || 4*len(aks) != K {
		return nil, errorf(op, "lane 0 holds K %v of A and %v of B: not the same %d of K = %d in groups of %d", aks, bks, K/4, K, 2*e)
	}
	out := append([]value.Value{}, cv...)
	pack := func(vals []value.Value, regs map[[2]int]int, coords [][2]int) (value.Value, error) {
		if len(coords) == 1 {
			r, ok := regs[coords[0]]
			if !ok {
				return nil, fmt.Errorf("no register holds element %v", coords[0])
			}
			return l.cur.NewBitCast(vals[r], types.I32), nil
		}
		var v value.Value = constant.NewUndef(types.NewVector(uint64(len(coords)), opT))
		for i, c := range coords {
			r, ok := regs[c]
			if !ok {
				return nil, fmt.Errorf("no register holds element %v", c)
			}
			v = l.cur.NewInsertElement(v, vals[r], i32(int64(i)))
		}
		return l.cur.NewBitCast(v, types.I32), nil
	}
	// The accumulator tiles, in register order.
	done := map[[2]int]bool{}
	for r := 0; r < C.InDimSize(dimReg); r++ {
		c := C.Apply(r)
		tile := [2]int{c[0] &^ 15, c[1] &^ 7}
		if done[tile] {
			continue
		}
		done[tile] = true
		m0, n0 := tile[0], tile[1]
		var creg [4]int
		for i, p := range [][2]int{{m0, n0}, {m0, n0 + 1}, {m0 + 8, n0}, {m0 + 8, n0 + 1}} {
			rr, ok := cm[p]
			if !ok {
				return nil, errorf(op, "no accumulator register holds element %v", p)
			}
			creg[i] = rr
		}
		for s := 0; s < len(aks); s += 2 * e {
			var aRegs, bRegs []value.Value
			// a0/a1: row g, the first e of K; a2/a3: row g+8; a4..a7 the
			// next e (Ks[e:]).
			ks := aks[s : s+2*e]
			for _, blk := range [][2]int{{0, 0}, {8, 0}, {0, e}, {8, e}} {
				var cs [][2]int
				for i := 0; i < e; i++ {
					cs = append(cs, [2]int{m0 + blk[0], ks[blk[1]+i]})
				}
				v, err := pack(av, am, cs)
				if err != nil {
					return nil, errorf(op, "operand A: %v", err)
				}
				aRegs = append(aRegs, v)
			}
			for _, kk := range []int{0, e} {
				var cs [][2]int
				for i := 0; i < e; i++ {
					cs = append(cs, [2]int{ks[kk+i], n0})
				}
				v, err := pack(bv, bm, cs)
				if err != nil {
					return nil, errorf(op, "operand B: %v", err)
				}
				bRegs = append(bRegs, v)
			}
			if kind.acc == "f16" {
				// C and D as f16x2 pairs: (row g, columns 2q and 2q+1), (row g+8, ...).
				pair := func(a, b value.Value) value.Value {
					var v value.Value = constant.NewUndef(types.NewVector(2, types.Half))
					v = l.cur.NewInsertElement(v, a, i32(0))
					v = l.cur.NewInsertElement(v, b, i32(1))
					return l.cur.NewBitCast(v, types.I32)
				}
				args := append(append(aRegs, bRegs...), pair(out[creg[0]], out[creg[1]]), pair(out[creg[2]], out[creg[3]]))
				params := []types.Type{types.I32, types.I32, types.I32, types.I32, types.I32, types.I32, types.I32, types.I32}
				call := l.cur.NewCall(pureAsm(types.NewStruct(types.I32, types.I32), kind.text(), "=r,=r,r,r,r,r,r,r,0,1", params...), args...)
				for i := 0; i < 2; i++ {
					v := l.cur.NewBitCast(l.cur.NewExtractValue(call, uint64(i)), types.NewVector(2, types.Half))
					out[creg[2*i]] = l.cur.NewExtractElement(v, i32(0))
					out[creg[2*i+1]] = l.cur.NewExtractElement(v, i32(1))
				}
				continue
			}
			at := kind.accType()
			ret := types.NewStruct(at, at, at, at)
			params := []types.Type{types.I32, types.I32, types.I32, types.I32, types.I32, types.I32, at, at, at, at}
			args := append(append(aRegs, bRegs...), out[creg[0]], out[creg[1]], out[creg[2]], out[creg[3]])
			c := "f"
			if kind.acc == "s32" {
				c = "r"
			}
			cons := fmt.Sprintf("=%s,=%[1]s,=%[1]s,=%[1]s,r,r,r,r,r,r,0,1,2,3", c)
			call := l.cur.NewCall(pureAsm(ret, kind.text(), cons, params...), args...)
			for i := 0; i < 4; i++ {
				out[creg[i]] = l.cur.NewExtractValue(call, uint64(i))
			}
		}
	}
	// Accumulator registers holding copies (broadcast) take the value of
	// the register that holds their element.
	for r := 0; r < C.InDimSize(dimReg); r++ {
		c := C.Apply(r)
		if s := cm[[2]int{c[0], c[1]}]; s != r {
			out[r] = out[s]
		}
	}
	return out, nil
}
