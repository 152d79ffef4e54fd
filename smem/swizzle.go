package smem

import (
	"errors"
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/linear"
)

// Instr is a shared-memory access instruction of one side of a round trip,
// the index into Triton's getSrcDstTiles lists.
type Instr int

const (
	// LdSt is st.shared (store) / ld.shared (load).
	LdSt Instr = iota
	// Matrix is stmatrix / ldmatrix (.x4).
	Matrix
	// MatrixTrans is stmatrix.trans / ldmatrix.trans (16-bit elements).
	MatrixTrans
)

// Name returns the PTX instruction of the store (store true) or load side.
func (i Instr) Name(store bool) string {
	switch {
	case i == LdSt && store:
		return "st.shared"
	case i == LdSt:
		return "ld.shared"
	case i == Matrix && store:
		return "stmatrix"
	case i == Matrix:
		return "ldmatrix"
	case i == MatrixTrans && store:
		return "stmatrix.trans"
	case i == MatrixTrans:
		return "ldmatrix.trans"
	}
	return fmt.Sprintf("Instr(%d)", int(i))
}

// MemOpTile is Triton's LocalMemOpTile for the .v4/.x4 form of an
// instruction: the lane bits that address consecutive 32-bit words of one
// contiguous 16-byte row (LaneContig; registers fill the rest of the 128
// bits) and the lane bits that give the rows' addresses (LaneAddr;
// registers come first when there are fewer than 3).
type MemOpTile struct {
	Instr      Instr
	LaneContig []int
	LaneAddr   []int
}

// Tiles returns Triton's getSrcDstTiles for an NVIDIA GPU of compute
// capability cc (e.g. 80, 90) and the element bit width: the store side
// gets st.shared, and stmatrix (cc ≥ 90, bitwidth ≤ 32) and stmatrix.trans
// (bitwidth 16); the load side ld.shared, and ldmatrix (cc ≥ 75) and
// ldmatrix.trans likewise. cc 0 gives only st/ld.shared.
func Tiles(cc, bitwidth int) (src, dst []MemOpTile) {
	pick := func(ok bool) []MemOpTile {
		switch {
		case !ok || bitwidth > 32:
			return allTiles[:1]
		case bitwidth == 16:
			return allTiles[:3]
		}
		return allTiles[:2]
	}
	return pick(cc >= 90), pick(cc >= 75)
}

// allTiles are st/ld.shared, the matrix instructions and their transposed
// forms, in Triton's order.
var allTiles = []MemOpTile{
	{LdSt, nil, []int{0, 1, 2}},
	{Matrix, []int{0, 1}, []int{2, 3, 4}},
	{MatrixTrans, []int{2, 3, 4}, []int{0, 1}},
}

// side is one register layout of a round trip, flattened: each basis is
// the flat index of its element.
type side struct {
	l         linear.Layout // out-dims flattened into one
	reg, lane []uint64
	warp      []uint64
}

func newSide(l linear.Layout) side {
	f := l.FlattenOuts()
	return side{l: f, reg: f.ColumnsOf("register"), lane: f.ColumnsOf("lane"), warp: f.ColumnsOf("warp")}
}

// Swizzle is a shared-memory layout chosen by the optimal-swizzling
// algorithm, in flat tensor coordinates: the vector bases (elements one
// thread accesses with one instruction), the bank bases (the rest of one
// 128-byte line), the segment bases (which line) and the repetition bases
// (rounds that reuse one scratch tile).
type Swizzle struct {
	Vector, Bank, Segment, Reps []uint64
}

// Layout returns the swizzle as a LinearLayout with in-dims vector, bank,
// segment, reps and the given tensor out-dims.
func (s Swizzle) Layout(outs []linear.OutDim) (linear.Layout, error) {
	n := 1
	for _, o := range outs {
		n *= o.Size
	}
	l, err := linear.NewFromColumns([]linear.Dim{
		{Name: "vector", Size: 1 << uint(len(s.Vector))}, {Name: "bank", Size: 1 << uint(len(s.Bank))},
		{Name: "segment", Size: 1 << uint(len(s.Segment))}, {Name: "reps", Size: 1 << uint(len(s.Reps))},
	}, []linear.OutDim{{Name: "flat", Size: n}}, slices.Concat(s.Vector, s.Bank, s.Segment, s.Reps), true)
	if err != nil {
		return linear.Layout{}, err
	}
	return l.ReshapeOuts(outs)
}

