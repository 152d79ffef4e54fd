package tensorlayout

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/smem"
)

// slicing is how a tensor of rank ≤ 3 is drawn: nslices grids (dim 0 of a
// rank-3 tensor) of rows×cols elements, each cell standing for br×bc of
// them. A rank-1 tensor is wrapped into rows. The flat (row-major) index of
// element (slice, r, c) is slice·rows·cols + r·cols + c.
type slicing struct {
	shape               []int
	nslices, rows, cols int
	br, bc              int
	labels              bool
	notes               []string
}

func newSlicing(shape []int, lim svgLimits) (slicing, error) {
	s := slicing{shape: shape, nslices: 1, br: 1, bc: 1}
	switch len(shape) {
	case 1:
		s.cols = min(shape[0], 64)
		s.rows = (shape[0] + s.cols - 1) / s.cols
		if s.rows > 1 {
			s.notes = append(s.notes, fmt.Sprintf("1-D tensor of %d elements, drawn in rows of %d", shape[0], s.cols))
		}
	case 2:
		s.rows, s.cols = shape[0], shape[1]
	case 3:
		s.nslices, s.rows, s.cols = shape[0], shape[1], shape[2]
	default:
		return s, fmt.Errorf("-view svg draws tensors of rank 1 to 3; this one has rank %d", len(shape))
	}
	for (s.rows+s.br-1)/s.br > lim.maxSide {
		s.br *= 2
	}
	for (s.cols+s.bc-1)/s.bc > lim.maxSide {
		s.bc *= 2
	}
	// Many slices: merge further so that the whole picture stays small.
	for s.nslices*s.cellRows()*s.cellCols() > 4*lim.maxSide*lim.maxSide && (s.cellRows() > 1 || s.cellCols() > 1) {
		if s.cellRows() >= s.cellCols() {
			s.br *= 2
		} else {
			s.bc *= 2
		}
	}
	if s.br > 1 || s.bc > 1 {
		s.notes = append(s.notes, fmt.Sprintf("large tensor: each cell is a block of %d×%d elements, coloured by its elements when they agree (grey when they differ)", s.br, s.bc))
	}
	s.labels = s.br == 1 && s.bc == 1 && s.rows*s.cols <= lim.maxLabelCells && s.cols <= lim.maxLabelCols
	return s, nil
}

func (s slicing) cellRows() int { return (s.rows + s.br - 1) / s.br }
func (s slicing) cellCols() int { return (s.cols + s.bc - 1) / s.bc }

// grids returns one empty grid per slice, captioned for rank 3, with
// labels (and tooltips) when labelled is set and the cells are small enough.
func (s slicing) grids(labelled bool) []*cellGrid {
	var gs []*cellGrid
	for k := 0; k < s.nslices; k++ {
		cap := ""
		if len(s.shape) == 3 {
			cap = "dim0 = " + strconv.Itoa(k)
		}
		g := newGrid(cap, s.cellRows(), s.cellCols(), s.br, s.bc)
		if labelled && s.labels {
			g.label = make([]string, len(g.fill))
			g.title = make([]string, len(g.fill))
		}
		gs = append(gs, g)
	}
	return gs
}

// each calls f for every cell of every slice with the flat indices of the
// elements it stands for.
func (s slicing) each(f func(slice, cell int, elems []int)) {
	elems := make([]int, 0, s.br*s.bc)
	for k := 0; k < s.nslices; k++ {
		for cr := 0; cr < s.cellRows(); cr++ {
			for cc := 0; cc < s.cellCols(); cc++ {
				elems = elems[:0]
				for r := cr * s.br; r < min((cr+1)*s.br, s.rows); r++ {
					for c := cc * s.bc; c < min((cc+1)*s.bc, s.cols); c++ {
						if e := k*s.rows*s.cols + r*s.cols + c; e < product(s.shape) {
							elems = append(elems, e)
						}
					}
				}
				f(k, cr*s.cellCols()+cc, elems)
			}
		}
	}
}

