package passes

import (
	"maps"
	"math"
	"slices"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// Triton 3.6's Membar analysis (lib/Analysis/Membar.cpp): a dataflow over
// each function's control flow that tracks the shared-memory intervals
// read and written since the last barrier and inserts a ttg.local_barrier
// before an op whose accesses conflict with them (read after write, write
// after read, write after write on intersecting byte intervals of the
// allocation), and after every ttg.async_wait / ttng.async_tma_store_wait
// not already followed by a barrier. Control flow is split into "virtual
// blocks" (a block from its start or from just after a region op up to its
// terminator or next region op); loops iterate to a fixed point. A call
// carries its callee's pending accesses. Ops with scratch buffers write
// their scratch, synchronise internally (unless they are warp-synchronous
// conversions) and leave a pending read of it.

// LocalBarrierOp is the op Membar inserts.
const LocalBarrierOp = "ttg.local_barrier"

// MembarFilter reports whether the barrier between two conflicting ops may
// be skipped (Triton's MembarFilterFn).
type MembarFilter func(before, after *ir.Operation) bool

// NvidiaCanSkipBarSync is Triton's NVIDIA::canSkipBarSync: mbarrier
// initialisations (or invalidations) need no barrier between themselves;
// two waits do; waits, TMA copies and gathers and barrier_expects may run
// in any order across threads; and after a TMA copy, gather or wait any
// access but an invalidation is safe.
func NvidiaCanSkipBarSync(before, after *ir.Operation) bool {
	b, a := before.Name(), after.Name()
	if b == "ttng.init_barrier" && a == "ttng.init_barrier" || b == "ttng.inval_barrier" && a == "ttng.inval_barrier" {
		return true
	}
	if b == "ttng.wait_barrier" && a == "ttng.wait_barrier" {
		return false
	}
	unordered := func(n string) bool {
		switch n {
		case "ttng.wait_barrier", "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather", "ttng.barrier_expect":
			return true
		}
		return false
	}
	if unordered(b) && unordered(a) {
		return true
	}
	switch b {
	case "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather", "ttng.wait_barrier":
		return a != "ttng.inval_barrier"
	}
	return false
}

// blockInfo is the pending shared-memory accesses: for each byte interval
// the ops that read (write) it since the last barrier.
type blockInfo struct {
	reads, writes map[Interval]map[*ir.Operation]bool
}

func newBlockInfo() *blockInfo {
	return &blockInfo{reads: map[Interval]map[*ir.Operation]bool{}, writes: map[Interval]map[*ir.Operation]bool{}}
}

func (b *blockInfo) add(m map[Interval]map[*ir.Operation]bool, iv Interval, op *ir.Operation) {
	s := m[iv]
	if s == nil {
		s = map[*ir.Operation]bool{}
		m[iv] = s
	}
	s[op] = true
}

func (b *blockInfo) clone() *blockInfo {
	c := newBlockInfo()
	c.join(b)
	return c
}

func (b *blockInfo) join(o *blockInfo) {
	for iv, ops := range o.reads {
		for op := range ops {
			b.add(b.reads, iv, op)
		}
	}
	for iv, ops := range o.writes {
		for op := range ops {
			b.add(b.writes, iv, op)
		}
	}
}

func (b *blockInfo) sync() {
	clear(b.reads)
	clear(b.writes)
}

func (b *blockInfo) empty() bool { return len(b.reads) == 0 && len(b.writes) == 0 }

func (b *blockInfo) equal(o *blockInfo) bool {
	eq := func(x, y map[Interval]map[*ir.Operation]bool) bool {
		return maps.EqualFunc(x, y, func(a, b map[*ir.Operation]bool) bool { return maps.Equal(a, b) })
	}
	return eq(b.reads, o.reads) && eq(b.writes, o.writes)
}

// conflicts reports whether o's accesses, coming after b's, need a barrier:
// read after write, write after read or write after write on intersecting
// intervals, for some pair of ops the filter does not excuse.
func (b *blockInfo) conflicts(o *blockInfo, filter MembarFilter) bool {
	hit := func(x, y map[Interval]map[*ir.Operation]bool) bool {
		for ix, ox := range x {
			for iy, oy := range y {
				if !ix.Intersects(iy) {
					continue
				}
				for p := range ox {
					for q := range oy {
						if filter == nil || !filter(p, q) {
							return true
						}
					}
				}
			}
		}
		return false
	}
	return hit(b.writes, o.reads) || hit(b.reads, o.writes) || hit(b.writes, o.writes)
}

// sharedAccesses returns the memdesc values op reads and writes in shared
// memory, as Triton 3.6's ops declare their MemoryEffects on SharedMemory.
func sharedAccesses(op *ir.Operation) (reads, writes []*ir.Value) {
	named := func(n string) *ir.Value { return op.NamedOperand(n) }
	isMem := func(v *ir.Value) bool {
		if v == nil {
			return false
		}
		_, ok := v.Type().(*ir.MemDescType)
		return ok
	}
	addR := func(vs ...*ir.Value) {
		for _, v := range vs {
			if isMem(v) {
				reads = append(reads, v)
			}
		}
	}
	addW := func(vs ...*ir.Value) {
		for _, v := range vs {
			if isMem(v) {
				writes = append(writes, v)
			}
		}
	}
	switch op.Name() {
	case "ttg.local_alloc":
		if op.NumOperands() > 0 && op.NumResults() == 1 {
			addW(op.Result(0))
		}
	case "ttg.local_load":
		addR(named("src"))
	case "ttg.local_store":
		addW(named("dst"))
	case "ttg.async_copy_global_to_local":
		if op.NumOperands() > 1 {
			addW(op.Operand(1))
		}
	case "ttng.init_barrier", "ttng.inval_barrier", "ttng.barrier_expect":
		addW(named("alloc"))
	case "ttng.wait_barrier", "ttng.arrive_barrier":
		addR(named("alloc"))
		addW(named("alloc"))
	case "ttng.warp_group_dot":
		addR(named("a"), named("b"))
	case "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather":
		addW(named("barrier"), named("result"))
	case "ttng.async_tma_copy_local_to_global", "ttng.async_tma_scatter":
		addR(named("src"))
	case "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled":
		// The completion barriers are arrived on asynchronously, not
		// accessed in program order (Triton's membar.mlir expects no
		// barrier between an MMA and the wait on its barrier).
		addR(named("a"), named("b"))
	case "ttng.tc_gen5_commit":
		addW(named("barrier"))
	case "ttng.tmem_copy":
		addR(named("src"))
		addW(named("barrier"))
	}
	return reads, writes
}

// regionBranchOps are the ops whose regions Membar follows as control flow
// (MLIR's RegionBranchOpInterface).
var regionBranchOps = map[string]bool{
	"scf.for": true, "scf.if": true, "scf.while": true,
	"scf.execute_region": true, "scf.index_switch": true,
}

// virtualBlock is a block from the start (after == nil) or from just after
// a region op.
type virtualBlock struct {
	block *ir.Block
	after *ir.Operation
}

type membar struct {
	fa       *FuncAllocation
	filter   MembarFilter
	funcInfo map[*ir.Operation]*blockInfo
	funcs    map[string]*ir.Operation
	inserted int
}

// InsertBarriers runs Membar over every function of the allocation's module
// (callees first) and inserts ttg.local_barrier ops; it returns how many
// it inserted. The allocation must be of the module as it is now.
func InsertBarriers(m *ModuleAllocation, filter MembarFilter) (int, error) {
	funcInfo := map[*ir.Operation]*blockInfo{}
	funcs, _ := moduleFuncs(m.Module)
	n := 0
	for _, f := range m.Order {
		mb := &membar{fa: m.Funcs[f], filter: filter, funcInfo: funcInfo, funcs: funcs}
		if err := mb.resolve(f); err != nil {
			return n, err
		}
		n += mb.inserted
	}
	return n, nil
}

func (mb *membar) resolve(f *ir.Operation) error {
	in := map[virtualBlock]*blockInfo{}
	out := map[virtualBlock]*blockInfo{}
	var queue []virtualBlock
	f.Walk(func(op *ir.Operation) ir.WalkResult {
		if regionBranchOps[op.Name()] {
			return ir.Advance
		}
		for _, r := range op.Regions() {
			if e := r.Entry(); e != nil {
				queue = append(queue, virtualBlock{block: e})
			}
		}
		return ir.Advance
	})
	for len(queue) > 0 {
		vb := queue[0]
		queue = queue[1:]
		cur := newBlockInfo()
		if i := in[vb]; i != nil {
			cur = i.clone()
		}
		var succ []virtualBlock
		start := vb.block.First()
		if vb.after != nil {
			start = vb.after.Next()
		}
		for op := start; op != nil; op = op.Next() {
			if op.HasTrait(ir.Terminator) || regionBranchOps[op.Name()] {
				s, err := mb.successors(op)
				if err != nil {
					return err
				}
				succ = s
				break
			}
			if err := mb.update(op, cur); err != nil {
				return err
			}
		}
		if o := out[vb]; o != nil && cur.equal(o) {
			continue
		}
		out[vb] = cur
		for _, s := range succ {
			if in[s] == nil {
				in[s] = newBlockInfo()
			}
			in[s].join(cur)
			queue = append(queue, s)
		}
	}
	// What is still pending when the function returns.
	fi := newBlockInfo()
	f.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() != "tt.return" {
			return ir.Advance
		}
		var last *virtualBlock
		for vb := range out {
			if vb.block != op.Block() {
				continue
			}
			if last == nil || last.after == nil && vb.after != nil ||
				last.after != nil && vb.after != nil && last.after.IsBefore(vb.after) {
				v := vb
				last = &v
			}
		}
		if last != nil {
			fi.join(out[*last])
		}
		return ir.Advance
	})
	mb.funcInfo[f] = fi
	return nil
}

