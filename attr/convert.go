package attr

import (
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/linear"
)

// The conversions below follow Triton's LinearLayoutConversions.cpp step
// by step; the comments name the Triton function each one mirrors.

func matrixOrder(rank int, rowMajor bool) []int {
	o := make([]int, rank)
	for i := range o {
		o[i] = rank - 1 - i
	}
	if !rowMajor && rank >= 2 {
		o[0], o[1] = o[1], o[0]
	}
	return o
}

// dotOrder is getOrderForDotOperand(opIdx, rank, kContig = true): K fastest.
func dotOrder(opIdx, rank int) []int { return matrixOrder(rank, opIdx == 0) }

func namesIn(order []int) []string {
	dims := standardDims(len(order))
	n := make([]string, len(order))
	for i, d := range order {
		n[i] = dims[d]
	}
	return n
}

func checkShape(l Layout, shape []int) error {
	if len(shape) != l.Rank() {
		hint := ""
		if n, ok := l.(*NVMMAShared); ok && len(n.CGA.Bases) == 0 {
			// Triton 3.6 states the rank of an nvmma_shared layout only
			// in its text (rank = N) and aborts on a mismatch.
			hint = fmt.Sprintf(" (write rank = %d in the attribute, as Triton prints a rank-%d nvmma_shared layout)", len(shape), len(shape))
		}
		return fmt.Errorf("shape %s has rank %d, but the layout %s has rank %d%s", fmtInts(shape), len(shape), l.Format(nil), l.Rank(), hint)
	}
	for _, s := range shape {
		if !isPow2(s) {
			return fmt.Errorf("shape %s: every dimension must be a power of two", fmtInts(shape))
		}
	}
	return nil
}

// combine is combineCtaCgaWithShape: fit the one-CTA layout to the per-CTA
// part of shape (repeating into the first in-dim, or broadcasting), then
// append the CGA's block dim.
func combine(cta linear.Layout, cga CGALayout, shape []int) linear.Layout {
	rank := len(shape)
	full := standardShape(shape)
	cgaL := must(linear.EnsureLayoutNotLargerThan(must(cga.lay(rank)), full, true))
	cgaL = transposeOuts(cgaL, cta.OutDimNames())
	per := map[string]int{}
	for _, o := range cta.OutDimNames() {
		per[o] = max(1, full[o]/cgaL.OutDimSize(o))
	}
	cta = must(linear.EnsureLayoutNotSmallerThan(cta, per))
	cta = must(linear.EnsureLayoutNotLargerThan(cta, per, true))
	return transposeOuts(mul(cta, cgaL), standardDims(rank))
}

func (b *Blocked) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(b.check(), checkShape(b, shape)); err != nil {
		return linear.Layout{}, err
	}
	cta := mul(identityND("register", b.SizePerThread, b.Order),
		identityND("lane", b.ThreadsPerWarp, b.Order),
		identityND("warp", b.WarpsPerCTA, b.Order))
	return combine(cta, b.CGA, shape), nil
}

func (l *LinearEncoding) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(l.check(), checkShape(l, shape)); err != nil {
		return linear.Layout{}, err
	}
	rank := len(shape)
	named := standardShape(shape)
	ll := transposeOuts(must(l.lay()), namesIn(orderPerDim(l.Register, rank)))
	ll = must(linear.EnsureLayoutNotSmallerThan(ll, named))
	ll = must(linear.EnsureLayoutNotLargerThan(ll, named, false))
	return transposeOuts(ll, standardDims(rank)), nil
}

func (s *Slice) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(s.check(), checkShape(s, shape)); err != nil {
		return linear.Layout{}, err
	}
	ps := slices.Insert(slices.Clone(shape), s.Dim, 1)
	pl, err := s.Parent.toLinearLayout(ps)
	if err != nil {
		return linear.Layout{}, err
	}
	sl := must(linear.RemoveStandardDim(pl, s.Dim))
	sl = must(sl.RemoveZeroBasesAlongDim("register"))
	if sl.IsSurjective() {
		// The out-dim sizes inferred from the bases, which Triton rebuilds
		// the layout with, are those of a surjective layout.
		return sl, nil
	}
	// A CGA layout that does not reach every CTA leaves the parent, and so
	// the slice, not surjective: Triton aborts, this keeps the layout.
	return must(fromBases(sl.InDims(), sl.OutDimNames())), nil
}

