package passes

import "github.com/layoutopt/layoutopt/ir"

// The canonicalizations of ttg.warp_specialize (Triton's
// WarpSpecializeOp patterns, as TritonGPU/canonicalize.mlir exercises
// them): results nobody uses are dropped with their warp_yield operands,
// captures that no partition uses are dropped with their block arguments,
// and a value captured twice is captured once. The op is
//
//	%r = ttg.warp_specialize(%captures...) default { ... ttg.warp_yield %v... }
//	     partitionN(%args...) num_warps(n) { ... ttg.warp_return } ...
//
// with the partitions held by the ttg.warp_specialize.partitions op that is
// the only op of its second region; each partition's block arguments are
// the captures. Dead warp_specialize ops (unused results, bodies without
// effects) are erased by the driver, as its effects are those of its
// regions.

const (
	opWarpSpecialize = "ttg.warp_specialize"
	opWarpYield      = "ttg.warp_yield"
)

func init() {
	RegisterCanonicalization(opWarpSpecialize, nil,
		Pattern{Name: "RemoveUnusedWarpSpecializeResults", Rewrite: wsUnusedResults},
		Pattern{Name: "RemoveDuplicateWarpSpecializeCaptures", Rewrite: wsDuplicateCaptures},
		Pattern{Name: "RemoveUnusedWarpSpecializeCaptures", Rewrite: wsUnusedCaptures},
	)
}

// wsParts returns the default region's terminator and the partition
// regions of a well-formed warp_specialize, or ok false.
func wsParts(op *ir.Operation) (yield *ir.Operation, parts []*ir.Region, ok bool) {
	if op.NumRegions() != 2 || len(op.Region(0).Blocks) != 1 || len(op.Region(1).Blocks) != 1 {
		return nil, nil, false
	}
	yield = op.Region(0).Blocks[0].Last()
	holder := op.Region(1).Blocks[0].First()
	if yield == nil || yield.Name() != opWarpYield || yield.NumOperands() != op.NumResults() || holder == nil {
		return nil, nil, false
	}
	for _, r := range holder.Regions() {
		if len(r.Blocks) != 1 || r.Blocks[0].NumArgs() != op.NumOperands() {
			return nil, nil, false
		}
	}
	return yield, holder.Regions(), true
}

func wsUnusedResults(rw *Rewriter, op *ir.Operation) bool {
	yield, _, ok := wsParts(op)
	if !ok {
		return false
	}
	var keep []int
	for i, r := range op.Results() {
		if !r.UseEmpty() {
			keep = append(keep, i)
		}
	}
	if len(keep) == op.NumResults() {
		return false
	}
	types := make([]ir.Type, len(keep))
	yielded := make([]*ir.Value, len(keep))
	for k, i := range keep {
		types[k] = op.Result(i).Type()
		yielded[k] = yield.Operand(i)
	}
	n := ir.NewOperation(op.Name(), op.Operands(), types, allAttrs(op), 0)
	n.Loc = op.Loc
	for _, r := range op.Regions() {
		nr := n.AddRegion()
		for _, b := range r.Blocks {
			nr.AddBlock(b)
		}
		r.Blocks = nil
	}
	op.Block().InsertBefore(op, n)
	yield.SetOperands(yielded)
	rw.Modified(yield)
	rw.add(n)
	rw.replaceKeptResults(op, n, keep)
	return true
}

func wsDuplicateCaptures(rw *Rewriter, op *ir.Operation) bool {
	_, parts, ok := wsParts(op)
	if !ok {
		return false
	}
	changed := false
	for j := 1; j < op.NumOperands(); j++ {
		for i := 0; i < j; i++ {
			if op.Operand(i) != op.Operand(j) {
				continue
			}
			for _, r := range parts {
				b := r.Blocks[0]
				if !b.Arg(j).UseEmpty() {
					rw.ReplaceAllUsesWith(b.Arg(j), b.Arg(i))
					changed = true
				}
			}
			break
		}
	}
	// The duplicates are now unused; wsUnusedCaptures drops them.
	if changed {
		rw.Modified(op)
	}
	return changed
}

func wsUnusedCaptures(rw *Rewriter, op *ir.Operation) bool {
	_, parts, ok := wsParts(op)
	if !ok {
		return false
	}
	var keep []*ir.Value
	var drop []int
	for i, v := range op.Operands() {
		used := false
		for _, r := range parts {
			if !r.Blocks[0].Arg(i).UseEmpty() {
				used = true
				break
			}
		}
		if used {
			keep = append(keep, v)
		} else {
			drop = append(drop, i)
		}
	}
	if len(drop) == 0 {
		return false
	}
	for _, r := range parts {
		b := r.Blocks[0]
		for k := len(drop) - 1; k >= 0; k-- {
			if err := b.EraseArg(drop[k]); err != nil {
				panic("passes: canonicalize: " + err.Error())
			}
		}
	}
	for _, v := range op.Operands() {
		if d := v.DefiningOp(); d != nil {
			rw.add(d)
		}
	}
	op.SetOperands(keep)
	rw.Modified(op)
	return true
}
