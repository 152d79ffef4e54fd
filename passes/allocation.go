package passes

import (
	"fmt"
	"math"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// Shared-memory allocation as Triton 3.6 computes it (lib/Analysis/
// Allocation.cpp: ModuleAllocation, AllocationAnalysis). Every shared buffer
// of a function — a ttg.local_alloc in shared memory (explicit), the scratch
// an op needs while it runs (a convert_layout through shared memory, a
// cross-warp reduce, ...), and the callee frame of a call (virtual) — gets a
// liveness interval over post-order op numbers and an offset; buffers that
// are live at the same time never overlap. The offsets come from Triton's
// algorithm: buffers sorted by size (largest first, stable), a first-fit
// placement over (offset, liveness) triples, then graph colouring of the
// buffers that still overlap, repeated until no two live buffers share
// bytes.

// Interval is a half-open interval [Start, End) of op numbers or bytes.
// The zero-width default of Triton's Interval (the whole range) is
// Interval{0, math.MaxInt}.
type Interval struct{ Start, End int }

// Intersects reports whether the intervals share a point.
func (a Interval) Intersects(b Interval) bool { return a.Start < b.End && b.Start < a.End }

// wholeInterval is Triton's default Interval: everything.
var wholeInterval = Interval{0, math.MaxInt}

// BufferKind says what a buffer holds.
type BufferKind int

const (
	// Explicit buffers belong to a ttg.local_alloc in shared memory.
	Explicit BufferKind = iota
	// Scratch buffers are an op's temporary storage while it runs.
	Scratch
	// Virtual buffers stand for the shared memory of a called function.
	Virtual
)

func (k BufferKind) String() string {
	switch k {
	case Explicit:
		return "explicit"
	case Scratch:
		return "scratch"
	case Virtual:
		return "virtual"
	}
	return fmt.Sprintf("BufferKind(%d)", int(k))
}

// Buffer is one shared-memory buffer of a function.
type Buffer struct {
	ID        int
	Kind      BufferKind
	Owner     *ir.Operation // the local_alloc, or the op that needs the scratch
	Size      int           // bytes
	Alignment int           // bytes
	Offset    int           // bytes from the start of the function's frame
	Live      Interval      // op numbers (post-order) during which it is live
}

// Bytes is the byte interval [Offset, Offset+Size) the buffer occupies.
func (b *Buffer) Bytes() Interval { return Interval{b.Offset, b.Offset + b.Size} }

func (b *Buffer) setOffsetAligned(off int) int {
	b.Offset = alignTo(off, b.Alignment)
	return b.Offset
}

func alignTo(x, a int) int {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

// FuncAllocation is the allocation of one function (Triton's Allocation).
type FuncAllocation struct {
	// Func is the tt.func.
	Func *ir.Operation
	// Buffers in creation order (explicit buffers and scratch in pre-order
	// of their owners), IDs 0, 1, ...
	Buffers []*Buffer
	// SharedMemorySize is the function's frame: the end of its last buffer.
	SharedMemorySize int

	explicit map[*ir.Value]*Buffer
	aliases  map[*ir.Value][]*Buffer
	scratch  map[*ir.Operation]*Buffer // scratch and virtual buffers
	// order of the buffers as Triton's MapVectors hold them: explicit,
	// then scratch, then virtual.
	ranked []*Buffer
}

// ValueBuffer returns the explicit buffer a ttg.local_alloc result owns, or
// nil.
func (a *FuncAllocation) ValueBuffer(v *ir.Value) *Buffer { return a.explicit[v] }

// ValueBuffers returns the buffers v may refer to: its own explicit buffer
// and the allocations it aliases (through memdesc views, loop-carried
// values, region results). Nil for values that refer to no shared memory.
func (a *FuncAllocation) ValueBuffers(v *ir.Value) []*Buffer {
	if b := a.explicit[v]; b != nil {
		if al := a.aliases[v]; len(al) > 0 && !slices.Contains(al, b) {
			return append([]*Buffer{b}, al...)
		}
		return []*Buffer{b}
	}
	return a.aliases[v]
}

// OpBuffer returns the scratch or virtual buffer of op, or nil.
func (a *FuncAllocation) OpBuffer(op *ir.Operation) *Buffer { return a.scratch[op] }

// ModuleAllocation is the allocation of every function of a module
// (Triton's ModuleAllocation): functions are allocated callees first, a
// call reserves a virtual buffer as large as its callee's frame.
type ModuleAllocation struct {
	Module *ir.Operation
	// Funcs maps each tt.func to its allocation.
	Funcs map[*ir.Operation]*FuncAllocation
	// Order lists the functions callees first (the order they were
	// allocated in).
	Order []*ir.Operation
	// Roots are the functions no other function calls.
	Roots []*ir.Operation
}

// SharedMemorySize is the module's shared memory: the largest frame of a
// root function (the module's ttg.shared).
func (m *ModuleAllocation) SharedMemorySize() int {
	n := 0
	for _, f := range m.Roots {
		n = max(n, m.Funcs[f].SharedMemorySize)
	}
	return n
}

// ScratchSizeFunc returns the scratch bytes op needs (0 for none) or an
// error for an op whose size cannot be computed.
type ScratchSizeFunc func(op *ir.Operation) (int, error)

// AllocateModule computes the shared-memory allocation of every tt.func in
// module, as Triton's ModuleAllocation with the given scratch-size function
// (DefaultScratchSize or NvidiaScratchSize). Errors are *OpError.
func AllocateModule(module *ir.Operation, scratch ScratchSizeFunc) (*ModuleAllocation, error) {
	funcs, all := moduleFuncs(module)
	// The call graph.
	callees := map[*ir.Operation][]*ir.Operation{}
	called := map[*ir.Operation]bool{}
	calls := map[*ir.Operation]*ir.Operation{} // tt.call → callee
	for _, f := range all {
		var err error
		f.Walk(func(op *ir.Operation) ir.WalkResult {
			if op.Name() != "tt.call" {
				return ir.Advance
			}
			g := callee(op, funcs)
			if g == nil {
				err = opError(op, "allocation: cannot resolve the callee of this call")
				return ir.Interrupt
			}
			calls[op] = g
			if !slices.Contains(callees[f], g) {
				callees[f] = append(callees[f], g)
			}
			called[g] = true
			return ir.Advance
		})
		if err != nil {
			return nil, err
		}
	}
	m := &ModuleAllocation{Module: module, Funcs: map[*ir.Operation]*FuncAllocation{}}
	for _, f := range all {
		if !called[f] {
			m.Roots = append(m.Roots, f)
		}
	}
	// Post-order over the call graph from the roots (callees first).
	state := map[*ir.Operation]int{} // 1: on the stack, 2: done
	var visit func(f *ir.Operation) error
	visit = func(f *ir.Operation) error {
		switch state[f] {
		case 1:
			return opError(f, "allocation: recursive calls are not supported")
		case 2:
			return nil
		}
		state[f] = 1
		for _, g := range callees[f] {
			if err := visit(g); err != nil {
				return err
			}
		}
		state[f] = 2
		fa, err := allocateFunc(f, m, calls, scratch)
		if err != nil {
			return err
		}
		m.Funcs[f] = fa
		m.Order = append(m.Order, f)
		return nil
	}
	for _, f := range m.Roots {
		if err := visit(f); err != nil {
			return nil, err
		}
	}
	for _, f := range all { // functions only reachable through a cycle
		if state[f] == 0 {
			if err := visit(f); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// moduleFuncs returns the tt.funcs of a module by symbol name, and all of
// them in order.
func moduleFuncs(module *ir.Operation) (map[string]*ir.Operation, []*ir.Operation) {
	funcs := map[string]*ir.Operation{}
	var all []*ir.Operation
	module.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "tt.func" {
			if n, ok := op.Attr("sym_name").(*ir.StringAttr); ok {
				funcs[n.Value] = op
			}
			all = append(all, op)
			return ir.Skip
		}
		return ir.Advance
	})
	return funcs, all
}

// callee resolves a tt.call's callee among the module's functions.
func callee(call *ir.Operation, funcs map[string]*ir.Operation) *ir.Operation {
	if ref, ok := call.Attr("callee").(*ir.SymbolRefAttr); ok {
		return funcs[ref.Root]
	}
	return nil
}

// OpError is an error about one op: the shared-memory analyses return it
// so that a pass (or the LLVM lowering) reports it located at Op.
type OpError struct {
	Op  *ir.Operation
	Msg string
}

func (e *OpError) Error() string { return e.Msg }

func opError(op *ir.Operation, format string, args ...any) error {
	return &OpError{Op: op, Msg: fmt.Sprintf(format, args...)}
}

// allocateFunc is Triton's AllocationAnalysis for one function: buffers
// and their sizes, liveness, offsets.
func allocateFunc(f *ir.Operation, m *ModuleAllocation, calls map[*ir.Operation]*ir.Operation, scratch ScratchSizeFunc) (*FuncAllocation, error) {
	fa := &FuncAllocation{Func: f, explicit: map[*ir.Value]*Buffer{},
		aliases: map[*ir.Value][]*Buffer{}, scratch: map[*ir.Operation]*Buffer{}}
	var explicit, scr, virt []*Buffer
	add := func(kind BufferKind, owner *ir.Operation, size, align int) *Buffer {
		b := &Buffer{ID: len(fa.Buffers), Kind: kind, Owner: owner, Size: size, Alignment: align}
		fa.Buffers = append(fa.Buffers, b)
		switch kind {
		case Explicit:
			explicit = append(explicit, b)
		case Scratch:
			scr = append(scr, b)
		default:
			virt = append(virt, b)
		}
		return b
	}
	const scratchAlignment = 128
	var err error
	f.Walk(func(op *ir.Operation) ir.WalkResult {
		// Explicit buffers.
		if op.Name() == "ttg.local_alloc" && op.NumResults() == 1 {
			if mt, ok := op.Result(0).Type().(*ir.MemDescType); ok && isSharedMemorySpace(mt) {
				size, e := memDescAllocBytes(mt)
				if e != nil {
					err = opError(op, "allocation: %v", e)
					return ir.Interrupt
				}
				fa.explicit[op.Result(0)] = add(Explicit, op, size, localAllocAlignment(op, mt))
			}
		}
		// Scratch buffers.
		switch op.Name() {
		case "tt.call":
			if g := calls[op]; g != nil {
				if n := m.Funcs[g].SharedMemorySize; n > 0 {
					fa.scratch[op] = add(Virtual, op, n, scratchAlignment)
				}
			}
			return ir.Advance
		case "ttg.warp_specialize":
			err = opError(op, "allocation: ttg.warp_specialize (capture buffers) is not supported")
			return ir.Interrupt
		case "tt.func":
			return ir.Advance // warp-specialization indices: see ttg.warp_specialize
		}
		n, e := scratch(op)
		if e != nil {
			err = opError(op, "allocation: %v", e)
			return ir.Interrupt
		}
		if n > 0 {
			fa.scratch[op] = add(Scratch, op, n, scratchAlignment)
		}
		return ir.Advance
	})
	if err != nil {
		return nil, err
	}
	aliases := sharedAliases(f)
	for v, allocs := range aliases {
		for _, a := range allocs {
			if b := fa.explicit[a]; b != nil && !slices.Contains(fa.aliases[v], b) {
				fa.aliases[v] = append(fa.aliases[v], b)
			}
		}
	}
	fa.ranked = slices.Concat(explicit, scr, virt)
	resolveLiveness(fa, aliases)
	computeOffsets(fa)
	return fa, nil
}

// isSharedMemorySpace reports whether a memdesc lives in shared memory.
func isSharedMemorySpace(mt *ir.MemDescType) bool {
	e, ok := mt.MemorySpace.(*ir.EncodingAttr)
	if !ok {
		return false
	}
	_, ok = e.Enc.(attr.SharedMemory)
	return ok
}

// localAllocAlignment is LocalAllocOp::getAlignmentOrDefault: the op's
// alignment attribute, else its shared encoding's alignment, else 16.
func localAllocAlignment(op *ir.Operation, mt *ir.MemDescType) int {
	if a, ok := op.IntAttr("alignment"); ok && a > 0 {
		return int(a)
	}
	switch e := ir.Encoding(mt).(type) {
	case *attr.NVMMAShared:
		maxPhase := 1
		if e.SwizzlingByteWidth != 0 {
			maxPhase = e.SwizzlingByteWidth / 16
		}
		return 128 * maxPhase
	case *attr.SharedLinear:
		if e.Alignment > 0 {
			return e.Alignment
		}
	}
	return 16
}

// memDescAllocBytes is the size of a local_alloc: the allocation shape per
// CTA (padded for #ttg.padded_shared, with fp4 padding for nvmma_shared)
// times the element width (64 bits for pointers).
func memDescAllocBytes(mt *ir.MemDescType) (int, error) {
	shape := mt.AllocShape
	if len(shape) == 0 {
		shape = mt.Shape
	}
	dims := make([]int, len(shape))
	for i, s := range shape {
		dims[i] = int(s)
	}
	enc := ir.Encoding(mt)
	split := ctaSplit(enc, len(dims))
	n := 1
	for i, d := range dims {
		if split[i] > 0 && d >= split[i] {
			d /= split[i]
		}
		dims[i] = d
		n *= d
	}
	switch e := enc.(type) {
	case *attr.NVMMAShared:
		if e.FP4Padded && len(dims) >= 2 {
			n *= 2
		}
	case *attr.PaddedShared:
		n = paddedSize(e, n)
	}
	bits := elemBits(mt)
	if bits == 0 {
		return 0, fmt.Errorf("the element type %s has no known width", ir.TypeString(mt.Elem))
	}
	return n * bits / 8, nil
}

// paddedSize is PaddedSharedEncodingAttr::getPaddedSize.
func paddedSize(e *attr.PaddedShared, n int) int {
	pad := 0
	for i, iv := range e.Intervals {
		if iv <= 0 || i >= len(e.Paddings) {
			continue
		}
		pad += n / iv * e.Paddings[i]
		if n%iv == 0 {
			pad -= e.Paddings[i]
		}
	}
	return n + pad
}

// ctaSplit is the number of CTAs each dim of a shared layout is split over
// (Triton's getCTASplitNum): 2^(number of CGA bases along the dim).
func ctaSplit(enc attr.Encoding, rank int) []int {
	split := make([]int, rank)
	for i := range split {
		split[i] = 1
	}
	var cga attr.CGALayout
	switch e := enc.(type) {
	case *attr.SwizzledShared:
		cga = e.CGA
	case *attr.NVMMAShared:
		cga = e.CGA
	case *attr.AMDRotatingShared:
		cga = e.CGA
	default:
		return split
	}
	for _, b := range cga.Bases {
		for d, x := range b {
			if x != 0 && d < rank {
				split[d] *= 2
				break
			}
		}
	}
	return split
}

// viewOps are the ops with Triton's MemDescViewTrait: their result is a
// view of their source's memory.
var viewOps = map[string]bool{
	"ttg.memdesc_index":       true,
	"ttg.memdesc_subslice":    true,
	"ttg.memdesc_trans":       true,
	"ttg.memdesc_reshape":     true,
	"ttg.memdesc_reinterpret": true,
	"ttng.tmem_subslice":      true,
}

// sharedAliases is Triton's SharedMemoryAliasAnalysis: for every memdesc
// value of f, the ttg.local_alloc results (in shared memory) it may refer
// to. local_alloc results alias themselves, views their source, and values
// flowing through scf.for / scf.if / scf.while / branches the union of
// what flows in. Other ops that produce memdescs alias nothing.
func sharedAliases(f *ir.Operation) map[*ir.Value][]*ir.Value {
	al := map[*ir.Value][]*ir.Value{}
	join := func(dst *ir.Value, src []*ir.Value) bool {
		changed := false
		for _, s := range src {
			if !slices.Contains(al[dst], s) {
				al[dst] = append(al[dst], s)
				changed = true
			}
		}
		return changed
	}
	forward := func(dsts, srcs []*ir.Value) bool {
		changed := false
		for i := 0; i < len(dsts) && i < len(srcs); i++ {
			if _, ok := dsts[i].Type().(*ir.MemDescType); ok {
				changed = join(dsts[i], al[srcs[i]]) || changed
			}
		}
		return changed
	}
	for changed := true; changed; {
		changed = false
		f.Walk(func(op *ir.Operation) ir.WalkResult {
			switch {
			case op.Name() == "ttg.local_alloc" && op.NumResults() == 1:
				if mt, ok := op.Result(0).Type().(*ir.MemDescType); ok && isSharedMemorySpace(mt) {
					changed = join(op.Result(0), []*ir.Value{op.Result(0)}) || changed
				}
			case viewOps[op.Name()] && op.NumOperands() > 0 && op.NumResults() == 1:
				changed = join(op.Result(0), al[op.Operand(0)]) || changed
			case op.Name() == "scf.for" && op.NumRegions() == 1:
				body := op.Region(0).Entry()
				inits := op.Operands()[3:]
				changed = forward(body.Args()[1:], inits) || changed
				changed = forward(op.Results(), inits) || changed
				if y := body.Last(); y != nil {
					changed = forward(body.Args()[1:], y.Operands()) || changed
					changed = forward(op.Results(), y.Operands()) || changed
				}
			case op.Name() == "scf.if":
				for _, r := range op.Regions() {
					if b := r.Entry(); b != nil && b.Last() != nil {
						changed = forward(op.Results(), b.Last().Operands()) || changed
					}
				}
			case op.Name() == "scf.while" && op.NumRegions() == 2:
				before, after := op.Region(0).Entry(), op.Region(1).Entry()
				changed = forward(before.Args(), op.Operands()) || changed
				if y := after.Last(); y != nil {
					changed = forward(before.Args(), y.Operands()) || changed
				}
				if c := before.Last(); c != nil && c.NumOperands() > 0 {
					changed = forward(after.Args(), c.Operands()[1:]) || changed
					changed = forward(op.Results(), c.Operands()[1:]) || changed
				}
			case len(op.Successors) > 0:
				ops := op.Operands()
				start := len(ops)
				for _, s := range op.Successors {
					start -= s.NumOperands
				}
				for _, s := range op.Successors {
					changed = forward(s.Block.Args(), ops[start:start+s.NumOperands]) || changed
					start += s.NumOperands
				}
			}
			return ir.Advance
		})
	}
	return al
}

// resolveLiveness sets every buffer's live interval as Triton does: op
// numbers in post-order (a parent after its children), an explicit buffer
// live over the ops where its value (and every value aliasing it) is live
// in MLIR's Liveness, a scratch or virtual buffer over its op alone.
func resolveLiveness(fa *FuncAllocation, aliases map[*ir.Value][]*ir.Value) {
	ids := map[*ir.Operation]int{}
	fa.Func.WalkPost(func(op *ir.Operation) ir.WalkResult {
		ids[op] = len(ids)
		return ir.Advance
	})
	lv := newLiveness()
	rangeOf := func(v *ir.Value) Interval {
		lo, hi := math.MaxInt, 0
		for _, op := range lv.liveOps(v) {
			lo = min(lo, ids[op])
			hi = max(hi, ids[op]+1)
		}
		return Interval{lo, hi}
	}
	set := map[*Buffer]bool{}
	for v, b := range fa.explicit {
		b.Live = rangeOf(v)
		set[b] = true
	}
	// Aliases extend the buffers they refer to. Triton visits the alias map
	// in insertion order; the result is a union, so order does not matter.
	for v := range aliases {
		bufs := fa.aliases[v]
		if len(bufs) == 0 {
			continue
		}
		r := rangeOf(v)
		for _, b := range bufs {
			if set[b] {
				b.Live = Interval{min(b.Live.Start, r.Start), max(b.Live.End, r.End)}
			} else {
				b.Live, set[b] = r, true
			}
		}
	}
	for op, b := range fa.scratch {
		b.Live = Interval{ids[op], ids[op] + 1}
	}
}

// computeOffsets is AllocationAnalysis::computeOffsets.
func computeOffsets(fa *FuncAllocation) {
	bufs := slices.Clone(fa.ranked)
	slices.SortStableFunc(bufs, func(a, b *Buffer) int { return b.Size - a.Size })
	calculateStarts(bufs)
	g := interference(bufs)
	for {
		allocateColors(fa, bufs, g)
		g = interference(bufs)
		if len(g) == 0 {
			break
		}
	}
	if len(bufs) == 0 {
		fa.SharedMemorySize = 0
	}
}

// triple is a free slot: memory from offset up, over a liveness range.
type triple struct {
	offset int
	live   Interval
}

// calculateStarts places the buffers first-fit over (offset, liveness)
// slots, lowest offset first (Triton's std::multimap keeps slots of equal
// offset in insertion order), each time taking the first buffer (in size
// order) whose liveness meets the slot's and no other open slot's.
func calculateStarts(bufs []*Buffer) {
	slots := []triple{{0, wholeInterval}}
	insert := func(t triple) { // after the last slot of offset <= t.offset
		i := len(slots)
		for i > 0 && slots[i-1].offset > t.offset {
			i--
		}
		slots = slices.Insert(slots, i, t)
	}
	rest := slices.Clone(bufs)
	for len(rest) > 0 && len(slots) > 0 {
		s := slots[0]
		slots = slots[1:]
		pick := -1
		for i, b := range rest {
			if !b.Live.Intersects(s.live) {
				continue
			}
			clear := true
			for _, o := range slots {
				if o.live.Intersects(b.Live) {
					clear = false
					break
				}
			}
			if clear {
				pick = i
				break
			}
		}
		if pick < 0 {
			continue
		}
		b := rest[pick]
		off := b.setOffsetAligned(s.offset)
		insert(triple{off + b.Size, Interval{max(s.live.Start, b.Live.Start), min(s.live.End, b.Live.End)}})
		if s.live.Start < b.Live.Start {
			insert(triple{s.offset, Interval{s.live.Start, b.Live.End}})
		}
		if b.Live.End < s.live.End {
			insert(triple{s.offset, Interval{b.Live.Start, s.live.End}})
		}
		rest = slices.Delete(rest, pick, pick+1)
	}
}

// interference returns, for each buffer, the buffers that overlap it in
// memory while both are live (or that sit in sibling partitions of one
// ttg.warp_specialize, which run concurrently).
func interference(bufs []*Buffer) map[*Buffer][]*Buffer {
	g := map[*Buffer][]*Buffer{}
	async := make([]*ir.Operation, len(bufs))
	for i, b := range bufs {
		async[i] = asyncParent(b.Owner)
	}
	for i, x := range bufs {
		for j, y := range bufs {
			if x == y || !x.Bytes().Intersects(y.Bytes()) {
				continue
			}
			// Buffers interfere when live at the same time, or when they sit
			// in different regions of one ttg.warp_specialize (Triton's
			// AsyncRegions), which run concurrently.
			if x.Live.Intersects(y.Live) ||
				async[i] != nil && async[i] == async[j] && x.Owner.Block().Parent() != y.Owner.Block().Parent() {
				g[x] = append(g[x], y)
			}
		}
	}
	return g
}

func asyncParent(op *ir.Operation) *ir.Operation {
	if op == nil {
		return nil
	}
	for p := op.ParentOp(); p != nil; p = p.ParentOp() {
		if p.Name() == "ttg.warp_specialize" || p.Name() == "ttg.warp_specialize.partitions" {
			return p
		}
	}
	return nil
}

// allocateColors is AllocationAnalysis::allocate: first-fit colouring of
// the interference graph in size order (the first buffer gets colour 0),
// then every buffer not of colour 0 moves just past the highest buffer it
// interferes with.
func allocateColors(fa *FuncAllocation, bufs []*Buffer, g map[*Buffer][]*Buffer) {
	fa.SharedMemorySize = 0
	colors := make(map[*Buffer]int, len(bufs))
	for i, b := range bufs {
		colors[b] = -1
		if i == 0 {
			colors[b] = 0
		}
	}
	avail := make([]bool, len(bufs))
	for _, x := range bufs {
		for i := range avail {
			avail[i] = true
		}
		for _, y := range g[x] {
			if c := colors[y]; c >= 0 {
				avail[c] = false
			}
		}
		c := 0
		for c < len(avail) && !avail[c] {
			c++
		}
		colors[x] = c
	}
	for _, x := range bufs {
		off := 0
		for _, y := range g[x] {
			off = max(off, y.Offset+y.Size)
		}
		if colors[x] != 0 {
			x.setOffsetAligned(off)
		}
		fa.SharedMemorySize = max(fa.SharedMemorySize, x.Offset+x.Size)
	}
}
