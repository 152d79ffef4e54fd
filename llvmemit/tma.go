package llvmemit

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/dialect/ttng"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// Host-side tensor descriptors (TMA) on sm_90, as Triton 3.6 lowers them.
//
// A kernel parameter of type !tt.tensordesc is the 128-byte CUtensorMap
// the host made (cuTensorMapEncodeTiled) passed by value: the LLVM
// parameter is a byval [128 x i8] of alignment 64, which llc declares
// .param .align 64 .b8 NAME_param_N[128] (Triton marks it
// nvvm.grid_constant, which LLVM 14 does not know; what it changes is
// that the parameter's address may be taken, done here in PTX). The
// descriptor's value in the kernel is the generic address of that
// parameter (mov.b64 of the parameter's name, cvta.param.u64; PTX ISA
// 7.7), what the TMA instructions take; a device function takes that
// address as an i64. Triton's kernels follow each descriptor with its
// shape (i32) and strides (i64), ordinary parameters here.
//
// The ops triton-nvidia-tma-lowering makes of descriptor loads and stores
// (Prepare runs it on modules that take descriptors):
//
//	ttng.async_tma_copy_global_to_local %desc[c...] %buf, %bar, %pred
//	    per TMA message m (a box of passes.TMABox: the block splits into
//	    boxes of at most 256 a dimension, the contiguous one as wide as the
//	    swizzle), lane 0 of warp m mod numWarps, where %pred holds:
//	    cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes
//	        [buf + offset of the box's origin], [desc, {c innermost first + the box's origin}], [bar];
//	ttng.async_tma_copy_local_to_global %desc[c...] %buf
//	    the same messages (lane 0 of warp m mod numWarps):
//	    cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group [desc, {...}], [buf + offset];
//	    then cp.async.bulk.commit_group, every thread;
//	ttng.async_tma_store_wait {pendings = N}
//	    cp.async.bulk.wait_group.read N, every thread (only the issuing
//	    threads have groups to wait for; Membar's barrier after it orders
//	    the buffer's reuse).
//
// Triton spreads the messages over warps the same way (elect.sync picks
// lane 0 of a full warp). The box's origin is placed by the buffer's
// shared layout (nvmma_shared: the TMA's swizzle modes write exactly
// Triton's layout). All need PTX ISA 8.0 and sm_90a.

func init() {
	Register("ttng.async_tma_copy_global_to_local", lowerTMALoad)
	Register("ttng.async_tma_copy_local_to_global", lowerTMAStore)
	Register("ttng.async_tma_store_wait", func(l *Lowerer, op *ir.Operation) error {
		l.e.hopper = true
		n := ir.AttrIntValue(op.Attr("pendings"))
		l.cur.NewCall(inlineAsm(types.Void, fmt.Sprintf("cp.async.bulk.wait_group.read %d;", n), ""))
		return nil
	})
}

// ptxIdent matches the names llc keeps as they are in PTX.
var ptxIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkDescParam checks that the kernel fn may take a tensor descriptor
// parameter: the CUtensorMap by value (byval tensorMapType, align 64),
// which makes the module Hopper's.
func (e *emitter) checkDescParam(fn string) error {
	if e.cc < 90 {
		return fmt.Errorf("a tensor descriptor parameter (a host-side TMA descriptor) needs sm_90 (the module targets compute capability %d); for older GPUs run layout-opt -triton-rewrite-tensor-descriptor-to-pointer first, which makes it a pointer, sizes, strides and a padding flag", e.cc)
	}
	if !ptxIdent.MatchString(fn) {
		return fmt.Errorf("a kernel taking a tensor descriptor needs a name PTX keeps as it is ([A-Za-z_][A-Za-z0-9_]*), not %q", fn)
	}
	e.hopper = true
	return nil
}

// tensorMapType is a CUtensorMap's bytes.
var tensorMapType = types.NewArray(128, types.I8)

// descAddress returns the generic address of the kernel's parameter
// number index (a byval CUtensorMap), at the entry.
func (l *Lowerer) descAddress(index int) value.Value {
	text := fmt.Sprintf("mov.b64 $0, %s_param_%d;\n\tcvta.param.u64 $0, $0;", l.fn.Name(), index)
	return l.cur.NewCall(pureAsm(types.I64, text, "=l"))
}

// tmaMessage is one TMA message of a copy: the box's origin in the block
// and its byte offset in the buffer.
type tmaMessage struct {
	origin []int64
	offset int64
}

// tmaMessages splits the block of the descriptor desc held by the buffer
// buf, accessed at coords coordinates, into TMA messages, in Triton's order
// (the outermost dimension's boxes first).
func (l *Lowerer) tmaMessages(op *ir.Operation, desc, buf *ir.Value, coords int) ([]tmaMessage, error) {
	dt, _ := desc.Type().(*ir.TensorDescType)
	tb, err := passes.TMABoxOf(dt)
	if err != nil {
		return nil, errorf(op, "%v", err)
	}
	if coords != len(dt.Block.Shape) {
		return nil, errorf(op, "%d coordinates for a descriptor of rank %d", coords, len(dt.Block.Shape))
	}
	if tb.FP4Padded {
		return nil, errorf(op, "fp4-padded TMA copies are not supported")
	}
	if e, ok := ir.Encoding(dt.Block).(*attr.NVMMAShared); ok && e.Transposed {
		// The TMA writes a box with the tensor's innermost dimension
		// contiguous; a transposed layout wants the outermost so.
		return nil, errorf(op, "TMA copies into a transposed nvmma_shared layout are not supported")
	}
	md, err := l.memDesc(op, buf)
	if err != nil {
		return nil, err
	}
	shape := dt.Block.Shape
	mt, _ := buf.Type().(*ir.MemDescType)
	if mt == nil || len(mt.Shape) != len(shape) {
		return nil, errorf(op, "the buffer %s does not hold the descriptor's block %s", ir.TypeString(buf.Type()), ir.TypeString(dt.Block))
	}
	for d := range shape {
		if mt.Shape[d] != shape[d] {
			return nil, errorf(op, "the buffer %s does not hold the descriptor's block %s", ir.TypeString(buf.Type()), ir.TypeString(dt.Block))
		}
	}
	return tmaBoxes(tb, shape, md), nil
}

