package passes

import "github.com/layoutopt/layoutopt/ir"

// MLIR's Liveness (mlir/lib/Analysis/Liveness.cpp), one value at a time,
// as Triton's allocation asks it: the ops during which a value is live.
//
// Per block, a value is used when an op anywhere inside the block (nested
// ops included) uses it and the block (nested regions included) does not
// define it; it escapes a block that defines it when a user sits in another
// block of the same region. Live-in and live-out sets follow the usual
// fixed point over each region's control-flow graph.

type liveness struct {
	// the blocks where the value last computed is live in / live out
	in, out map[*ir.Block]bool
}

func newLiveness() *liveness { return &liveness{} }

// liveOps is Liveness::resolveLiveness(v): for the block defining v and
// each block using it (and successors where it is live in), the ops from
// its start (the block's first op if v is live in or a block argument, else
// its definition) to its end (the block's last op if v is live out, else
// the last user's ancestor in the block).
func (l *liveness) liveOps(v *ir.Value) []*ir.Operation {
	l.compute(v)
	var defBlock *ir.Block
	if d := v.DefiningOp(); d != nil {
		defBlock = d.Block()
	} else {
		defBlock = v.OwnerBlock()
	}
	visited := map[*ir.Block]bool{defBlock: true}
	todo := []*ir.Block{defBlock}
	for _, u := range v.Users() {
		if b := u.Block(); b != nil && !visited[b] {
			visited[b] = true
			todo = append(todo, b)
		}
	}
	var ops []*ir.Operation
	for len(todo) > 0 {
		b := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if b.First() == nil {
			continue
		}
		start := v.DefiningOp()
		if l.in[b] || start == nil || start.Block() != b {
			start = b.First()
		}
		end := start
		if l.out[b] {
			end = b.Last()
		} else {
			users := map[*ir.Operation]bool{}
			for _, u := range v.Users() {
				if a := ancestorInBlock(b, u); a != nil {
					users[a] = true
				}
			}
			for o := start; o != nil; o = o.Next() {
				if users[o] {
					end = o
				}
			}
		}
		for o := start; ; o = o.Next() {
			ops = append(ops, o)
			if o == end || o.Next() == nil {
				break
			}
		}
		for _, s := range successors(b) {
			if l.in[s] && !visited[s] {
				visited[s] = true
				todo = append(todo, s)
			}
		}
	}
	return ops
}

// compute fills l.in and l.out for v over every region that can see it.
func (l *liveness) compute(v *ir.Value) {
	l.in, l.out = map[*ir.Block]bool{}, map[*ir.Block]bool{}
	// Regions where v appears: those of the blocks of its users and their
	// ancestors, and the defining block's region.
	regions := map[*ir.Region]bool{}
	mark := func(b *ir.Block) {
		for b != nil {
			r := b.Parent()
			if r == nil || regions[r] {
				return
			}
			regions[r] = true
			p := r.ParentOp()
			if p == nil {
				return
			}
			b = p.Block()
		}
	}
	if d := v.DefiningOp(); d != nil {
		mark(d.Block())
	} else {
		mark(v.OwnerBlock())
	}
	for _, u := range v.Users() {
		mark(u.Block())
	}
	for r := range regions {
		l.region(v, r)
	}
}

// region solves live-in/live-out of v over the blocks of r.
func (l *liveness) region(v *ir.Value, r *ir.Region) {
	type info struct{ use, def, escape bool }
	infos := make(map[*ir.Block]info, len(r.Blocks))
	for _, b := range r.Blocks {
		var in info
		in.def = definesWithin(b, v)
		for _, u := range v.Users() {
			a := ancestorBlockInRegion(r, u.Block())
			if a == nil {
				continue
			}
			if a == b {
				in.use = true
			} else if in.def {
				in.escape = true
			}
		}
		if in.def {
			in.use = false
		}
		infos[b] = in
	}
	for changed := true; changed; {
		changed = false
		for i := len(r.Blocks) - 1; i >= 0; i-- {
			b := r.Blocks[i]
			in := infos[b]
			out := in.escape
			for _, s := range successors(b) {
				out = out || l.in[s]
			}
			live := in.use || (out && !in.def)
			if out != l.out[b] || live != l.in[b] {
				l.out[b], l.in[b] = out, live
				changed = true
			}
		}
	}
}

// definesWithin reports whether v is a block argument of b or of a block
// nested in it, or the result of an op nested in b.
func definesWithin(b *ir.Block, v *ir.Value) bool {
	var blk *ir.Block
	if d := v.DefiningOp(); d != nil {
		blk = d.Block()
	} else {
		blk = v.OwnerBlock()
	}
	for blk != nil {
		if blk == b {
			return true
		}
		p := blk.ParentOp()
		if p == nil {
			return false
		}
		blk = p.Block()
	}
	return false
}

// ancestorBlockInRegion is Region::findAncestorBlockInRegion.
func ancestorBlockInRegion(r *ir.Region, b *ir.Block) *ir.Block {
	for b != nil {
		if b.Parent() == r {
			return b
		}
		p := b.ParentOp()
		if p == nil {
			return nil
		}
		b = p.Block()
	}
	return nil
}

// ancestorInBlock is Block::findAncestorOpInBlock.
func ancestorInBlock(b *ir.Block, op *ir.Operation) *ir.Operation {
	for o := op; o != nil; o = o.ParentOp() {
		if o.Block() == b {
			return o
		}
	}
	return nil
}

// successors returns the successor blocks of b's terminator.
func successors(b *ir.Block) []*ir.Block {
	t := b.Last()
	if t == nil || len(t.Successors) == 0 {
		return nil
	}
	out := make([]*ir.Block, 0, len(t.Successors))
	for _, s := range t.Successors {
		out = append(out, s.Block)
	}
	return out
}
