package llvmemit

import (
	"fmt"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// ttng.warp_group_dot as sm_90's wgmma (Triton's WGMMA.cpp and the
// WGMMAOp / WGMMAWaitGroupOp patterns of NVGPUToLLVM), all inline PTX,
// which makes the module Hopper-only (Result.Hopper: the PTX header
// becomes .target sm_90a):
//
//	wgmma.fence.sync.aligned
//	per accumulator tile (64 × N rows and columns of a warp group), per K step:
//	  wgmma.mma_async.sync.aligned.m64nNkK.f32.T.T {d…}, a, b-desc, p, 1, 1[, trans-a], trans-b
//	wgmma.commit_group.sync.aligned
//
// with the tile's accumulator registers tied from input to output, p the
// scale-d predicate (false on the first step when C is a zero constant,
// and-ed with the op's useC), b-desc (and a-desc for an A in shared memory)
// a matrix descriptor (wgmma_desc.go) whose start address is the buffer's
// address plus the warp group's offset (from the warp id, broadcast from
// lane 0 so that it is warp-uniform) plus the tile's constant offset, and
// an A in registers given as the four 32-bit registers of its fragment
// (copied with mov.b32 and fenced, as Triton does). The accumulator
// layout's registers are matched to the instruction's by their
// coordinates, after checking its lane and warp bases against the
// fragment. A dot without isAsync is waited for at once
// (wgmma.wait_group 0); an async one with A in registers commits every
// step and then waits until at most K/k − 1 groups are in flight, so that
// its A registers are not overwritten early (Triton does the same).
//
// ttng.warp_group_dot_wait {pendings = N} is "wgmma.wait_group.sync.aligned N"
// with every register of its tensor operands tied through the asm, so
// LLVM cannot move a use of an accumulator above the wait.
// ttng.fence_async_shared is fence.proxy.async.shared::cta (::cluster with
// bCluster). A dot reading a buffer that registers were stored to
// (local_alloc with a source, local_store) with no fence_async_shared
// before it (a module that did not go through Triton's fence insertion)
// gets the fence and a barrier from the lowering.
//
// A dot whose shared operand a descriptor cannot address (a layout that is
// none of wgmma's canonical ones, a buffer not aligned to its swizzle, a
// tf32 operand that is not K-major), whose B is in registers, whose A
// registers or accumulator do not hold wgmma's fragments, or whose
// instrShape is no wgmma shape runs as mma.sync instead (warpGroupDotMMA),
// which is correct but synchronous; the package doc lists these cases.

func init() {
	Register("ttng.warp_group_dot", lowerWarpGroupDot)
	Register("ttng.warp_group_dot_wait", lowerWarpGroupDotWait)
	Register("ttng.fence_async_shared", func(l *Lowerer, op *ir.Operation) error {
		scope := "cta"
		if b, ok := op.Attr("bCluster").(*ir.BoolAttr); ok && b.Value {
			scope = "cluster"
		}
		l.hopperAsm("fence.proxy.async.shared::" + scope + ";")
		return nil
	})
}

// hopperAsm emits a side-effecting sm_90 instruction without operands.
func (l *Lowerer) hopperAsm(text string) {
	l.cur.NewCall(inlineAsm(types.Void, text, ""))
	l.e.hopper = true
}

// wgmmaKind is the operand type of a wgmma.
type wgmmaKind struct {
	ptx   string // PTX type of A and B
	k     int    // K of one instruction
	bytes int    // bytes per element
	trans bool   // the instruction takes trans-a / trans-b (f16, bf16)
}

func wgmmaKindOf(op *ir.Operation, elem ir.Type, precision int64) (wgmmaKind, error) {
	if k, ok := elem.(*ir.FloatType); ok {
		switch k.Kind {
		case "f16":
			return wgmmaKind{"f16", 16, 2, true}, nil
		case "bf16":
			return wgmmaKind{"bf16", 16, 2, true}, nil
		case "f32":
			if precision != 0 {
				return wgmmaKind{}, errorf(op, "f32 operands need inputPrecision = tf32")
			}
			return wgmmaKind{"tf32", 8, 4, false}, nil
		case "f8E4M3FN":
			return wgmmaKind{"e4m3", 32, 1, false}, nil
		case "f8E5M2":
			return wgmmaKind{"e5m2", 32, 1, false}, nil
		}
	}
	if it, ok := elem.(*ir.IntegerType); ok && it.Width == 8 && it.Sign != ir.Unsigned {
		return wgmmaKind{"s8", 32, 1, false}, nil
	}
	return wgmmaKind{}, errorf(op, "operands of type %s are not supported", ir.TypeString(elem))
}

// wgmmaPlan is how one warp_group_dot runs as wgmma.
type wgmmaPlan struct {
	kind  wgmmaKind
	n     int // N of one instruction
	repK  int
	tiles []wgmmaTile
	a, b  *wgmmaSmem     // a is nil for an A in registers
	aLL   *linear.Layout // the layout of an A in registers
	C     *linear.Layout
	acc16 bool // f16 accumulator: N/4 f16x2 result registers
	// partial: fp8 operands, an f32 accumulator and maxNumImpreciseAcc ≤ K
	// (Triton's needsPartialAccumulator): the products accumulate in
	// registers of their own, zeroed, which are waited for and added to the
	// accumulator every partial K elements and after the last step, so the
	// tensor cores' reduced-precision fp8 sums never span more than that.
	partial int
}

// integer reports whether the plan is wgmma's s8 form: s32 accumulators,
// no immediate scales of A and B.
func (p *wgmmaPlan) integer() bool { return p.kind.ptx == "s8" }

// wgmmaTile is one accumulator tile of a warp group: its first row and
// column in warp group 0, and the accumulator register of each of the
// instruction's N/2 result registers.
type wgmmaTile struct {
	m0, n0 int
	regs   []int
}

// wgmmaSmem is an operand in shared memory.
type wgmmaSmem struct {
	v    *ir.Value
	o    smemOperand
	desc matrixDesc
	wg   []int // element offset of each warp-group bit of the accumulator
}

func operandElem(v *ir.Value) ir.Type {
	if mt, ok := v.Type().(*ir.MemDescType); ok {
		return mt.Elem
	}
	return ir.ElementType(v.Type())
}

func lowerWarpGroupDot(l *Lowerer, op *ir.Operation) error {
	p, why, err := l.planWGMMA(op)
	if err != nil {
		return err
	}
	if p == nil {
		if err := warpGroupDotMMA(l, op); err != nil {
			if le, ok := err.(*Error); ok {
				le.Msg = fmt.Sprintf("wgmma cannot run it (%s), and mma.sync: %s", why, le.Msg)
			}
			return err
		}
		return nil
	}
	return l.emitWGMMA(op, p)
}

// planWGMMA checks that wgmma can run op and plans it. It returns a nil
// plan and the reason when the op must run as mma.sync instead, and an
// error when neither can run it.
func (l *Lowerer) planWGMMA(op *ir.Operation) (*wgmmaPlan, string, error) {
	a, b, c := op.Operand(0), op.Operand(1), op.Operand(2)
	ct := c.Type()
	mma, ok := ir.Encoding(ct).(*attr.NvidiaMma)
	if !ok || mma.VersionMajor != 3 {
		return nil, "", errorf(op, "the accumulator must have an nvidia_mma version 3 layout")
	}
	acc := ir.TypeString(ir.ElementType(ct))
	if acc != "f32" && acc != "f16" && acc != "i32" {
		return nil, "", errorf(op, "the accumulator must be f32, f16 or i32, not %s", acc)
	}
	shape := intShape(ir.ShapeOrScalar(ct))
	if len(shape) != 2 || len(mma.InstrShape) != 3 {
		return nil, "", errorf(op, "batched (3-D) dots are not supported")
	}
	precision := ir.AttrIntValue(op.AttrOrDefault("inputPrecision"))
	kind, err := wgmmaKindOf(op, operandElem(a), precision)
	if err != nil {
		return nil, "", err
	}
	if kb, err := wgmmaKindOf(op, operandElem(b), precision); err != nil {
		return nil, "", err
	} else if kb != kind {
		return nil, "", errorf(op, "operands of different types (%s, %s) are not supported", kind.ptx, kb.ptx)
	}
	switch {
	case kind.ptx == "s8" && acc != "i32":
		return nil, "", errorf(op, "s8 operands need an i32 accumulator, not %s", acc)
	case kind.ptx != "s8" && acc == "i32":
		return nil, "", errorf(op, "%s operands need a float accumulator, not i32", kind.ptx)
	case acc == "f16" && kind.ptx != "f16" && kind.bytes != 1:
		return nil, "", errorf(op, "%s operands need an f32 accumulator (wgmma accumulates f16 for f16 and fp8 operands only)", kind.ptx)
	}
	n, k := mma.InstrShape[1], mma.InstrShape[2]
	if mma.InstrShape[0] != 16 || n%8 != 0 || n < 8 || n > 256 || k != kind.k {
		return nil, fmt.Sprintf("instrShape %v is not a wgmma shape for %s operands (16 × 8..256 × %d)", mma.InstrShape, kind.ptx, kind.k), nil
	}
	if kind.ptx == "s8" && (n > 224 || n > 32 && n%16 != 0) {
		// The PTX ISA's integer N (Triton stops at 224 too).
		return nil, fmt.Sprintf("instrShape %v is not a wgmma shape for s8 operands (N of 8..32, or a multiple of 16 up to 224)", mma.InstrShape), nil
	}
	var K int
	if mt, ok := a.Type().(*ir.MemDescType); ok {
		K = int(mt.Shape[len(mt.Shape)-1])
	} else {
		K = int(ir.ShapeOrScalar(a.Type())[1])
	}
	if K%k != 0 {
		return nil, fmt.Sprintf("K = %d is not a multiple of the instruction's %d", K, k), nil
	}
	p := &wgmmaPlan{kind: kind, n: n, repK: K / k, C: mustLayout(ct), acc16: acc == "f16"}
	if imprecise := ir.AttrIntValue(op.AttrOrDefault("maxNumImpreciseAcc")); (kind.ptx == "e4m3" || kind.ptx == "e5m2") &&
		acc == "f32" && imprecise <= int64(K) {
		p.partial = int(imprecise)
	}
	var why string
	wgBases, err := p.accumulator()
	if err != nil {
		return nil, "accumulator: " + err.Error(), nil
	}
	if _, ok := b.Type().(*ir.MemDescType); !ok {
		return nil, "B is in registers", nil
	}
	if p.b, why, err = l.planSmem(op, b, 1, wgBases, p); p.b == nil {
		return nil, "B: " + why, err
	}
	if _, ok := a.Type().(*ir.MemDescType); ok {
		if p.a, why, err = l.planSmem(op, a, 0, wgBases, p); p.a == nil {
			return nil, "A: " + why, err
		}
	} else {
		p.aLL = mustLayout(a.Type())
		if why := p.checkRegisterA(); why != "" {
			return nil, "A: " + why, nil
		}
	}
	if !kind.trans && (p.b.desc.MNMajor || p.a != nil && p.a.desc.MNMajor) {
		return nil, kind.ptx + " operands must be K-major in shared memory", nil
	}
	return p, "", nil
}

// accumulator matches the accumulator's registers to the instruction's
// result registers, and returns the bases (row, column) of the warp bits
// that select the warp group. The fragment of m64nNk16 gives thread
// (lane, warp w of the group) rows 16w + lane/4 + 8i and columns
// 8j + 2(lane%4) + b in result register 4j + 2i + b.
func (p *wgmmaPlan) accumulator() ([][2]int, error) {
	C := p.C
	if err := checkBases(C, dimLane, [][2]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}); err != nil {
		return nil, err
	}
	nw := 0
	if C.HasInDim(dimWarp) {
		nw = C.InDimSizeLog2(dimWarp)
	}
	if nw < 2 {
		return nil, fmt.Errorf("a warp group needs 4 warps, the layout has %d", 1<<nw)
	}
	if err := checkBases(C, dimWarp, [][2]int{{16, 0}, {32, 0}}); err != nil {
		return nil, err
	}
	var wg [][2]int
	for k := 2; k < nw; k++ {
		w := C.Basis(dimWarp, k)
		if w[0]%64 != 0 || w[1]%p.n != 0 || w[0] != 0 && w[1] != 0 {
			return nil, fmt.Errorf("warp basis %d is %v, not a whole tile along M or N", k, w)
		}
		wg = append(wg, [2]int{w[0], w[1]})
	}
	index := map[[2]int]int{}
	seen := map[[2]int]bool{}
	for r := 0; r < C.InDimSize(dimReg); r++ {
		c := C.Apply(r)
		row, col := c[0]%64, c[1]%p.n
		if row != 0 && row != 8 || col%8 > 1 {
			return nil, fmt.Errorf("register %d holds element %v, outside the fragment", r, c)
		}
		if seen[[2]int{c[0], c[1]}] {
			continue // a broadcast copy: emitWGMMA copies it
		}
		seen[[2]int{c[0], c[1]}] = true
		t := [2]int{c[0] - row, c[1] - col}
		i, ok := index[t]
		if !ok {
			i = len(p.tiles)
			index[t] = i
			regs := make([]int, p.n/2)
			for j := range regs {
				regs[j] = -1
			}
			p.tiles = append(p.tiles, wgmmaTile{m0: t[0], n0: t[1], regs: regs})
		}
		p.tiles[i].regs[col/8*4+row/8*2+col%8] = r
	}
	for _, t := range p.tiles {
		for j, r := range t.regs {
			if r < 0 {
				return nil, fmt.Errorf("no register holds result register %d of the tile at (%d, %d)", j, t.m0, t.n0)
			}
		}
		for _, w := range wg {
			if t.m0&w[0] != 0 || t.n0&w[1] != 0 {
				return nil, fmt.Errorf("the warp groups and the registers share tile bits")
			}
		}
	}
	return wg, nil
}

