package attr

import (
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/linear"
)

// The register layouts that ttng.tmem_load and ttng.tmem_store can move
// between registers and tensor memory, after Triton 3.6's
// TensorMemoryUtils.cpp and TritonNvidiaGPU/IR/Dialect.cpp
// (getTileLayout, getDistributedLayoutForTmemLdSt,
// getTmemLoadLayoutSplitLongM, getTmemCompatibleLayouts,
// isDistributedLayoutTMemCompatible). A tcgen05.ld/st instruction moves one
// access atom per warp; the layouts below tile that atom over the columns
// and the warps of a tensor-memory buffer.

// TMemAccessAtom is the shape of one tcgen05.ld/st access of a warp:
// rows (lanes of tensor memory) by bits of columns.
type TMemAccessAtom int

const (
	// TMem32x32b is 32 rows of one 32-bit column: lane i reads row i.
	TMem32x32b TMemAccessAtom = iota
	// TMem16x32bx2 is two 16-row halves of one 32-bit column.
	TMem16x32bx2
	// TMem16x64b is 16 rows of two 32-bit columns.
	TMem16x64b
	// TMem16x128b is 16 rows of four 32-bit columns.
	TMem16x128b
	// TMem16x256b is 16 rows of eight 32-bit columns.
	TMem16x256b
)

// String names the atom as Triton's TMemAccessAtom does.
func (a TMemAccessAtom) String() string {
	switch a {
	case TMem32x32b:
		return "32x32b"
	case TMem16x32bx2:
		return "16x32bx2"
	case TMem16x64b:
		return "16x64b"
	case TMem16x128b:
		return "16x128b"
	case TMem16x256b:
		return "16x256b"
	}
	return fmt.Sprintf("TMemAccessAtom(%d)", int(a))
}

// TMemTileLayout is Triton's getTileLayout: what one access of the atom
// moves, from (register, lane) — and warp, with withWarp, the four warps of
// a warp group taking rows 0, 32, 64, 96 — to (row, col) of tensor memory in
// 32-bit columns. With unpacked, each register takes two columns (16-bit
// elements stored one per 32-bit column).
func TMemTileLayout(atom TMemAccessAtom, unpacked, withWarp bool) (linear.Layout, error) {
	return guard(func() (linear.Layout, error) { return tmemTile(atom, unpacked, withWarp), nil })
}

func tmemTile(atom TMemAccessAtom, unpacked, withWarp bool) linear.Layout {
	const reg, lane, row, col = "register", "lane", "row", "col"
	tile := must(linear.New([]linear.InDim{{Name: reg}, {Name: lane}}, []linear.OutDim{{Name: row, Size: 1}, {Name: col, Size: 1}}, false))
	if unpacked {
		tile = mul(tile, must(linear.Zeros1D(1, reg, col, 2)))
	}
	switch atom {
	case TMem32x32b:
		tile = mul(tile, identity1D(32, lane, row))
	case TMem16x32bx2:
		tile = mul(tile, identity1D(16, lane, row))
	case TMem16x64b:
		tile = mul(tile, must(linear.NewInferred([]linear.InDim{{Name: lane, Bases: [][]int{{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}}}}, []string{row, col})))
	case TMem16x128b:
		tile = mul(tile, identity1D(4, lane, col), identity1D(8, lane, row), identity1D(2, reg, row))
	case TMem16x256b:
		tile = mul(tile, identity1D(2, reg, col), identity1D(4, lane, col), identity1D(8, lane, row), identity1D(2, reg, row))
	default:
		panic(convError{fmt.Errorf("unknown tensor-memory access atom %v", atom)})
	}
	if withWarp {
		ins := append(tile.InDims(), linear.InDim{Name: "warp", Bases: [][]int{{32, 0}, {64, 0}}})
		tile = must(linear.New(ins, []linear.OutDim{{Name: row, Size: 128}, {Name: col, Size: tile.OutDimSize(col)}}, false))
	}
	return tile
}

// TMemLdStLayout is Triton's getDistributedLayoutForTmemLdSt: the register
// layout (register, lane, warp → dim0, dim1) in which numWarps warps move
// the whole of a tensor-memory buffer (layout mem, shape memShape, elements
// of bitwidth bits) with accesses of the given atom. It reports false when
// the atom cannot cover the buffer that way. Only single-CTA buffers and
// 4, 8, 16... warps are handled (an error otherwise): Triton divides a
// cluster's CTAs out of the buffer first, which a one-CTA kernel never needs.
func TMemLdStLayout(mem *TensorMemory, memShape []int, bitwidth int, atom TMemAccessAtom, numWarps int) (linear.Layout, bool, error) {
	ll, err := tmemRowCol(mem, memShape)
	if err != nil {
		return linear.Layout{}, false, err
	}
	if numWarps < 4 || numWarps&(numWarps-1) != 0 {
		return linear.Layout{}, false, fmt.Errorf("tensor-memory accesses need a power of two of at least 4 warps, got %d", numWarps)
	}
	if atom == TMem16x32bx2 {
		return linear.Layout{}, false, fmt.Errorf("the 16x32bx2 atom is only inferred for the 32x32b one")
	}
	if bitwidth <= 0 || bitwidth > 32 || bitwidth&(bitwidth-1) != 0 {
		return linear.Layout{}, false, fmt.Errorf("tensor memory holds elements of 1 to 32 bits (a power of two), got %d", bitwidth)
	}
	var ok bool
	out, err := guard(func() (linear.Layout, error) {
		var l linear.Layout
		l, ok = tmemLdSt(ll, atom, numWarps, bitwidth)
		return l, nil
	})
	return out, ok && err == nil, err
}