// mmaTile is nvidiaMmaTile: the register/lane layout of one mma tile with
// kWidth consecutive registers along the inner dim.
func mmaTile(tile []int, kWidth int, order, repOrder []int) linear.Layout {
	rank := len(repOrder)
	dims := standardDims(rank)
	cta := identityND("register", slices.Repeat([]int{1}, rank), repOrder)
	inner, outer := order[0], order[1]
	m, n := tile[outer], tile[inner]
	return mul(cta,
		identity1D(kWidth, "register", dims[inner]),
		identity1D(4, "lane", dims[inner]),
		identity1D(8, "lane", dims[outer]),
		identity1D(m/8, "register", dims[outer]),
		identity1D(n/(kWidth*4), "register", dims[inner]))
}

func (m *NvidiaMma) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(m.check(), checkShape(m, shape)); err != nil {
		return linear.Layout{}, err
	}
	rank := len(shape)
	tile := slices.Clone(m.InstrShape)
	hopper := m.VersionMajor == 3
	if hopper {
		tile = tile[:2]
	}
	order := matrixOrder(rank, true)
	cta := mmaTile(tile, 2, order, order)
	w := transposeOuts(identityND("warp", m.WarpsPerCTA, matrixOrder(rank, !hopper)), cta.OutDimNames())
	return combine(mul(cta, w), m.CGA, shape), nil
}

// broadcastedDot is broadcastedDotOperandLayout: identity along every dim
// in order except kDim, where it is all zeros.
func broadcastedDot(sizes, order []int, kDim int, in string) linear.Layout {
	dims := standardDims(len(sizes))
	fs := make([]linear.Layout, len(order))
	for i, d := range order {
		if d == kDim {
			fs[i] = zeros1D(sizes[d], in, dims[d])
		} else {
			fs[i] = identity1D(sizes[d], in, dims[d])
		}
	}
	return mul(fs...)
}

// cga is the dot operand's CGA layout: the parent's, with K zeroed.
func (d *DotOperand) cga() CGALayout {
	var pc CGALayout
	switch p := d.Parent.(type) {
	case *Blocked:
		pc = p.CGA
	case *NvidiaMma:
		pc = p.CGA
	case *AMDMfma:
		pc = p.CGA
	case *AMDWmma:
		pc = p.CGA
	}
	k := d.kDim()
	var c CGALayout
	for _, b := range pc.Bases {
		b = slices.Clone(b)
		b[k] = 0
		c.Bases = append(c.Bases, b)
	}
	return c
}

func (d *DotOperand) kDim() int {
	if d.OpIdx == 0 {
		return d.Rank() - 1
	}
	return d.Rank() - 2
}

func (d *DotOperand) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(d.check(), checkShape(d, shape)); err != nil {
		return linear.Layout{}, err
	}
	// d.check admits only these four parents, and each has a check.
	if p, ok := d.Parent.(interface{ check() error }); ok {
		if err := p.check(); err != nil {
			return linear.Layout{}, err
		}
	}
	switch p := d.Parent.(type) {
	case *NvidiaMma:
		return d.nvidiaLay(p, shape), nil
	case *Blocked:
		return d.fmaLay(p, shape), nil
	case *AMDMfma:
		return d.mfmaLay(p, shape), nil
	case *AMDWmma:
		return d.wmmaLay(p, shape), nil
	}
	return linear.Layout{}, fmt.Errorf("ttg.dot_op: unsupported parent %s", d.Parent.Name())
}

// nvidiaLay is nvidiaDotToLinearLayout.
func (d *DotOperand) nvidiaLay(mma *NvidiaMma, shape []int) linear.Layout {
	rank := len(shape)
	tile := slices.Repeat([]int{1}, rank)
	instrM := mma.InstrShape[rank-2]
	mult := 8
	if instrM == 8 {
		mult = 4
	}
	if d.OpIdx == 0 {
		tile[rank-2], tile[rank-1] = instrM, d.KWidth*mult
	} else {
		tile[rank-2], tile[rank-1] = d.KWidth*mult, 8
	}
	order := dotOrder(d.OpIdx, rank)
	cta := mmaTile(tile, d.KWidth, order, order)
	w := transposeOuts(broadcastedDot(mma.WarpsPerCTA, matrixOrder(rank, mma.VersionMajor != 3), d.kDim(), "warp"), cta.OutDimNames())
	return combine(mul(cta, w), d.cga(), shape)
}

