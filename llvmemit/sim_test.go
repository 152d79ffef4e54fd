package llvmemit_test

import (
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/internal/ptxint"
	"github.com/layoutopt/layoutopt/interp"
)

// A lockstep SIMT simulator of the LLVM IR this package emits, for tests:
// every instruction runs for all threads of one CTA before the next, so
// barriers hold trivially and shuffles read the other lanes' operands.
// Control flow must be uniform (the branch conditions of all threads
// agree), as it is in the kernels lowered from TTGIR, but for diamonds
// whose sides hold no shuffle or barrier (a global access made whole
// where it is in bounds): their sides run one after the other, each for
// its threads. It models integer,
// f32 and vector instructions, getelementptr, global and shared memory,
// tid/ctaid and shfl.sync; inline asm (masked global accesses) is not
// modelled.
//
// Since lockstep execution hides missing barriers, the simulator checks
// shared memory for races: within one barrier interval (between two
// bar.sync), a thread may not read a byte another thread wrote, overwrite
// a byte another thread read, or write a byte another thread wrote with a
// different value (atomics excepted among themselves), unless the other
// thread is in the same warp and a warp barrier (bar.warp.sync -1, which
// every warp runs at once: never in a divergent diamond) came between the two
// accesses. A race panics.

type simVal []uint64 // one word per vector element (scalars: one)

type sim struct {
	threads int
	// ctaid and nctaid: the program the CTA runs and the grid (newSim:
	// program 0 of one).
	ctaid, nctaid [3]uint64
	global        []byte
	shared        []byte
	env           []map[value.Value]simVal
	consts        map[*lir.Global]uint64 // constant arrays, in cmem
	cmem          []byte
	// The race checker: the barrier interval (epoch, from 1) and, per
	// shared byte, the interval and thread of its last write and reads
	// (reader -2: several threads; writer atomicWriter: atomics).
	epoch       int32
	wEpoch, wBy []int32
	rEpoch, rBy []int32
	// The warp barriers: wsEpoch counts them; per shared byte, the count
	// at its last write and at its last read, and the warp of its readers
	// in the barrier interval (-2: several warps).
	wsEpoch  int32
	wWs, rWs []int32
	rWarp    []int32
	// globalStores counts the global bytes stored, by every thread.
	globalStores int
	// off marks the threads outside the side of a divergent branch that
	// runs (nil: every thread runs).
	off []bool
	// local is each thread's stack (allocas), at localBase + t<<localShift.
	local [][]byte
	// printed are the lines vprintf printed, in the order the threads
	// printed them; asserts the messages of failed __assertfail calls.
	printed, asserts []string
}

// on reports whether thread t runs.
func (s *sim) on(t int) bool { return s.off == nil || !s.off[t] }

// running yields the threads that run, in order.
func (s *sim) running() iter.Seq[int] {
	return func(yield func(int) bool) {
		for t := range s.threads {
			if s.on(t) && !yield(t) {
				return
			}
		}
	}
}

const atomicWriter = -3

var f16 = interp.LookupFloatFormat("f16")

// Shared and constant addresses are tagged to tell the memories apart.
const (
	sharedBase = 1 << 40
	constBase  = 1 << 41
	localBase  = 1 << 42
	localShift = 20
)

func newSim(threads int, global []byte) *sim {
	const n = 1 << 16
	s := &sim{threads: threads, nctaid: [3]uint64{1, 1, 1}, global: global, shared: make([]byte, n), epoch: 1, consts: map[*lir.Global]uint64{},
		wEpoch: make([]int32, n), wBy: make([]int32, n), rEpoch: make([]int32, n), rBy: make([]int32, n),
		wWs: make([]int32, n), rWs: make([]int32, n), rWarp: make([]int32, n)}
	for range threads {
		s.env = append(s.env, map[value.Value]simVal{})
	}
	return s
}

func isZero(c constant.Constant) bool {
	i, ok := c.(*constant.Int)
	return ok && i.X.Sign() == 0
}

// alignOf is the ABI alignment of t under the emitted data layout.
func alignOf(t types.Type) int {
	switch x := t.(type) {
	case *types.StructType:
		a := 1
		for _, f := range x.Fields {
			a = max(a, alignOf(f))
		}
		return a
	case *types.ArrayType:
		return alignOf(x.ElemType)
	}
	return sizeOf(t)
}

// fieldOffset is the byte offset of field i of a (naturally aligned) struct.
func fieldOffset(st *types.StructType, i int) int {
	off := 0
	for j, f := range st.Fields {
		off = (off + alignOf(f) - 1) / alignOf(f) * alignOf(f)
		if j == i {
			return off
		}
		off += sizeOf(f)
	}
	return off
}

func sizeOf(t types.Type) int {
	switch x := t.(type) {
	case *types.StructType:
		a := alignOf(x)
		return (fieldOffset(x, len(x.Fields)) + a - 1) / a * a
	case *types.IntType:
		return max(int(x.BitSize)/8, 1)
	case *types.FloatType:
		switch x.Kind {
		case types.FloatKindHalf:
			return 2
		case types.FloatKindDouble:
			return 8
		}
		return 4
	case *types.PointerType:
		if x.AddrSpace == 3 {
			return 4
		}
		return 8
	case *types.VectorType:
		return int(x.Len) * sizeOf(x.ElemType)
	case *types.ArrayType:
		return int(x.Len) * sizeOf(x.ElemType)
	}
	panic(fmt.Sprintf("sim: size of %s", t))
}

func intBits(t types.Type) uint64 {
	if it, ok := t.(*types.IntType); ok {
		return it.BitSize
	}
	return 64
}

func mask(v uint64, n uint64) uint64 {
	if n >= 64 {
		return v
	}
	return v & (1<<n - 1)
}

func sext(v uint64, n uint64) int64 {
	if n >= 64 {
		return int64(v)
	}
	return int64(v<<(64-n)) >> (64 - n)
}

func (s *sim) get(t int, v value.Value) simVal {
	switch x := v.(type) {
	case *constant.Int:
		return simVal{mask(uint64(x.X.Int64()), x.Typ.BitSize)}
	case *constant.Float:
		f, _ := x.X.Float64()
		if x.NaN { // big.Float has no NaN: llir keeps it aside
			f = math.NaN()
		}
		switch x.Typ.Kind {
		case types.FloatKindHalf:
			return simVal{f16.Bits(f)}
		case types.FloatKindDouble:
			return simVal{math.Float64bits(f)}
		}
		return simVal{uint64(math.Float32bits(float32(f)))}
	case *constant.Undef:
		switch xt := x.Typ.(type) {
		case *types.VectorType:
			return make(simVal, xt.Len)
		case *types.StructType:
			return make(simVal, len(xt.Fields))
		}
		return simVal{0}
	case *lir.Global:
		if x.Init == nil {
			return simVal{sharedBase}
		}
		return simVal{s.constant(x)}
	case *constant.ExprAddrSpaceCast:
		return s.get(t, x.From)
	case *constant.ExprGetElementPtr:
		if len(x.Indices) == 2 && isZero(x.Indices[0]) && isZero(x.Indices[1]) {
			return s.get(t, x.Src)
		}
		panic("sim: constant " + x.Ident())
	case *constant.Null:
		return simVal{0}
	}
	r, ok := s.env[t][v]
	if !ok {
		panic(fmt.Sprintf("sim: no value for %s", v.Ident()))
	}
	return r
}

// constant returns the address of a global constant array, laid out in
// the constant memory on first use.
func (s *sim) constant(g *lir.Global) uint64 {
	if a, ok := s.consts[g]; ok {
		return a
	}
	a := constBase + uint64(len(s.cmem))
	if cs, ok := g.Init.(*constant.CharArray); ok {
		s.cmem = append(s.cmem, cs.X...)
		s.consts[g] = a
		return a
	}
	arr, ok := g.Init.(*constant.Array)
	if !ok {
		panic("sim: global initializer " + g.Init.Ident())
	}
	for _, e := range arr.Elems {
		b := make([]byte, sizeOf(e.Type()))
		storeWords(b, e.Type(), s.get(0, e))
		s.cmem = append(s.cmem, b...)
	}
	s.consts[g] = a
	return a
}