// tmemRowCol is the layout of a single-CTA tensor-memory buffer from
// (row, col) to (dim0, dim1): attr's layout without its block dimension.
func tmemRowCol(mem *TensorMemory, shape []int) (linear.Layout, error) {
	ll, err := mem.ToLinear(shape)
	if err != nil {
		return linear.Layout{}, err
	}
	if ll.InDimSize("block") > 1 {
		return linear.Layout{}, fmt.Errorf("tensor-memory buffers split over %d CTAs are not handled", ll.InDimSize("block"))
	}
	return ll.Sublayout([]string{"row", "col"}, ll.OutDimNames())
}

// tmemLdSt is the body of TMemLdStLayout on the buffer's (row, col) layout
// ll; the layout operations it runs go through must.
func tmemLdSt(ll linear.Layout, atom TMemAccessAtom, numWarps, bitwidth int) (linear.Layout, bool) {
	const reg, lane, warp = "register", "lane", "warp"
	dims := ll.OutDimNames()
	rowDim, colDim := ll.InDimNames()[0], ll.InDimNames()[1]
	if bitwidth != 32 {
		// Pack contiguous elements into 32-bit (or 16-bit, then 32-bit)
		// registers, as the lowering does.
		var quot linear.Layout
		best := 1
		for contig := 1; bitwidth*contig <= 32; contig *= 2 {
			q, ok := linear.DivideLeft(ll, identity1D(contig, colDim, dims[1]))
			if !ok {
				break
			}
			quot, best = q, contig
		}
		if best > 1 {
			ret, ok := tmemLdSt(quot, atom, numWarps, bitwidth*best)
			if !ok {
				return linear.Layout{}, false
			}
			return mul(identity1D(best, reg, dims[1]), ret), true
		}
		pad := zeros1D(32/bitwidth, colDim, dims[1])
		if q, ok := linear.DivideLeft(ll, mul(pad, identity1D(2, colDim, dims[1]))); bitwidth == 16 && ok {
			// Unpacked: one 16-bit element per 32-bit column.
			ret, ok := tmemLdSt(q, atom, numWarps, 32)
			if !ok {
				return linear.Layout{}, false
			}
			return mul(identity1D(2, reg, dims[1]), ret), true
		}
		if q, ok := linear.DivideLeft(ll, pad); ok {
			// Padded in software.
			return tmemLdSt(q, atom, numWarps, 32)
		}
		if ll.InDimSize(colDim) == 1 {
			// Padded in software, one column.
			return tmemLdSt(ll, atom, numWarps, 32)
		}
		panic(convError{fmt.Errorf("a %d-bit tensor-memory layout whose columns neither pack nor pad", bitwidth)})
	}
	tile := tmemTile(atom, false, false)
	nColsMissing := ll.InDimSize(colDim) / tile.OutDimSize("col")
	if nColsMissing == 0 {
		return linear.Layout{}, false
	}
	instr32Rows := atom == TMem32x32b
	layout16Rows := slices.Equal(ll.Basis(rowDim, 4), []int{0, 0})

	// The lowering inverts ll to get the tile back, so ll restricted to
	// what the tile covers must be injective.
	comp := must(must(tile.Compose(ll)).Sublayout([]string{reg, lane}, dims))
	if instr32Rows {
		// Lane 16 goes through the 16x32bx2 instruction.
		comp = must(comp.ResizeInDim(lane, comp.InDimSize(lane)/2))
	}
	if !comp.IsInjective() {
		return linear.Layout{}, false
	}

	// Row 16, when the atom does not cover it and the buffer has 32 rows
	// per warp, goes to a warp (more than 4) or to a register.
	row16 := ""
	if !instr32Rows && !layout16Rows {
		row16 = reg
		if numWarps > 4 {
			row16 = warp
		}
	}
	warpsToTile := numWarps / 4
	if row16 == warp {
		warpsToTile = numWarps / 8
	}
	// Tile at most nColsMissing warps over the columns; the others
	// broadcast.
	warpBroadcast := warpsToTile / min(nColsMissing, warpsToTile)
	warpsToTile /= warpBroadcast
	nColsMissing /= warpsToTile
	if nColsMissing > 1 {
		if instr32Rows && layout16Rows {
			// Lane 16 would load repeated rows: it takes half of the
			// columns instead (the 16x32bx2 instruction).
			q, ok := linear.DivideLeft(tile, identity1D(2, lane, rowDim))
			if !ok {
				panic(convError{fmt.Errorf("the 32x32b tile does not start with lane → row")})
			}
			tile = mul(q, identity1D(nColsMissing/2, reg, colDim), identity1D(2, lane, colDim))
		} else {
			tile = mul(tile, identity1D(nColsMissing, reg, colDim))
		}
	}
	ins := tile.InDims()
	ins = append(ins, linear.InDim{Name: warp, Bases: [][]int{{32, 0}, {64, 0}}})
	if row16 != "" {
		for i := range ins {
			if ins[i].Name == row16 {
				ins[i].Bases = append(ins[i].Bases, []int{16, 0})
			}
		}
	}
	tile = must(linear.New(ins, []linear.OutDim{{Name: rowDim, Size: 128}, {Name: colDim, Size: tile.OutDimSize(colDim)}}, false))
	tile = mul(tile, identity1D(warpsToTile, warp, colDim), zeros1D(warpBroadcast, warp, colDim))
	if tile.OutDimSize(colDim) != ll.InDimSize(colDim) {
		panic(convError{fmt.Errorf("the tiled access covers %d columns of %d", tile.OutDimSize(colDim), ll.InDimSize(colDim))})
	}
	return must(tile.Compose(ll)), true
}