// planSmem plans the descriptors of operand v (idx 0: A, 1: B) in shared
// memory: the descriptor's fields from the layout, checked on every tile
// of warp group 0, the warp groups' offsets, and the buffer's alignment.
func (l *Lowerer) planSmem(op *ir.Operation, v *ir.Value, idx int, wgBases [][2]int, p *wgmmaPlan) (*wgmmaSmem, string, error) {
	mt := v.Type().(*ir.MemDescType)
	if len(mt.Shape) != 2 {
		return nil, "", errorf(op, "batched (3-D) dots are not supported")
	}
	enc, ok := ir.Encoding(mt).(*attr.NVMMAShared)
	if !ok {
		return nil, fmt.Sprintf("%s is not an nvmma_shared layout", ir.TypeString(mt)), nil
	}
	md, err := l.memDesc(op, v)
	if err != nil {
		return nil, "", err
	}
	mnDim := idx // A is [M, K], B is [K, N]
	at := func(mn, k int) []int {
		if mnDim == 0 {
			return []int{mn, k}
		}
		return []int{k, mn}
	}
	o := smemOperand{
		off:     func(mn, k int) int { return md.view.Apply(at(mn, k)...)[0] ^ md.xor },
		mn:      int(mt.Shape[mnDim]),
		k:       int(mt.Shape[1-mnDim]),
		eb:      p.kind.bytes,
		swizzle: enc.SwizzlingByteWidth,
		instrK:  p.kind.k,
		tileMN:  64,
	}
	if idx == 1 {
		o.tileMN = p.n
	}
	desc, err := deriveMatrixDesc(o)
	if err != nil {
		return nil, err.Error(), nil
	}
	s := &wgmmaSmem{v: v, o: o, desc: desc}
	// The tiles of warp group 0, and the bits of their elements' offsets.
	tileBits := 0
	seen := map[int]bool{}
	for _, t := range p.tiles {
		mn0 := t.m0
		if idx == 1 {
			mn0 = t.n0
		}
		if seen[mn0] {
			continue
		}
		seen[mn0] = true
		for k := 0; k < p.repK; k++ {
			if err := desc.check(o, mn0, k*p.kind.k); err != nil {
				return nil, err.Error(), nil
			}
			for mn := 0; mn < o.tileMN; mn++ {
				for kk := 0; kk < o.instrK; kk++ {
					tileBits |= o.off(mn0+mn, k*p.kind.k+kk)
				}
			}
		}
	}
	// Warp group g reads the tiles of group 0 moved by its offset, which
	// must keep the swizzle's phase and add to (not xor with) the tiles'.
	for _, w := range wgBases {
		off := 0
		if w[mnDim] != 0 {
			off = md.view.Apply(at(w[mnDim], 0)...)[0]
		}
		if off*o.eb%desc.period() != 0 || off&tileBits != 0 {
			return nil, fmt.Sprintf("the warp groups' offset %d is not aligned to the swizzle or overlaps the tiles'", off), nil
		}
		s.wg = append(s.wg, off)
	}
	if a := smemAlign(v); a < desc.period() {
		return nil, fmt.Sprintf("the buffer is not known to be aligned to %d bytes", desc.period()), nil
	}
	return s, "", nil
}

