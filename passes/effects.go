package passes

import "github.com/layoutopt/layoutopt/ir"

// The memory-effect model that -cse and -canonicalize share, after MLIR's
// MemoryEffectOpInterface as Triton's ops implement it. An op's effects
// come from its traits: ir.Pure ops have none, ir.MemoryRead and
// ir.MemoryWrite say what they do; an op with neither (and any unregistered
// op) has unknown effects and is treated as if it wrote memory. A few ops
// need more than their traits say, as in Triton: a volatile tt.load also
// writes, ttg.local_alloc and ttng.tmem_alloc allocate their result (and
// write it when given an initial value) unless it is immutable and not yet
// placed (then they have none). The ops of recursiveEffects have
// the effects of the ops in their regions (MLIR's RecursiveMemoryEffects).

// recursiveEffects are the ops whose effects are those of their bodies.
var recursiveEffects = map[string]bool{
	"scf.for":                        true,
	"scf.if":                         true,
	"scf.while":                      true,
	"scf.execute_region":             true,
	"scf.index_switch":               true,
	"ttg.warp_specialize":            true,
	"ttg.warp_specialize.partitions": true,
}

// allocOps allocate the memory their result refers to.
var allocOps = map[string]bool{
	"ttg.local_alloc": true,
	"ttng.tmem_alloc": true,
}

// allocOffsetAttr names the attribute the allocation passes give an alloc
// op once its memory is placed.
var allocOffsetAttr = map[string]string{
	"ttg.local_alloc": "allocation.offset",
	"ttng.tmem_alloc": "tensor_memory_col_offset",
}

// immutableAlloc reports whether alloc op's result is an immutable memdesc
// not yet given an offset: Triton's LocalAllocOp and TMEMAllocOp declare no
// effects then, so that CSE and DCE work on them before allocation.
func immutableAlloc(op *ir.Operation) bool {
	if op.NumResults() != 1 || op.Attr(allocOffsetAttr[op.Name()]) != nil {
		return false
	}
	t, ok := op.Result(0).Type().(*ir.MemDescType)
	return ok && !t.Mutable
}

// effectSet is what an op does to memory by itself (not counting the ops
// in its regions).
type effectSet struct {
	known bool // the op declares its effects; false: assume anything
	read  bool
	write bool
	alloc bool // allocates its own result (harmless when the result is dead)
}

func opEffects(op *ir.Operation) effectSet {
	if op.Def() == nil || recursiveEffects[op.Name()] {
		return effectSet{}
	}
	name := op.Name()
	if allocOps[name] {
		if immutableAlloc(op) {
			return effectSet{known: true}
		}
		return effectSet{known: true, alloc: true, write: op.NumOperands() > 0}
	}
	read, write := op.HasTrait(ir.MemoryRead), op.HasTrait(ir.MemoryWrite)
	if !read && !write && !op.HasTrait(ir.Pure) {
		return effectSet{}
	}
	if name == "tt.load" {
		if _, ok := op.Attr("isVolatile").(*ir.UnitAttr); ok {
			write = true
		} else if b, ok := op.Attr("isVolatile").(*ir.BoolAttr); ok && b.Value {
			write = true
		}
	}
	return effectSet{known: true, read: read, write: write}
}

// memoryEffectFree reports whether op and, for ops with recursive effects,
// every op nested in it have no memory effect (MLIR's isMemoryEffectFree).
func memoryEffectFree(op *ir.Operation) bool {
	if !recursiveEffects[op.Name()] || op.Def() == nil {
		e := opEffects(op)
		return e.known && !e.read && !e.write && !e.alloc
	}
	for _, r := range op.Regions() {
		for _, b := range r.Blocks {
			for o := b.First(); o != nil; o = o.Next() {
				if !memoryEffectFree(o) {
					return false
				}
			}
		}
	}
	return true
}

// onlyReads reports whether op's only effect is reading memory.
func onlyReads(op *ir.Operation) bool {
	e := opEffects(op)
	return e.known && e.read && !e.write && !e.alloc
}

// mayWrite reports whether op may write memory, counting unknown effects
// (and ops with recursive effects, as MLIR's CSE does) as writes.
func mayWrite(op *ir.Operation) bool {
	e := opEffects(op)
	return !e.known || e.write
}

// wouldBeTriviallyDead reports whether op could be erased if its results
// were unused: it is not a terminator and it, and the ops nested in it when
// its effects are recursive, only read memory or allocate their own
// results (MLIR's wouldOpBeTriviallyDead).
func wouldBeTriviallyDead(op *ir.Operation) bool {
	if op.HasTrait(ir.Terminator) {
		return false
	}
	var ok func(o *ir.Operation) bool
	ok = func(o *ir.Operation) bool {
		if recursiveEffects[o.Name()] && o.Def() != nil {
			for _, r := range o.Regions() {
				for _, b := range r.Blocks {
					for n := b.First(); n != nil; n = n.Next() {
						if !ok(n) {
							return false
						}
					}
				}
			}
			return true
		}
		e := opEffects(o)
		return e.known && !e.write
	}
	return ok(op)
}

// triviallyDead reports whether op has no used result and could be
// erased (MLIR's isOpTriviallyDead).
func triviallyDead(op *ir.Operation) bool {
	for _, r := range op.Results() {
		if !r.UseEmpty() {
			return false
		}
	}
	return wouldBeTriviallyDead(op)
}
