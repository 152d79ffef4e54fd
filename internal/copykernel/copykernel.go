// Package copykernel builds, with github.com/llir/llvm, the NVPTX copy
// kernel of the llvmemit research note (appendix B): the stand-in for our
// own code generator's output until llvmemit lowers whole kernels, used to
// test package cuda and ttgir-run on the GPU and as the proof's copy
// baseline.
//
// The kernel has Triton 3.6's ABI for the TTGIR kernel
// copy1d(x: !tt.ptr<f32>, y: !tt.ptr<f32>, n: i32) with BLOCK = 512 and
// four warps (proof/kernels/copy1d_f32.ttgir): the parameters, then the
// global and profile scratch pointers. Each of the 128 threads of a program
// copies 4 consecutive floats, a <4 x float> access when all 4 are in
// bounds, else Triton-style predicated inline-PTX scalar accesses. With
// RoundTrip the values also go through dynamic shared memory (each thread
// reads its xor-1 neighbour's 16 bytes, after a barrier) and a warp shuffle
// from lane^1 that undoes the swap, so y == x either way; that variant
// needs Threads·16 bytes of dynamic shared memory.
//
// PTX is what llc-14 makes of it:
//
//	llc-14 -march=nvptx64 -mcpu=sm_80 -mattr=+ptx70 --nvptx-short-ptr
package copykernel

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

const (
	global = types.AddrSpace(1) // NVPTX global memory
	shared = types.AddrSpace(3) // NVPTX shared memory

	// Threads is the block size (four warps); the kernel requires it
	// (reqntidx).
	Threads = 128
	// PerThread is the number of floats each thread copies.
	PerThread = 4
	// Block is the number of floats a program copies (Triton's BLOCK).
	Block = Threads * PerThread
	// SharedBytes is the dynamic shared memory the round-trip variant uses.
	SharedBytes = Threads * 16

	// DataLayout is LLVM 14's NVPTX layout with 32-bit shared, constant and
	// local pointers, as llc-14 --nvptx-short-ptr uses it.
	DataLayout = "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
)

// LLCArgs are the llc-14 arguments that compile the module to PTX.
var LLCArgs = []string{"-march=nvptx64", "-mcpu=sm_80", "-mattr=+ptx70", "--nvptx-short-ptr"}

func ptrTo(elem types.Type, as types.AddrSpace) *types.PointerType {
	p := types.NewPointer(elem)
	p.AddrSpace = as
	return p
}

func i32(v int64) *constant.Int { return constant.NewInt(types.I32, v) }

// intrinsics declares each llvm.nvvm.* function once (llir prints a second
// declaration of the same name, which llvm-as rejects).
type intrinsics struct {
	m    *ir.Module
	seen map[string]*ir.Func
}

func (x *intrinsics) get(name string, ret types.Type, attrs []ir.FuncAttribute, params ...types.Type) *ir.Func {
	if f, ok := x.seen[name]; ok {
		return f
	}
	ps := make([]*ir.Param, len(params))
	for i, t := range params {
		ps[i] = ir.NewParam("", t)
	}
	f := x.m.NewFunc(name, ret, ps...)
	f.FuncAttrs = attrs
	x.seen[name] = f
	return f
}

// inlineAsm returns a side-effecting inline-asm callee; llir needs its type
// as a pointer to a function type.
func inlineAsm(ret types.Type, text, constraints string, params ...types.Type) *ir.InlineAsm {
	a := ir.NewInlineAsm(types.NewPointer(types.NewFunc(ret, params...)), text, constraints)
	a.SideEffect = true
	return a
}