// coordText is "(i, j)" for a flat index of shape.
func coordText(flat int, shape []int) string {
	cs := make([]string, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		cs[d] = strconv.Itoa(flat % shape[d])
		flat /= shape[d]
	}
	return "(" + strings.Join(cs, ", ") + ")"
}

// hwLoc is one hardware location holding an element.
type hwLoc struct{ block, warp, lane, reg int }

func (h hwLoc) String(blocks int) string {
	s := "T" + strconv.Itoa(h.lane) + ":R" + strconv.Itoa(h.reg)
	if blocks > 1 {
		s = "B" + strconv.Itoa(h.block) + ":" + s
	}
	return s
}

// holders returns, for each flat element of shape, the hardware locations
// of the distributed layout l that hold it, in the order block, warp, lane,
// register (so the first is the lowest).
type holderMap struct {
	first  []hwLoc
	count  []int
	all    [][]hwLoc // only when keepAll
	nw     int
	blocks int
}

func holders(l linear.Layout, shape []int, keepAll bool) holderMap {
	total := product(shape)
	nb, nw, nl, nr := inSize(l, "block"), inSize(l, "warp"), inSize(l, "lane"), inSize(l, "register")
	h := holderMap{first: make([]hwLoc, total), count: make([]int, total), nw: nw, blocks: nb}
	if keepAll {
		h.all = make([][]hwLoc, total)
	}
	apply := applier(l, "block", "warp", "lane", "register")
	for b := 0; b < nb; b++ {
		for w := 0; w < nw; w++ {
			for ln := 0; ln < nl; ln++ {
				for r := 0; r < nr; r++ {
					i := linearize(apply(b, w, ln, r), shape)
					loc := hwLoc{b, w, ln, r}
					if h.count[i] == 0 {
						h.first[i] = loc
					}
					h.count[i]++
					if keepAll {
						h.all[i] = append(h.all[i], loc)
					}
				}
			}
		}
	}
	return h
}

// uniformCopies is N when every element is held by the same number N of
// locations, else 0.
func (h holderMap) uniformCopies() int {
	n := h.count[0]
	for _, c := range h.count {
		if c != n {
			return 0
		}
	}
	return n
}

// copiesNote says how a layout broadcasts, when every element has the
// same number of copies.
func copiesNote(h holderMap) []string {
	if n := h.uniformCopies(); n > 1 {
		return []string{fmt.Sprintf("broadcast: every element is held by %d locations", n)}
	}
	return nil
}

// warpOf is the global warp index (CTA-major) of loc.
func (h holderMap) warpOf(loc hwLoc) int { return loc.block*h.nw + loc.warp }

// distributedGrids draws l (distributed) coloured by warp, with the
// T<lane>:R<reg> of the lowest holder as label and "×N" where N locations
// hold the element (broadcast).
func distributedGrids(l linear.Layout, s slicing, labelled bool) ([]*cellGrid, holderMap) {
	h := holders(l, s.shape, false)
	uniform := h.uniformCopies() > 0
	gs := s.grids(labelled)
	s.each(func(k, cell int, elems []int) {
		g := gs[k]
		if len(elems) == 0 {
			g.fill[cell] = emptyColour
			return
		}
		w := h.warpOf(h.first[elems[0]])
		colour := warpColour(w)
		bcast := false
		for _, e := range elems {
			if h.warpOf(h.first[e]) != w {
				colour = mixedColour
			}
			bcast = bcast || h.count[e] > 1
		}
		g.fill[cell] = colour
		e := elems[0]
		if g.label != nil {
			g.label[cell] = h.first[e].String(h.blocks)
			g.title[cell] = fmt.Sprintf("%s: warp %d, %s", coordText(e, s.shape), h.first[e].warp, h.first[e].String(h.blocks))
			if h.count[e] > 1 {
				g.title[cell] += fmt.Sprintf(" and %d more copies", h.count[e]-1)
			}
		}
		if bcast && !uniform {
			if g.badge == nil {
				g.badge = make([]string, len(g.fill))
			}
			if g.label != nil {
				g.badge[cell] = "×" + strconv.Itoa(h.count[e])
			} else {
				g.badge[cell] = "•"
			}
		}
	})
	return gs, h
}