// fmaLay is fmaDotToLinearLayout (blocked parent).
func (d *DotOperand) fmaLay(b *Blocked, shape []int) linear.Layout {
	k := d.kDim()
	size := slices.Clone(b.SizePerThread)
	size[k] = shape[k]
	rep := namesIn(b.Order)
	cta := mul(transposeOuts(identityND("register", size, b.Order), rep),
		transposeOuts(broadcastedDot(b.ThreadsPerWarp, b.Order, k, "lane"), rep),
		transposeOuts(broadcastedDot(b.WarpsPerCTA, b.Order, k, "warp"), rep))
	return combine(cta, d.cga(), shape)
}

func tileAt(t []int, i int) int {
	if i < len(t) {
		return t[i]
	}
	return 1
}

// mfmaLay is mfmaDotToLinearLayout.
func (d *DotOperand) mfmaLay(m *AMDMfma, shape []int) linear.Layout {
	rank := len(shape)
	batch := rank == 3
	dims := standardDims(rank)
	mDim, nDim := m.InstrShape[0], m.InstrShape[1]
	nonK, nonKDim := rank-2, mDim
	if d.OpIdx == 1 {
		nonK, nonKDim = rank-1, nDim
	}
	const warpSize = 64
	kSize := shape[d.kDim()]
	order := dotOrder(d.OpIdx, rank)
	dimK, dimNonK := dims[order[0]], dims[order[1]]
	tile := mul(identity1D(d.KWidth, "register", dimK),
		identity1D(nonKDim, "lane", dimNonK),
		identity1D(warpSize/nonKDim, "lane", dimK))
	kTile := warpSize / nonKDim * d.KWidth
	if (mDim == 64 && nDim == 4 && d.OpIdx == 0) || (mDim == 4 && nDim == 64 && d.OpIdx == 1) {
		tile = mul(tile, identity1D(16, "register", dimK))
		kTile *= 16
	}
	if kSize > kTile {
		tile = mul(tile, identity1D(kSize/kTile, "register", dimK))
	}
	tile = mul(tile, identity1D(tileAt(m.TilesPerWarp, nonK), "register", dimNonK))
	tile = transposeOuts(tile, []string{dimK, dimNonK})
	if batch {
		tile = mul(tile, identity1D(1, "register", dims[order[2]]), identity1D(1, "lane", dims[order[2]]))
	}
	w := identityND("warp", m.WarpsPerCTA, matrixOrder(rank, true))
	return combine(mul(tile, w), m.CGA, shape)
}

// wmmaCTA is chooseWmmaCTALinearLayout: tilesPerWarp registers, then
// warps, per dim in row-major order.
func wmmaCTA(rank int, warps, tiles []int) linear.Layout {
	dims := standardDims(rank)
	var fs []linear.Layout
	for _, d := range matrixOrder(rank, true) {
		fs = append(fs, identity1D(tileAt(tiles, d), "register", dims[d]), identity1D(warps[d], "warp", dims[d]))
	}
	return transposeOuts(mul(fs...), dims)
}