// Module returns the kernel, called name, as an LLVM 14 module.
func Module(name string, roundTrip bool) (*ir.Module, error) {
	m := ir.NewModule()
	m.SourceFilename = name
	m.DataLayout = DataLayout
	m.TargetTriple = "nvptx64-nvidia-cuda"
	nv := &intrinsics{m: m, seen: map[string]*ir.Func{}}
	pure := []ir.FuncAttribute{enum.FuncAttrNoUnwind, enum.FuncAttrReadNone}
	conv := []ir.FuncAttribute{enum.FuncAttrConvergent, enum.FuncAttrNoUnwind}

	f32 := types.Float
	v4 := types.NewVector(PerThread, f32)
	x := ir.NewParam("x", ptrTo(f32, global))
	y := ir.NewParam("y", ptrTo(f32, global))
	n := ir.NewParam("n", types.I32)
	scratch := ir.NewParam("global_scratch", ptrTo(types.I8, global))
	profile := ir.NewParam("profile_scratch", ptrTo(types.I8, global))
	k := m.NewFunc(name, types.Void, x, y, n, scratch, profile)
	k.FuncAttrs = []ir.FuncAttribute{enum.FuncAttrNoUnwind}

	entry, vec, tail := k.NewBlock("entry"), k.NewBlock("vec"), k.NewBlock("tail")
	join, vst, tst, exit := k.NewBlock("join"), k.NewBlock("vstore"), k.NewBlock("tstore"), k.NewBlock("exit")

	// entry: this thread's first element, pid·BLOCK + tid·4, and whether
	// all four are in bounds.
	tid := entry.NewCall(nv.get("llvm.nvvm.read.ptx.sreg.tid.x", types.I32, pure))
	pid := entry.NewCall(nv.get("llvm.nvvm.read.ptx.sreg.ctaid.x", types.I32, pure))
	base := entry.NewAdd(entry.NewMul(pid, i32(Block)), entry.NewShl(tid, i32(2)))
	full := entry.NewICmp(enum.IPredSLE, entry.NewAdd(base, i32(PerThread)), n)
	base64 := entry.NewSExt(base, types.I64)
	px := entry.NewGetElementPtr(f32, x, base64)
	px.InBounds = true
	py := entry.NewGetElementPtr(f32, y, base64)
	py.InBounds = true
	entry.NewCondBr(full, vec, tail)

	ld := vec.NewLoad(v4, vec.NewBitCast(px, ptrTo(v4, global)))
	ld.Align = 16
	vec.NewBr(join)

	// tail: predicated scalar loads; a masked-off element reads 0.
	ldAsm := inlineAsm(types.I32, "mov.u32 $0, 0x0;\n\t@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b",
		ptrTo(f32, global), types.I1)
	var acc value.Value = constant.NewUndef(v4)
	for e := range int64(PerThread) {
		ok := tail.NewICmp(enum.IPredSLT, tail.NewAdd(base, i32(e)), n)
		p := tail.NewGetElementPtr(f32, px, constant.NewInt(types.I64, e))
		acc = tail.NewInsertElement(acc, tail.NewBitCast(tail.NewCall(ldAsm, p, ok), f32), i32(e))
	}
	tail.NewBr(join)

	var z value.Value = join.NewPhi(ir.NewIncoming(ld, vec), ir.NewIncoming(acc, tail))
	if roundTrip {
		// Triton-style dynamic shared memory: external [0 x i8], sized at
		// launch.
		smem := m.NewGlobal("global_smem", types.NewArray(0, types.I8))
		smem.Linkage = enum.LinkageExternal
		smem.AddrSpace = shared
		smem.Typ.AddrSpace = shared // NewGlobal computed the pointer type already
		smem.Align = 16
		off := join.NewShl(tid, i32(4))
		mine := join.NewGetElementPtr(smem.ContentType, smem, i32(0), off)
		st := join.NewStore(z, join.NewBitCast(mine, ptrTo(v4, shared)))
		st.Align = 16
		join.NewCall(nv.get("llvm.nvvm.barrier0", types.Void, conv))
		theirs := join.NewGetElementPtr(smem.ContentType, smem, i32(0), join.NewXor(off, i32(16)))
		w := join.NewLoad(v4, join.NewBitCast(theirs, ptrTo(v4, shared)))
		w.Align = 16
		shfl := nv.get("llvm.nvvm.shfl.sync.idx.i32", types.I32, conv, types.I32, types.I32, types.I32, types.I32)
		src := join.NewXor(join.NewAnd(tid, i32(31)), i32(1))
		var r value.Value = constant.NewUndef(v4)
		for e := range int64(PerThread) {
			bits := join.NewBitCast(join.NewExtractElement(w, i32(e)), types.I32)
			got := join.NewCall(shfl, i32(-1), bits, src, i32(0x1f))
			r = join.NewInsertElement(r, join.NewBitCast(got, f32), i32(e))
		}
		z = r
	}
	join.NewCondBr(full, vst, tst)

	sv := vst.NewStore(z, vst.NewBitCast(py, ptrTo(v4, global)))
	sv.Align = 16
	vst.NewBr(exit)

	stAsm := inlineAsm(types.Void, "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b", types.I32, ptrTo(f32, global), types.I1)
	for e := range int64(PerThread) {
		ok := tst.NewICmp(enum.IPredSLT, tst.NewAdd(base, i32(e)), n)
		p := tst.NewGetElementPtr(f32, py, constant.NewInt(types.I64, e))
		tst.NewCall(stAsm, tst.NewBitCast(tst.NewExtractElement(z, i32(e)), types.I32), p, ok)
	}
	tst.NewBr(exit)
	exit.NewRet(nil)

	ann := func(key string, v int64) *metadata.Tuple {
		t := &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{k, &metadata.String{Value: key}, i32(v)}}
		m.MetadataDefs = append(m.MetadataDefs, t)
		return t
	}
	m.NamedMetadataDefs["nvvm.annotations"] = &metadata.NamedDef{Name: "nvvm.annotations",
		Nodes: []metadata.Node{ann("kernel", 1), ann("reqntidx", Threads)}}
	if err := m.AssignGlobalIDs(); err != nil {
		return nil, err
	}
	if err := m.AssignMetadataIDs(); err != nil {
		return nil, err
	}
	return m, nil
}