// smemAlign is the alignment in bytes that a memdesc's offset in
// global_smem is known to have. Like Triton, the lowering takes
// global_smem itself (dynamic shared memory, after the 1 KiB the driver
// reserves) to start at a multiple of 1024 bytes, the largest swizzle
// period.
func smemAlign(v *ir.Value) int {
	d := v.DefiningOp()
	if d == nil {
		return 1
	}
	switch d.Name() {
	case "ttg.local_alloc":
		off, ok := d.IntAttr("allocation.offset")
		if !ok {
			return 1
		}
		return lowBit(int(off))
	case "ttg.memdesc_index":
		rt := d.Result(0).Type().(*ir.MemDescType)
		n := typeBits(storableType(mustType(rt.Elem))) / 8
		for _, x := range rt.Shape {
			n *= int(x)
		}
		return min(smemAlign(d.Operand(0)), lowBit(n))
	case "ttg.memdesc_subslice":
		return smemAlign(d.Operand(0)) // the slice's offset is in its addressing
	}
	return 1
}

// checkRegisterA checks that an A in registers holds wgmma's A fragment:
// per warp, the fragment of mma.sync's m16n8kK (lanes along K pairs and
// rows), warps 0–3 of a group at rows 16 and 32, the other warp bits as
// the accumulator's rows (or broadcast along N).
func (p *wgmmaPlan) checkRegisterA() string {
	A, C := p.aLL, p.C
	e := 4 / p.kind.bytes
	if err := checkBases(A, dimLane, [][2]int{{0, e}, {0, 2 * e}, {1, 0}, {2, 0}, {4, 0}}); err != nil {
		return err.Error()
	}
	if !A.HasInDim(dimWarp) || A.InDimSizeLog2(dimWarp) != C.InDimSizeLog2(dimWarp) {
		return "its warps are not the accumulator's"
	}
	for k := 0; k < A.InDimSizeLog2(dimWarp); k++ {
		a, w := A.Basis(dimWarp, k), C.Basis(dimWarp, k)
		if a[0] != w[0] || a[1] != 0 {
			return fmt.Sprintf("warp basis %d is %v, the accumulator's is %v", k, a, w)
		}
	}
	am := coordIndex(A)
	for _, t := range p.tiles {
		for k := 0; k < p.repK; k++ {
			for _, reg := range p.fragmentA(t.m0, k*p.kind.k) {
				for _, c := range reg {
					if _, ok := am[c]; !ok {
						return fmt.Sprintf("no register holds element %v", c)
					}
				}
			}
		}
	}
	return ""
}