func warpLegend(h holderMap) []legendItem {
	var items []legendItem
	for b := 0; b < h.blocks; b++ {
		for w := 0; w < h.nw; w++ {
			t := "warp " + strconv.Itoa(w)
			if h.blocks > 1 {
				t = "CTA " + strconv.Itoa(b) + " " + t
			}
			items = append(items, legendItem{colour: warpColour(b*h.nw + w), text: t})
		}
	}
	return items
}

func hasBadges(gs []*cellGrid) bool {
	for _, g := range gs {
		for _, b := range g.badge {
			if b != "" {
				return true
			}
		}
	}
	return false
}

// distributedFigure is -view svg of a distributed layout.
func distributedFigure(title string, l linear.Layout, shape []int, lim svgLimits) (*figure, error) {
	s, err := newSlicing(shape, lim)
	if err != nil {
		return nil, err
	}
	gs, h := distributedGrids(l, s, true)
	note := fmt.Sprintf("tensor %s; colour: warp", shapeText(shape))
	if s.labels {
		note += "; label T<lane>:R<register> of the lowest holder"
	}
	f := &figure{title: title, notes: []string{note}}
	f.notes = append(append(f.notes, copiesNote(h)...), s.notes...)
	f.columns = []column{{grids: gs}}
	f.legend = warpLegend(h)
	if hasBadges(gs) {
		if s.labels {
			f.legend = append(f.legend, legendItem{colour: "#FFFFFF", text: "×N: broadcast, N locations hold the element"})
		} else {
			f.legend = append(f.legend, legendItem{colour: "#000000", text: "dot: broadcast, several locations hold the element"})
		}
	}
	if mixedIn(gs) {
		f.legend = append(f.legend, legendItem{colour: mixedColour, text: "block held by several warps"})
	}
	return f, nil
}

func mixedIn(gs []*cellGrid) bool {
	for _, g := range gs {
		for _, c := range g.fill {
			if c == mixedColour {
				return true
			}
		}
	}
	return false
}

// sharedOffsets returns, for each flat element of shape, the offset of the
// shared layout l (offset, block) that stores it (the first, within its
// CTA), and -1 for elements no offset stores.
func sharedOffsets(l linear.Layout, shape []int) []int {
	total := product(shape)
	offs := make([]int, total)
	for i := range offs {
		offs[i] = -1
	}
	nb := inSize(l, "block")
	perBlock := inSize(l, "offset")
	apply := applier(l, "block", "offset")
	for b := 0; b < nb; b++ {
		for off := 0; off < perBlock; off++ {
			i := linearize(apply(b, off), shape)
			if offs[i] < 0 {
				offs[i] = off
			}
		}
	}
	return offs
}

// bankOf is the bank of the 4-byte word holding (the first byte of) the
// element at offset off, for elements of bw bits.
func bankOf(off, bw int) int { return off * bw / 32 % 32 }

// access is one warp's access instruction against a shared layout, for
// -l REG -shared SHARED: for each flat element it touches, the lane and the
// wavefront serving it (−1 elsewhere).
type access struct {
	vec, bitwidth    int
	lane, wavefront  []int
	lanes            []laneAccess // each lane's vector, in lane order
	wavefronts       int
	groups, perGroup int // lane groups served apart (quarter warps for 128 bits) and lanes in each
	conflicts        int // smem.BankConflicts
	maxDirect        int // the largest count of lines one bank serves within a group, minus 1
}

// laneAccess is one lane's part of an access instruction: the flat
// elements of its vector in register order, their offsets, and the
// wavefront that serves each.
type laneAccess struct {
	lane                      int
	elems, offsets, wavefront []int
}

