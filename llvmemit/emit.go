package llvmemit

import (
	"fmt"
	"github.com/layoutopt/layoutopt/axisinfo"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// Kernel describes one emitted kernel for launchers: its PTX entry name,
// block size, dynamic shared memory and parameters (the two trailing
// scratch pointers included).
type Kernel struct {
	Name        string `json:"name"`
	Threads     int    `json:"threads"`
	NumWarps    int    `json:"num_warps"`
	SharedBytes int    `json:"shared_bytes"`
	Target      string `json:"target,omitempty"`
	// Arch is the architecture the PTX must be assembled for when it is
	// not llc's sm_80: sm_90a for a module with wgmma or vector atomics
	// (Result.Hopper), which loads on sm_90 devices only.
	Arch string `json:"arch,omitempty"`
	// GlobalScratchSize and GlobalScratchAlign are the bytes of global
	// scratch each program needs and their alignment (the module's
	// ttg.global_scratch_memory_size and _alignment, Triton's metadata
	// keys): the launcher passes a buffer of GlobalScratchSize times the
	// number of programs as the global_scratch parameter.
	GlobalScratchSize  int     `json:"global_scratch_size,omitempty"`
	GlobalScratchAlign int     `json:"global_scratch_align,omitempty"`
	Params             []Param `json:"params"`
}

// Param is one kernel parameter: its name in the TTGIR (or
// global_scratch / profile_scratch) and its LLVM type.
type Param struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Result is an emitted module and its kernels.
type Result struct {
	Module  *lir.Module
	Kernels []Kernel
	// Hopper reports whether the module uses sm_90-only instructions
	// (the PTX header must then be rewritten; see RewritePTXHeader and
	// Header).
	Hopper bool
	// PTXVersion is the PTX ISA version the module's inline PTX needs
	// beyond llc's, or "": HopperPTXVersion for wgmma, VectorAtomicPTXVersion
	// when there are vector atomics, L2PrefetchPTXVersion for .L2::256B
	// loads, MbarrierPTXVersion for the sm_80 mbarrier waits.
	PTXVersion string
	// Libdevice reports whether the module calls functions of CUDA's
	// libdevice (tt.extern_elementwise), which LinkLibdevice links in
	// before the module is optimized or compiled.
	Libdevice bool
}

// KernelNames are the names of the module's kernels, in order.
func (r *Result) KernelNames() []string {
	names := make([]string, len(r.Kernels))
	for i, k := range r.Kernels {
		names[i] = k.Name
	}
	return names
}

// Header returns the PTX .version and .target the module's PTX must carry
// instead of llc's, "" for each that llc's will do.
func (r *Result) Header() (version, target string) {
	if r.Hopper {
		return r.PTXVersion, HopperArch
	}
	return r.PTXVersion, ""
}

// Error is a lowering failure located at an op.
type Error struct {
	Pos ir.Pos
	Op  string
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: error: cannot lower '%s': %s", e.Pos, e.Op, e.Msg)
}

// Diagnostic returns the error as an MLIR-style diagnostic.
func (e *Error) Diagnostic() ir.Diagnostic {
	return ir.Diagnostic{Pos: e.Pos, Severity: ir.Error, Msg: fmt.Sprintf("cannot lower '%s': %s", e.Op, e.Msg)}
}

// LowerFunc lowers one op: it reads its operands' LLVM values with
// Lowerer.Values and defines its results with Lowerer.Define.
type LowerFunc func(l *Lowerer, op *ir.Operation) error

var lowerings = map[string]LowerFunc{}

// Register installs the lowering of the op called name; a second
// registration of one name panics.
func Register(name string, fn LowerFunc) {
	if _, dup := lowerings[name]; dup {
		panic("llvmemit: duplicate lowering for " + name)
	}
	lowerings[name] = fn
}

// Supported reports whether an op name has a lowering.
func Supported(name string) bool { _, ok := lowerings[name]; return ok }

// Emit lowers every function of a verified TTGIR module.
//
// A module with an allocation (ttg.shared) first goes through Membar, as in
// Triton's convert-triton-gpu-to-llvm: the allocation is recomputed and
// ttg.local_barrier ops are inserted into m between conflicting
// shared-memory accesses (none where they are already). The lowering then
// emits only the barriers inside an op (between the store and the load of
// a scratch round trip), as Triton's does. A module without ttg.shared
// (scratch at offset 0, no allocation to analyse) gets a conservative
// barrier before every shared-memory access instead.
func Emit(m *ir.Module) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				res, err = nil, e
				return
			}
			panic(r)
		}
	}()
	e := newEmitter(m)
	if tpw := m.IntAttr("ttg.threads-per-warp", 32); tpw != 32 {
		return nil, &Error{Pos: m.Op.Pos(), Op: m.Op.Name(), Msg: fmt.Sprintf("%d threads per warp: NVIDIA warps have 32", tpw)}
	}
	if e.shared >= 0 {
		alloc, err := passes.AllocateModule(m.Op, passes.NvidiaScratchSize(e.cc))
		if err != nil {
			return nil, fmt.Errorf("membar: %v", err)
		}
		if _, err := passes.InsertBarriers(alloc, passes.NvidiaCanSkipBarSync); err != nil {
			return nil, fmt.Errorf("membar: %v", err)
		}
		e.membar = true
	}
	// Every function is declared before any body is lowered, so that a
	// tt.call may name a function defined after it.
	var funcs []*function
	for _, op := range m.Body().Ops() {
		if op.Name() != "tt.func" {
			return nil, &Error{Pos: op.Pos(), Op: op.Name(), Msg: "only tt.func is supported at module level"}
		}
		f, err := e.declare(op)
		if err != nil {
			return nil, err
		}
		funcs = append(funcs, f)
	}
	for _, f := range funcs {
		if err := e.define(f); err != nil {
			return nil, err
		}
	}
	if err := e.finish(); err != nil {
		return nil, err
	}
	res = &Result{Module: e.m, Kernels: e.kernels, Hopper: e.hopper, Libdevice: e.libdevice}
	switch {
	case e.hopper && e.vectorAtomics:
		res.PTXVersion = VectorAtomicPTXVersion
	case e.hopper:
		res.PTXVersion = HopperPTXVersion
	}
	res.PTXVersion = laterPTX(res.PTXVersion, e.minPTX)
	return res, nil
}