// fragmentA lists, for each of the four 32-bit registers of lane 0's A
// fragment of the tile at row m0 and K step k0, the elements it packs:
// rows m0 and m0+8, K at k0 and k0+K/2 (lane (g, t) adds g to the row and
// t·elements to K).
func (p *wgmmaPlan) fragmentA(m0, k0 int) [4][][2]int {
	e := 4 / p.kind.bytes
	half := p.kind.k / 2
	var regs [4][][2]int
	for i, blk := range [][2]int{{0, 0}, {8, 0}, {0, half}, {8, half}} {
		for j := 0; j < e; j++ {
			regs[i] = append(regs[i], [2]int{m0 + blk[0], k0 + blk[1] + j})
		}
	}
	return regs
}

// emitWGMMA emits the planned wgmma sequence.
func (l *Lowerer) emitWGMMA(op *ir.Operation, p *wgmmaPlan) error {
	l.e.hopper = true
	async := false
	switch x := op.Attr("isAsync").(type) {
	case *ir.BoolAttr:
		async = x.Value
	case *ir.UnitAttr:
		async = true
	}
	if p.needsFence(op) && l.fenced != op {
		l.hopperAsm("fence.proxy.async.shared::cta;")
		l.barrier()
	}
	l.syncShared()
	b := l.b()
	var wg value.Value
	if len(p.b.wg) > 0 {
		warp := l.shuffle("idx", b.lshr(l.tid, i32(5)), i32(0), 31)
		wg = b.lshr(warp, i32(2))
	}
	// descBase is the descriptor of operand s's buffer in this warp group,
	// without the tile's constant offset.
	descBase := func(s *wgmmaSmem) value.Value {
		addr := l.cur.NewPtrToInt(l.smemPtr(l.Values(s.v)[0], types.I8), types.I32)
		var a value.Value = addr
		if wg != nil {
			off, _ := l.applyMatrix(wg, len(s.wg), func(k int) int { return s.wg[k] * s.o.eb })
			a = b.add(a, off)
		}
		field := b.and(b.lshr(a, i32(4)), i32(1<<14-1))
		return l.cur.NewZExt(field, types.I64)
	}
	desc := func(s *wgmmaSmem, base value.Value, mn0, k0 int) (value.Value, error) {
		d, err := s.desc.encode(s.o.off(mn0, k0) * s.o.eb)
		if err != nil {
			return nil, errorf(op, "%v", err)
		}
		return l.cur.NewAdd(base, i64(int64(d))), nil
	}
	var aBase, bBase value.Value
	bBase = descBase(p.b)
	if p.a != nil {
		aBase = descBase(p.a)
	}
	cin := l.Values(op.Operand(2))
	var pred value.Value = constant.True
	if d := op.Operand(2).DefiningOp(); d != nil && d.Name() == "arith.constant" && isZeroConst(d.Attr("value")) {
		pred = constant.False
	}
	var useC value.Value
	if op.NumOperands() > 3 {
		useC = l.Values(op.Operand(3))[0]
	}
	var av []value.Value
	var am map[[2]int]int
	if p.a == nil {
		av, am = l.Values(op.Operand(0)), coordIndex(p.aLL)
	}
	perStep := async && p.a == nil // commit and wait after every step
	out := append([]value.Value{}, cin...)
	l.hopperAsm("wgmma.fence.sync.aligned;")
	for _, t := range p.tiles {
		acc := make([]value.Value, len(t.regs))
		for j, r := range t.regs {
			acc[j] = out[r]
		}
		scale := pred
		if useC != nil {
			scale = l.cur.NewAnd(scale, useC)
		}
		var total []value.Value // with a partial accumulator: the accumulator
		if p.partial > 0 {
			zero := constant.NewFloat(types.Float, 0)
			total = make([]value.Value, len(acc))
			for j := range acc {
				// C counts only where scale says so, as the instruction's scale-d.
				total[j] = l.cur.NewSelect(scale, acc[j], zero)
				acc[j] = zero
			}
			scale = constant.False
		}
		sinceAdd := 0
		for k := 0; k < p.repK; k++ {
			k0 := k * p.kind.k
			var aArgs []value.Value
			if p.a != nil {
				d, err := desc(p.a, aBase, t.m0, k0)
				if err != nil {
					return err
				}
				aArgs = []value.Value{d}
			} else {
				aArgs = l.wgmmaRegisterA(p, av, am, t.m0, k0)
				l.hopperAsm("wgmma.fence.sync.aligned;")
			}
			bd, err := desc(p.b, bBase, t.n0, k0)
			if err != nil {
				return err
			}
			if sinceAdd == 0 && k > 0 && p.partial > 0 && p.a != nil {
				// The adds read the registers this wgmma writes.
				l.hopperAsm("wgmma.fence.sync.aligned;")
			}
			acc = l.wgmma(p, acc, aArgs, bd, scale)
			scale = constant.True
			if sinceAdd += p.kind.k; p.partial > 0 && (sinceAdd >= p.partial || k == p.repK-1) {
				l.hopperAsm("wgmma.commit_group.sync.aligned;")
				acc = l.waitGroup(0, acc)
				for j := range acc {
					total[j] = l.cur.NewFAdd(total[j], acc[j])
				}
				sinceAdd, scale = 0, constant.False
				continue
			}
			if perStep {
				l.hopperAsm("wgmma.commit_group.sync.aligned;")
				acc = l.waitGroup(p.repK-1, acc)
			}
		}
		if total != nil {
			acc = total
		}
		for j, r := range t.regs {
			out[r] = acc[j]
		}
	}
	if !perStep {
		l.hopperAsm("wgmma.commit_group.sync.aligned;")
	}
	if !async {
		out = l.waitGroup(0, out)
	}
	// Registers holding broadcast copies take the value of the register
	// that holds their element.
	cm := coordIndex(p.C)
	for r := range out {
		c := p.C.Apply(r)
		if s := cm[[2]int{c[0], c[1]}]; s != r {
			out[r] = out[s]
		}
	}
	l.Define(op.Result(0), out)
	return nil
}