// instruction computes the first access instruction of warp 0 (CTA 0) of
// reg against shared, vectorised as smem.BankConflicts vectorises it.
func instruction(reg, shared linear.Layout, shape []int, bw int) (*access, error) {
	conf, err := smem.BankConflicts(reg, shared, bw)
	if err != nil {
		return nil, err
	}
	rm, err := linear.ActionRemoveBroadcastedRegs(reg)
	if err != nil {
		return nil, err
	}
	regNB, err := rm.Apply(reg)
	if err != nil {
		return nil, err
	}
	toShared, err := regNB.InvertAndCompose(shared)
	if err != nil {
		return nil, err
	}
	v, _, err := linear.LargestVectorisation(toShared, bw, 0)
	if err != nil {
		return nil, err
	}
	offs := sharedOffsets(shared, shape)
	apply := applier(regNB, "block", "warp", "lane", "register")
	// The register bits of the vector: those whose element sits at offset
	// 1, 2, …, v/2.
	var vecRegs []int
	for j := 1; j < v; j <<= 1 {
		for i := 0; i < len(regNB.Bases("register")); i++ {
			if offs[linearize(apply(0, 0, 0, 1<<i), shape)] == j {
				vecRegs = append(vecRegs, 1<<i)
				break
			}
		}
	}
	a := &access{vec: v, bitwidth: bw, conflicts: conf}
	total := product(shape)
	a.lane, a.wavefront = make([]int, total), make([]int, total)
	for i := range a.lane {
		a.lane[i], a.wavefront[i] = -1, -1
	}
	nl := inSize(regNB, "lane")
	log2Vec := max(0, ilog2(max(v*bw/32, 1)))
	a.perGroup = max(1, nl>>log2Vec)
	a.groups = (nl + a.perGroup - 1) / a.perGroup
	for g := 0; g < a.groups; g++ {
		// bank → its lines, in order of first use
		lines := map[int][]int{}
		type touch struct{ lane, idx, elem, bank, line int }
		var touches []touch
		for ln := g * a.perGroup; ln < min((g+1)*a.perGroup, nl); ln++ {
			la := laneAccess{lane: ln}
			for m := 0; m < 1<<len(vecRegs); m++ {
				r := 0
				for k, b := range vecRegs {
					if m>>k&1 == 1 {
						r |= b
					}
				}
				e := linearize(apply(0, 0, ln, r), shape)
				off := offs[e]
				if off < 0 {
					continue
				}
				a.lane[e] = ln
				word := off * bw / 32
				bank, line := word%32, word/32
				found := false
				for _, l := range lines[bank] {
					found = found || l == line
				}
				if !found {
					lines[bank] = append(lines[bank], line)
				}
				touches = append(touches, touch{len(a.lanes), len(la.elems), e, bank, line})
				la.elems = append(la.elems, e)
				la.offsets = append(la.offsets, off)
				la.wavefront = append(la.wavefront, -1)
			}
			a.lanes = append(a.lanes, la)
		}
		most := 1
		for _, ls := range lines {
			most = max(most, len(ls))
		}
		a.maxDirect = max(a.maxDirect, most-1)
		for _, t := range touches {
			for k, l := range lines[t.bank] {
				if l == t.line {
					a.wavefront[t.elem] = a.wavefronts + k
					a.lanes[t.lane].wavefront[t.idx] = a.wavefronts + k
				}
			}
		}
		a.wavefronts += most
	}
	return a, nil
}