type emitter struct {
	src      *ir.Module
	m        *lir.Module
	nv       *intrinsics
	smem     *lir.Global
	numWarps int
	cc       int
	target   string
	// shared is the module's ttg.shared, or -1 without one.
	shared int
	// scratch is the most scratch any op asked for (offset 0 scheme).
	scratch int
	// membar: Membar placed the barriers between ops (ttg.local_barrier);
	// otherwise the lowering adds conservative ones (see syncShared).
	membar bool
	// funcs are the declared functions by symbol name (tt.call's callees).
	funcs   map[string]*function
	kernels []Kernel
	annots  []metadata.Node
	hopper  bool
	// vectorAtomics: the module has vector atom/red instructions (sm_90,
	// PTX ISA 8.1).
	vectorAtomics bool
	// minPTX is the PTX ISA version the module's inline PTX needs
	// otherwise ("" for llc's): 7.4 for ld.global.L2::256B, 7.1 for the
	// sm_80 mbarrier waits (needPTX).
	minPTX string
	// libdevice: the module calls functions of CUDA's libdevice
	// (tt.extern_elementwise), to be linked in (LinkLibdevice).
	libdevice bool
	// strings are the constant strings of tt.print and tt.assert, by text.
	strings map[string]*lir.Global
	// ranges are the !range nodes of special-register reads, by bounds.
	ranges map[[2]int64]*metadata.Tuple
}

func newEmitter(src *ir.Module) *emitter {
	m := lir.NewModule()
	m.DataLayout = DataLayout
	m.TargetTriple = TargetTriple
	e := &emitter{src: src, m: m, nv: &intrinsics{m: m, seen: map[string]*lir.Func{}}, funcs: map[string]*function{},
		ranges: map[[2]int64]*metadata.Tuple{}}
	e.numWarps = int(src.IntAttr("ttg.num-warps", 4))
	e.shared = int(src.IntAttr("ttg.shared", -1))
	if s, ok := src.Op.Attr("ttg.target").(*ir.StringAttr); ok {
		e.target = s.Value
	}
	e.cc = ComputeCapability(src)
	g := m.NewGlobal("global_smem", types.NewArray(0, types.I8))
	g.Linkage = enum.LinkageExternal
	g.AddrSpace = asShared
	g.Typ.AddrSpace = asShared
	g.Align = 16
	e.smem = g
	return e
}

// needPTX records that the module needs PTX ISA version v at least.
func (e *emitter) needPTX(v string) { e.minPTX = laterPTX(e.minPTX, v) }