// tmaBoxes splits a block of shape, moved as tb says, into TMA messages
// into the buffer addressed by md: each box's origin and the byte offset
// where the TMA writes it (the buffer's shared layout at the origin; the
// TMA lays the box out row-major, swizzled within the swizzle's atom).
func tmaBoxes(tb passes.TMABox, shape []int64, md *memDesc) []tmaMessage {
	counts := make([]int64, len(shape))
	n := int64(1)
	for d := range shape {
		counts[d] = shape[d] / tb.Box[d]
		n *= counts[d]
	}
	msgs := make([]tmaMessage, n)
	for m := range msgs {
		rest := int64(m)
		origin := make([]int64, len(shape))
		c := make([]int, len(shape))
		for d := range shape { // dimension 0's boxes vary fastest
			origin[d] = rest % counts[d] * tb.Box[d]
			rest /= counts[d]
			c[d] = int(origin[d])
		}
		elem := int64(md.view.Apply(c...)[0] ^ md.xor)
		msgs[m] = tmaMessage{origin: origin, offset: elem * int64(tb.ElemBytes)}
	}
	return msgs
}

// tmaCoords returns the asm operands and text of a message's coordinates:
// the op's, innermost first, plus the box's origin.
func (l *Lowerer) tmaCoords(coords []*ir.Value, origin []int64, first int) ([]value.Value, string) {
	var vals []value.Value
	var text []string
	for k := len(coords) - 1; k >= 0; k-- {
		vals = append(vals, l.b().add(l.Values(coords[k])[0], i32(origin[k])))
		text = append(text, fmt.Sprintf("$%d", first+len(text)))
	}
	return vals, "{" + strings.Join(text, ", ") + "}"
}

// tmaIssuer is the predicate of the thread that issues message m: lane 0
// of warp m mod numWarps.
func (l *Lowerer) tmaIssuer(m int) value.Value {
	return l.cur.NewICmp(enum.IPredEQ, l.tid, i32(int64(m%l.e.numWarps*32)))
}

func lowerTMALoad(l *Lowerer, op *ir.Operation) error {
	c, ok := ttng.AsAsyncTMACopyGlobalToLocal(op)
	if !ok {
		return errorf(op, "malformed op")
	}
	return l.tmaCopy(op, c.Desc(), c.ResultValue(), c.Coord(), l.barrierPtr(c.Barrier()), l.Values(c.Pred())[0])
}

func lowerTMAStore(l *Lowerer, op *ir.Operation) error {
	c, ok := ttng.AsAsyncTMACopyLocalToGlobal(op)
	if !ok {
		return errorf(op, "malformed op")
	}
	if err := l.tmaCopy(op, c.Desc(), c.Src(), c.Coord(), nil, nil); err != nil {
		return err
	}
	l.cur.NewCall(inlineAsm(types.Void, "cp.async.bulk.commit_group;", ""))
	return nil
}

// tmaCopy issues the messages of a TMA copy of the block of desc at coords
// into the buffer buf, completing on the mbarrier bar, where pred holds; or,
// with bar nil, out of it, as a bulk group.
func (l *Lowerer) tmaCopy(op *ir.Operation, desc, buf *ir.Value, coords []*ir.Value, bar, pred value.Value) error {
	if l.e.cc < 90 {
		return errorf(op, "TMA copies need sm_90 (the module targets compute capability %d)", l.e.cc)
	}
	msgs, err := l.tmaMessages(op, desc, buf, len(coords))
	if err != nil {
		return err
	}
	rank := len(coords)
	d, off := l.Values(desc)[0], l.Values(buf)[0]
	l.e.hopper = true
	for m, msg := range msgs {
		smem := l.smemPtr(l.b().add(off, i32(msg.offset)), types.I8)
		var text string
		var args []value.Value
		if bar != nil {
			cv, ct := l.tmaCoords(coords, msg.origin, 3)
			text = fmt.Sprintf("@$0 cp.async.bulk.tensor.%dd.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, %s], [$%d];", rank, ct, 3+rank)
			args = append(append([]value.Value{l.cur.NewAnd(l.tmaIssuer(m), pred), smem, d}, cv...), bar)
		} else {
			cv, ct := l.tmaCoords(coords, msg.origin, 2)
			text = fmt.Sprintf("@$0 cp.async.bulk.tensor.%dd.global.shared::cta.bulk_group [$1, %s], [$%d];", rank, ct, 2+rank)
			args = append(append([]value.Value{l.tmaIssuer(m), d}, cv...), smem)
		}
		l.asmCall(text, args...)
	}
	return nil
}

// asmCall calls side-effecting inline asm text on args, each in the
// register kind of its type: a predicate (b) for i1, 64 bits (l) for i64,
// else 32 bits (r: i32, shared-memory pointers).
func (l *Lowerer) asmCall(text string, args ...value.Value) {
	cons := make([]string, len(args))
	params := make([]types.Type, len(args))
	for i, a := range args {
		params[i] = a.Type()
		switch {
		case a.Type().Equal(types.I1):
			cons[i] = "b"
		case a.Type().Equal(types.I64):
			cons[i] = "l"
		default:
			cons[i] = "r"
		}
	}
	l.cur.NewCall(inlineAsm(types.Void, text, strings.Join(cons, ","), params...), args...)
}