func ilog2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// sharedFigure is -view svg of a shared layout: every element's offset,
// coloured by the bank of its word; with acc, the elements one access
// instruction of warp 0 touches are outlined by wavefront and labelled by
// lane.
func sharedFigure(title string, l linear.Layout, shape []int, bw int, acc *access, lim svgLimits) (*figure, error) {
	s, err := newSlicing(shape, lim)
	if err != nil {
		return nil, err
	}
	offs := sharedOffsets(l, shape)
	gs := s.grids(true)
	s.each(func(k, cell int, elems []int) {
		g := gs[k]
		if len(elems) == 0 || offs[elems[0]] < 0 {
			g.fill[cell] = emptyColour
			return
		}
		e := elems[0]
		off := offs[e]
		g.fill[cell] = bankColour(bankOf(off, bw))
		if g.label != nil {
			g.label[cell] = strconv.Itoa(off)
			g.title[cell] = fmt.Sprintf("%s: offset %d, word %d, bank %d", coordText(e, shape), off, off*bw/32, bankOf(off, bw))
		}
		if acc == nil {
			return
		}
		for _, e := range elems {
			if acc.lane[e] >= 0 {
				if g.outline == nil {
					g.outline = make([]string, len(g.fill))
				}
				g.outline[cell] = wavefrontColour(acc.wavefront[e])
				if g.label != nil {
					g.label[cell] = "L" + strconv.Itoa(acc.lane[e])
					if g.labelFill == nil {
						g.labelFill = make([]string, len(g.fill))
					}
					g.labelFill[cell] = "#000"
					g.title[cell] += fmt.Sprintf("; lane %d, wavefront %d", acc.lane[e], acc.wavefront[e])
				}
				break
			}
		}
	})
	f := &figure{title: title}
	note := fmt.Sprintf("tensor %s of %d-bit elements; colour: the bank of its 4-byte word (32 banks: 0–7 in eight colours, 8–15, 16–23 and 24–31 in darker shades of them)", shapeText(shape), bw)
	if s.labels {
		note += "; label: offset"
	}
	f.notes = append(f.notes, note)
	if acc != nil {
		f.notes = append(f.notes,
			fmt.Sprintf("outlined: warp 0's first access instruction, %d×%d bits per lane, labelled L<lane>; %d lane group(s) of %d lanes, %d wavefront(s)", acc.vec, bw, acc.groups, acc.perGroup, acc.wavefronts),
			fmt.Sprintf("bank conflicts (smem.BankConflicts, excess wavefronts per instruction): %d", acc.conflicts))
	}
	f.notes = append(f.notes, s.notes...)
	f.columns = []column{{grids: gs}}
	// The eight colours, then the shades of the first one.
	for _, b := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 24} {
		f.legend = append(f.legend, legendItem{colour: bankColour(b), text: "bank " + strconv.Itoa(b)})
	}
	if acc != nil {
		for w := 0; w < acc.wavefronts && w < 8; w++ {
			f.legend = append(f.legend, legendItem{colour: wavefrontColour(w), text: "wavefront " + strconv.Itoa(w), outline: true})
		}
	}
	return f, nil
}

// wavefrontColour outlines the cells of wavefront w: the Okabe–Ito
// colours, then black.
func wavefrontColour(w int) string {
	if w%8 == 7 {
		return "#000000"
	}
	return okabeIto[w%8]
}

// moveKind is where a conversion takes an element.
type moveKind int

const (
	moveStays moveKind = iota
	moveRegister
	moveLane
	moveWarp
	moveCTA
)

var moveNames = []string{"stays (same thread, same register)", "same thread, another register", "another lane of the warp", "another warp", "another CTA"}

// moveColours are Okabe–Ito colours, one per moveKind, which are also the
// colours of the lowering classes these moves need (see classColour).
var moveColours = []string{"#DDDDDD", "#56B4E9", "#009E73", "#E69F00", "#CC79A7"}

func classColour(c smem.Classification) string {
	switch {
	case c.CrossCTA:
		return moveColours[moveCTA]
	case c.Kind == smem.NoOp:
		return moveColours[moveStays]
	case c.Kind == smem.Registers:
		return moveColours[moveRegister]
	case c.Kind == smem.WarpShuffle:
		return moveColours[moveLane]
	}
	return moveColours[moveWarp]
}

