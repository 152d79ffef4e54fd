package llvmemit

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// ldmatrix and stmatrix (.m8n8.xN[.trans].shared.b16), for local_load and
// for the sides of a shared-memory round trip whose plan chose them (as
// Triton's lowerLdStMatrix does).
//
// One instruction moves N = 1, 2 or 4 matrices of 8 rows × 16 bytes. Lane
// i gives the address of row i%8 of matrix i/8; the lane (g, t) =
// (lane/4, lane%4) holds, in its 32-bit register j, the bytes 4t…4t+3 of
// row g of matrix j, or with .trans (16-bit elements only) the elements
// (2t, g) and (2t+1, g): element g of rows 2t and 2t+1.
//
// In terms of a map M from (register, lane, warp) to element offsets
// (elements of eb bytes, e = 4/eb to a 32-bit word), a register layout
// fits the plain form when, up to a permutation of the register bits,
//
//	the word's register bits → offsets 1, 2, …, e/2 (little-endian in the word),
//	lane bits 0, 1           → offsets e, 2e      (the row's 4 words),
//	lane bits 2, 3, 4        → any row            (g),
//
// and the .trans form when lane bits 2, 3, 4 → offsets 1, 2, 4 (a row's 8
// elements) and one register bit h (the word's halves) and lane bits 0, 1
// give the row 2t + h. Every other basis (warp bits, the remaining
// register bits, the view's constant) must keep rows 16-byte aligned:
// offset bits below 16/eb clear. Up to two of the remaining register bits
// select the matrix of one instruction (x2, x4); the rest, and the rounds
// of a round trip, are separate instructions. Register bits whose offset
// is 0 hold copies and are filled from the register without them.

// matrixTile is how ldmatrix or stmatrix covers the registers of an
// offset map: found by fitMatrix.
type matrixTile struct {
	trans bool
	e     int   // elements per 32-bit word
	word  []int // register bits within a word: the element offsets 1, 2, … (trans: [h])
	sel   []int // register bits choosing the matrix: N = 1 << len(sel)
	dup   int   // register bits with offset 0
	// rows[k] is the offset of the row that address lane bit k (k < 5)
	// selects.
	rows [5]int
}

// fixed is the mask of the register bits an instruction spans.
func (t *matrixTile) fixed() int {
	return spread(1<<len(t.word)-1, t.word) | spread(1<<len(t.sel)-1, t.sel)
}

// fitMatrix returns the tile of m (register, lane, warp → offset in
// elements of eb bytes) for the plain or .trans form, or false. Offsets at
// and above round are rounds of a round trip (round = 1 << 30 when there
// are none): a register bit in the tile must stay in its round. xor is the
// view's constant offset.
func fitMatrix(m *offsetMap, eb int, trans bool, round, xor int) (matrixTile, bool) {
	ll := &m.ll
	if eb > 4 || trans && eb != 2 || !ll.HasInDim(dimLane) || ll.InDimSizeLog2(dimLane) != 5 || !ll.HasInDim(dimReg) {
		return matrixTile{}, false
	}
	align := 16/eb - 1 // the offset bits within a row
	off := func(d string, k int) int { return ll.Basis(d, k)[0] }
	nreg := ll.InDimSizeLog2(dimReg)
	t := matrixTile{trans: trans, e: 4 / eb}
	used := 0
	for k := 0; k < nreg; k++ {
		if off(dimReg, k) == 0 {
			t.dup |= 1 << k
		}
	}
	// regBit finds an unused register bit, in its round, whose offset
	// satisfies ok.
	regBit := func(ok func(o int) bool) int {
		for k := 0; k < nreg; k++ {
			o := off(dimReg, k)
			if used&(1<<k) == 0 && t.dup&(1<<k) == 0 && o < round && ok(o) {
				used |= 1 << k
				return k
			}
		}
		return -1
	}
	aligned := func(o int) bool { return o&align == 0 }
	if !trans {
		for w := 1; w < t.e; w *= 2 {
			k := regBit(func(o int) bool { return o == w })
			if k < 0 {
				return matrixTile{}, false
			}
			t.word = append(t.word, k)
		}
		if off(dimLane, 0) != t.e || off(dimLane, 1) != 2*t.e {
			return matrixTile{}, false
		}
		for k := 2; k < 5; k++ {
			if !aligned(off(dimLane, k)) {
				return matrixTile{}, false
			}
			t.rows[k-2] = off(dimLane, k)
		}
	} else {
		if off(dimLane, 2) != 1 || off(dimLane, 3) != 2 || off(dimLane, 4) != 4 ||
			!aligned(off(dimLane, 0)) || !aligned(off(dimLane, 1)) {
			return matrixTile{}, false
		}
		h := regBit(aligned)
		if h < 0 {
			return matrixTile{}, false
		}
		t.word = []int{h}
		t.rows[0], t.rows[1], t.rows[2] = off(dimReg, h), off(dimLane, 0), off(dimLane, 1)
	}
	if ll.HasInDim(dimWarp) {
		for k := 0; k < ll.InDimSizeLog2(dimWarp); k++ {
			if !aligned(off(dimWarp, k)) {
				return matrixTile{}, false
			}
		}
	}
	for k := 0; k < nreg; k++ {
		if used&(1<<k) == 0 && !aligned(off(dimReg, k)&(round-1)) {
			return matrixTile{}, false
		}
	}
	if xor&align != 0 {
		return matrixTile{}, false
	}
	for len(t.sel) < 2 {
		k := regBit(func(int) bool { return true })
		if k < 0 {
			break
		}
		t.sel = append(t.sel, k)
	}
	for i, k := range t.sel {
		t.rows[3+i] = off(dimReg, k)
	}
	return t, true
}