func (s *sim) mem(addr uint64, n int) []byte {
	if addr >= localBase {
		t, a := (addr-localBase)>>localShift, (addr-localBase)&(1<<localShift-1)
		return s.local[t][a : a+uint64(n)]
	}
	if addr >= constBase {
		a := addr - constBase
		return s.cmem[a : a+uint64(n)]
	}
	if addr >= sharedBase {
		a := addr - sharedBase
		return s.shared[a : a+uint64(n)]
	}
	return s.global[addr : addr+uint64(n)]
}

// read records thread t's read of n shared bytes at addr (a no-op for
// global memory) and panics on a read of another thread's write.
func (s *sim) read(t int, addr uint64, n int) {
	if addr < sharedBase || addr >= constBase {
		return
	}
	a := int(addr - sharedBase)
	w := int32(t / 32)
	for i := a; i < a+n; i++ {
		if s.wEpoch[i] == s.epoch && s.wBy[i] != int32(t) && !s.warpOrdered(s.wBy[i], w, s.wWs[i]) {
			panic(fmt.Sprintf("sim: shared-memory race: thread %d reads byte %d, written by thread %d with no barrier between", t, i, s.wBy[i]))
		}
		switch {
		case s.rEpoch[i] != s.epoch:
			s.rEpoch[i], s.rBy[i], s.rWarp[i], s.rWs[i] = s.epoch, int32(t), w, s.wsEpoch
		case s.rWarp[i] != w:
			s.rBy[i], s.rWarp[i] = -2, -2
		case s.rWs[i] != s.wsEpoch:
			// The earlier reads, all by this warp, are ordered before
			// the warp's threads' later accesses.
			s.rBy[i], s.rWs[i] = int32(t), s.wsEpoch
		case s.rBy[i] != int32(t):
			s.rBy[i] = -2
		}
	}
}

// warpOrdered reports whether an access by thread by (atomicWriter: an
// atomic, of any warp), when the warp barrier count was ws, is ordered
// before the accesses of warp w now.
func (s *sim) warpOrdered(by, w, ws int32) bool {
	return by >= 0 && by/32 == w && ws != s.wsEpoch
}

// write records thread t's write of b to n shared bytes at addr (by is t,
// or atomicWriter for an atomic) and panics on a race.
func (s *sim) write(t int, addr uint64, b []byte, by int32) {
	if addr < sharedBase || addr >= constBase {
		return
	}
	a := int(addr - sharedBase)
	w := int32(t / 32)
	for k := range b {
		i := a + k
		if s.rEpoch[i] == s.epoch && s.rBy[i] != int32(t) && by != atomicWriter &&
			!(s.rWarp[i] == w && s.rWs[i] != s.wsEpoch) {
			panic(fmt.Sprintf("sim: shared-memory race: thread %d overwrites byte %d, read by another thread with no barrier between", t, i))
		}
		if s.wEpoch[i] == s.epoch && s.wBy[i] != by && s.shared[i] != b[k] && !(by != atomicWriter && s.warpOrdered(s.wBy[i], w, s.wWs[i])) {
			panic(fmt.Sprintf("sim: shared-memory race: threads %d and %d write byte %d with no barrier between", s.wBy[i], by, i))
		}
		s.wEpoch[i], s.wBy[i], s.wWs[i] = s.epoch, by, s.wsEpoch
	}
}

func loadWords(b []byte, t types.Type) simVal {
	if vt, ok := t.(*types.VectorType); ok {
		es := sizeOf(vt.ElemType)
		out := make(simVal, vt.Len)
		for i := range out {
			out[i] = loadWords(b[i*es:], vt.ElemType)[0]
		}
		return out
	}
	switch sizeOf(t) {
	case 1:
		return simVal{uint64(b[0])}
	case 2:
		return simVal{uint64(binary.LittleEndian.Uint16(b))}
	case 4:
		return simVal{uint64(binary.LittleEndian.Uint32(b))}
	}
	return simVal{binary.LittleEndian.Uint64(b)}
}

func storeWords(b []byte, t types.Type, v simVal) {
	if vt, ok := t.(*types.VectorType); ok {
		es := sizeOf(vt.ElemType)
		for i := range v {
			storeWords(b[i*es:], vt.ElemType, simVal{v[i]})
		}
		return
	}
	switch sizeOf(t) {
	case 1:
		b[0] = byte(v[0])
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v[0]))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v[0]))
	default:
		binary.LittleEndian.PutUint64(b, v[0])
	}
}

func f32(v uint64) float32 { return math.Float32frombits(uint32(v)) }

// run executes f with the given argument words (pointers: global
// addresses).
func (s *sim) run(f *lir.Func, args []uint64) {
	s.exec(f, func(_, i int) simVal { return simVal{args[i]} })
}

// exec runs f with argument i of thread t arg(t, i) and returns each
// thread's return value (nil for void).
func (s *sim) exec(f *lir.Func, arg func(t, i int) simVal) []simVal {
	for t := range s.threads {
		for i, p := range f.Params {
			s.env[t][p] = arg(t, i)
		}
	}
	blk := f.Blocks[0]
	prev := make([]*lir.Block, s.threads) // each thread's predecessor block
	for steps := 0; ; steps++ {
		if steps > 100000 {
			panic("sim: too many blocks")
		}
		s.block(blk, prev)
		switch term := blk.Term.(type) {
		case *lir.TermRet:
			out := make([]simVal, s.threads)
			if term.X != nil {
				for t := range out {
					out[t] = s.get(t, term.X)
				}
			}
			return out
		case *lir.TermBr:
			for t := range prev {
				prev[t] = blk
			}
			blk = term.Target.(*lir.Block)
		case *lir.TermCondBr:
			taken := make([]bool, s.threads)
			for t := range taken {
				taken[t] = s.get(t, term.Cond)[0] != 0
			}
			yes, no := term.TargetTrue.(*lir.Block), term.TargetFalse.(*lir.Block)
			if !slices.Contains(taken, !taken[0]) {
				for t := range prev {
					prev[t] = blk
				}
				blk = no
				if taken[0] {
					blk = yes
				}
				continue
			}
			blk = s.diverge(blk, yes, no, taken, prev)
		default:
			panic(fmt.Sprintf("sim: terminator %T", term))
		}
	}
}

// block runs blk's phis (each thread reading the values of its own
// predecessor, all at once) and then its instructions.
func (s *sim) block(blk *lir.Block, prev []*lir.Block) {
	var phiVals [][]simVal
	for _, inst := range blk.Insts {
		phi, ok := inst.(*lir.InstPhi)
		if !ok {
			break
		}
		vs := make([]simVal, s.threads)
		for t := range s.running() {
			for _, inc := range phi.Incs {
				if inc.Pred.(*lir.Block) == prev[t] {
					vs[t] = s.get(t, inc.X)
				}
			}
		}
		phiVals = append(phiVals, vs)
	}
	for i, vs := range phiVals {
		for t := range s.running() {
			s.env[t][blk.Insts[i].(*lir.InstPhi)] = vs[t]
		}
	}
	for _, inst := range blk.Insts[len(phiVals):] {
		s.step(inst)
	}
}

// diverge runs a branch from blk whose threads disagree: the threads
// taking yes run it, then those taking no run that, each side one block
// ending in a branch to the block where they meet (or that block itself),
// which it returns, with prev set for its phis. Shuffles and barriers in a
// side panic (they need every thread).
func (s *sim) diverge(blk, yes, no *lir.Block, taken []bool, prev []*lir.Block) *lir.Block {
	target := func(b *lir.Block) *lir.Block {
		if br, ok := b.Term.(*lir.TermBr); ok {
			return br.Target.(*lir.Block)
		}
		return nil
	}
	join := target(yes)
	switch {
	case join != nil && (no == join || target(no) == join):
	case target(no) == yes:
		join = yes
	default:
		panic(fmt.Sprintf("sim: divergent branch from %s without a join block", blk.Name()))
	}
	if s.off != nil {
		panic("sim: nested divergent branch")
	}
	for _, side := range []struct {
		b    *lir.Block
		take bool
	}{{yes, true}, {no, false}} {
		if side.b == join {
			continue
		}
		s.off = make([]bool, s.threads)
		for t := range taken {
			s.off[t] = taken[t] != side.take
		}
		s.block(side.b, slices.Repeat([]*lir.Block{blk}, s.threads))
		s.off = nil
	}
	for t := range prev {
		prev[t] = blk
		switch {
		case taken[t] && yes != join:
			prev[t] = yes
		case !taken[t] && no != join:
			prev[t] = no
		}
	}
	return join
}

