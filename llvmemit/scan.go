package llvmemit

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// tt.scan, as Triton's ScanOpToLLVM: an inclusive scan of each thread's
// registers along the axis, a Hillis–Steele scan of the threads' totals
// across the lanes along the axis (from the lane 2^j positions back:
// shfl.sync.up when those lanes are contiguous lane bits, else
// shfl.sync.idx), and, when warps split the axis, the warps' totals
// through shared memory. Register bits above the lanes and warps along
// the axis (a tensor longer than the layout's tile) are chunks scanned
// one after the other, each starting from the totals of the earlier ones.
// The axis bits must be ordered registers, lanes, warps, registers, as
// every blocked layout's are; other layouts are refused.

func init() { Register("tt.scan", lowerScan) }

// scanBits classifies the axis bits of S by level, from the lowest axis
// coordinate bit up: low register bits, lane bits, warp bits, chunk
// (high register) bits, each in increasing order of their basis.
type scanBits struct {
	low, lane, warp, chunk []int // in-dim bit indices
}

func classifyScan(S *linear.Layout, axis int) (*scanBits, error) {
	type bit struct {
		dim string
		k   int
		v   int
	}
	var all []bit
	for _, d := range []string{dimReg, dimLane, dimWarp} {
		ks, err := axisBits(S, d, axis)
		if err != nil {
			return nil, err
		}
		for _, k := range ks {
			v := S.Basis(d, k)[axis]
			if v&(v-1) != 0 {
				return nil, fmt.Errorf("%s basis %d along the axis is %d, not a power of two", d, k, v)
			}
			all = append(all, bit{d, k, v})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	sb := &scanBits{}
	stage := 0 // 0 low registers, 1 lanes, 2 warps, 3 chunks
	for i, b := range all {
		if b.v != 1<<i {
			return nil, fmt.Errorf("the axis bases are not one of each power of two")
		}
		switch {
		case b.dim == dimReg && stage == 0:
			sb.low = append(sb.low, b.k)
		case b.dim == dimLane && stage <= 1:
			stage = 1
			sb.lane = append(sb.lane, b.k)
		case b.dim == dimWarp && stage <= 2:
			stage = 2
			sb.warp = append(sb.warp, b.k)
		case b.dim == dimReg:
			stage = 3
			sb.chunk = append(sb.chunk, b.k)
		default:
			return nil, fmt.Errorf("the %s bits along the axis are not in the order registers, lanes, warps, registers", b.dim)
		}
	}
	return sb, nil
}

// pext gathers bits ks of x into the low bits, in order.
func (l *Lowerer) pext(x value.Value, ks []int) value.Value {
	b := l.b()
	var r value.Value = i32(0)
	for j, k := range ks {
		r = b.or(r, b.shift(b.and(x, i32(1<<k)), j-k))
	}
	return r
}

// pdep scatters the low bits of x to bits ks.
func (l *Lowerer) pdep(x value.Value, ks []int) value.Value {
	b := l.b()
	var r value.Value = i32(0)
	for j, k := range ks {
		r = b.or(r, b.shift(b.and(x, i32(1<<j)), k-j))
	}
	return r
}

// registers is the number of registers of vals (nil: a copy).
func registers(vals [][]value.Value) int {
	n := 0
	for _, v := range vals {
		if v != nil {
			n++
		}
	}
	return n
}

func lowerScan(l *Lowerer, op *ir.Operation) (err error) {
	defer recoverError(&err)
	axis := int(ir.AttrIntValue(op.Attr("axis")))
	reverse := op.Attr("reverse") != nil && ir.AttrBoolValue(op.Attr("reverse"))
	srcs := op.Operands()
	S := mustLayout(srcs[0].Type())
	sb, err := classifyScan(S, axis)
	if err != nil {
		return errorf(op, "%v", err)
	}
	combine := l.combiner(op)
	ins := make([][]value.Value, len(srcs))
	for i, s := range srcs {
		ins[i] = l.Values(s)
	}
	nLow, nLane, nWarp := len(sb.low), len(sb.lane), len(sb.warp)
	chunkShift := nLow + nLane + nWarp
	nChunks := 1 << len(sb.chunk)
	W := 1 << nWarp
	// Group the registers by (row, chunk), in scan order.
	type group struct {
		key   []int
		chunk int
		regs  []int
		vals  [][]value.Value // per register, per operand
		// incl is the inclusive total of the lanes up to the thread's
		// along the axis (nil without lanes); excl that of the lanes
		// before it, where exclOK holds (nil without lanes, or when the
		// group's one register takes incl).
		incl, excl []value.Value
		exclOK     value.Value
	}
	var groups []*group
	byKey := map[string]*group{}
	dup := dupRegisters(S)
	n := S.InDimSize(dimReg)
	outs := make([][]value.Value, len(srcs))
	for i := range outs {
		outs[i] = make([]value.Value, n)
	}
	for r := 0; r < n; r++ {
		c := S.Apply(r)
		a := c[axis]
		c[axis] = 0
		chunk := a >> chunkShift
		if reverse {
			chunk = nChunks - 1 - chunk
		}
		k := fmt.Sprint(c, chunk)
		g, ok := byKey[k]
		if !ok {
			g = &group{key: c, chunk: chunk}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.regs = append(g.regs, r)
	}
	lowMask := 1<<nLow - 1
	for _, g := range groups {
		sort.Slice(g.regs, func(i, j int) bool {
			ai, aj := S.Apply(g.regs[i])[axis]&lowMask, S.Apply(g.regs[j])[axis]&lowMask
			if reverse {
				return ai > aj
			}
			return ai < aj
		})
	}
	// 1. Within the thread (copies of a register are set at the end).
	for _, g := range groups {
		var run []value.Value
		for _, r := range g.regs {
			cur := make([]value.Value, len(ins))
			for i := range ins {
				cur[i] = ins[i][r]
			}
			if r&dup != 0 {
				g.vals = append(g.vals, nil)
				continue
			}
			if run == nil {
				run = cur
			} else {
				run = combine(run, cur)
			}
			g.vals = append(g.vals, run)
		}
	}
	b := l.b()
	lane := b.and(l.tid, i32(31))
	laneMask := 0
	for _, k := range sb.lane {
		laneMask |= 1 << k
	}
	maxPos := 1<<nLane - 1
	pos := l.pext(lane, sb.lane)
	if reverse {
		pos = b.xor(pos, i32(int64(maxPos)))
	}
	// srcLane is the lane at axis position q (a runtime value).
	srcLane := func(q value.Value) value.Value {
		if reverse {
			q = b.xor(q, i32(int64(maxPos)))
		}
		return b.or(b.and(lane, i32(int64(^laneMask&31))), l.pdep(q, sb.lane))
	}
	shfl := func(vs []value.Value, from value.Value) []value.Value {
		out := make([]value.Value, len(vs))
		for i, v := range vs {
			out[i] = l.shuffle("idx", v, from, 0x1f)
		}
		return out
	}
	// back returns, for a lane at axis position pos ≥ d, the registers
	// of the lane d positions back (others get some lane's). When the
	// lane bits along the axis are contiguous, from bit a, and the scan
	// runs forward, that lane is lane - d·2^a, which shfl.sync.up reads
	// without lane arithmetic (as Triton's warpScan does); otherwise
	// shfl.sync.idx reads srcLane(pos - d).
	contiguous := !reverse && nLane > 0 && sb.lane[nLane-1]-sb.lane[0] == nLane-1
	back := func(vs []value.Value, d int) []value.Value {
		if !contiguous {
			return shfl(vs, srcLane(l.b().sub(pos, i32(int64(d)))))
		}
		out := make([]value.Value, len(vs))
		for i, v := range vs {
			out[i] = l.shuffle("up", v, i32(int64(d)<<sb.lane[0]), 0)
		}
		return out
	}
	sel := func(c value.Value, x, y []value.Value) []value.Value {
		out := make([]value.Value, len(x))
		for i := range x {
			out[i] = l.selp(c, x[i], y[i])
		}
		return out
	}
	last := func(g *group) []value.Value {
		for i := len(g.vals) - 1; i >= 0; i-- {
			if g.vals[i] != nil {
				return g.vals[i]
			}
		}
		return nil
	}
	// 2. Across the lanes along the axis.
	totals := make([][]value.Value, len(groups)) // the thread's inclusive total
	for gi, g := range groups {
		t := last(g)
		if nLane > 0 {
			for j := 0; j < nLane; j++ {
				got := back(t, 1<<j)
				ok := l.cur.NewICmp(enum.IPredUGE, pos, i32(1<<j))
				t = sel(ok, combine(got, t), t)
			}
			g.incl = t
			// The warp's total, at the last position, where the chunks
			// that follow need it; when warps split the axis, that
			// lane alone stores it (step 3).
			if W == 1 && nChunks > 1 {
				t = shfl(t, srcLane(i32(int64(maxPos))))
			}
		}
		totals[gi] = t
	}
	// The thread's last register becomes incl (below); the others need
	// the lanes' before it, read after every group's scan as Triton does
	// (an unused shuffle would stay: llvm.nvvm.shfl.sync is convergent).
	var exclOK value.Value // pos ≥ 1, made once
	for _, g := range groups {
		if g.incl != nil && registers(g.vals) > 1 {
			g.excl = back(g.incl, 1)
			if exclOK == nil {
				exclOK = l.cur.NewICmp(enum.IPredUGE, pos, i32(1))
			}
			g.exclOK = exclOK
		}
	}
	// 3. Across warps and chunks: runs[gi] is the prefix of group gi's
	// earlier chunks and warps, where valids[gi] holds (nil: for every
	// thread).
	runs := make([][]value.Value, len(groups))
	valids := make([]value.Value, len(groups))
	if W > 1 || nChunks > 1 {
		type slotKey struct {
			row   string
			chunk int
		}
		tot := map[slotKey][][]value.Value{} // per warp position
		var wpos value.Value = i32(0)
		if W > 1 {
			wpos = l.pext(b.lshr(l.tid, i32(5)), sb.warp)
			if reverse {
				wpos = b.xor(wpos, i32(int64(W-1)))
			}
			resShape := dropDim(intShape(ir.ShapeOrScalar(srcs[0].Type())), axis)
			numel := 1
			for _, s := range resShape {
				numel *= s
			}
			var offs []int64
			size := 0
			for _, v := range totals[0] {
				offs = append(offs, int64(size))
				size += numel * nChunks * W * typeBits(l.storable(v).Type()) / 8
			}
			base := l.scratch(op, size)
			thread := make([]value.Value, S.NumOutDims())
			masks := make([]uint64, S.NumOutDims())
			for d := range thread {
				if d != axis {
					thread[d], masks[d] = l.applyHW(S, d)
				}
			}
			// The warps' totals go through the scratch in the order of a
			// reduction's partials (partials), one per (row, chunk).
			threadFlat, threadMask := l.flattenHW(dropDim(thread, axis), dropDim(masks, axis), resShape)
			order := partials{
				warpMajor: fastestDim(srcs[0].Type()) != axis,
				logE:      bits.TrailingZeros(uint(numel)),
				logC:      len(sb.chunk),
				logW:      nWarp,
			}
			elems := make([]int, len(groups))
			chunks := make([]int, len(groups))
			for gi, g := range groups {
				elems[gi] = flattenConst(dropDim(g.key, axis), resShape)
				chunks[gi] = g.chunk
			}
			stores := order.slots(l, threadFlat, threadMask, wpos, uint64(W-1), elems, chunks, make([]int, len(groups)))
			l.syncShared()
			store := func() { l.storeColumns(stores, totals, base, offs) }
			if nLane > 0 {
				// The lane at the last position holds the warp's totals
				// (Triton's storeWarpAccumulator).
				l.ifThen(l.cur.NewICmp(enum.IPredEQ, pos, i32(int64(maxPos))), "scan.total", store)
			} else {
				store()
			}
			l.barrier()
			var lElems, lChunks, lWarps []int
			for gi := range groups {
				for w := 0; w < W; w++ {
					lElems = append(lElems, elems[gi])
					lChunks = append(lChunks, chunks[gi])
					lWarps = append(lWarps, w)
				}
			}
			loads := order.slots(l, threadFlat, threadMask, i32(0), 0, lElems, lChunks, lWarps)
			parts := make([][]value.Value, len(totals[0]))
			for i, v := range totals[0] {
				parts[i] = l.loadSlotSet(loads, base+offs[i], v.Type())
			}
			for gi, g := range groups {
				ws := make([][]value.Value, W)
				for w := range ws {
					ws[w] = make([]value.Value, len(parts))
					for i := range parts {
						ws[w][i] = parts[i][gi*W+w]
					}
				}
				tot[slotKey{fmt.Sprint(g.key), g.chunk}] = ws
			}
		} else {
			for gi, g := range groups {
				tot[slotKey{fmt.Sprint(g.key), g.chunk}] = [][]value.Value{totals[gi]}
			}
		}
		for gi, g := range groups {
			var run []value.Value // the prefix that holds for every thread
			for c := 0; c < g.chunk; c++ {
				for _, t := range tot[slotKey{fmt.Sprint(g.key), c}] {
					if run == nil {
						run = t
					} else {
						run = combine(run, t)
					}
				}
			}
			var valid value.Value // nil: run is valid for all; else runtime
			ws := tot[slotKey{fmt.Sprint(g.key), g.chunk}]
			for w := 0; w < W-1; w++ {
				later := l.cur.NewICmp(enum.IPredUGT, wpos, i32(int64(w)))
				if run == nil {
					run, valid = ws[w], later
					continue
				}
				run = sel(later, combine(run, ws[w]), run)
				if valid != nil {
					valid = l.cur.NewOr(valid, later)
				}
			}
			runs[gi], valids[gi] = run, valid
		}
	}
	// 4. Each register combines with the prefix before the thread's: the
	// earlier chunks' and warps' (run), then the earlier lanes' (excl),
	// combined once per group and then into every register, (run ⊕ excl)
	// ⊕ v, as Triton's scan adds its carry; the thread's last register is
	// run ⊕ incl.
	for gi, g := range groups {
		run, valid := runs[gi], valids[gi]
		last := -1 // the register that takes incl
		if g.incl != nil {
			// The thread's last register is the lanes' inclusive total
			// (Triton leaves the last element of its warp scan as it is).
			last = len(g.vals) - 1
			for g.vals[last] == nil {
				last--
			}
			v := g.incl
			if run != nil {
				nv := combine(run, v)
				if valid != nil {
					nv = sel(valid, nv, v)
				}
				v = nv
			}
			g.vals[last] = v
		}
		var carry []value.Value
		var when value.Value // nil: every thread
		switch {
		case g.incl != nil && g.excl == nil: // its one register took incl
			continue
		case run == nil && g.excl == nil:
			continue
		case run == nil:
			carry, when = g.excl, g.exclOK
		case g.excl == nil:
			carry, when = run, valid
		case valid == nil:
			carry = sel(g.exclOK, combine(run, g.excl), run)
		default:
			carry = sel(g.exclOK, sel(valid, combine(run, g.excl), g.excl), run)
			when = l.cur.NewOr(valid, g.exclOK)
		}
		for i, v := range g.vals {
			if v == nil || i == last {
				continue
			}
			nv := combine(carry, v)
			if when != nil {
				nv = sel(when, nv, v)
			}
			g.vals[i] = nv
		}
	}
	for _, g := range groups {
		for j, r := range g.regs {
			for i := range outs {
				if g.vals[j] != nil {
					outs[i][r] = g.vals[j][i]
				}
			}
		}
	}
	// Copies of a register.
	for r := 0; r < n; r++ {
		if r&dup != 0 {
			for i := range outs {
				outs[i][r] = outs[i][r&^dup]
			}
		}
	}
	for i, res := range op.Results() {
		l.Define(res, outs[i])
	}
	return nil
}

// selp is c ? x : y. For 32-bit values it is a selp.b32 of inline PTX, as
// Triton's warp scan has it after its combine: LLVM's InstCombine would
// otherwise fold select(c, t + u, t) into t + select(c, u, -0.0), an
// FSEL and an FADD on every step where ptxas makes Triton's one
// predicated FADD.
func (l *Lowerer) selp(c, x, y value.Value) value.Value {
	t := x.Type()
	if !t.Equal(types.Float) && !t.Equal(types.I32) {
		return l.cur.NewSelect(c, x, y)
	}
	asBits := func(v value.Value) value.Value {
		if t.Equal(types.I32) {
			return v
		}
		return l.cur.NewBitCast(v, types.I32)
	}
	asm := pureAsm(types.I32, "selp.b32 $0, $1, $2, $3;", "=r,r,r,b", types.I32, types.I32, types.I1)
	var r value.Value = l.cur.NewCall(asm, asBits(x), asBits(y), c)
	if !t.Equal(types.I32) {
		r = l.cur.NewBitCast(r, t)
	}
	return r
}