// successors is Membar's visitTerminator: the virtual blocks control may
// reach from a terminator or region op.
func (mb *membar) successors(op *ir.Operation) ([]virtualBlock, error) {
	if len(op.Successors) > 0 {
		var out []virtualBlock
		for _, s := range op.Successors {
			out = append(out, virtualBlock{block: s.Block})
		}
		return out, nil
	}
	entry := func(r *ir.Region) virtualBlock { return virtualBlock{block: r.Entry()} }
	after := func(p *ir.Operation) virtualBlock { return virtualBlock{block: p.Block(), after: p} }
	if regionBranchOps[op.Name()] {
		switch op.Name() {
		case "scf.for":
			return []virtualBlock{entry(op.Region(0)), after(op)}, nil
		case "scf.if":
			out := []virtualBlock{entry(op.Region(0))}
			if op.NumRegions() > 1 && op.Region(1).Entry() != nil {
				return append(out, entry(op.Region(1))), nil
			}
			return append(out, after(op)), nil
		case "scf.while":
			return []virtualBlock{entry(op.Region(0))}, nil
		default:
			var out []virtualBlock
			for _, r := range op.Regions() {
				if r.Entry() != nil {
					out = append(out, entry(r))
				}
			}
			return out, nil
		}
	}
	if p := op.ParentOp(); p != nil && regionBranchOps[p.Name()] {
		region := op.Block().Parent()
		switch p.Name() {
		case "scf.for":
			return []virtualBlock{entry(region), after(p)}, nil
		case "scf.while":
			if region == p.Region(0) { // scf.condition
				return []virtualBlock{entry(p.Region(1)), after(p)}, nil
			}
			return []virtualBlock{entry(p.Region(0))}, nil
		default:
			return []virtualBlock{after(p)}, nil
		}
	}
	if op.HasTrait(ir.ReturnLike) {
		return nil, nil
	}
	return nil, opError(op, "membar: unknown terminator %s", op.Name())
}