// wmmaLay is wmmaDotOperandToLinearLayout.
func (d *DotOperand) wmmaLay(w *AMDWmma, shape []int) linear.Layout {
	rank := len(shape)
	dims := standardDims(rank)
	order := dotOrder(d.OpIdx, rank)
	dimK, dimNonK := dims[order[0]], dims[order[1]]
	kDim := w.InstrShape[2]
	nonKDim := w.InstrShape[0]
	if d.OpIdx == 1 {
		nonKDim = w.InstrShape[1]
	}
	const warpSize = 32
	depth := warpSize / nonKDim
	tile := mul(identity1D(d.KWidth, "register", dimK), identity1D(nonKDim, "lane", dimNonK))
	if w.Version == 1 {
		tile = mul(tile, zeros1D(depth, "lane", dimK))
	} else {
		tile = mul(tile, identity1D(depth, "lane", dimK))
	}
	tile = mul(tile, identity1D(kDim/(depth*d.KWidth), "register", dimK))
	if rank == 3 {
		tile = mul(tile, identity1D(1, "register", dims[order[2]]), identity1D(1, "lane", dims[order[2]]))
	}
	// The CTA part: K projected away, broadcast registers removed.
	cta := wmmaCTA(rank, w.WarpsPerCTA, w.TilesPerWarp)
	k := d.kDim()
	ins := cta.InDims()
	for i, in := range ins {
		var bs [][]int
		for _, v := range in.Bases {
			v[k] = 0
			if in.Name == "register" && isZero(v) {
				continue
			}
			bs = append(bs, v)
		}
		ins[i].Bases = bs
	}
	cta = must(linear.NewInferred(ins, dims))
	rep := namesIn(order)
	return combine(mul(transposeOuts(tile, rep), transposeOuts(cta, rep)), w.CGA, shape)
}

func (m *AMDMfma) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(m.check(), checkShape(m, shape)); err != nil {
		return linear.Layout{}, err
	}
	rank := len(shape)
	batch := rank == 3
	dims := standardDims(rank)
	mIdx, nIdx := rank-2, rank-1
	order := matrixOrder(rank, true)
	dimM, dimN := dims[order[1]], dims[order[0]]
	mDim, nDim := m.InstrShape[0], m.InstrShape[1]
	height := 4
	if m.ElementBitWidth == 64 {
		height = 1
	}
	const warpSize = 64
	tiles := mDim * nDim / (warpSize * height)
	// Registers run along M and lanes first along N; transposed, the
	// other way round.
	regDim, laneDim, lanes := dimM, dimN, nDim
	if m.IsTransposed {
		regDim, laneDim, lanes = dimN, dimM, mDim
	}
	tile := mul(identity1D(height, "register", regDim),
		identity1D(lanes, "lane", laneDim), identity1D(warpSize/lanes, "lane", regDim))
	if tiles > 0 {
		tile = mul(tile, identity1D(tiles, "register", regDim))
	}
	tile = transposeOuts(tile, []string{dimN, dimM})
	tpM, tpN := tileAt(m.TilesPerWarp, mIdx), tileAt(m.TilesPerWarp, nIdx)
	wM, wN := m.WarpsPerCTA[mIdx], m.WarpsPerCTA[nIdx]
	tile = mul(tile,
		identity1D(tpN, "register", dimN),
		identity1D(wN, "warp", dimN),
		identity1D(shape[nIdx]/(nDim*wN*tpN), "register", dimN),
		identity1D(tpM, "register", dimM),
		identity1D(wM, "warp", dimM))
	if batch {
		tile = mul(tile, identity1D(1, "register", dims[order[2]]), identity1D(1, "lane", dims[order[2]]),
			identity1D(m.WarpsPerCTA[0], "warp", dims[order[2]]))
	}
	return combine(tile, m.CGA, shape), nil
}

func (w *AMDWmma) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(w.check(), checkShape(w, shape)); err != nil {
		return linear.Layout{}, err
	}
	rank := len(shape)
	dims := standardDims(rank)
	to := matrixOrder(rank, !w.IsTransposed)
	outs := []string{dims[to[0]], dims[to[1]]}
	var ins []linear.InDim
	if w.Version == 1 {
		ins = []linear.InDim{
			{Name: "register", Bases: [][]int{{0, 2}, {0, 4}, {0, 8}}},
			{Name: "lane", Bases: [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}}},
		}
	} else {
		ins = []linear.InDim{
			{Name: "register", Bases: [][]int{{0, 1}, {0, 2}, {0, 4}}},
			{Name: "lane", Bases: [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}},
		}
	}
	tile := must(linear.NewInferred(ins, outs))
	if rank == 3 {
		tile = mul(tile, identity1D(1, "register", dims[0]), identity1D(1, "lane", dims[0]))
	}
	rep := namesIn(matrixOrder(rank, true))
	cta := mul(transposeOuts(tile, rep), transposeOuts(wmmaCTA(rank, w.WarpsPerCTA, w.TilesPerWarp), rep))
	return combine(cta, w.CGA, shape), nil
}

