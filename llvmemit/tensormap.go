package llvmemit

import (
	"fmt"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/ttng"
	"github.com/layoutopt/layoutopt/ir"
)

// Tensor descriptors made on the device (tl.make_tensor_descriptor, which
// triton-nvidia-tma-lowering makes a ttng.tensormap_create into 128 bytes
// of global scratch, a ttng.tensormap_fenceproxy_acquire and a
// ttng.reinterpret_tensor_descriptor), as Triton 3.6's TMAToLLVM lowers
// them on sm_90:
//
//	ttng.tensormap_create %desc, %base, [box], [dims], [strides], [elemStrides]
//	    the op's 128 bytes of shared scratch zeroed by warp 0 (one word a
//	    lane, then bar.warp.sync), each field written by thread 0 with
//	    tensormap.replace.tile.FIELD.shared::cta.b1024.b32|b64 (global_address,
//	    rank - 1, box_dim, global_dim, global_stride, element_stride by
//	    ordinal, elemtype, interleave_layout, swizzle_mode, fill_mode), then
//	    copied to %desc by warp 0 with
//	    tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned;
//	ttng.tensormap_fenceproxy_acquire %desc
//	    fence.proxy.tensormap::generic.acquire.gpu [desc], 128 by warp 0,
//	    then a barrier of the CTA;
//	ttng.reinterpret_tensor_descriptor %desc
//	    the descriptor's generic address (the TMA copies take one; the
//	    tensor-map instructions above take global addresses as they are,
//	    as Triton passes them).
//
// The global strides are written in bytes, as the PTX ISA specifies
// tensormap.replace's global_stride and as the CUDA driver's JIT compiler
// reads them (an H100 with driver 580 copied a tensor equal to the
// interpreter so; with the strides shifted right by 4, as Triton writes them
// for PTX ISA 8.5 and older, "a workaround for a ptxas bug", every row
// landed 16 times too close). ptxas releases older than 12.7, which Triton
// works around, read the field in 16-byte units: load this PTX through the
// driver (as ttgir-run and the proof do) or assemble it with ptxas 12.7 or
// later. The module's PTX header is 8.3 (TensormapPTXVersion), what
// tensormap.replace needs. layout-translate uses this path with
// -device-tma; by default it rewrites descriptors made on the device into
// pointers (RewriteTensorDescriptors).

// TensormapPTXVersion is the PTX ISA version tensormap.replace and
// tensormap.cp_fenceproxy need (with sm_90a).
const TensormapPTXVersion = "8.3"

func init() {
	Register("ttng.tensormap_create", lowerTensormapCreate)
	Register("ttng.tensormap_fenceproxy_acquire", func(l *Lowerer, op *ir.Operation) error {
		f, _ := ttng.AsTensormapFenceproxyAcquire(op)
		if err := l.needTensormaps(op); err != nil {
			return err
		}
		desc := l.address(l.Values(f.DescPtr())[0], false)
		l.asmCall("@$0 fence.proxy.tensormap::generic.acquire.gpu [$1], 128;", l.firstWarp(), desc)
		l.barrier()
		return nil
	})
	Register("ttng.reinterpret_tensor_descriptor", func(l *Lowerer, op *ir.Operation) error {
		r, _ := ttng.AsReinterpretTensorDescriptor(op)
		if err := l.needTensormaps(op); err != nil {
			return err
		}
		l.Define(op.Result(0), []value.Value{l.address(l.Values(r.RawDesc())[0], true)})
		return nil
	})
}

// needTensormaps checks the target for descriptors made on the device.
func (l *Lowerer) needTensormaps(op *ir.Operation) error {
	if l.e.cc < 90 {
		return errorf(op, "tensor maps made on the device need sm_90 (the module targets compute capability %d)", l.e.cc)
	}
	l.e.hopper = true
	l.e.needPTX(TensormapPTXVersion)
	return nil
}

// address is a global pointer's address as an i64: as it is (what the
// tensor-map instructions take for their global operands, as Triton passes
// them), or its generic address (what the TMA copies take).
func (l *Lowerer) address(p value.Value, generic bool) value.Value {
	pt, ok := p.Type().(*types.PointerType)
	if !ok {
		return p
	}
	if generic && pt.AddrSpace != 0 {
		p = l.cur.NewAddrSpaceCast(p, types.NewPointer(pt.ElemType))
	}
	return l.cur.NewPtrToInt(p, types.I64)
}

// firstWarp is the predicate "the thread is in warp 0".
func (l *Lowerer) firstWarp() value.Value {
	return l.cur.NewICmp(enum.IPredULT, l.tid, i32(32))
}

func lowerTensormapCreate(l *Lowerer, op *ir.Operation) error {
	c, ok := ttng.AsTensormapCreate(op)
	if !ok {
		return errorf(op, "malformed op")
	}
	if err := l.needTensormaps(op); err != nil {
		return err
	}
	box, dims, strides, elemStrides := c.BoxDim(), c.GlobalDim(), c.GlobalStride(), c.ElementStride()
	rank := len(box)
	if rank < 1 || rank > 5 || len(dims) != rank || len(elemStrides) != rank || len(strides) != rank-1 {
		return errorf(op, "a tensor map of rank %d takes %d box sizes, sizes and element strides and %d strides", rank, rank, rank-1)
	}
	off := l.scratch(op, 128)
	smem := l.cur.NewPtrToInt(l.smemPtr(i32(off), types.I8), types.I32)

	// Zero the 128 bytes: a word a lane of warp 0.
	word := l.cur.NewAdd(smem, l.cur.NewShl(l.tid, i32(2)))
	l.asmCall("@$0 st.shared.b32 [$1], 0;", l.firstWarp(), word)
	l.warpSync()

	thread0 := l.cur.NewICmp(enum.IPredEQ, l.tid, i32(0))
	// replace writes one field (of ordinal ord, unless -1): a constant as
	// an immediate (the enumerated fields take nothing else), else from a
	// register.
	replace := func(field string, ord int, v value.Value) {
		width := "b32"
		if v.Type().Equal(types.I64) {
			width = "b64"
		}
		ordText := ""
		if ord >= 0 {
			ordText = fmt.Sprintf("%d, ", ord)
		}
		if c, ok := constInt(v); ok {
			text := fmt.Sprintf("@$0 tensormap.replace.tile.%s.shared::cta.b1024.%s [$1], %s%d;", field, width, ordText, c)
			l.asmCall(text, thread0, smem)
			return
		}
		text := fmt.Sprintf("@$0 tensormap.replace.tile.%s.shared::cta.b1024.%s [$1], %s$2;", field, width, ordText)
		l.asmCall(text, thread0, smem, v)
	}
	val := func(v *ir.Value) value.Value { return l.Values(v)[0] }
	replace("global_address", -1, l.address(val(c.GlobalAddress()), false))
	replace("rank", -1, i32(int64(rank-1)))
	for i, v := range box {
		replace("box_dim", i, val(v))
	}
	for i, v := range dims {
		replace("global_dim", i, val(v))
	}
	for i, v := range strides {
		replace("global_stride", i, val(v))
	}
	for i, v := range elemStrides {
		replace("element_stride", i, val(v))
	}
	replace("elemtype", -1, i32(c.ElemType()))
	replace("interleave_layout", -1, i32(c.InterleaveLayout()))
	replace("swizzle_mode", -1, i32(c.SwizzleMode()))
	replace("fill_mode", -1, i32(c.FillMode()))

	desc := l.address(val(c.DescPtr()), false)
	l.asmCall("@$0 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$1], [$2], 128;",
		l.firstWarp(), desc, smem)
	return nil
}