func (s *sim) step(inst lir.Instruction) {
	if c, ok := inst.(*lir.InstCall); ok {
		s.call(c)
		return
	}
	for t := range s.running() {
		if r := s.eval(t, inst); r != nil {
			s.env[t][inst.(value.Value)] = r
		}
	}
}

func (s *sim) call(c *lir.InstCall) {
	if a, ok := c.Callee.(*lir.InlineAsm); ok {
		s.asm(c, a)
		return
	}
	f, ok := c.Callee.(*lir.Func)
	if !ok {
		panic(fmt.Sprintf("sim: callee %T", c.Callee))
	}
	switch f.Name() {
	case "vprintf":
		for t := range s.running() {
			s.printed = append(s.printed, s.vprintf(s.cString(s.get(t, c.Args[0])[0]), s.get(t, c.Args[1])[0]))
			s.env[t][c] = simVal{0}
		}
		return
	case "__nv_tanhf", "__nv_powf", "__nv_expf":
		// libdevice, unlinked: the interpreter's functions (Go's math,
		// rounded to f32), so that the two agree bit for bit.
		fn := map[string]func(x []float64) float64{
			"__nv_tanhf": func(x []float64) float64 { return math.Tanh(x[0]) },
			"__nv_powf":  func(x []float64) float64 { return math.Pow(x[0], x[1]) },
			"__nv_expf":  func(x []float64) float64 { return math.Exp(x[0]) },
		}[f.Name()]
		for t := range s.running() {
			x := make([]float64, len(c.Args))
			for i, a := range c.Args {
				x[i] = float64(f32(s.get(t, a)[0]))
			}
			s.env[t][c] = simVal{uint64(math.Float32bits(float32(fn(x))))}
		}
		return
	case "__assertfail":
		for t := range s.running() {
			s.asserts = append(s.asserts, fmt.Sprintf("%s:%d: %s", s.cString(s.get(t, c.Args[1])[0]), s.get(t, c.Args[2])[0], s.cString(s.get(t, c.Args[0])[0])))
		}
		return
	}
	if len(f.Blocks) > 0 { // a device function
		ret := s.exec(f, func(t, i int) simVal { return s.get(t, c.Args[i]) })
		for t := range s.running() {
			s.env[t][c] = ret[t]
		}
		return
	}
	name := f.Name()
	switch {
	case name == "llvm.nvvm.read.ptx.sreg.tid.x":
		for t := range s.running() {
			s.env[t][c] = simVal{uint64(t)}
		}
	case strings.HasPrefix(name, "llvm.nvvm.read.ptx.sreg.ctaid."):
		for t := range s.running() {
			s.env[t][c] = simVal{s.ctaid[name[len(name)-1]-'x']}
		}
	case strings.HasPrefix(name, "llvm.nvvm.read.ptx.sreg.nctaid."):
		for t := range s.running() {
			s.env[t][c] = simVal{s.nctaid[name[len(name)-1]-'x']}
		}
	case name == "llvm.nvvm.ex2.approx.f" || name == "llvm.nvvm.ex2.approx.ftz.f" || name == "llvm.fabs.f32":
		ftz := func(x float32) float32 { // .ftz: subnormal inputs and results are ±0
			if x != 0 && math.Abs(float64(x)) < 0x1p-126 {
				return float32(math.Copysign(0, float64(x)))
			}
			return x
		}
		for t := range s.running() {
			x := f32(s.get(t, c.Args[0])[0])
			var r float32
			switch name {
			case "llvm.fabs.f32":
				r = float32(math.Abs(float64(x)))
			case "llvm.nvvm.ex2.approx.ftz.f":
				r = ftz(float32(math.Exp2(float64(ftz(x)))))
			default:
				r = float32(math.Exp2(float64(x)))
			}
			s.env[t][c] = simVal{uint64(math.Float32bits(r))}
		}
	case name == "llvm.maxnum.f32" || name == "llvm.minnum.f32":
		for t := range s.running() {
			x, y := f32(s.get(t, c.Args[0])[0]), f32(s.get(t, c.Args[1])[0])
			r := x
			switch {
			case x != x:
				r = y
			case y != y:
			case name == "llvm.maxnum.f32":
				r = max(x, y)
			default:
				r = min(x, y)
			}
			s.env[t][c] = simVal{uint64(math.Float32bits(r))}
		}
	case name == "llvm.fmuladd.f32":
		for t := range s.running() {
			a, b, d := f32(s.get(t, c.Args[0])[0]), f32(s.get(t, c.Args[1])[0]), f32(s.get(t, c.Args[2])[0])
			s.env[t][c] = simVal{uint64(math.Float32bits(float32(float64(a)*float64(b) + float64(d))))}
		}
	case name == "llvm.fmuladd.f16":
		for t := range s.running() {
			a, b, d := f16.FromBits(s.get(t, c.Args[0])[0]), f16.FromBits(s.get(t, c.Args[1])[0]), f16.FromBits(s.get(t, c.Args[2])[0])
			s.env[t][c] = simVal{f16.Bits(f16.Round(a*b+d, interp.NearestEven, false))}
		}
	case name == "llvm.nvvm.prmt":
		for t := range s.running() {
			a, b, sel := uint32(s.get(t, c.Args[0])[0]), uint32(s.get(t, c.Args[1])[0]), uint32(s.get(t, c.Args[2])[0])
			s.env[t][c] = simVal{uint64(ptxint.Prmt(a, b, sel))}
		}
	case name == "llvm.nvvm.barrier0":
		if s.off != nil {
			panic("sim: a barrier in divergent code")
		}
		s.epoch++
	case name == "llvm.nvvm.bar.warp.sync":
		if s.off != nil {
			panic("sim: a warp barrier in divergent code")
		}
		for t := range s.threads {
			if m := s.get(t, c.Args[0])[0]; m != 0xffffffff {
				panic(fmt.Sprintf("sim: bar.warp.sync with mask %#x (only the full warp is modelled)", m))
			}
		}
		s.wsEpoch++
	case strings.HasPrefix(name, "llvm.nvvm.shfl.sync."):
		if s.off != nil {
			panic("sim: a shuffle in divergent code")
		}
		vals := make([]uint64, s.threads)
		for t := range s.running() {
			vals[t] = s.get(t, c.Args[1])[0]
		}
		for t := range s.running() {
			lane, warp := t%32, t/32*32
			arg := int(s.get(t, c.Args[2])[0])
			src := lane
			switch {
			case strings.Contains(name, ".idx."):
				src = arg & 31
			case strings.Contains(name, ".bfly."):
				src = lane ^ arg
			case strings.Contains(name, ".up."):
				if lane-arg >= 0 {
					src = lane - arg
				}
			}
			s.env[t][c] = simVal{vals[warp+src]}
		}
	case strings.HasPrefix(name, "llvm.nvvm.redux.sync."):
		if s.off != nil {
			panic("sim: a redux.sync in divergent code")
		}
		kind := strings.TrimPrefix(name, "llvm.nvvm.redux.sync.")
		for w := 0; w < s.threads; w += 32 {
			var acc uint64
			for lane := 0; lane < 32; lane++ {
				t := w + lane
				if m := s.get(t, c.Args[1])[0]; m != 0xffffffff {
					panic(fmt.Sprintf("sim: redux.sync with mask %#x (only the full warp is modelled)", m))
				}
				v := s.get(t, c.Args[0])[0] & 0xffffffff
				if lane == 0 {
					acc = v
					continue
				}
				sa, sv := int32(acc), int32(v)
				switch kind {
				case "add":
					acc = (acc + v) & 0xffffffff
				case "and":
					acc &= v
				case "or":
					acc |= v
				case "xor":
					acc ^= v
				case "min":
					acc = uint64(uint32(min(sa, sv)))
				case "max":
					acc = uint64(uint32(max(sa, sv)))
				case "umin":
					acc = min(acc, v)
				case "umax":
					acc = max(acc, v)
				default:
					panic("sim: call to " + name)
				}
			}
			for lane := 0; lane < 32; lane++ {
				s.env[w+lane][c] = simVal{acc}
			}
		}
	default:
		panic("sim: call to " + name)
	}
}