func (e *emitter) finish() error {
	shared := e.shared
	if shared < 0 {
		shared = e.scratch
	}
	gsSize, _ := e.src.Op.IntAttr(passes.GlobalScratchSizeAttr)
	gsAlign, _ := e.src.Op.IntAttr(passes.GlobalScratchAlignAttr)
	for i := range e.kernels {
		e.kernels[i].SharedBytes = shared
		e.kernels[i].GlobalScratchSize, e.kernels[i].GlobalScratchAlign = int(gsSize), int(gsAlign)
		if e.hopper { // vector atomics set it too
			e.kernels[i].Arch = HopperArch
		}
	}
	e.m.NamedMetadataDefs["nvvm.annotations"] = &metadata.NamedDef{Name: "nvvm.annotations", Nodes: e.annots}
	if e.libdevice {
		e.reflectFTZ()
	}
	if err := e.m.AssignGlobalIDs(); err != nil {
		return err
	}
	return e.m.AssignMetadataIDs()
}

// sregBounds are the values a special register can hold, [lo, hi), as
// the CUDA limits give them (1024 threads per block; grid dimensions up to
// 2³¹-1, 65535, 65535) and as newer LLVMs attach them to the reads
// (Triton's LLVM: NVVMIntrRange, range attributes). With them LLVM knows
// a program id times a block size, or-ed with thread bits, is
// non-negative and widens it with zext: mul.wide.u32 / mad.wide.u32 and
// IMAD.WIDE.U32 in SASS, as Triton's code has, where it wrote sext.
var sregBounds = map[string][2]int64{
	"tid.x":    {0, 1024},
	"ctaid.x":  {0, 1<<31 - 1},
	"ctaid.y":  {0, 65535},
	"ctaid.z":  {0, 65535},
	"nctaid.y": {1, 65536},
	"nctaid.z": {1, 65536},
}

// sregRange attaches !range to a read of the special register reg
// ("ctaid.y"), when its bounds are known.
func (e *emitter) sregRange(call value.Value, reg string) {
	c, ok := call.(*lir.InstCall)
	b, known := sregBounds[reg]
	if !ok || !known {
		return
	}
	t := e.ranges[b]
	if t == nil {
		t = &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{i32(b[0]), i32(b[1])}}
		e.m.MetadataDefs = append(e.m.MetadataDefs, t)
		e.ranges[b] = t
	}
	c.Metadata = append(c.Metadata, &metadata.Attachment{Name: "range", Node: t})
}

func (e *emitter) annotate(f *lir.Func, key string, v int64) {
	t := &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{f, &metadata.String{Value: key}, i32(v)}}
	e.m.MetadataDefs = append(e.m.MetadataDefs, t)
	e.annots = append(e.annots, t)
}

// function is one tt.func and its LLVM function. A public function that
// returns nothing is a kernel; any other (private, or returning values) is
// a device function, called with tt.call: Triton 3.6's FuncOpToLLVM gives
// it, after the tt.func parameters, the base of its shared-memory frame
// (here an i32 offset in global_smem: see Lowerer.frame) and the two
// scratch pointers. A tensor parameter or result is one LLVM
// parameter or struct field per register of its layout; several results
// (or registers) are returned as a literal struct.
type function struct {
	op     *ir.Operation
	fn     *lir.Func
	kernel bool
	kinfo  Kernel
	// For device functions: the number of LLVM parameters of the tt.func
	// parameters (the frame and scratch pointers follow them), and the
	// LLVM type of each result register.
	nArgs   int
	results []types.Type
}

// maxKernelParamBytes is the most parameter space a kernel may take in
// PTX 7.0 (ptxas: "uses too much parameter space"; more needs PTX 8.1).
const maxKernelParamBytes = 4352

// paramBytes is the size of the parameter space of params, each parameter
// aligned to its own size as in PTX (.param .b8/.b16/.b32/.b64), a
// CUtensorMap taking 128 bytes aligned to 64.
func paramBytes(params []*lir.Param) int {
	n := 0
	for _, p := range params {
		size := 8 // pointers, 64-bit scalars
		switch t := p.Typ.(type) {
		case *types.IntType:
			size = max(1, int(t.BitSize)/8)
		case *types.FloatType:
			if t.Kind != types.FloatKindDouble {
				size = 4
				if t.Kind == types.FloatKindHalf {
					size = 2
				}
			}
		}
		align := size
		for _, a := range p.Attrs {
			if _, ok := a.(lir.Byval); ok { // a CUtensorMap (tma.go)
				size, align = 128, 64
			}
		}
		n = (n+align-1)/align*align + size
	}
	return n
}