// shapePerCTA divides shape by the CGA's split per dim.
func shapePerCTA(c CGALayout, shape []int) []int {
	split := c.split(len(shape))
	r := make([]int, len(shape))
	for d, s := range shape {
		r[d] = s / min(s, split[d])
	}
	return r
}

// swizzledLay is swizzledSharedToLinearLayout; rotate adds the AMD
// rotating block number to the phase.
func swizzledLay(vec, perPhase, maxPhase int, order []int, cga CGALayout, shape []int, rotate bool) linear.Layout {
	per := shapePerCTA(cga, shape)
	rank := len(shape)
	dims := standardDims(rank)
	if rank == 1 {
		return combine(identity1D(per[0], "offset", "dim0"), cga, shape)
	}
	colDim, rowDim := order[0], order[1]
	numCols, numRows := per[colDim], per[rowDim]
	var bs [][]int
	for c := 1; c < numCols; c *= 2 {
		bs = append(bs, []int{0, c})
	}
	for r := 1; r < numRows; r *= 2 {
		phase := (r / perPhase) % maxPhase
		if rotate {
			phase ^= (r / (perPhase * maxPhase)) % maxPhase
		}
		bs = append(bs, []int{r, (vec * phase) % numCols})
	}
	cta := must(linear.NewInferred([]linear.InDim{{Name: "offset", Bases: bs}}, []string{dims[rowDim], dims[colDim]}))
	for _, d := range order[2:] {
		cta = mul(cta, identity1D(per[d], "offset", dims[d]))
	}
	return combine(cta, cga, shape)
}

func (s *SwizzledShared) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(s.Verify(ModuleInfo{}), checkShape(s, shape)); err != nil {
		return linear.Layout{}, err
	}
	return swizzledLay(s.Vec, s.PerPhase, s.MaxPhase, s.Order, s.CGA, shape, false), nil
}

func (s *AMDRotatingShared) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(s.Verify(ModuleInfo{}), checkShape(s, shape)); err != nil {
		return linear.Layout{}, err
	}
	return swizzledLay(s.Vec, s.PerPhase, s.MaxPhase, s.Order, s.CGA, shape, true), nil
}

func (s *NVMMAShared) swizzle() (vec, perPhase, maxPhase int) {
	if s.SwizzlingByteWidth == 0 {
		return 1, 1, 1
	}
	return 128 / s.ElementBitWidth, 128 / s.SwizzlingByteWidth, s.SwizzlingByteWidth / 16
}

// coreMatrix is getCoreMatrixLinearLayout: one 8-row swizzle atom.
func (s *NVMMAShared) coreMatrix() linear.Layout {
	k := coreKey{s.SwizzlingByteWidth, s.ElementBitWidth, s.FP4Padded}
	if l, ok := coreMatrices.load(k); ok {
		return l
	}
	vec, perPhase, maxPhase := s.swizzle()
	rows := 8
	cols := 8 * max(16, s.SwizzlingByteWidth) / s.ElementBitWidth
	packed := func(c int) int { return c/16*8 + c%8 }
	var bs [][]int
	for c := 1; c < cols; c *= 2 {
		if s.FP4Padded {
			bs = append(bs, []int{0, packed(c)})
		} else {
			bs = append(bs, []int{0, c})
		}
	}
	for r := 1; r < rows; r *= 2 {
		c := vec * ((r / perPhase) % maxPhase)
		if s.FP4Padded {
			c = packed(c)
		}
		bs = append(bs, []int{r, c})
	}
	return coreMatrices.store(k, must(linear.NewInferred([]linear.InDim{{Name: "offset", Bases: bs}}, standardDims(2))))
}

// coreKey is what an NVMMAShared core matrix depends on.
type coreKey struct {
	swizzlingByteWidth, elementBitWidth int
	fp4Padded                           bool
}

var coreMatrices layoutCache[coreKey]