func (s *sim) eval(t int, inst lir.Instruction) simVal {
	bin := func(x, y value.Value, fn func(a, b uint64, n uint64) uint64) simVal {
		a, b := s.get(t, x), s.get(t, y)
		n := intBits(x.Type())
		if vt, ok := x.Type().(*types.VectorType); ok {
			n = intBits(vt.ElemType)
		}
		out := make(simVal, len(a))
		for i := range a {
			out[i] = mask(fn(a[i], b[i], n), n)
		}
		return out
	}
	// fbin is an f32 or half operation: computed in float64 and rounded
	// once to the type, which is exact (53 >= 2p+2 bits make the double
	// rounding innocuous for +, -, *, /).
	fbin := func(x, y value.Value, fn func(a, b float64) float64) simVal {
		a, b := s.get(t, x)[0], s.get(t, y)[0]
		if x.Type().Equal(types.Half) {
			r := fn(f16.FromBits(a), f16.FromBits(b))
			return simVal{f16.Bits(f16.Round(r, interp.NearestEven, false))}
		}
		return simVal{uint64(math.Float32bits(float32(fn(float64(f32(a)), float64(f32(b))))))}
	}
	switch x := inst.(type) {
	case *lir.InstAdd:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a + b })
	case *lir.InstSub:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a - b })
	case *lir.InstMul:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a * b })
	case *lir.InstAnd:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a & b })
	case *lir.InstOr:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a | b })
	case *lir.InstXor:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a ^ b })
	case *lir.InstShl:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a << b })
	case *lir.InstLShr:
		return bin(x.X, x.Y, func(a, b, _ uint64) uint64 { return a >> b })
	case *lir.InstAShr:
		return bin(x.X, x.Y, func(a, b, n uint64) uint64 { return uint64(sext(a, n) >> b) })
	case *lir.InstSDiv:
		return bin(x.X, x.Y, func(a, b, n uint64) uint64 { return uint64(sext(a, n) / sext(b, n)) })
	case *lir.InstSRem:
		return bin(x.X, x.Y, func(a, b, n uint64) uint64 { return uint64(sext(a, n) % sext(b, n)) })
	case *lir.InstFAdd:
		return fbin(x.X, x.Y, func(a, b float64) float64 { return a + b })
	case *lir.InstFMul:
		return fbin(x.X, x.Y, func(a, b float64) float64 { return a * b })
	case *lir.InstFDiv:
		return fbin(x.X, x.Y, func(a, b float64) float64 { return a / b })
	case *lir.InstFNeg:
		return simVal{uint64(math.Float32bits(-f32(s.get(t, x.X)[0])))}
	case *lir.InstFSub:
		return fbin(x.X, x.Y, func(a, b float64) float64 { return a - b })
	case *lir.InstICmp:
		return bin(x.X, x.Y, func(a, b, n uint64) uint64 {
			sa, sb := sext(a, n), sext(b, n)
			var r bool
			switch x.Pred {
			case enum.IPredEQ:
				r = a == b
			case enum.IPredNE:
				r = a != b
			case enum.IPredSLT:
				r = sa < sb
			case enum.IPredSLE:
				r = sa <= sb
			case enum.IPredSGT:
				r = sa > sb
			case enum.IPredSGE:
				r = sa >= sb
			case enum.IPredULT:
				r = a < b
			case enum.IPredULE:
				r = a <= b
			case enum.IPredUGT:
				r = a > b
			case enum.IPredUGE:
				r = a >= b
			}
			if r {
				return 1
			}
			return 0
		})
	case *lir.InstFCmp:
		a, b := f32(s.get(t, x.X)[0]), f32(s.get(t, x.Y)[0])
		var r bool
		switch x.Pred {
		case enum.FPredOGT:
			r = a > b
		case enum.FPredOLT:
			r = a < b
		case enum.FPredUNO:
			r = a != a || b != b
		case enum.FPredOEQ:
			r = a == b
		default:
			panic("sim: fcmp " + x.Pred.String())
		}
		if r {
			return simVal{1}
		}
		return simVal{0}
	case *lir.InstSelect:
		if s.get(t, x.Cond)[0] != 0 {
			return s.get(t, x.ValueTrue)
		}
		return s.get(t, x.ValueFalse)
	case *lir.InstZExt, *lir.InstTrunc, *lir.InstBitCast, *lir.InstPtrToInt, *lir.InstIntToPtr:
		from := inst.(interface{ Operands() []*value.Value }).Operands()[0]
		v := s.get(t, *from)
		n := intBits(inst.(value.Value).Type())
		if _, ok := inst.(*lir.InstBitCast); ok {
			if _, ok := (*from).Type().(*types.PointerType); ok {
				return v
			}
			return reinterpret(v, (*from).Type(), inst.(value.Value).Type())
		}
		return simVal{mask(v[0], n)}
	case *lir.InstSExt:
		v := s.get(t, x.From)
		return simVal{mask(uint64(sext(v[0], intBits(x.From.Type()))), intBits(x.To))}
	case *lir.InstFPExt:
		v := s.get(t, x.From)[0]
		switch {
		case x.From.Type().Equal(types.Half) && x.To.Equal(types.Float):
			return simVal{uint64(math.Float32bits(float32(f16.FromBits(v))))}
		case x.From.Type().Equal(types.Half) && x.To.Equal(types.Double):
			return simVal{math.Float64bits(f16.FromBits(v))}
		case x.From.Type().Equal(types.Float) && x.To.Equal(types.Double):
			return simVal{math.Float64bits(float64(f32(v)))}
		}
		panic("sim: fpext " + x.LLString())
	case *lir.InstAlloca:
		if s.local == nil {
			s.local = make([][]byte, s.threads)
		}
		a := alignOf(x.ElemType)
		off := (len(s.local[t]) + a - 1) / a * a
		s.local[t] = append(s.local[t], make([]byte, off+sizeOf(x.ElemType)-len(s.local[t]))...)
		return simVal{localBase + uint64(t)<<localShift + uint64(off)}
	case *lir.InstFPTrunc:
		if !x.From.Type().Equal(types.Float) || !x.To.Equal(types.Half) {
			panic("sim: fptrunc " + x.LLString())
		}
		return simVal{f16.Bits(f16.Round(float64(f32(s.get(t, x.From)[0])), interp.NearestEven, false))}
	case *lir.InstSIToFP:
		v := s.get(t, x.From)
		return simVal{uint64(math.Float32bits(float32(sext(v[0], intBits(x.From.Type())))))}
	case *lir.InstGetElementPtr:
		base := s.get(t, x.Src)[0]
		if st, ok := x.ElemType.(*types.StructType); ok { // (0, field)
			return simVal{base + uint64(fieldOffset(st, int(s.get(t, x.Indices[1])[0])))}
		}
		if len(x.Indices) == 1 {
			i := s.get(t, x.Indices[0])[0]
			return simVal{base + uint64(sext(i, intBits(x.Indices[0].Type()))*int64(sizeOf(x.ElemType)))}
		}
		// An array with (0, element index).
		at := x.ElemType.(*types.ArrayType)
		return simVal{base + s.get(t, x.Indices[1])[0]*uint64(sizeOf(at.ElemType))}
	case *lir.InstLoad:
		addr := s.get(t, x.Src)[0]
		s.read(t, addr, sizeOf(x.ElemType))
		return loadWords(s.mem(addr, sizeOf(x.ElemType)), x.ElemType)
	case *lir.InstStore:
		addr := s.get(t, x.Dst)[0]
		b := make([]byte, sizeOf(x.Src.Type()))
		storeWords(b, x.Src.Type(), s.get(t, x.Src))
		s.write(t, addr, b, int32(t))
		copy(s.mem(addr, len(b)), b)
		if addr < sharedBase {
			s.globalStores += len(b)
		}
		return nil
	case *lir.InstAtomicRMW:
		// Threads run one after the other, so this is atomic.
		addr := s.get(t, x.Dst)[0]
		b := s.mem(addr, sizeOf(x.X.Type()))
		old := loadWords(b, x.X.Type())
		if x.Op != enum.AtomicOpAdd {
			panic("sim: atomicrmw " + x.Op.String())
		}
		nb := make([]byte, len(b))
		storeWords(nb, x.X.Type(), simVal{old[0] + s.get(t, x.X)[0]})
		s.write(t, addr, nb, atomicWriter)
		copy(b, nb)
		return old
	case *lir.InstInsertValue:
		v := append(simVal{}, s.get(t, x.X)...)
		v[x.Indices[0]] = s.get(t, x.Elem)[0]
		return v
	case *lir.InstExtractValue:
		return simVal{s.get(t, x.X)[x.Indices[0]]}
	case *lir.InstExtractElement:
		return simVal{s.get(t, x.X)[s.get(t, x.Index)[0]]}
	case *lir.InstInsertElement:
		v := append(simVal{}, s.get(t, x.X)...)
		v[s.get(t, x.Index)[0]] = s.get(t, x.Elem)[0]
		return v
	}
	panic(fmt.Sprintf("sim: instruction %T: %s", inst, inst.LLString()))
}