// declare creates the LLVM function of a tt.func.
func (e *emitter) declare(op *ir.Operation) (*function, error) {
	name := ""
	if s, ok := op.Attr("sym_name").(*ir.StringAttr); ok {
		name = s.Value
	}
	public := true
	if v, ok := op.Attr("sym_visibility").(*ir.StringAttr); ok && v.Value != "public" {
		public = false
	}
	ft := tt.FuncType(op)
	if ft == nil {
		return nil, &Error{Pos: op.Pos(), Op: "tt.func", Msg: "the function has no type"}
	}
	body := op.Region(0).Entry()
	if body == nil {
		return nil, &Error{Pos: op.Pos(), Op: "tt.func", Msg: "a function needs a body"}
	}
	if _, dup := e.funcs[name]; dup {
		return nil, &Error{Pos: op.Pos(), Op: "tt.func", Msg: "a second function named @" + name}
	}
	f := &function{op: op, kernel: public && len(ft.Results) == 0}
	f.kinfo = Kernel{Name: name, Threads: 32 * e.numWarps, NumWarps: e.numWarps, Target: e.target}
	var params []*lir.Param
	for i, a := range body.Args() {
		var ts []types.Type
		var err error
		_, desc := a.Type().(*ir.TensorDescType)
		desc = desc && (f.kernel || e.cc < 90)
		if desc { // a CUtensorMap by value (tma.go)
			err = e.checkDescParam(name)
			ts = []types.Type{types.NewPointer(tensorMapType)}
		} else {
			ts, err = registerTypes(a.Type())
		}
		if err != nil {
			return nil, &Error{Pos: op.Pos(), Op: "tt.func", Msg: fmt.Sprintf("argument %d: %v", i, err)}
		}
		pn := a.NameHint
		if pn == "" || len(ts) > 1 && pn[0] >= '0' && pn[0] <= '9' {
			pn = fmt.Sprintf("arg%d", i)
		}
		for r, t := range ts {
			n := pn
			if len(ts) > 1 {
				n = fmt.Sprintf("%s.%d", pn, r)
			}
			p, typ := lir.NewParam(n, t), t.String()
			if desc {
				p.Attrs = append(p.Attrs, lir.Byval{Typ: tensorMapType}, lir.Align(64))
				typ += " byval"
			}
			params = append(params, p)
			if f.kernel {
				f.kinfo.Params = append(f.kinfo.Params, Param{Name: n, Type: typ})
			}
		}
	}
	f.nArgs = len(params)
	ret := types.Type(types.Void)
	if !f.kernel {
		for i, t := range ft.Results {
			ts, err := registerTypes(t)
			if err != nil {
				return nil, &Error{Pos: op.Pos(), Op: "tt.func", Msg: fmt.Sprintf("result %d: %v", i, err)}
			}
			f.results = append(f.results, ts...)
		}
		ret = returnType(f.results)
		params = append(params, lir.NewParam("shared_frame", types.I32))
	}
	for _, s := range []string{"global_scratch", "profile_scratch"} {
		params = append(params, lir.NewParam(s, ptrTo(types.I8, asGlobal)))
		if f.kernel {
			f.kinfo.Params = append(f.kinfo.Params, Param{Name: s, Type: ptrTo(types.I8, asGlobal).String()})
		}
	}
	if n := paramBytes(params); f.kernel && n > maxKernelParamBytes {
		return nil, &Error{Pos: op.Pos(), Op: "tt.func", Msg: fmt.Sprintf(
			"the kernel's parameters take %d bytes, more than the %d that PTX 7.0 allows (each register of a tensor argument is one parameter)",
			n, maxKernelParamBytes)}
	}
	f.fn = e.m.NewFunc(name, ret, params...)
	f.fn.FuncAttrs = []lir.FuncAttribute{enum.FuncAttrNoUnwind}
	if f.kernel {
		e.annotate(f.fn, "kernel", 1)
		e.annotate(f.fn, "reqntidx", int64(f.kinfo.Threads))
	} else {
		f.fn.FuncAttrs = append(f.fn.FuncAttrs, enum.FuncAttrNoInline)
		if !public {
			f.fn.Linkage = enum.LinkageInternal
		}
	}
	e.funcs[name] = f
	return f, nil
}