func isBarrier(op *ir.Operation) bool {
	if op == nil {
		return false
	}
	switch op.Name() {
	case LocalBarrierOp, "gpu.barrier", "ttg.barrier":
		return true
	}
	return false
}

// insertBarrier creates a ttg.local_barrier before (or after) at.
func (mb *membar) insertBarrier(at *ir.Operation, after bool) {
	b := ir.NewOperation(LocalBarrierOp, nil, nil, nil, 0)
	b.Loc = at.Loc
	b.SetPos(at.Pos())
	if after {
		at.Block().InsertAfter(at, b)
	} else {
		at.Block().InsertBefore(at, b)
	}
	mb.inserted++
}

// update is MembarAnalysis::update for one op.
func (mb *membar) update(op *ir.Operation, info *blockInfo) error {
	if isBarrier(op) {
		info.sync()
		return nil
	}
	if (op.Name() == "ttg.async_wait" || op.Name() == "ttng.async_tma_store_wait") && !isBarrier(op.Next()) {
		mb.insertBarrier(op, true)
		info.sync()
		return nil
	}
	cur := newBlockInfo()
	var scratch *Buffer
	if op.Name() == "tt.call" {
		if fi := mb.funcInfo[callee(op, mb.funcs)]; fi != nil {
			cur.join(fi)
		}
	} else {
		reads, writes := sharedAccesses(op)
		for _, v := range reads {
			for _, b := range mb.fa.ValueBuffers(v) {
				cur.add(cur.reads, b.Bytes(), op)
			}
		}
		for _, v := range writes {
			for _, b := range mb.fa.ValueBuffers(v) {
				cur.add(cur.writes, b.Bytes(), op)
			}
		}
		if op.Name() == "ttng.arrive_barrier" {
			all := Interval{0, math.MaxInt}
			cur.add(cur.writes, all, op)
			cur.add(cur.reads, all, op)
		}
		scratch = mb.fa.OpBuffer(op)
	}
	if scratch != nil {
		if !cur.empty() {
			return opError(op, "membar: an op with a scratch buffer must not access other shared memory")
		}
		warpSync, err := cvtWarpSync(op)
		if err != nil {
			return err
		}
		iv := scratch.Bytes()
		cur.add(cur.writes, iv, op)
		conflict := info.conflicts(cur, mb.filter)
		if conflict {
			mb.insertBarrier(op, false)
		}
		if conflict || !warpSync {
			info.sync()
		}
		cur.add(cur.reads, iv, op)
	} else if info.conflicts(cur, mb.filter) {
		mb.insertBarrier(op, false)
		info.sync()
	}
	info.join(cur)
	return nil
}