// tmemSplitLongM is Triton's getTmemLoadLayoutSplitLongM: with 8 warps,
// the 32x32b layout with the bases of warp 4 and lane 16 swapped when warp
// 4 maps to another tensor dimension than warps 1 and 2 and lane 16 (good
// for reductions; lane 16 is lowered to 16x32bx2). It reports false when
// that does not apply.
func tmemSplitLongM(mem *TensorMemory, memShape []int, bitwidth, numWarps int) (linear.Layout, bool, error) {
	if numWarps != 8 {
		return linear.Layout{}, false, nil
	}
	l, ok, err := TMemLdStLayout(mem, memShape, bitwidth, TMem32x32b, numWarps)
	if !ok || err != nil {
		return linear.Layout{}, false, err
	}
	dims := l.OutDimNames()
	for _, d := range dims {
		w1 := l.BasisValue("warp", 0, d) == 0
		w2 := l.BasisValue("warp", 1, d) == 0
		w4 := l.BasisValue("warp", 2, d) == 0
		l16 := l.BasisValue("lane", 4, d) == 0
		if l16 == w4 || w1 != w2 || w1 != l16 {
			continue
		}
		ins := l.InDims()
		var lanes, warps *linear.InDim
		for i := range ins {
			switch ins[i].Name {
			case "lane":
				lanes = &ins[i]
			case "warp":
				warps = &ins[i]
			}
		}
		if lanes == nil || warps == nil || len(lanes.Bases) < 5 || len(warps.Bases) < 3 {
			return linear.Layout{}, false, nil
		}
		warps.Bases[2], lanes.Bases[4] = lanes.Bases[4], warps.Bases[2]
		out, err := linear.New(ins, l.OutDims(), l.IsSurjective())
		return out, err == nil, err
	}
	return linear.Layout{}, false, nil
}

// TMemCompatibleLayouts is Triton's getTmemCompatibleLayouts: the register
// layouts a ttng.tmem_load or ttng.tmem_store of a buffer (layout mem,
// shape memShape, elements of bitwidth bits) can use with numWarps warps —
// one per access atom (32x32b, 16x256b, 16x128b, 16x64b) that covers the
// buffer, then the split-long-M layout of 8 warps.
func TMemCompatibleLayouts(mem *TensorMemory, memShape []int, bitwidth, numWarps int) ([]linear.Layout, error) {
	var out []linear.Layout
	for _, atom := range []TMemAccessAtom{TMem32x32b, TMem16x256b, TMem16x128b, TMem16x64b} {
		l, ok, err := TMemLdStLayout(mem, memShape, bitwidth, atom, numWarps)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, l)
		}
	}
	l, ok, err := tmemSplitLongM(mem, memShape, bitwidth, numWarps)
	if err != nil {
		return nil, err
	}
	if ok {
		out = append(out, l)
	}
	return out, nil
}

// IsTMemCompatible is Triton's isDistributedLayoutTMemCompatible: whether a
// tensor of layout enc and shape can be loaded from or stored to the
// tensor-memory buffer (mem, memShape, elements of bitwidth bits) by
// numWarps warps without a conversion — its linear layout equals one of
// TMemCompatibleLayouts.
func IsTMemCompatible(enc Distributed, shape []int, mem *TensorMemory, memShape []int, bitwidth, numWarps int) (bool, error) {
	ll, err := enc.ToLinear(shape)
	if err != nil {
		return false, err
	}
	if ll.InDimSize("block") > 1 {
		return false, fmt.Errorf("tensors split over %d CTAs are not handled", ll.InDimSize("block"))
	}
	ll, err = ll.Sublayout([]string{"register", "lane", "warp"}, ll.OutDimNames())
	if err != nil {
		return false, err
	}
	cands, err := TMemCompatibleLayouts(mem, memShape, bitwidth, numWarps)
	if err != nil {
		return false, err
	}
	for _, c := range cands {
		if c.EqualIgnoringOrder(ll) {
			return true, nil
		}
	}
	return false, nil
}
