package ir

// DomTree is the dominator tree of the blocks of one region, over the CFG
// that the terminators' successors form, for passes that walk blocks in
// dominance order (MLIR's DominanceInfo). It is a snapshot: it does not
// follow later changes to the region's blocks or terminators.
type DomTree struct {
	r        *Region
	t        *domTree
	children map[*Block][]*Block
}

// NewDomTree computes the dominator tree of r, which must have at least one
// block.
func NewDomTree(r *Region) *DomTree {
	d := &DomTree{r: r, t: newDomTree(r), children: map[*Block][]*Block{}}
	// The immediate dominator of b is the strict dominator of b that comes
	// latest in the tree's depth-first numbering.
	for _, b := range r.Blocks[1:] {
		if !d.t.reachable(b) {
			continue
		}
		var idom *Block
		for _, a := range r.Blocks {
			if a == b || !d.t.reachable(a) || !d.t.dominates(a, b) {
				continue
			}
			if idom == nil || d.t.pre[d.t.index[a]] > d.t.pre[d.t.index[idom]] {
				idom = a
			}
		}
		if idom != nil {
			d.children[idom] = append(d.children[idom], b)
		}
	}
	return d
}

// Root returns the entry block.
func (d *DomTree) Root() *Block { return d.r.Blocks[0] }

// Children returns the blocks that b immediately dominates, in region
// order. Unreachable blocks are nobody's children.
func (d *DomTree) Children(b *Block) []*Block { return d.children[b] }

// Dominates reports whether block a dominates block b (both of the tree's
// region). As in MLIR, an unreachable block is dominated by every block and
// dominates none but itself.
func (d *DomTree) Dominates(a, b *Block) bool { return d.t.dominates(a, b) }

// Reachable reports whether b is reachable from the entry block.
func (d *DomTree) Reachable(b *Block) bool { return d.t.reachable(b) }