// reinterpret is a bitcast between scalars and vectors of 32-bit words or
// narrower elements.
func reinterpret(v simVal, from, to types.Type) simVal {
	fb := make([]byte, sizeOf(from))
	storeWords(fb, from, v)
	return loadWords(fb, to)
}

// asm models the inline PTX the dot lowering emits: mma.sync m16n8k16
// (f16 operands) and m16n8k8 (tf32), per warp, from the fragment layouts
// of the PTX ISA (independently of the lowering's own tables).
func (s *sim) asm(c *lir.InstCall, a *lir.InlineAsm) {
	if m := atomRE.FindStringSubmatch(a.Asm); m != nil {
		s.atom(c, m[1], m[2], m[3], m[4])
		return
	}
	if m := stSharedRE.FindStringSubmatch(a.Asm); m != nil {
		for t := range s.running() {
			if s.get(t, c.Args[2])[0] == 0 {
				continue
			}
			addr := s.get(t, c.Args[0])[0]
			b := make([]byte, sizeOf(c.Args[1].Type()))
			storeWords(b, c.Args[1].Type(), s.get(t, c.Args[1]))
			s.write(t, addr, b, int32(t))
			copy(s.mem(addr, len(b)), b)
		}
		return
	}
	if strings.HasPrefix(a.Asm, "div.full.f32 ") {
		for t := range s.running() {
			x, y := f32(s.get(t, c.Args[0])[0]), f32(s.get(t, c.Args[1])[0])
			s.env[t][c] = simVal{uint64(math.Float32bits(x / y))}
		}
		return
	}
	if strings.HasPrefix(a.Asm, "add.rz.f32 ") {
		for t := range s.running() {
			x, y := float64(f32(s.get(t, c.Args[0])[0])), float64(f32(s.get(t, c.Args[1])[0]))
			r := interp.LookupFloatFormat("f32").Round(x+y, interp.TowardZero, false)
			s.env[t][c] = simVal{uint64(math.Float32bits(float32(r)))}
		}
		return
	}
	if strings.HasPrefix(a.Asm, "cvt.rn.f16x2.f32 ") || strings.HasPrefix(a.Asm, "cvt.rn.bf16x2.f32 ") {
		// d = {cvt(a) in the upper half, cvt(b) in the lower}.
		ff := f16
		if strings.HasPrefix(a.Asm, "cvt.rn.bf16x2") {
			ff = interp.LookupFloatFormat("bf16")
		}
		for t := range s.running() {
			hi := ff.Bits(ff.Round(float64(f32(s.get(t, c.Args[0])[0])), interp.NearestEven, false))
			lo := ff.Bits(ff.Round(float64(f32(s.get(t, c.Args[1])[0])), interp.NearestEven, false))
			s.env[t][c] = simVal{hi<<16 | lo}
		}
		return
	}
	if strings.HasPrefix(a.Asm, "cvt.rna.tf32.f32 ") {
		tf32 := interp.LookupFloatFormat("tf32")
		for t := range s.running() {
			x := float64(f32(s.get(t, c.Args[0])[0]))
			s.env[t][c] = simVal{uint64(math.Float32bits(float32(tf32.Round(x, interp.NearestAway, false))))}
		}
		return
	}
	if m := matrixRE.FindStringSubmatch(a.Asm); m != nil {
		n, _ := strconv.Atoi(m[2])
		s.matrix(c, m[1] == "ld", n, m[3] != "")
		return
	}
	switch {
	case a.Asm == "wgmma.fence.sync.aligned;" || a.Asm == "wgmma.commit_group.sync.aligned;" ||
		strings.HasPrefix(a.Asm, "fence.proxy.async.shared::"):
		return // wgmma runs synchronously here
	case strings.HasPrefix(a.Asm, "// wait for regs:") || a.Asm == "mov.b32 $0, $1;":
		for t := range s.running() {
			var out simVal
			for _, x := range c.Args {
				out = append(out, s.get(t, x)...)
			}
			s.env[t][c] = out
		}
		return
	case a.Asm == "mov.b32 $0, {$1, $2};": // pack two 16-bit values, $1 low
		for t := range s.running() {
			s.env[t][c] = simVal{s.get(t, c.Args[0])[0]&0xffff | s.get(t, c.Args[1])[0]&0xffff<<16}
		}
		return
	case strings.HasPrefix(a.Asm, "wgmma.mma_async.sync.aligned."):
		s.wgmma(c, a.Asm)
		return
	case strings.HasPrefix(a.Asm, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"):
		s.mmaInt8(c)
		return
	case strings.Contains(a.Asm, " st.global") || strings.HasPrefix(a.Asm, "st.global"):
		s.predicatedStore(c, a.Asm)
		return

	case maskedLoadRE.MatchString(a.Asm):
		s.maskedLoad(c, a.Asm)
		return
	case strings.Contains(a.Asm, "mul.wide.u32 w, $2, $3;") && strings.Contains(a.Asm, "mov.b64 {$0, $1}, w;"):
		for t := range s.running() {
			p := uint64(uint32(s.get(t, c.Args[0])[0])) * uint64(uint32(s.get(t, c.Args[1])[0]))
			s.env[t][c] = simVal{p & 0xffffffff, p >> 32}
		}
		return
	}
	if p, err := ptxint.Parse(a.Asm, a.Constraint); err == nil {
		s.ptxBlock(c, p)
		return
	}
	var k int
	var tf32, bf16, acc16 bool
	switch {
	case strings.HasPrefix(a.Asm, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"):
		k, acc16 = 16, true
	case strings.HasPrefix(a.Asm, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"):
		k = 16
	case strings.HasPrefix(a.Asm, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"):
		k, bf16 = 16, true
	case strings.HasPrefix(a.Asm, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"):
		k, tf32 = 8, true
	default:
		panic("sim: inline asm is not modelled: " + a.Asm)
	}
	for w := 0; w < s.threads; w += 32 {
		var A [16][16]float32
		var B [16][8]float32
		var C [16][8]float32
		word := func(t, i int) uint64 { return s.get(t, c.Args[i])[0] }
		for lane := 0; lane < 32; lane++ {
			t := w + lane
			g, q := lane>>2, lane&3
			if tf32 {
				A[g][q], A[g+8][q], A[g][q+4], A[g+8][q+4] = f32(word(t, 0)), f32(word(t, 1)), f32(word(t, 2)), f32(word(t, 3))
				B[q][g], B[q+4][g] = f32(word(t, 4)), f32(word(t, 5))
			} else {
				conv := halfBits
				if bf16 {
					conv = func(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }
				}
				lo := func(v uint64) float32 { return conv(uint16(v)) }
				hi := func(v uint64) float32 { return conv(uint16(v >> 16)) }
				for i, rc := range [][2]int{{g, 2 * q}, {g + 8, 2 * q}, {g, 2*q + 8}, {g + 8, 2*q + 8}} {
					A[rc[0]][rc[1]], A[rc[0]][rc[1]+1] = lo(word(t, i)), hi(word(t, i))
				}
				B[2*q][g], B[2*q+1][g] = lo(word(t, 4)), hi(word(t, 4))
				B[2*q+8][g], B[2*q+9][g] = lo(word(t, 5)), hi(word(t, 5))
			}
			if acc16 { // two f16x2 registers
				C[g][2*q], C[g][2*q+1] = halfBits(uint16(word(t, 6))), halfBits(uint16(word(t, 6)>>16))
				C[g+8][2*q], C[g+8][2*q+1] = halfBits(uint16(word(t, 7))), halfBits(uint16(word(t, 7)>>16))
				continue
			}
			C[g][2*q], C[g][2*q+1], C[g+8][2*q], C[g+8][2*q+1] = f32(word(t, 6)), f32(word(t, 7)), f32(word(t, 8)), f32(word(t, 9))
		}
		for lane := 0; lane < 32; lane++ {
			g, q := lane>>2, lane&3
			var out simVal
			for _, rc := range [][2]int{{g, 2 * q}, {g, 2*q + 1}, {g + 8, 2 * q}, {g + 8, 2*q + 1}} {
				d := C[rc[0]][rc[1]]
				for kk := 0; kk < k; kk++ {
					d += A[rc[0]][kk] * B[kk][rc[1]]
				}
				out = append(out, uint64(math.Float32bits(d)))
			}
			if acc16 { // exact small integers: the f16 of each sum, packed
				h := func(i int) uint64 { return uint64(toHalf(math.Float32frombits(uint32(out[i])))) }
				out = simVal{h(0) | h(1)<<16, h(2) | h(3)<<16}
			}
			s.env[w+lane][c] = out
		}
	}
}

func halfBits(h uint16) float32 {
	sign := float32(1)
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h>>10) & 0x1f
	m := float32(h & 0x3ff)
	if e == 0 {
		return sign * m / (1 << 24)
	}
	return sign * (1 + m/1024) * float32(math.Pow(2, float64(e-15)))
}

// predicatedStore models Triton's "@$P st.global[.vN].bW [ $A + 0 ], { words };"
// (the words, then the address, then the predicate) and the same without
// "@$P " and its operand, counting the stores each global byte receives.
func (s *sim) predicatedStore(c *lir.InstCall, text string) {
	m := regexp.MustCompile(`st\.global(?:\.v\d)?\.b(\d+) `).FindStringSubmatch(text)
	if m == nil {
		panic("sim: inline asm is not modelled: " + text)
	}
	wb, _ := strconv.Atoi(m[1])
	pred := strings.HasPrefix(text, "@$")
	n := len(c.Args) - 1
	if pred {
		n--
	}
	for t := range s.running() {
		if pred && s.get(t, c.Args[n+1])[0]&1 == 0 {
			continue
		}
		addr := s.get(t, c.Args[n])[0]
		b := make([]byte, n*wb/8)
		for i := 0; i < n; i++ {
			storeWords(b[i*wb/8:], types.NewInt(uint64(wb)), s.get(t, c.Args[i]))
		}
		copy(s.mem(addr, len(b)), b)
		s.globalStores += len(b)
	}
}

// ptxBlock runs inline PTX of 32-bit integer and f32 instructions
// (package ptxint: and, or, xor, shl, shr, add, sub, mov, prmt, f32
// arithmetic…) on each thread.
func (s *sim) ptxBlock(c *lir.InstCall, p *ptxint.Program) {
	for t := range s.running() {
		ins := make([]uint64, len(c.Args))
		for i, x := range c.Args {
			ins[i] = s.get(t, x)[0]
			if sizeOf(x.Type()) < 8 {
				ins[i] &= 0xffffffff
			}
		}
		outs, err := p.Run(ins)
		if err != nil {
			panic("sim: " + err.Error())
		}
		s.env[t][c] = simVal(outs)
	}
}

var matrixRE = regexp.MustCompile(`^(ld|st)matrix\.sync\.aligned\.m8n8\.x([124])(\.trans)?\.shared\.b16 `)

// matrix models ldmatrix and stmatrix (.m8n8.xN[.trans].shared.b16) from
// the PTX ISA, per warp: lane i addresses row i%8 of matrix i/8 (16
// bytes; lanes from 8N on are ignored); lane (g, t) = (lane/4, lane%4)
// holds in its register j matrix j's (g, 2t), (g, 2t+1), or transposed
// (2t, g), (2t+1, g) (row, 16-bit element). ldmatrix's operands are the
// address; stmatrix's the address, then the N registers.
func (s *sim) matrix(c *lir.InstCall, load bool, n int, trans bool) {
	for w := 0; w < s.threads; w += 32 {
		var addr [4][8]uint64
		for i := 0; i < 8*n; i++ {
			addr[i/8][i%8] = s.get(w+i, c.Args[0])[0]
		}
		// elem returns the row and the element of register j's half h in
		// lane (g, t).
		elem := func(g, t, h int) (int, int) {
			if trans {
				return 2*t + h, g
			}
			return g, 2*t + h
		}
		if load {
			var mat [4][8][8]uint16
			for i := 0; i < 8*n; i++ {
				s.read(w+i, addr[i/8][i%8], 16)
				row := s.mem(addr[i/8][i%8], 16)
				for e := 0; e < 8; e++ {
					mat[i/8][i%8][e] = binary.LittleEndian.Uint16(row[2*e:])
				}
			}
			for lane := 0; lane < 32; lane++ {
				var out simVal
				for j := 0; j < n; j++ {
					var word uint64
					for h := 0; h < 2; h++ {
						r, e := elem(lane/4, lane%4, h)
						word |= uint64(mat[j][r][e]) << (16 * h)
					}
					out = append(out, word)
				}
				s.env[w+lane][c] = out
			}
			continue
		}
		for lane := 0; lane < 32; lane++ {
			for j := 0; j < n; j++ {
				word := s.get(w+lane, c.Args[1+j])[0]
				for h := 0; h < 2; h++ {
					r, e := elem(lane/4, lane%4, h)
					a := addr[j][r] + uint64(2*e)
					b := []byte{byte(word >> (16 * h)), byte(word >> (16*h + 8))}
					s.write(w+8*j+r, a, b, int32(w+8*j+r))
					copy(s.mem(a, 2), b)
				}
			}
		}
	}
}

// wgmma models wgmma.mma_async.sync.aligned.m64nNkK.{f32,f16,s32}.{f16,bf16,tf32,e4m3,e5m2,s8}
// per warp group from the PTX ISA: the accumulator fragment (thread
// (warp w, lane g·4+q) holds rows 16w+g+8i, columns 8j+2q+b in register
// 4j+2i+b), A in registers as mma.sync's m16n8kK fragment per warp (4/e
// elements of e bytes per register: lane q of a quad at K = 4q/e + i), and
// the shared operands through their matrix descriptors (decoded here:
// start, LBO, SBO, swizzle mode) and the canonical layouts of core
// matrices (8 rows of 16 bytes) and swizzle atoms (8 rows of S bytes,
// 16-byte chunk index XOR row within the atom).
func (s *sim) wgmma(c *lir.InstCall, text string) {
	var n, k int
	var dtype, ty string
	if _, err := fmt.Sscanf(strings.ReplaceAll(text[len("wgmma.mma_async.sync.aligned."):], ".", " "), "m64n%dk%d %s %s", &n, &k, &dtype, &ty); err != nil {
		panic("sim: wgmma: " + text)
	}
	imm := strings.Split(strings.TrimSuffix(text[strings.LastIndex(text, "}")+1:], ";"), ",")
	trans := func(i int) bool { return strings.TrimSpace(imm[i]) == "1" }
	// An f32 accumulator is N/2 registers, element (8i, 8j+2q+b) of the
	// thread's rows in register 4j+2i+b; an f16 one N/4 f16x2 registers,
	// the same element in half b of register 2j+i.
	acc16 := dtype == "f16"
	nacc := n / 2
	if acc16 {
		nacc = n / 4
	}
	accAt := func(t, r int) float32 { // element r of the f32 numbering
		switch {
		case acc16:
			return halfBits(uint16(s.get(t, c.Args[r/2])[0] >> (16 * (r % 2))))
		case dtype == "s32": // small sums: exact in float32
			return float32(int32(s.get(t, c.Args[r])[0]))
		}
		return f32(s.get(t, c.Args[r])[0])
	}
	aRegs := len(c.Args) == nacc+4+2
	var transA, transB bool
	if ty == "f16" || ty == "bf16" {
		if aRegs {
			transB = trans(len(imm) - 1)
		} else {
			transA, transB = trans(len(imm)-2), trans(len(imm)-1)
		}
	}
	eb := map[string]int{"f16": 2, "bf16": 2, "tf32": 4, "s8": 1, "e4m3": 1, "e5m2": 1}[ty]
	elem := func(bits uint64) float32 {
		switch ty {
		case "s8":
			return float32(int8(bits))
		case "e4m3":
			return float32(interp.LookupFloatFormat("f8E4M3FN").FromBits(bits & 0xff))
		case "e5m2":
			return float32(interp.LookupFloatFormat("f8E5M2").FromBits(bits & 0xff))
		case "f16":
			return halfBits(uint16(bits))
		case "bf16":
			return math.Float32frombits(uint32(bits) << 16)
		}
		return f32(bits)
	}
	// smem returns element (mn, k) of a K-major (or MN-major) operand.
	smem := func(t int, desc uint64, mn, kk int, mnMajor bool) float32 {
		start := int(desc&0x3fff) << 4
		lbo := int(desc>>16&0x3fff) << 4
		sbo := int(desc>>32&0x3fff) << 4
		sw := map[uint64]int{0: 0, 1: 128, 2: 64, 3: 32}[desc>>62]
		var addr int
		switch {
		case !mnMajor && sw == 0:
			addr = start + mn/8*sbo + kk*eb/16*lbo + mn%8*16 + kk*eb%16
		case !mnMajor:
			addr = start + mn/8*sbo + mn%8*sw + kk*eb
		case sw == 0:
			addr = start + kk/8*lbo + mn*eb/16*sbo + kk%8*16 + mn*eb%16
		default:
			addr = start + kk/8*sbo + mn*eb/sw*lbo + kk%8*sw + mn*eb%sw
		}
		if sw != 0 {
			addr ^= (addr >> 7 & (sw/16 - 1)) << 4
		}
		s.read(t, sharedBase+uint64(addr), eb)
		var buf [8]byte
		copy(buf[:], s.mem(sharedBase+uint64(addr), eb))
		return elem(binary.LittleEndian.Uint64(buf[:]))
	}
	for g0 := 0; g0 < s.threads; g0 += 128 {
		A := make([][]float32, 64)
		C := make([][]float32, 64)
		for i := range A {
			A[i], C[i] = make([]float32, k), make([]float32, n)
		}
		B := make([][]float32, k)
		for i := range B {
			B[i] = make([]float32, n)
		}
		word := func(t, i int) uint64 { return s.get(t, c.Args[i])[0] }
		bDesc := word(g0, len(c.Args)-2)
		for kk := 0; kk < k; kk++ {
			for j := 0; j < n; j++ {
				B[kk][j] = smem(g0, bDesc, j, kk, transB)
			}
		}
		if !aRegs {
			aDesc := word(g0, nacc)
			for i := 0; i < 64; i++ {
				for kk := 0; kk < k; kk++ {
					A[i][kk] = smem(g0, aDesc, i, kk, transA)
				}
			}
		}
		for t := g0; t < g0+128; t++ {
			w, g, q := (t-g0)/32, t%32/4, t%4
			for r := 0; r < n/2; r++ {
				j, i, b := r/4, r/2%2, r%2
				C[16*w+g+8*i][8*j+2*q+b] = accAt(t, r)
			}
			if aRegs {
				for r := 0; r < 4; r++ {
					row, col := 16*w+g+8*(r%2), r/2*k/2
					v := word(t, nacc+r)
					// 4/eb elements per register, at K = col + q·4/eb + i.
					per := 4 / eb
					for i := 0; i < per; i++ {
						A[row][col+per*q+i] = elem(v >> (8 * eb * i) & (1<<(8*eb) - 1))
					}
				}
			}
		}
		scale := word(g0, len(c.Args)-1) != 0
		for t := g0; t < g0+128; t++ {
			w, g, q := (t-g0)/32, t%32/4, t%4
			out := make(simVal, n/2)
			for r := range out {
				j, i, b := r/4, r/2%2, r%2
				row, col := 16*w+g+8*i, 8*j+2*q+b
				var d float32
				if scale {
					d = C[row][col]
				}
				for kk := 0; kk < k; kk++ {
					d += A[row][kk] * B[kk][col]
				}
				out[r] = uint64(math.Float32bits(d))
				if dtype == "s32" {
					out[r] = uint64(uint32(int32(d)))
				}
			}
			if acc16 { // exact small integers: each sum's f16, packed
				h := func(r int) uint64 { return uint64(toHalf(math.Float32frombits(uint32(out[r])))) }
				packed := make(simVal, nacc)
				for r := range packed {
					packed[r] = h(2*r) | h(2*r+1)<<16
				}
				out = packed
			}
			s.env[t][c] = out
		}
	}
}

var (
	// The masked global load: each word set (mov.uW $i, IMM;), then
	// @$P ld[.volatile].global[.L2::256B][.vN].bW { words }, [ $A + 0 ];
	// or (loadHints.fillAfter) the load first, then each word set where
	// the predicate does not hold (@!$P mov.uW $i, IMM;); without a
	// predicate (and the movs), an unmasked load with a hint.
	maskedLoadRE = regexp.MustCompile(`(?s)^(?:mov\.u\d+ \$\d+, 0x[0-9a-f]+;\s*)*(?:@\$\d+ )?ld(?:\.volatile)?\.global(?:\.L2::256B)?(?:\.v\d)?\.b(\d+) \{ [^}]* \}, \[ \$\d+ \+ 0 \];(?:\s*@!\$\d+ mov\.u\d+ \$\d+, 0x[0-9a-f]+;)*$`)
	movImmRE     = regexp.MustCompile(`mov\.u\d+ \$(\d+), (0x[0-9a-f]+);`)
	// The predicated atomics of the atomic lowering:
	// @$N atom.SEM.SCOPE.global.OP[.noftz][.vN].TYPE (or red).
	atomRE = regexp.MustCompile(`^@\$\d+ (atom|red)\.\w+\.\w+\.global\.(\w+)(?:\.noftz)?(?:\.v(\d))?\.((?:bf|[usbf])\d+(?:x2)?) `)
	// A predicated shared store: @$2 st.shared.bN [ $0 + 0 ], $1;
	stSharedRE = regexp.MustCompile(`^@\$2 st\.shared\.b\d+ \[ \$0 \+ 0 \], \$1;$`)
)

// maskedLoad models the masked global load: $0.. the words, loaded from
// the address ($N) where the predicate ($N+1) holds (or without one), else
// set to their immediates (a word without one holds 0xdeadbeef…, so
// that a missing mov shows in the results).
func (s *sim) maskedLoad(c *lir.InstCall, text string) {
	var wb int
	fmt.Sscanf(maskedLoadRE.FindStringSubmatch(text)[1], "%d", &wb)
	words := strings.Count(text[strings.Index(text, "{"):strings.Index(text, "}")], "$")
	off := make(simVal, words)
	for i := range off {
		off[i] = 0xdeadbeefdeadbeef >> (64 - wb)
	}
	for _, m := range movImmRE.FindAllStringSubmatch(text, -1) {
		i, err := strconv.Atoi(m[1])
		if err != nil || i >= words {
			panic(fmt.Sprintf("sim: masked load sets word %s of %d: %s", m[1], words, text))
		}
		if off[i], err = strconv.ParseUint(m[2][2:], 16, 64); err != nil {
			panic(err)
		}
	}
	for t := range s.running() {
		out := append(simVal{}, off...)
		if len(c.Args) == 1 || s.get(t, c.Args[1])[0] != 0 {
			addr := s.get(t, c.Args[0])[0]
			for i := range out {
				out[i] = loadWords(s.mem(addr+uint64(i*wb/8), wb/8), types.NewInt(uint64(wb)))[0]
			}
		}
		s.env[t][c] = out
	}
}

// atom runs a predicated global atomic (atom, or red: no old value) thread
// by thread, so each is atomic: $0 the old value (a vector's: one per
// element), then the address, the operands (cas: the compared value and
// the new one; a vector: one per element; f16x2: two halves in a word),
// the predicate last. A thread whose predicate is off gets 0.
func (s *sim) atom(c *lir.InstCall, instr, op, vec, typ string) {
	n := 1
	if vec != "" {
		n = int(vec[0] - '0')
	}
	pairs := strings.HasSuffix(typ, "x2")
	typ = strings.TrimSuffix(typ, "x2")
	var w uint64 // bits of one element
	switch typ {
	case "f16", "bf16":
		w = 16
	default:
		fmt.Sscanf(typ[1:], "%d", &w)
	}
	// add applies the op to one element's old bits and operand bits.
	add := func(old, x uint64) uint64 {
		switch {
		case op == "add" && typ == "f32":
			return uint64(math.Float32bits(f32(old) + f32(x)))
		case op == "add" && typ == "f64":
			return math.Float64bits(math.Float64frombits(old) + math.Float64frombits(x))
		case op == "add" && (typ == "f16" || typ == "bf16"):
			f := interp.LookupFloatFormat(typ)
			return f.Bits(f.Round(f.FromBits(old)+f.FromBits(x), interp.NearestEven, false))
		case op == "add":
			return old + x
		case op == "exch":
			return x
		case op == "max" && typ[0] == 's':
			if sext(x, w) > sext(old, w) {
				return x
			}
			return old
		}
		panic("sim: " + instr + "." + op + "." + typ)
	}
	pred := c.Args[len(c.Args)-1]
	eb := int(w / 8)
	for t := range s.running() {
		if s.get(t, pred)[0] == 0 {
			if instr == "atom" {
				s.env[t][c] = make(simVal, n)
			}
			continue
		}
		addr := s.get(t, c.Args[0])[0]
		var olds simVal
		for i := 0; i < n; i++ {
			b := s.mem(addr+uint64(i*eb), eb)
			switch {
			case op == "cas":
				old := loadWords(b, types.NewInt(w))[0]
				nv := old
				if old == s.get(t, c.Args[1])[0] {
					nv = s.get(t, c.Args[2])[0]
				}
				storeWords(b, types.NewInt(w), simVal{nv})
				olds = append(olds, old)
			case pairs:
				b = s.mem(addr, 2*eb)
				word := binary.LittleEndian.Uint32(b)
				x := s.get(t, c.Args[1])[0]
				lo := add(uint64(word&0xffff), x&0xffff)
				hi := add(uint64(word>>16), x>>16&0xffff)
				binary.LittleEndian.PutUint32(b, uint32(mask(lo, 16)|mask(hi, 16)<<16))
				olds = append(olds, uint64(word))
			default:
				old := loadWords(b, types.NewInt(w))[0]
				storeWords(b, types.NewInt(w), simVal{mask(add(old, s.get(t, c.Args[1+i])[0]), w)})
				olds = append(olds, old)
			}
		}
		if instr == "atom" {
			s.env[t][c] = olds
		}
	}
}

// mmaInt8 models mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// from the PTX ISA's fragment layouts: lane (g, q) holds A rows g and g+8,
// columns 4q..4q+3 (and +16) in a0..a3, B rows 4q..4q+3 (and +16) of
// column g in b0, b1, and C as for the float shapes; D saturates to i32.
func (s *sim) mmaInt8(c *lir.InstCall) {
	for w := 0; w < s.threads; w += 32 {
		var A [16][32]int64
		var B [32][8]int64
		var C [16][8]int64
		word := func(t, i int) uint64 { return s.get(t, c.Args[i])[0] }
		for lane := 0; lane < 32; lane++ {
			t := w + lane
			g, q := lane>>2, lane&3
			for i, rc := range [][2]int{{g, 4 * q}, {g + 8, 4 * q}, {g, 4*q + 16}, {g + 8, 4*q + 16}} {
				for e := 0; e < 4; e++ {
					A[rc[0]][rc[1]+e] = sext(word(t, i)>>(8*e), 8)
				}
			}
			for i, k0 := range []int{4 * q, 4*q + 16} {
				for e := 0; e < 4; e++ {
					B[k0+e][g] = sext(word(t, 4+i)>>(8*e), 8)
				}
			}
			C[g][2*q], C[g][2*q+1], C[g+8][2*q], C[g+8][2*q+1] = sext(word(t, 6), 32), sext(word(t, 7), 32), sext(word(t, 8), 32), sext(word(t, 9), 32)
		}
		for lane := 0; lane < 32; lane++ {
			g, q := lane>>2, lane&3
			var out simVal
			for _, rc := range [][2]int{{g, 2 * q}, {g, 2*q + 1}, {g + 8, 2 * q}, {g + 8, 2*q + 1}} {
				d := C[rc[0]][rc[1]]
				for kk := 0; kk < 32; kk++ {
					d += A[rc[0]][kk] * B[kk][rc[1]]
				}
				d = min(max(d, math.MinInt32), math.MaxInt32)
				out = append(out, mask(uint64(d), 32))
			}
			s.env[w+lane][c] = out
		}
	}
}

// cString reads a NUL-terminated string at addr.
func (s *sim) cString(addr uint64) string {
	var b []byte
	for ; ; addr++ {
		c := s.mem(addr, 1)[0]
		if c == 0 {
			return string(b)
		}
		b = append(b, c)
	}
}

// printfConv is one conversion of a vprintf format: flags and width, the
// length modifier and the conversion character.
var printfConv = regexp.MustCompile(`%(0?)([0-9]*)(ll)?([uixfp%])`)

// vprintf formats as CUDA's vprintf: each conversion reads the next
// argument from buf, aligned to its size (4 bytes for %u/%i/%x, 8 for
// %llu, %f (a double) and %p).
func (s *sim) vprintf(format string, buf uint64) string {
	off := uint64(0)
	next := func(n uint64) uint64 {
		off = (off + n - 1) / n * n
		b := s.mem(buf+off, int(n))
		off += n
		if n == 4 {
			return uint64(binary.LittleEndian.Uint32(b))
		}
		return binary.LittleEndian.Uint64(b)
	}
	return printfConv.ReplaceAllStringFunc(format, func(m string) string {
		p := printfConv.FindStringSubmatch(m)
		zero, width, long, conv := p[1], p[2], p[3] != "", p[4]
		w, _ := strconv.Atoi(width)
		pad := func(x string) string {
			for len(x) < w {
				if zero != "" {
					x = "0" + x
				} else {
					x = " " + x
				}
			}
			return x
		}
		switch conv {
		case "%":
			return "%"
		case "f":
			return pad(strconv.FormatFloat(math.Float64frombits(next(8)), 'f', 6, 64))
		case "p":
			return pad(fmt.Sprintf("%#x", next(8)))
		}
		n := uint64(4)
		if long {
			n = 8
		}
		v := next(n)
		switch conv {
		case "u":
			return pad(strconv.FormatUint(v, 10))
		case "i":
			return pad(strconv.FormatInt(sext(v, 8*n), 10))
		}
		return pad(strconv.FormatUint(v, 16))
	})
}