// matrixAddr returns the thread's part of the row address (elements): the
// row its lane addresses (lane bits 0–2: the row of the matrix, 3–4: the
// matrix) plus its warp's offset, and the mask of bits it may have.
func (l *Lowerer) matrixAddr(m *offsetMap, t *matrixTile) (value.Value, uint64) {
	ll := &m.ll
	nw := 0
	if ll.HasInDim(dimWarp) {
		nw = ll.InDimSizeLog2(dimWarp)
	}
	return l.applyMatrix(l.tid, 5+nw, func(k int) int {
		if k < 5 {
			return t.rows[k]
		}
		return ll.Basis(dimWarp, k-5)[0]
	})
}

// instructions calls fn for each instruction: its leading register (the
// word, matrix and copy bits clear), whose constant offset the caller
// adds, and the registers of its 32-bit words: regs[j][i] is element i of
// word j.
func (t *matrixTile) instructions(n int, fn func(lead int, regs [][]int)) {
	skip := t.fixed() | t.dup
	for r := 0; r < n; r++ {
		if r&skip != 0 {
			continue
		}
		regs := make([][]int, 1<<len(t.sel))
		for j := range regs {
			for i := 0; i < t.e; i++ {
				regs[j] = append(regs[j], r|spread(j, t.sel)|spread(i, t.word))
			}
		}
		fn(r, regs)
	}
}

// matrixText is the instruction's PTX with n words.
func matrixText(load, trans bool, n int) string {
	var ops []string
	first := 0
	if !load {
		first = 1
	}
	for j := 0; j < n; j++ {
		ops = append(ops, fmt.Sprintf("$%d", first+j))
	}
	name, addr := "stmatrix", "$0"
	if load {
		name, addr = "ldmatrix", fmt.Sprintf("$%d", n)
	}
	tr := ""
	if trans {
		tr = ".trans"
	}
	regs := "{" + strings.Join(ops, ", ") + "}"
	if load {
		return fmt.Sprintf("%s.sync.aligned.m8n8.x%d%s.shared.b16 %s, [%s];", name, n, tr, regs, addr)
	}
	return fmt.Sprintf("%s.sync.aligned.m8n8.x%d%s.shared.b16 [%s], %s;", name, n, tr, addr, regs)
}