// registerTypes is the LLVM type of each register of a value of type t.
func registerTypes(t ir.Type) ([]types.Type, error) {
	lt, err := llvmType(t)
	if err != nil {
		return nil, err
	}
	ll, err := tensorLayout(t)
	if err != nil {
		return nil, err
	}
	n := 1
	if ll != nil {
		n = ll.InDimSize(dimReg)
	}
	ts := make([]types.Type, n)
	for i := range ts {
		ts[i] = lt
	}
	return ts, nil
}

// returnType is the LLVM return type of a device function returning the
// registers rs: void, the one register, or a struct of them.
func returnType(rs []types.Type) types.Type {
	switch len(rs) {
	case 0:
		return types.Void
	case 1:
		return rs[0]
	}
	return types.NewStruct(rs...)
}

// define lowers the body of a declared function.
func (e *emitter) define(f *function) error {
	body := f.op.Region(0).Entry()
	l := &Lowerer{e: e, f: f, fn: f.fn, vals: map[*ir.Value][]value.Value{}, mem: map[*ir.Value]*memDesc{}}
	l.cur = f.fn.NewBlock("entry")
	l.axis = axisinfo.Analyze(f.op)
	f.op.Walk(func(op *ir.Operation) ir.WalkResult {
		switch op.Name() {
		case "tt.dot", "tt.dot_scaled", "ttng.warp_group_dot":
			l.dot = true
			return ir.Interrupt
		}
		return ir.Advance
	})
	l.tid = l.cur.NewAnd(l.sreg("tid.x"), i32(int64(32*e.numWarps-1)))
	p := 0
	for _, a := range body.Args() {
		if _, ok := a.Type().(*ir.TensorDescType); ok && f.kernel {
			l.vals[a] = []value.Value{l.descAddress(p)}
			p++
			continue
		}
		n := numRegs(a.Type())
		vs := make([]value.Value, n)
		for r := range vs {
			vs[r] = f.fn.Params[p]
			p++
		}
		l.vals[a] = vs
	}
	if !f.kernel {
		l.frame = f.fn.Params[p]
	}
	if err := l.lowerBlock(body); err != nil {
		return err
	}
	if f.kernel {
		e.kernels = append(e.kernels, f.kinfo)
	}
	return nil
}

// Lowerer lowers the ops of one function. Hooks use its methods.
type Lowerer struct {
	e  *emitter
	f  *function
	fn *lir.Func
	// frame is a device function's shared-memory frame, as the i32 byte
	// offset of the frame in global_smem (nil in kernels, whose frame is
	// global_smem itself). An offset, not an addrspace(3) pointer: with
	// --nvptx-short-ptr, LLVM 14 declares a shared-pointer parameter .b64
	// but passes it .b32 at calls, which ptxas rejects.
	frame value.Value
	cur   *lir.Block
	vals  map[*ir.Value][]value.Value
	tid   value.Value
	axis  *axisinfo.Analysis
	nblk  int
	mem   map[*ir.Value]*memDesc // memdesc views with their own addressing
	// allocas are the entry block's vprintf buffers, by type (entryAlloca).
	allocas map[string]value.Value
	// fenced is the ttng.warp_group_dot whose fence.proxy.async the
	// barrier before it emitted (lowerBarrier).
	fenced *ir.Operation
	// wide are the 64-bit products shared by a tt.mulhiui and an
	// arith.muli of the same operands (wideProduct).
	wide map[wideKey]value.Value
	// muls are the halves of products taken in a block, by operands
	// (pairedMul).
	muls map[*ir.Block]map[mulPair][2]bool
	// dot: the function holds a tt.dot, tt.dot_scaled or
	// ttng.warp_group_dot (see loadHints.fillAfter).
	dot bool
}

// b returns a constant-folding builder on the current block.
func (l *Lowerer) b() *builder { return &builder{b: l.cur} }

// Block returns the block instructions are appended to.
func (l *Lowerer) Block() *lir.Block { return l.cur }

// NewBlock adds a basic block to the function (not made current).
func (l *Lowerer) NewBlock(hint string) *lir.Block {
	l.nblk++
	return l.fn.NewBlock(fmt.Sprintf("%s%d", hint, l.nblk))
}

// SetBlock makes blk the block instructions are appended to.
func (l *Lowerer) SetBlock(blk *lir.Block) { l.cur = blk }

// Values returns the LLVM values of v: one per register of its layout for
// a tensor, one for a scalar.
func (l *Lowerer) Values(v *ir.Value) []value.Value {
	vs, ok := l.vals[v]
	if !ok {
		panic(fmt.Sprintf("llvmemit: value %s used before it was lowered", v))
	}
	return vs
}