// cvtWarpSync is Triton's isCvtWarpSync for a ttg.convert_layout (see
// CvtWarpSync), false for any other op.
func cvtWarpSync(op *ir.Operation) (bool, error) {
	if op.Name() != opConvert {
		return false, nil
	}
	src, _, err := tensorLayout(op.Operand(0))
	if err != nil {
		return false, err
	}
	dst, _, err := tensorLayout(op.Result(0))
	if err != nil {
		return false, err
	}
	return CvtWarpSync(src, dst)
}

// CvtWarpSync is Triton 3.6's isCvtWarpSync (lib/Analysis/Utility.cpp)
// for a conversion from layout src to dst: the conversion moves data only
// within warps (dst⁻¹∘src is trivial over the warp in-dim: an element
// stays in the warp that held it) and neither layout broadcasts over warps
// (no element is held by two warps). Each warp then reads back from
// shared memory only what it wrote itself, so the lowering synchronises
// its round trip with a warp barrier (bar.warp.sync -1) instead of a CTA
// barrier, and Membar does not count the conversion as a barrier that
// clears earlier accesses. The LLVM lowering and Membar must both use
// this predicate: Membar relies on the CTA barrier of every conversion
// for which it is false.
func CvtWarpSync(src, dst linear.Layout) (bool, error) {
	comp, err := dst.InvertAndCompose(src)
	if err != nil {
		return false, err
	}
	if !comp.IsTrivialOver([]string{"warp"}) {
		return false, nil
	}
	for _, l := range []linear.Layout{src, dst} {
		if i := slices.Index(l.InDimNames(), "warp"); i >= 0 && l.FreeVariableMasks()[i] != 0 {
			return false, nil
		}
	}
	return true, nil
}

// TestPrintMembarPass is Triton's -test-print-membar.
var TestPrintMembarPass = &Pass{
	Name:    "test-print-membar",
	Summary: "Insert ttg.local_barrier between conflicting shared-memory accesses (Triton's Membar analysis, as its test pass runs it)",
	Doc: `Computes the shared-memory allocation (allocate-shared-memory's analysis, without
writing it) and runs Triton 3.6's Membar analysis with NVIDIA's barrier filter
(NVIDIA::canSkipBarSync), inserting a ttg.local_barrier:

  - before an op whose shared-memory reads or writes intersect an interval
    written (or, for a write, read) since the last barrier, following scf.for /
    scf.if / scf.while regions and branches, loops to a fixed point;
  - after every ttg.async_wait and ttng.async_tma_store_wait not already
    followed by a barrier;
  - before an op with a scratch buffer (a conversion through shared memory, a
    reduction across warps, ...) whose scratch conflicts with pending accesses;
    such an op synchronises internally, so it clears what is pending, unless it
    is a conversion within warps (warp.sync);
  - around calls, using what the callee leaves pending.

The printed module is the result, as in Triton's lit tests. The LLVM lowering
calls passes.InsertBarriers directly with its own allocation.`,
	Run: func(ctx *Context, module *ir.Operation) error {
		m, err := AllocateModule(module, DefaultScratchSize)
		if err != nil {
			return reportError(ctx, module, err)
		}
		n, err := InsertBarriers(m, NvidiaCanSkipBarSync)
		if err != nil {
			return reportError(ctx, module, err)
		}
		if n > 0 {
			ctx.MarkChanged()
		}
		return nil
	},
}

func init() { MustRegister(TestPrintMembarPass) }