// computeSegment is Triton's computeSegment: lenSeg segment bases that a
// wavefront of either side touches as little as possible. Unit vectors
// neither side uses come first; then, pairing the bases only one side uses
// (A, the smaller set, and B, each sorted), A[i]⊕B[i] (conflict free on
// both sides), and where that is not enough A[i] and B[i] themselves.
func computeSegment(bankSrc, bankDst []uint64, dim, lenSeg int) []uint64 {
	in := func(set []uint64, v uint64) bool { return v != 0 && slices.Contains(set, v) }
	var seg []uint64
	for b := 0; b < dim; b++ {
		if u := uint64(1) << uint(b); !in(bankSrc, u) && !in(bankDst, u) {
			seg = append(seg, u)
		}
	}
	if len(seg) >= lenSeg {
		return seg[:lenSeg]
	}
	var a, b []uint64
	for _, v := range bankSrc {
		if v != 0 && !in(bankDst, v) && !slices.Contains(a, v) {
			a = append(a, v)
		}
	}
	for _, v := range bankDst {
		if v != 0 && !in(bankSrc, v) && !slices.Contains(b, v) {
			b = append(b, v)
		}
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	slices.Sort(a)
	slices.Sort(b)
	k := min(max(0, lenSeg-len(a)-len(seg)), len(a))
	for i := k; i < len(a); i++ {
		seg = append(seg, a[i]^b[i])
	}
	seg = append(seg, a[:k]...)
	seg = append(seg, b[:k]...)
	if len(seg) > lenSeg {
		seg = seg[:lenSeg]
	}
	return seg
}

// core is Triton's optimalSwizzling(src, dst, bitwidth, vbasis, tileSrc,
// tileDst, outDims, leaveReps) on flat bases.
func core(src, dst *side, bitwidth, dim int, vec, tileSrc, tileDst []uint64, leaveReps int) (Swizzle, error) {
	bankSrc := slices.Concat(vec, tileSrc)
	bankDst := slices.Concat(vec, tileDst)
	lenBank := min(ilog2(lineBits/((1<<uint(len(vec)))*bitwidth)), dim-len(vec))
	lenSeg := dim - lenBank - len(vec)
	seg := computeSegment(bankSrc, bankDst, dim, lenSeg)
	bank := complementBasis(slices.Concat(vec, seg), dim)
	if len(bank) != lenBank+lenSeg-len(seg) {
		return Swizzle{}, fmt.Errorf("smem: optimal swizzling: %d bank bases, want %d (Triton asserts)", len(bank), lenBank+lenSeg-len(seg))
	}
	if linear.RankOfColumns(slices.Concat(vec, bank, seg)) != dim {
		return Swizzle{}, errors.New("smem: optimal swizzling: the vector, bank and segment bases do not cover the tensor (Triton asserts)")
	}
	// buildReps: segment bases that are registers on both sides become
	// rounds, except the first leaveReps of them.
	var s Swizzle
	s.Vector, s.Bank = vec, bank
	for _, v := range seg {
		if slices.Contains(src.reg, v) && slices.Contains(dst.reg, v) {
			if leaveReps > 0 {
				leaveReps--
			} else {
				s.Reps = append(s.Reps, v)
				continue
			}
		}
		s.Segment = append(s.Segment, v)
	}
	return s, nil
}

// ldSt is Triton 3.6's optimalSwizzlingLdSt on flat sides.
func ldSt(src, dst *side, bitwidth, dim int) (Swizzle, error) {
	vec := intersectionBasis(src.reg, dst.reg, dim)
	if maxVec := ilog2(128 / bitwidth); len(vec) > maxVec {
		vec = vec[:maxVec]
	}
	const unset, srcFills, dstFills = 0, 1, 2
	fills := unset
	if (1<<uint(len(vec)))*bitwidth < bankBits {
		perBank := ilog2(bankBits / bitwidth)
		warpSrc, warpDst := removeZeros(src.warp), removeZeros(dst.warp)
		rsw := intersectionBasis(without(src.reg, vec), warpDst, dim)
		rdw := intersectionBasis(without(dst.reg, vec), warpSrc, dim)
		var largest []uint64
		if len(rsw) == len(rdw) && len(rsw) > 0 {
			if slices.Min(rsw) < slices.Min(rdw) {
				largest, fills = rsw, srcFills
			} else {
				largest, fills = rdw, dstFills
			}
		} else if len(rsw) > len(rdw) {
			largest, fills = rsw, srcFills
		} else {
			largest, fills = rdw, dstFills
		}
		vec = append(slices.Clone(vec), largest...)
		if len(vec) < perBank {
			vec = append(vec, intersectionBasis(warpSrc, warpDst, dim)...)
		}
		for i := 0; len(vec) < perBank && (i < len(warpSrc) || i < len(warpDst)); i++ {
			if i < len(warpSrc) && !slices.Contains(vec, warpSrc[i]) {
				vec = append(vec, warpSrc[i])
			}
			if len(vec) < perBank && i < len(warpDst) && !slices.Contains(vec, warpDst[i]) {
				vec = append(vec, warpDst[i])
			}
		}
		if len(vec) > perBank {
			vec = vec[:perBank]
		}
	}
	log2Vec := ilog2(max(1, (1<<uint(len(vec)))*bitwidth/bankBits))
	tileSrc, err := dropLast(src.lane, log2Vec)
	if err != nil {
		return Swizzle{}, err
	}
	tileDst, err := dropLast(dst.lane, log2Vec)
	if err != nil {
		return Swizzle{}, err
	}
	s, err := core(src, dst, bitwidth, dim, vec, tileSrc, tileDst, 0)
	if err != nil || log2Vec >= 2 {
		return s, err
	}
	// Narrower than 128 bits: put first the bank bases that are registers
	// of the side that filled the bank word (or of the side with more), so
	// that side can vectorise further.
	var inSrc, inDst []int
	for i, b := range s.Bank {
		if slices.Contains(src.reg, b) {
			inSrc = append(inSrc, i)
		}
		if slices.Contains(dst.reg, b) {
			inDst = append(inDst, i)
		}
	}
	var order []int
	switch {
	case fills == srcFills:
		order = inSrc
	case fills == dstFills:
		order = inDst
	case len(inSrc) > len(inDst):
		order = inSrc
	default:
		order = inDst
	}
	for i := range s.Bank {
		if !slices.Contains(order, i) {
			order = append(order, i)
		}
	}
	bank := make([]uint64, len(s.Bank))
	for i, x := range order {
		bank[i] = s.Bank[x]
	}
	s.Bank = bank
	return s, nil
}

// cvtBetween returns b.InvertAndCompose(a) for the two sides, cached.
type cvtCache struct {
	src, dst *side
	m        [2]*linear.Layout
	common   [2][]uint64 // intersectionBasis(a.reg, b.reg) with a = src (0) or dst (1)
	hasCom   [2]bool
}

// commonRegs returns intersectionBasis(a.reg, b.reg, dim), cached.
func (c *cvtCache) commonRegs(aIsSrc bool, dim int) []uint64 {
	k := 1
	a, b := c.dst, c.src
	if aIsSrc {
		k, a, b = 0, c.src, c.dst
	}
	if !c.hasCom[k] {
		c.common[k], c.hasCom[k] = intersectionBasis(a.reg, b.reg, dim), true
	}
	return c.common[k]
}

func (c *cvtCache) get(bIsSrc bool) (linear.Layout, error) {
	k := 0
	b, a := c.dst, c.src
	if bIsSrc {
		k, b, a = 1, c.src, c.dst
	}
	if c.m[k] == nil {
		l, err := b.l.InvertAndCompose(a.l)
		if err != nil {
			return linear.Layout{}, err
		}
		c.m[k] = &l
	}
	return *c.m[k], nil
}

// swizzleTile is Triton's optimalSwizzlingTile: a common contiguous tile of
// two instructions (nRegA, nRegB register bases followed by the lanes
// laneIdA, laneIdB), or false.
func swizzleTile(cache *cvtCache, aIsSrc bool, nRegA, nRegB int, laneIdA, laneIdB []int, dim int) ([]uint64, bool, error) {
	if nRegA < nRegB {
		return swizzleTile(cache, !aIsSrc, nRegB, nRegA, laneIdB, laneIdA, dim)
	}
	a, b := cache.src, cache.dst
	if !aIsSrc {
		a, b = b, a
	}
	vec := cache.commonRegs(aIsSrc, dim)
	if len(vec) < nRegB || nRegB < 0 {
		return nil, false, nil
	}
	vec = vec[:nRegB:nRegB]
	usable := func(lane []uint64, ids []int) bool {
		for _, id := range ids {
			if id >= len(lane) || lane[id] == 0 {
				return false
			}
		}
		return true
	}
	if !usable(a.lane, laneIdA) || !usable(b.lane, laneIdB) {
		return nil, false, nil
	}
	cvt, err := cache.get(!aIsSrc) // maps b's hardware index to a's
	if err != nil {
		return nil, false, err
	}
	for i := 0; i < nRegA-nRegB; i++ {
		if cvt.BasisValue("lane", laneIdB[i], "register") == 0 {
			return nil, false, nil
		}
	}
	off := len(laneIdB) - len(laneIdA)
	for k, idA := range laneIdA {
		if cvt.BasisValue("lane", laneIdB[off+k], "lane") != 1<<uint(idA) {
			return nil, false, nil
		}
	}
	out := make([]uint64, len(vec), len(vec)+len(laneIdB))
	copy(out, vec)
	for _, id := range laneIdB {
		out = append(out, b.lane[id])
	}
	return out, true, nil
}

// addrTile is getTile: the first 3−|LaneAddr| registers not in vec, then
// the address lanes.
func addrTile(t MemOpTile, s *side, vec []uint64) ([]uint64, bool) {
	need := 3 - len(t.LaneAddr)
	var tile []uint64
	for _, r := range s.reg {
		if need == 0 {
			break
		}
		if !slices.Contains(vec, r) {
			tile = append(tile, r)
			need--
		}
	}
	if need > 0 {
		return nil, false
	}
	for _, i := range t.LaneAddr {
		if i >= len(s.lane) {
			return nil, false
		}
		tile = append(tile, s.lane[i])
	}
	return tile, true
}

// choice is the result of the instruction-aware search.
type choice struct {
	swz              Swizzle
	src, dst         MemOpTile
	tileSrc, tileDst []uint64
	read, write      int
	ldst             bool // the optimalSwizzlingLdSt fallback
}

// instrAware is Triton's optimalSwizzling(src, dst, srcTiles, dstTiles,
// bitwidth).
func instrAware(src, dst *side, srcTiles, dstTiles []MemOpTile, bitwidth, dim int) (choice, error) {
	total := ilog2(max(128/bitwidth, 1))
	cache := &cvtCache{src: src, dst: dst}
	var best choice
	found := false
	for _, ts := range srcTiles {
		for _, td := range dstTiles {
			vec, ok, err := swizzleTile(cache, true, total-len(ts.LaneContig), total-len(td.LaneContig), ts.LaneContig, td.LaneContig, dim)
			if err != nil {
				return choice{}, err
			}
			if !ok {
				continue
			}
			tileSrc, ok1 := addrTile(ts, src, vec)
			tileDst, ok2 := addrTile(td, dst, vec)
			if !ok1 || !ok2 {
				continue
			}
			leave := min(len(ts.LaneContig)+len(ts.LaneAddr)-3, len(td.LaneContig)+len(td.LaneAddr)-3)
			swz, err := core(src, dst, bitwidth, dim, vec, tileSrc, tileDst, leave)
			if err != nil {
				return choice{}, err
			}
			seg := swz.Segment
			r := 1<<uint(intersectionDim(seg, tileDst, dim)) - 1
			w := 1<<uint(intersectionDim(seg, tileSrc, dim)) - 1
			c := choice{swz, ts, td, tileSrc, tileDst, r, w, false}
			if !found || r+w < best.read+best.write || r+w == best.read+best.write && len(swz.Reps) > len(best.swz.Reps) {
				best, found = c, true
			}
		}
	}
	if found {
		return best, nil
	}
	swz, err := ldSt(src, dst, bitwidth, dim)
	if err != nil {
		return choice{}, err
	}
	return choice{swz: swz, src: srcTiles[0], dst: dstTiles[0], ldst: true}, nil
}