// wgmmaRegisterA returns the four 32-bit registers of A's fragment for the
// tile at row m0 and K step k0 (fragmentA), each copied by mov.b32 as in
// Triton.
func (l *Lowerer) wgmmaRegisterA(p *wgmmaPlan, av []value.Value, am map[[2]int]int, m0, k0 int) []value.Value {
	var regs []value.Value
	for _, elems := range p.fragmentA(m0, k0) {
		var v value.Value
		if len(elems) == 1 {
			v = l.cur.NewBitCast(av[am[elems[0]]], types.I32)
		} else {
			var x value.Value = constant.NewUndef(types.NewVector(uint64(len(elems)), av[0].Type()))
			for i, c := range elems {
				x = l.cur.NewInsertElement(x, av[am[c]], i32(int64(i)))
			}
			v = l.cur.NewBitCast(x, types.I32)
		}
		regs = append(regs, l.cur.NewCall(inlineAsm(types.I32, "mov.b32 $0, $1;", "=r,r", types.I32), v))
	}
	return regs
}

// wgmma emits one wgmma.mma_async on the accumulator registers acc (an
// f16 accumulator's as f16x2 pairs: result register 2j+i holds what the
// f32 form's 4j+2i and 4j+2i+1 hold).
func (l *Lowerer) wgmma(p *wgmmaPlan, acc, a []value.Value, bDesc, scale value.Value) []value.Value {
	dtype, rt, con := "f32", types.Type(types.Float), "=f"
	regs := acc
	if p.integer() {
		dtype, rt, con = "s32", types.I32, "=r"
	}
	if p.acc16 {
		dtype, rt, con = "f16", types.I32, "=r"
		regs = make([]value.Value, len(acc)/2)
		for i := range regs {
			var v value.Value = constant.NewUndef(types.NewVector(2, types.Half))
			v = l.cur.NewInsertElement(v, acc[2*i], i32(0))
			v = l.cur.NewInsertElement(v, acc[2*i+1], i32(1))
			regs[i] = l.cur.NewBitCast(v, types.I32)
		}
	}
	n := len(regs)
	var text strings.Builder
	fmt.Fprintf(&text, "wgmma.mma_async.sync.aligned.m64n%dk%d.%s.%s.%s {", p.n, p.kind.k, dtype, p.kind.ptx, p.kind.ptx)
	var cons []string
	for i := 0; i < n; i++ {
		if i > 0 {
			text.WriteString(", ")
		}
		fmt.Fprintf(&text, "$%d", i)
		cons = append(cons, con)
	}
	text.WriteString("}, ")
	params := make([]types.Type, 0, 2*n+len(a)+2)
	args := make([]value.Value, 0, cap(params))
	for i := 0; i < n; i++ {
		cons = append(cons, fmt.Sprint(i))
		params = append(params, rt)
		args = append(args, regs[i])
	}
	idx := 2 * n
	if len(a) == 1 {
		fmt.Fprintf(&text, "$%d, ", idx)
		cons = append(cons, "l")
		params = append(params, types.I64)
		idx++
	} else {
		text.WriteString("{")
		for i := range a {
			if i > 0 {
				text.WriteString(", ")
			}
			fmt.Fprintf(&text, "$%d", idx)
			cons = append(cons, "r")
			params = append(params, types.I32)
			idx++
		}
		text.WriteString("}, ")
	}
	args = append(args, a...)
	fmt.Fprintf(&text, "$%d, $%d", idx, idx+1)
	cons = append(cons, "l", "b")
	params = append(params, types.I64, types.I1)
	args = append(args, bDesc, scale)
	if !p.integer() {
		text.WriteString(", 1, 1") // imm-scale-a, imm-scale-b
	}
	if p.kind.trans {
		if p.a != nil {
			fmt.Fprintf(&text, ", %d", boolInt(p.a.desc.MNMajor))
		}
		fmt.Fprintf(&text, ", %d", boolInt(p.b.desc.MNMajor))
	}
	text.WriteString(";")
	ret := types.NewStruct(repeatType(rt, n)...)
	call := l.cur.NewCall(inlineAsm(ret, text.String(), strings.Join(cons, ","), params...), args...)
	out := make([]value.Value, 0, len(acc))
	for i := 0; i < n; i++ {
		r := l.cur.NewExtractValue(call, uint64(i))
		if !p.acc16 {
			out = append(out, r)
			continue
		}
		pair := l.cur.NewBitCast(r, types.NewVector(2, types.Half))
		out = append(out, l.cur.NewExtractElement(pair, i32(0)), l.cur.NewExtractElement(pair, i32(1)))
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func repeatType(t types.Type, n int) []types.Type {
	ts := make([]types.Type, n)
	for i := range ts {
		ts[i] = t
	}
	return ts
}

// waitGroup emits wgmma.wait_group.sync.aligned n with the registers vals
// tied through it, and returns them as the wait's results.
func (l *Lowerer) waitGroup(n int, vals []value.Value) []value.Value {
	l.e.hopper = true
	text := fmt.Sprintf("wgmma.wait_group.sync.aligned %d;", n)
	if len(vals) == 0 {
		l.hopperAsm(text)
		return nil
	}
	var cons, ties []string
	var regs []string
	params := make([]types.Type, len(vals))
	args := make([]value.Value, len(vals))
	for i, v := range vals {
		x, c := asmRegister(l.cur, v)
		cons = append(cons, "="+c)
		ties = append(ties, fmt.Sprint(i))
		regs = append(regs, fmt.Sprintf("$%d", i))
		params[i], args[i] = x.Type(), x
	}
	text = "// wait for regs: " + strings.Join(regs, ",") + "\n\t" + text
	// One output is the call's value itself; LLVM rejects a one-field
	// struct for it ("invalid type for inline asm constraint string").
	var ret types.Type = types.NewStruct(params...)
	if len(params) == 1 {
		ret = params[0]
	}
	call := l.cur.NewCall(inlineAsm(ret, text, strings.Join(append(cons, ties...), ","), params...), args...)
	out := make([]value.Value, len(vals))
	for i, v := range vals {
		var r value.Value = call
		if len(params) > 1 {
			r = l.cur.NewExtractValue(call, uint64(i))
		}
		out[i] = fromAsmRegister(l.cur, r, v.Type())
	}
	return out
}

// asmRegister converts a register for an inline-asm operand and returns
// it with its constraint letter: f32 f, f64 d, i32 r, i64 l, 16-bit
// types (half as i16) h, i1 and i8 widened to h, pointers as l.
func asmRegister(b *lir.Block, v value.Value) (value.Value, string) {
	switch t := v.Type().(type) {
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindFloat:
			return v, "f"
		case types.FloatKindDouble:
			return v, "d"
		case types.FloatKindHalf:
			return b.NewBitCast(v, types.I16), "h"
		}
	case *types.IntType:
		switch t.BitSize {
		case 32:
			return v, "r"
		case 64:
			return v, "l"
		case 16:
			return v, "h"
		case 1, 8:
			return b.NewZExt(v, types.I16), "h"
		}
	case *types.PointerType:
		return b.NewPtrToInt(v, types.I64), "l"
	}
	panic(fmt.Sprintf("llvmemit: no inline-asm register for %s", v.Type()))
}

// fromAsmRegister undoes asmRegister's conversion to type t.
func fromAsmRegister(b *lir.Block, v value.Value, t types.Type) value.Value {
	if v.Type().Equal(t) {
		return v
	}
	switch t := t.(type) {
	case *types.FloatType:
		return b.NewBitCast(v, t)
	case *types.IntType:
		return b.NewTrunc(v, t)
	case *types.PointerType:
		return b.NewIntToPtr(v, t)
	}
	panic(fmt.Sprintf("llvmemit: no inline-asm register for %s", t))
}

func lowerWarpGroupDotWait(l *Lowerer, op *ir.Operation) error {
	pendings, ok := op.IntAttr("pendings")
	if !ok || pendings < 0 {
		return errorf(op, "needs a non-negative pendings attribute")
	}
	var vals []value.Value
	for _, v := range op.Operands() {
		if _, ok := v.Type().(*ir.MemDescType); !ok {
			vals = append(vals, l.Values(v)...)
		}
	}
	vals = l.waitGroup(int(pendings), vals)
	for i, v := range op.Operands() {
		if _, ok := v.Type().(*ir.MemDescType); ok {
			l.Define(op.Result(i), l.Values(v))
			continue
		}
		n := len(l.Values(v))
		l.Define(op.Result(i), vals[:n])
		vals = vals[n:]
	}
	return nil
}

// needsFence reports whether the dot op, planned as p, reads a buffer that
// registers were stored to with no ttng.fence_async_shared before it: the
// lowering then fences the stores and waits for every thread's.
func (p *wgmmaPlan) needsFence(op *ir.Operation) bool {
	for _, s := range []*wgmmaSmem{p.a, p.b} {
		if s != nil && storedFromRegisters(s.v) {
			return !fencedBefore(op)
		}
	}
	return false
}

// lowerBarrier lowers ttg.local_barrier and gpu.barrier. Membar puts one
// right before a dot that reads the buffers stored before it; when that
// dot runs as wgmma and needs a fence (needsFence), the fence goes before
// this barrier, which then serves both, as in Triton (whose fence
// insertion puts the fence before the dot, where Membar's barrier follows
// it): stores, fence.proxy.async, bar.sync, wgmma, not a second barrier
// after the fence.
func lowerBarrier(l *Lowerer, op *ir.Operation) error {
	if next := op.Next(); next != nil && next.Name() == "ttng.warp_group_dot" {
		if p, _, err := l.planWGMMA(next); err == nil && p != nil && p.needsFence(next) {
			l.hopperAsm("fence.proxy.async.shared::cta;")
			l.fenced = next
		}
	}
	l.barrier()
	return nil
}

// storedFromRegisters reports whether registers may have been stored to
// the buffer of memdesc v through the generic proxy (a local_alloc with a
// source, a local_store to it or to a view of it), which wgmma (the async
// proxy) only sees after a fence.proxy.async. A buffer it cannot trace
// counts as stored to.
func storedFromRegisters(v *ir.Value) bool {
	for {
		d := v.DefiningOp()
		if d == nil {
			return true
		}
		switch d.Name() {
		case "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape":
			v = d.Operand(0)
			continue
		case "ttg.local_alloc":
			if d.NumOperands() > 0 {
				return true
			}
			return storedThroughViews(d.Result(0))
		}
		return true
	}
}

func storedThroughViews(v *ir.Value) bool {
	for _, u := range v.Users() {
		switch u.Name() {
		case "ttg.local_store":
			return true
		case "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape":
			if storedThroughViews(u.Result(0)) {
				return true
			}
		case "scf.for", "scf.if", "scf.while", "scf.yield", "cf.br", "cf.cond_br":
			return true // carried on: not traced
		}
	}
	return false
}

// fencedBefore reports whether a ttng.fence_async_shared precedes op in
// its block with only barriers between.
func fencedBefore(op *ir.Operation) bool {
	for p := op.Prev(); p != nil; p = p.Prev() {
		switch p.Name() {
		case "ttng.fence_async_shared":
			return true
		case "ttg.local_barrier", "gpu.barrier":
			continue
		}
		return false
	}
	return false
}