func move(a, b hwLoc) moveKind {
	switch {
	case a.block != b.block:
		return moveCTA
	case a.warp != b.warp:
		return moveWarp
	case a.lane != b.lane:
		return moveLane
	case a.reg != b.reg:
		return moveRegister
	}
	return moveStays
}

// conversionFigure draws a conversion: the source and destination coloured
// by warp and, between them, each element coloured by where it moves (the
// cheapest pair of a source and a destination holder), with the lowering
// class and plan in the notes.
func conversionFigure(title string, src, dst linear.Layout, shape []int, plan *smem.Plan, lim svgLimits) (*figure, error) {
	s, err := newSlicing(shape, lim)
	if err != nil {
		return nil, err
	}
	sg, sh := distributedGrids(src, s, true)
	dg, dh := distributedGrids(dst, s, true)
	sa := holders(src, shape, true)
	da := holders(dst, shape, true)
	moves := make([]moveKind, product(shape))
	for e := range moves {
		best := moveCTA
		for _, a := range sa.all[e] {
			for _, b := range da.all[e] {
				best = min(best, move(a, b))
			}
		}
		moves[e] = best
	}
	mg := s.grids(true)
	used := map[moveKind]bool{}
	s.each(func(k, cell int, elems []int) {
		g := mg[k]
		if len(elems) == 0 {
			g.fill[cell] = emptyColour
			return
		}
		m := moves[elems[0]]
		for _, e := range elems {
			m = max(m, moves[e])
		}
		used[m] = true
		g.fill[cell] = moveColours[m]
		if g.label != nil {
			e := elems[0]
			g.label[cell] = da.first[e].String(da.blocks)
			g.title[cell] = fmt.Sprintf("%s: %s → %s, %s", coordText(e, shape), sa.first[e].String(sa.blocks), da.first[e].String(da.blocks), moveNames[moves[e]])
		}
	})
	c := plan.Classification
	class := c.Kind.String()
	if c.CrossCTA {
		class += " (across CTAs)"
	}
	f := &figure{title: title}
	f.notes = append(f.notes, fmt.Sprintf("tensor %s; lowering (smem.Classify): %s", shapeText(shape), class))
	if c.Kind == smem.SharedMemory && !c.CrossCTA {
		f.notes = append(f.notes, fmt.Sprintf("scratch %d bytes in %d round(s); store %s ×%d (%d conflicts), load %s ×%d (%d conflicts)",
			plan.ScratchBytes, plan.Reps, plan.Store.Instr.Name(true), plan.Store.VecElems, plan.Store.Conflicts,
			plan.Load.Instr.Name(false), plan.Load.VecElems, plan.Load.Conflicts))
	}
	if c.Kind == smem.WarpShuffle {
		f.notes = append(f.notes, fmt.Sprintf("%d mixed register↔lane transposition(s)", c.Transpositions))
	}
	for _, x := range [][]string{copiesNote(sh), copiesNote(dh)} {
		for _, n := range x {
			f.notes = append(f.notes, "source/destination "+n)
		}
	}
	f.notes = append(f.notes, s.notes...)
	mergedNote := ""
	if s.br > 1 || s.bc > 1 {
		mergedNote = " (a block: its farthest move)"
	}
	f.columns = []column{
		{heading: "source (colour: warp)", grids: sg},
		{heading: "moves" + mergedNote + ", label: destination", grids: mg},
		{heading: "destination (colour: warp)", grids: dg},
	}
	f.legend = append(f.legend, legendItem{colour: classColour(c), text: "class: " + class})
	for m := moveStays; m <= moveCTA; m++ {
		if used[m] {
			f.legend = append(f.legend, legendItem{colour: moveColours[m], text: moveNames[m]})
		}
	}
	seen := map[int]bool{}
	for _, it := range [][]legendItem{warpLegend(sh), warpLegend(dh)} {
		for i, x := range it {
			if !seen[i] {
				seen[i] = true
				f.legend = append(f.legend, x)
			}
		}
	}
	return f, nil
}
