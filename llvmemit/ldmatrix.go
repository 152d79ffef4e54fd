package llvmemit

import (
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// ldmatrix for local_load of 16-bit elements (Triton uses it for dot
// operands on sm_75+). One ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16
// loads four 8×8 matrices; lane i gives the address of row i%8 of matrix
// i/8, and register j of lane (g = lane/4, t = lane%4) receives matrix
// j's elements (g, 2t), (g, 2t+1), or with .trans (2t, g), (2t+1, g).
// Here the four matrices are the register pairs (8q+2j, 8q+2j+1), j < 4,
// of the destination layout, and the instruction is used when the map
// from (register, lane, warp) to element offsets fits it:
//
//	plain: register bit 0 → offset 1, lane bits 0, 1 → offsets 2, 4
//	       (each matrix row is 8 consecutive elements held by 4 lanes);
//	trans: lane bits 2, 3, 4 → offsets 1, 2, 4 (a row is the 8 lanes of
//	       one t), register bit 0 and lane bits 0, 1 anywhere else;
//
// and every other basis, and the view's constant, keeps rows 16-byte
// aligned (offset bits 0–2 clear).

// ldmatrixKind returns 1 (plain), 2 (trans) or 0 (not applicable).
func ldmatrixKind(m *offsetMap, xor int) int {
	ll := &m.ll
	if ll.InDimSizeLog2(dimReg) < 3 || !ll.HasInDim(dimLane) || ll.InDimSizeLog2(dimLane) != 5 || xor&7 != 0 {
		return 0
	}
	off := func(d string, k int) int { return ll.Basis(d, k)[0] }
	aligned := func(skip func(d string, k int) bool) bool {
		for _, d := range []string{dimReg, dimLane, dimWarp} {
			if !ll.HasInDim(d) {
				continue
			}
			for k := 0; k < ll.InDimSizeLog2(d); k++ {
				if !skip(d, k) && off(d, k)&7 != 0 {
					return false
				}
			}
		}
		return true
	}
	if off(dimReg, 0) == 1 && off(dimLane, 0) == 2 && off(dimLane, 1) == 4 &&
		aligned(func(d string, k int) bool { return d == dimReg && k == 0 || d == dimLane && k < 2 }) {
		return 1
	}
	if off(dimLane, 2) == 1 && off(dimLane, 3) == 2 && off(dimLane, 4) == 4 &&
		aligned(func(d string, k int) bool { return d == dimLane && k >= 2 }) {
		return 2
	}
	return 0
}

// loadMatrices loads the registers of a local_load with ldmatrix; it
// returns nil when the layouts do not allow it.
func (l *Lowerer) loadMatrices(m *offsetMap, md *memDesc, base value.Value, elt types.Type, n int) []value.Value {
	if typeBits(elt) != 16 || n%8 != 0 || l.e.cc < 75 {
		return nil
	}
	kind := ldmatrixKind(m, md.xor)
	if kind == 0 {
		return nil
	}
	b := l.b()
	// The lane whose row this lane addresses, and which matrix (j = lane/8).
	lane := b.and(l.tid, i32(31))
	var rowTid value.Value
	if kind == 1 {
		// row i%8 of a matrix: g = i%8, t = 0.
		rowTid = b.or(b.and(l.tid, i32(^31)), b.shl(b.and(lane, i32(7)), i32(2)))
	} else {
		// row k = i%8: t = k/2 (register p_j + k%2 chosen below), g = 0.
		rowTid = b.or(b.and(l.tid, i32(^31)), b.lshr(b.and(lane, i32(6)), i32(1)))
	}
	rowBase, _ := l.applyHWAt(&m.ll, 0, rowTid)
	j := b.lshr(lane, i32(3))
	odd := b.and(lane, i32(1)) // trans: row k%2 picks the pair's second register
	text := "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];"
	if kind == 2 {
		text = "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];"
	}
	ret := types.NewStruct(types.I32, types.I32, types.I32, types.I32)
	out := make([]value.Value, n)
	for q := 0; q < n; q += 8 {
		// The constant part of this lane's row: matrix j's register.
		var c value.Value
		for jj := 3; jj >= 0; jj-- {
			cj := i32(int64(m.constPart(q+2*jj) ^ md.xor))
			var v value.Value = cj
			if kind == 2 {
				c1 := i32(int64(m.constPart(q+2*jj+1) ^ md.xor))
				v = l.cur.NewSelect(l.cur.NewICmp(enum.IPredNE, odd, i32(0)), c1, cj)
			}
			if c == nil {
				c = v
			} else {
				c = l.cur.NewSelect(l.cur.NewICmp(enum.IPredEQ, j, i32(int64(jj))), v, c)
			}
		}
		off := b.xor(rowBase, c)
		addr := b.add(base, b.shl(off, i32(1)))
		p := l.smemPtr(addr, types.I8)
		call := l.cur.NewCall(inlineAsm(ret, text, "=r,=r,=r,=r,r", p.Type()), p)
		for jj := 0; jj < 4; jj++ {
			w := l.cur.NewBitCast(l.cur.NewExtractValue(call, uint64(jj)), types.NewVector(2, storableType(elt)))
			for h := 0; h < 2; h++ {
				out[q+2*jj+h] = l.unstorable(l.cur.NewExtractElement(w, i32(int64(h))), elt)
			}
		}
	}
	return out
}