// loadMatrixTile loads the registers of m (n registers of element type
// elt) with ldmatrix per tile t: out[r] for the registers whose offset
// c(r) (within the round, view constant included) is chosen by keep.
func (l *Lowerer) loadMatrixTile(m *offsetMap, t *matrixTile, base value.Value, elt types.Type, out []value.Value, c func(r int) int, keep func(r int) bool) {
	st := storableType(elt)
	eb := typeBits(st) / 8
	a, mask := l.matrixAddr(m, t)
	nw := 1 << len(t.sel)
	var ret types.Type = types.I32
	if nw > 1 {
		fields := make([]types.Type, nw)
		for j := range fields {
			fields[j] = types.I32
		}
		ret = types.NewStruct(fields...)
	}
	cons := strings.Repeat("=r,", nw) + "r"
	t.instructions(len(out), func(lead int, regs [][]int) {
		if !keep(lead) {
			return
		}
		p := l.smemPtr(l.xorAddress(base, a, mask, uint64(c(lead)), eb), types.I8)
		call := l.cur.NewCall(inlineAsm(ret, matrixText(true, t.trans, nw), cons, p.Type()), p)
		for j, word := range regs {
			var w value.Value = call
			if nw > 1 {
				w = l.cur.NewExtractValue(call, uint64(j))
			}
			if t.e == 1 {
				if !st.Equal(types.I32) {
					w = l.cur.NewBitCast(w, st)
				}
				out[word[0]] = l.unstorable(w, elt)
				continue
			}
			v := l.cur.NewBitCast(w, types.NewVector(uint64(t.e), st))
			for i, r := range word {
				out[r] = l.unstorable(l.cur.NewExtractElement(v, i32(int64(i))), elt)
			}
		}
	})
	for r := range out {
		if r&t.dup != 0 && keep(r&^t.dup) {
			out[r] = out[r&^t.dup]
		}
	}
}

// storeMatrixTile stores the registers in (element type elt) of m with
// stmatrix per tile t, those whose leading register keep chooses; c(r)
// is a register's constant offset within the round.
func (l *Lowerer) storeMatrixTile(m *offsetMap, t *matrixTile, base value.Value, in []value.Value, c func(r int) int, keep func(r int) bool) {
	st := storableType(in[0].Type())
	eb := typeBits(st) / 8
	a, mask := l.matrixAddr(m, t)
	nw := 1 << len(t.sel)
	cons := "r" + strings.Repeat(",r", nw)
	l.e.hopper = true // stmatrix is sm_90's
	t.instructions(len(in), func(lead int, regs [][]int) {
		if !keep(lead) {
			return
		}
		p := l.smemPtr(l.xorAddress(base, a, mask, uint64(c(lead)), eb), types.I8)
		args := []value.Value{p}
		params := []types.Type{p.Type()}
		for _, word := range regs {
			var w value.Value
			if t.e == 1 {
				w = l.storable(in[word[0]])
			} else {
				vt := types.NewVector(uint64(t.e), st)
				var v value.Value = constant.NewUndef(vt)
				for i, r := range word {
					v = l.cur.NewInsertElement(v, l.storable(in[r]), i32(int64(i)))
				}
				w = v
			}
			if !w.Type().Equal(types.I32) {
				w = l.cur.NewBitCast(w, types.I32)
			}
			args = append(args, w)
			params = append(params, types.I32)
		}
		l.cur.NewCall(inlineAsm(types.Void, matrixText(false, t.trans, nw), cons, params...), args...)
	})
}

// loadMatrices loads the registers of a local_load with ldmatrix (plain
// for 8-, 16- and 32-bit elements, .trans for 16-bit ones, as Triton's
// lowerLdStMatrix); it returns nil when the layouts do not allow it.
func (l *Lowerer) loadMatrices(m *offsetMap, md *memDesc, base value.Value, elt types.Type, n int) []value.Value {
	eb := typeBits(storableType(elt)) / 8
	if l.e.cc < 75 || eb > 4 {
		return nil
	}
	for _, trans := range []bool{false, true} {
		t, ok := fitMatrix(m, eb, trans, 1<<30, md.xor)
		if !ok {
			continue
		}
		out := make([]value.Value, n)
		l.loadMatrixTile(m, &t, base, elt, out, func(r int) int { return m.constPart(r) ^ md.xor }, func(int) bool { return true })
		return out
	}
	return nil
}