// Define sets the LLVM values of v.
func (l *Lowerer) Define(v *ir.Value, vs []value.Value) { l.vals[v] = vs }

// errorf returns a located error for op.
func errorf(op *ir.Operation, format string, args ...any) error {
	return &Error{Pos: op.Pos(), Op: op.Name(), Msg: fmt.Sprintf(format, args...)}
}

// lowerBlock lowers the ops of blk, its terminator included (a terminator's
// hook lowers it in its parent's context).
func (l *Lowerer) lowerBlock(blk *ir.Block) error {
	for _, op := range blk.Ops() {
		if err := l.lowerOp(op); err != nil {
			return err
		}
	}
	return nil
}

func (l *Lowerer) lowerOp(op *ir.Operation) (err error) {
	fn, ok := lowerings[op.Name()]
	if !ok {
		return errorf(op, "no lowering for this op")
	}
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(string); ok && strings.HasPrefix(s, "llvmemit:") {
				err = errorf(op, "%s", strings.TrimPrefix(s, "llvmemit: "))
				return
			}
			panic(r)
		}
	}()
	return fn(l, op)
}

// lowerRegionBody lowers the ops of blk (its arguments bound to args)
// except the terminator, and returns the terminator with its operands'
// values.
func (l *Lowerer) lowerRegionBody(blk *ir.Block, args [][]value.Value) (*ir.Operation, [][]value.Value, error) {
	for i, a := range blk.Args() {
		l.vals[a] = args[i]
	}
	ops := blk.Ops()
	if len(ops) == 0 {
		return nil, nil, nil
	}
	for _, op := range ops[:len(ops)-1] {
		if err := l.lowerOp(op); err != nil {
			return nil, nil, err
		}
	}
	term := ops[len(ops)-1]
	var outs [][]value.Value
	for _, v := range term.Operands() {
		outs = append(outs, l.Values(v))
	}
	return term, outs, nil
}

// llvmType is the LLVM type of one register of a value of type t.
func llvmType(t ir.Type) (types.Type, error) {
	switch x := t.(type) {
	case *ir.IntegerType:
		return types.NewInt(uint64(x.Width)), nil
	case *ir.IndexType:
		return types.I64, nil
	case *ir.FloatType:
		switch x.Kind {
		case "f16":
			return types.Half, nil
		case "f32":
			return types.Float, nil
		case "f64":
			return types.Double, nil
		case "bf16":
			return types.I16, nil // bf16 travels as its bits; arithmetic goes through f32
		case "f8E4M3FN", "f8E5M2":
			return types.I8, nil // fp8 travels as its bits (see fp8.go)
		}
		return nil, fmt.Errorf("element type %s is not supported", x.Kind)
	case *ir.PointerType:
		e, err := memType(x.Pointee)
		if err != nil {
			return nil, err
		}
		return ptrTo(e, types.AddrSpace(x.AddrSpace)), nil
	case *ir.RankedTensorType:
		return llvmType(x.Elem)
	case *ir.AsyncTokenType:
		return types.I32, nil // tokens carry nothing at run time
	case *ir.MemDescType:
		return types.I32, nil // the byte offset in global_smem
	case *ir.TensorDescType:
		return types.I64, nil // the generic address of the CUtensorMap (tma.go)
	}
	return nil, fmt.Errorf("type %s is not supported", ir.TypeString(t))
}

// memType is the LLVM type of an element in memory (i1 is a byte).
func memType(t ir.Type) (types.Type, error) {
	if it, ok := t.(*ir.IntegerType); ok && it.Width == 1 {
		return types.I8, nil
	}
	return llvmType(t)
}

// mustType is llvmType for a type the verifier has seen; an unsupported
// one panics with a message the op's hook turns into a located error.
func mustType(t ir.Type) types.Type {
	lt, err := llvmType(t)
	if err != nil {
		panic("llvmemit: " + err.Error())
	}
	return lt
}

// zeroOf returns the zero constant of t.
func zeroOf(t types.Type) constant.Constant {
	switch x := t.(type) {
	case *types.IntType:
		return constant.NewInt(x, 0)
	case *types.FloatType:
		return constant.NewFloat(x, 0)
	case *types.PointerType:
		return constant.NewNull(x)
	}
	return constant.NewZeroInitializer(t)
}

// isBF16 reports whether t's element type is bf16.
func isBF16(t ir.Type) bool {
	f, ok := ir.ElementType(t).(*ir.FloatType)
	return ok && f.Kind == "bf16"
}