// tmaBlockShape is getTMABlockShape (tiled mode, packed size).
func (s *NVMMAShared) tmaBlockShape(per []int) ([]int, error) {
	b := slices.Clone(per)
	contig := len(b) - 1
	if s.Transposed {
		contig = 0
	}
	if s.FP4Padded {
		b[contig] *= 2
	}
	for i := range b {
		b[i] = min(b[i], 256)
	}
	if s.SwizzlingByteWidth != 0 {
		want := 8 * s.SwizzlingByteWidth / s.ElementBitWidth
		if b[contig] < want {
			return nil, fmt.Errorf("illegal shared layout: the contiguous dimension (%d elements) is smaller than the %d-byte swizzle (%d elements)", b[contig], s.SwizzlingByteWidth, want)
		}
		b[contig] = want
	}
	if s.FP4Padded {
		b[contig] /= 2
	}
	return b, nil
}

func rotateLeft(v []int) []int {
	return append(slices.Clone(v[1:]), v[0])
}

func (s *NVMMAShared) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(s.check(), checkShape(s, shape)); err != nil {
		return linear.Layout{}, err
	}
	if s.ElementBitWidth == 0 {
		return linear.Layout{}, fmt.Errorf("#ttg.nvmma_shared without elementBitWidth has no linear layout (Triton 3.6 reads an uninitialized width)")
	}
	rank := len(shape)
	per := shapePerCTA(s.CGA, shape)
	tma, err := s.tmaBlockShape(per)
	if err != nil {
		return linear.Layout{}, err
	}
	dims := standardDims(rank)
	named := standardShape(per)
	transposeOrder := func() []int {
		o := []int{rank - 1}
		for i := 0; i < rank-1; i++ {
			o = append(o, i)
		}
		return o
	}
	t := tma
	if s.Transposed {
		t = rotateLeft(tma)
	}
	if s.SwizzlingByteWidth == 0 {
		// Triton 3.6 ignores transposed here: an unswizzled nvmma_shared
		// layout is row-major over the TMA block, whatever the flag says
		// (checked against get_shared_bank_conflicts on the device).
		l := identity1D(tma[rank-1], "offset", dims[rank-1])
		for i := rank - 2; i >= 0; i-- {
			l = mul(l, identity1D(tma[i], "offset", dims[i]))
		}
		return combine(must(linear.EnsureLayoutNotSmallerThan(l, named)), s.CGA, shape), nil
	}
	if rank < 2 {
		return linear.Layout{}, fmt.Errorf("swizzled nvmma_shared layouts need rank >= 2")
	}
	coll := []int{1, tma[rank-1]}
	for i := 0; i < rank-1; i++ {
		coll[0] *= tma[i]
	}
	if s.Transposed {
		coll[0], coll[1] = coll[1], coll[0]
	}
	tile := s.coreMatrix()
	pack := 1
	if s.FP4Padded {
		pack = 2
	}
	rows, cols := tile.OutDimSize("dim0"), tile.OutDimSize("dim1")
	if coll[1]*pack < cols || coll[0] < rows {
		return linear.Layout{}, fmt.Errorf("illegal shared layout: expected the collapsed shape per CTA to be at least [%d, %d], got [%d, %d]",
			rows, cols/pack, coll[0], coll[1])
	}
	l := must(linear.EnsureLayoutNotSmallerThan(tile, standardShape(coll)))
	if l.TotalOutDimSize() != product(t) {
		return linear.Layout{}, fmt.Errorf("illegal shared layout for shape %s", fmtInts(shape))
	}
	l = must(linear.ReshapeLayout(l, t))
	if s.Transposed {
		l = must(linear.TransposeLinearLayout(l, transposeOrder()))
	}
	return combine(must(linear.EnsureLayoutNotSmallerThan(l, named)), s.CGA, shape), nil
}

func (p *PaddedShared) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(p.check(), checkShape(p, shape)); err != nil {
		return linear.Layout{}, err
	}
	if !slices.Equal(shape, p.Shape) {
		return linear.Layout{}, fmt.Errorf("padded_shared: the linear component has shape %s, not %s", fmtInts(p.Shape), fmtInts(shape))
	}
	return must(p.linearComponent()), nil
}

func (s *SharedLinear) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(s.check(), checkShape(s, shape)); err != nil {
		return linear.Layout{}, err
	}
	l := must(s.lay())
	if sizes := outSizes(l); !slices.Equal(sizes, shape) {
		return linear.Layout{}, fmt.Errorf("shared_linear: the layout has shape %s, not %s (shared linear layouts do not broadcast)", fmtInts(sizes), fmtInts(shape))
	}
	return l, nil
}
