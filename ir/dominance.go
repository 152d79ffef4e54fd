package ir

// domTree is the dominator tree of the blocks of one region, over the CFG
// that the terminators' successors form. Block 0 is the entry. Queries
// take constant time: a dominates b when a's interval in a depth-first
// numbering of the tree encloses b's.
type domTree struct {
	index     map[*Block]int32 // position of each block in the region
	pre, post []int32          // DFS numbers in the dominator tree; -1 when unreachable
}

// newDomTree builds the dominator tree of r with the iterative algorithm
// of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm") over
// a reverse post-order of the blocks, which needs a few passes over the
// edges for the CFGs of structured programs.
func newDomTree(r *Region) *domTree {
	n := len(r.Blocks)
	t := &domTree{index: make(map[*Block]int32, n), pre: make([]int32, n), post: make([]int32, n)}
	for i, b := range r.Blocks {
		t.index[b] = int32(i)
	}
	// Successor lists, skipping blocks of other regions (invalid IR).
	succs := make([][]int32, n)
	for i, b := range r.Blocks {
		if b.last == nil {
			continue
		}
		for _, s := range b.last.Successors {
			if j, ok := t.index[s.Block]; ok {
				succs[i] = append(succs[i], j)
			}
		}
	}
	// Reverse post-order from the entry (iterative DFS).
	const unvisited = -1
	rpoNum := make([]int32, n)
	for i := range rpoNum {
		rpoNum[i] = unvisited
	}
	order := make([]int32, 0, n) // post-order
	type frame struct{ b, next int32 }
	visited := make([]bool, n)
	stack := []frame{{0, 0}}
	visited[0] = true
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if int(f.next) < len(succs[f.b]) {
			s := succs[f.b][f.next]
			f.next++
			if !visited[s] {
				visited[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		order = append(order, f.b)
		stack = stack[:len(stack)-1]
	}
	rpo := make([]int32, len(order))
	for i, b := range order {
		rpo[len(order)-1-i] = b
		rpoNum[b] = int32(len(order) - 1 - i)
	}
	preds := make([][]int32, n)
	for _, b := range rpo {
		for _, s := range succs[b] {
			preds[s] = append(preds[s], b)
		}
	}
	idom := make([]int32, n)
	for i := range idom {
		idom[i] = unvisited
	}
	idom[0] = 0
	intersect := func(a, b int32) int32 {
		for a != b {
			for rpoNum[a] > rpoNum[b] {
				a = idom[a]
			}
			for rpoNum[b] > rpoNum[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, b := range rpo[1:] {
			nd := int32(unvisited)
			for _, p := range preds[b] {
				if idom[p] == unvisited {
					continue
				}
				if nd == unvisited {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if idom[b] != nd {
				idom[b] = nd
				changed = true
			}
		}
	}
	// Number the tree: children lists, then an iterative DFS.
	children := make([][]int32, n)
	for _, b := range rpo[1:] {
		children[idom[b]] = append(children[idom[b]], b)
	}
	for i := range t.pre {
		t.pre[i], t.post[i] = unvisited, unvisited
	}
	clock := int32(0)
	stack = append(stack[:0], frame{0, 0})
	t.pre[0] = clock
	clock++
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if int(f.next) < len(children[f.b]) {
			c := children[f.b][f.next]
			f.next++
			t.pre[c] = clock
			clock++
			stack = append(stack, frame{c, 0})
			continue
		}
		t.post[f.b] = clock
		clock++
		stack = stack[:len(stack)-1]
	}
	return t
}

// reachable reports whether b (a block of the tree's region) is reachable
// from the entry block.
func (t *domTree) reachable(b *Block) bool {
	i, ok := t.index[b]
	return ok && t.pre[i] >= 0
}

// dominates reports whether block a dominates block b (both of the tree's
// region). As in MLIR (and LLVM), an unreachable block is dominated by
// every block and dominates none but itself.
func (t *domTree) dominates(a, b *Block) bool {
	if a == b {
		return true
	}
	ia, ok1 := t.index[a]
	ib, ok2 := t.index[b]
	if !ok1 || !ok2 {
		return false
	}
	if t.pre[ib] < 0 {
		return true
	}
	if t.pre[ia] < 0 {
		return false
	}
	return t.pre[ia] <= t.pre[ib] && t.post[ib] <= t.post[ia]
}
