package llvmemit

import (
	"fmt"
	"math"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// Global loads and stores (Triton's LoadStoreOpToLLVM). The vector width
// is min(128 bits, the layout's registers per thread along its fastest
// dim, the pointers' alignment and contiguity from the axis analysis),
// and with a mask also the mask's constancy. Where only the mask's
// constancy keeps the access from a wider vector (a bounds check against a
// size not known to be a multiple of it), the thread branches on the AND
// of its masks: whole vectors where all its elements are in bounds, the
// common case, element by element where they are not (unlessMasked; Triton
// goes element by element everywhere), but in loops around a wide wgmma
// (inWideWGMMALoop). Unmasked accesses are LLVM
// vector loads/stores with that alignment (llc emits ld/st.global.v4 and
// friends); masked ones are Triton's predicated inline PTX, the loaded
// words set to 0 first and `other` selected where the mask is false.
// Cache and eviction hints are not emitted; a load that the l2-prefetch
// pass marked (passes.L2PrefetchAttr) is Triton's inline ld.global with
// .L2::256B, masked or not (PTX ISA 7.4, sm_80). Stores are made by one thread
// per element, as Triton's: copies in registers, lanes or warps (a slice or
// broadcast layout, a scalar) do not store again.

// vecWidths returns the number of elements of one access of op to ptr
// under mask, and, when only the mask's constancy narrows it and op is not
// in a loop around a wide wgmma (inWideWGMMALoop), the wider number the
// in-bounds branch of unlessMasked uses (0: no such branch).
func (l *Lowerer) vecWidths(op *ir.Operation, ptr, mask *ir.Value) (vec, full int) {
	vec = l.vecWidth(ptr, mask)
	if mask == nil {
		return vec, 0
	}
	if full = l.vecWidth(ptr, nil); full > vec && !l.inWideWGMMALoop(op) {
		return vec, full
	}
	return vec, 0
}

// vecWidth is the number of elements of one access to ptr
// (axisinfo.Analysis.VectorWidth).
func (l *Lowerer) vecWidth(ptr, mask *ir.Value) int {
	ll := mustLayout(ptr.Type())
	if ll == nil {
		return 1
	}
	return l.axis.VectorWidth(ptr, mask, ll)
}

func constraintFor(bits int) string {
	switch bits {
	case 8:
		return "c"
	case 16:
		return "h"
	case 32:
		return "r"
	}
	return "l"
}

func init() {
	Register("tt.load", lowerLoad)
	Register("tt.store", lowerStore)
}

func pointee(t ir.Type) (ir.Type, error) {
	p, ok := ir.ElementType(t).(*ir.PointerType)
	if !ok {
		return nil, fmt.Errorf("not a pointer")
	}
	if _, ok := p.Pointee.(*ir.RankedTensorType); ok {
		return nil, fmt.Errorf("block pointers (tt.make_tensor_ptr) are not supported")
	}
	if p.AddrSpace != 1 {
		return nil, fmt.Errorf("only global pointers (address space 1) are supported")
	}
	return p.Pointee, nil
}

// wordsOf splits an access of vec elements of bits each into PTX words.
func wordsOf(vec, bits int) (n, wbits int) {
	total := vec * bits
	wbits = min(total, max(32, bits))
	return total / wbits, wbits
}

func lowerLoad(l *Lowerer, op *ir.Operation) error {
	ld, _ := tt.AsLoad(op)
	elemIR, err := pointee(ld.Ptr().Type())
	if err != nil {
		return errorf(op, "%v", err)
	}
	if _, ok := elemIR.(*ir.PointerType); ok {
		return errorf(op, "loading pointers is not supported")
	}
	rt := mustType(elemIR)
	mt, _ := memType(elemIR)
	ptrs := l.Values(ld.Ptr())
	var masks, others []value.Value
	if ld.Mask() != nil {
		masks = l.Values(ld.Mask())
	}
	if ld.Other() != nil {
		others = l.Values(ld.Other())
	}
	vec, full := l.vecWidths(op, ld.Ptr(), ld.Mask())
	lh := loadHints{volatile: ld.IsVolatile(), fillAfter: !l.dot && inLoop(op)}
	if a := op.Attr(passes.L2PrefetchAttr); a != nil {
		if n, ok := a.(*ir.IntegerAttr); !ok || n.Value != 256 {
			return errorf(op, "%s must be 256 : i32 (ld.global.L2::256B), not %s", passes.L2PrefetchAttr, ir.AttrString(a))
		}
		if l.e.cc < 80 {
			return errorf(op, "%s: ld.global.L2::256B needs sm_80 or newer (the module is for sm_%d)", passes.L2PrefetchAttr, l.e.cc)
		}
		lh.prefetch256 = true
		l.e.needPTX(L2PrefetchPTXVersion)
	}
	var out []value.Value
	if full > 0 {
		out = l.unlessMasked(masks, "ld",
			func() []value.Value { return l.loadRegs(ptrs, nil, nil, full, mt, rt, lh) }, // in bounds: no `other`
			func() []value.Value { return l.loadRegs(ptrs, masks, others, vec, mt, rt, lh) })
	} else {
		out = l.loadRegs(ptrs, masks, others, vec, mt, rt, lh)
	}
	l.Define(op.Result(0), out)
	return nil
}

// loadHints are the qualifiers of a global load.
type loadHints struct {
	volatile bool
	// prefetch256: .L2::256B (passes.L2PrefetchAttr), through inline PTX.
	prefetch256 bool
	// fillAfter: a masked load sets its masked-off words after the load,
	// under the negated predicate, instead of before it as Triton does.
	// A word set before the load is live across it, and ptxas then loads
	// a loop's rows one at a time into the same registers: in a loop of a
	// function without a dot, filling after is up to 3.7 times faster
	// (colsum_loop_128x32; layernorm_bwd_dwdb_32x64 2.3 times,
	// softmax_online_2048 +18%). Elsewhere it is not: it lets ptxas hoist
	// the loads of a dot's operand pipeline past its register budget
	// (matmuls 10 to 58% slower, spilling) and spills in masked_bias_64x64
	// (-3%), all measured in proof/results/h200-r13.
	fillAfter bool
}

// loadRegs loads the registers of ptrs vec elements at a time: vector
// loads without masks, Triton's predicated ld.global with them (and
// without masks where a hint needs inline PTX).
func (l *Lowerer) loadRegs(ptrs, masks, others []value.Value, vec int, mt, rt types.Type, h loadHints) []value.Value {
	bits := typeBits(mt)
	out := make([]value.Value, len(ptrs))
	vt := types.NewVector(uint64(vec), mt)
	for r := 0; r < len(ptrs); r += vec {
		var vals value.Value
		var elems []value.Value // set instead of vals by the word-wise load
		constOther := false
		if masks == nil && h.prefetch256 {
			vals = l.asmLoad(ptrs[r], nil, vec, mt, h, nil)
		} else if masks == nil && bits < 32 && vec*bits >= 64 && vec*bits%32 == 0 {
			// Sub-word elements are loaded as 32-bit words, as Triton's
			// ld.global.v4.b32: a load of <8 x i16> (which opt -O3 makes of
			// <8 x half> whose elements are packed as i16 for shared
			// memory) is split by llc-14 into two ld.global.v4.u16.
			words := vec * bits / 32
			wt := types.NewVector(uint64(words), types.I32)
			x := l.cur.NewLoad(wt, l.cur.NewBitCast(ptrs[r], ptrTo(wt, asGlobal)))
			x.Align = lir.Align(vec * bits / 8)
			x.Volatile = h.volatile
			per := 32 / bits
			for w := range words {
				word := l.cur.NewBitCast(l.cur.NewExtractElement(x, i32(int64(w))), types.NewVector(uint64(per), mt))
				for j := range per {
					elems = append(elems, l.cur.NewExtractElement(word, i32(int64(j))))
				}
			}
		} else if masks == nil {
			p := value.Value(ptrs[r])
			var lt types.Type = mt
			if vec > 1 {
				lt = vt
			}
			if !lt.Equal(mt) {
				p = l.cur.NewBitCast(p, ptrTo(lt, asGlobal))
			}
			x := l.cur.NewLoad(lt, p)
			x.Align = lir.Align(vec * bits / 8)
			x.Volatile = h.volatile
			vals = x
		} else {
			// A constant `other` is what the masked-off words are set to,
			// as in Triton: no select after the load.
			var init []uint64
			if others != nil && mt.Equal(rt) {
				init = constBits(others[r:min(r+vec, len(others))], vec)
			}
			vals = l.asmLoad(ptrs[r], masks[r], vec, mt, h, init)
			if init != nil {
				constOther = true
			}
		}
		for i := 0; i < vec; i++ {
			var e value.Value = vals
			if elems != nil {
				e = elems[i]
			} else if vec > 1 {
				e = l.cur.NewExtractElement(vals, i32(int64(i)))
			}
			if !mt.Equal(rt) { // i1 in memory as a byte
				e = l.cur.NewICmp(enum.IPredNE, e, constant.NewInt(types.I8, 0))
			}
			// The masked-off words are 0 already: `other` = +0 needs no select.
			if o := others; o != nil && !constOther && !isZeroBits(o[min(r+i, len(o)-1)]) {
				e = l.cur.NewSelect(masks[r], e, o[min(r+i, len(o)-1)])
			}
			out[r+i] = e
		}
	}
	return out
}

// isZeroBits reports whether v is a constant whose bits are all 0 (+0.0,
// integer 0, false, null, zeroinitializer).
func isZeroBits(v value.Value) bool {
	switch c := v.(type) {
	case *constant.Int:
		return c.X.Sign() == 0
	case *constant.Float:
		return !c.NaN && c.X != nil && c.X.Sign() == 0 && !c.X.Signbit()
	case *constant.Null, *constant.ZeroInitializer:
		return true
	}
	return false
}

// constBits returns the bits of the vec elements of vals (one value
// broadcast when vals has one element) when they are all integer, f32 or
// f64 constants; nil otherwise.
func constBits(vals []value.Value, vec int) []uint64 {
	out := make([]uint64, vec)
	for i := range out {
		switch c := vals[min(i, len(vals)-1)].(type) {
		case *constant.Int:
			out[i] = c.X.Uint64()
			if c.X.Sign() < 0 {
				out[i] = uint64(c.X.Int64())
			}
		case *constant.Float:
			if c.NaN || c.X == nil {
				return nil
			}
			f, _ := c.X.Float64()
			switch {
			case c.Typ.Equal(types.Float):
				out[i] = uint64(math.Float32bits(float32(f)))
			case c.Typ.Equal(types.Double):
				out[i] = math.Float64bits(f)
			default:
				return nil
			}
		default:
			return nil
		}
	}
	return out
}

// asmLoad is Triton's inline ld.global: with a predicate pred, the words
// are set to init (the elements' bits; nil: zero), then loaded where it
// holds (with h.fillAfter: loaded where it holds, then set to init where
// it does not); with none (nil), loaded. It returns a value of mt
// (vec == 1) or <vec x mt>.
func (l *Lowerer) asmLoad(p, pred value.Value, vec int, mt types.Type, h loadHints, init []uint64) value.Value {
	bits := typeBits(mt)
	n, wb := wordsOf(vec, bits)
	wt := types.NewInt(uint64(wb))
	per, elemMask := wb/bits, uint64(1)<<uint(bits)-1 // elements per word; all ones for 64 bits
	word := func(i int) uint64 {
		var w uint64
		for k := 0; init != nil && k < per; k++ {
			w |= init[i*per+k] & elemMask << uint(k*bits)
		}
		return w
	}
	mov := "mov.u32"
	if wb == 16 || wb == 8 {
		mov = "mov.u16"
	} else if wb == 64 {
		mov = "mov.u64"
	}
	var text strings.Builder
	var cons []string
	var outs []string
	for i := 0; i < n; i++ {
		cons = append(cons, "="+constraintFor(wb))
		outs = append(outs, fmt.Sprintf("$%d", i))
		if pred != nil && !h.fillAfter {
			fmt.Fprintf(&text, "%s $%d, %#x;\n\t", mov, i, word(i))
		}
	}
	mods := ""
	if h.volatile {
		mods = ".volatile"
	}
	mods += ".global"
	if h.prefetch256 {
		mods += ".L2::256B"
	}
	if n > 1 {
		mods += fmt.Sprintf(".v%d", n)
	}
	if pred != nil {
		fmt.Fprintf(&text, "@$%d ", n+1)
	}
	fmt.Fprintf(&text, "ld%s.b%d { %s }, [ $%d + 0 ];", mods, wb, strings.Join(outs, ", "), n)
	for i := 0; pred != nil && h.fillAfter && i < n; i++ {
		fmt.Fprintf(&text, "\n\t@!$%d %s $%d, %#x;", n+1, mov, i, word(i))
	}
	cons = append(cons, "l")
	params, args := []types.Type{p.Type()}, []value.Value{p}
	if pred != nil {
		cons = append(cons, "b")
		params, args = append(params, types.I1), append(args, pred)
	}
	var ret types.Type = wt
	if n > 1 {
		fs := make([]types.Type, n)
		for i := range fs {
			fs[i] = wt
		}
		ret = types.NewStruct(fs...)
	}
	call := l.cur.NewCall(inlineAsm(ret, text.String(), strings.Join(cons, ","), params...), args...)
	// Gather the words into one vector of words, then reinterpret.
	var words value.Value = call
	if n > 1 {
		var w value.Value = constant.NewUndef(types.NewVector(uint64(n), wt))
		for i := 0; i < n; i++ {
			w = l.cur.NewInsertElement(w, l.cur.NewExtractValue(call, uint64(i)), i32(int64(i)))
		}
		words = w
	}
	if vec == 1 {
		if mt.Equal(wt) {
			return words
		}
		return l.cur.NewBitCast(words, mt)
	}
	return l.cur.NewBitCast(words, types.NewVector(uint64(vec), mt))
}

func lowerStore(l *Lowerer, op *ir.Operation) error {
	st, _ := tt.AsStore(op)
	elemIR, err := pointee(st.Ptr().Type())
	if err != nil {
		return errorf(op, "%v", err)
	}
	if _, ok := elemIR.(*ir.PointerType); ok {
		return errorf(op, "storing pointers is not supported")
	}
	rt := mustType(elemIR)
	mt, _ := memType(elemIR)
	ptrs := l.Values(st.Ptr())
	vals := l.Values(st.Value())
	var masks []value.Value
	if st.Mask() != nil {
		masks = l.Values(st.Mask())
	}
	// Only one thread stores each element (Triton's redundant-thread
	// predicate): registers holding copies are skipped, and lanes and warps
	// holding copies (a scalar: every thread but the first) are masked off.
	dup, uniq := l.writer(st.Ptr().Type())
	if vec, full := l.vecWidths(op, st.Ptr(), st.Mask()); full > 0 {
		var own []value.Value // the masks of the registers this thread stores
		for r, m := range masks {
			if r&dup == 0 {
				own = append(own, m)
			}
		}
		l.unlessMasked(own, "st", func() []value.Value {
			l.storeRegs(ptrs, vals, nil, full, dup, uniq, mt, rt)
			return nil
		}, func() []value.Value {
			l.storeRegs(ptrs, vals, masks, vec, dup, uniq, mt, rt)
			return nil
		})
	} else {
		l.storeRegs(ptrs, vals, masks, vec, dup, uniq, mt, rt)
	}
	return nil
}

// storeRegs stores the registers of vals vec elements at a time, skipping
// the registers in dup (copies of others) and predicated on the masks and
// uniq (this thread is the first holder of its elements; nil: every
// thread is).
func (l *Lowerer) storeRegs(ptrs, vals, masks []value.Value, vec, dup int, uniq value.Value, mt, rt types.Type) {
	bits := typeBits(mt)
	vt := types.NewVector(uint64(vec), mt)
	for r := 0; r < len(ptrs); r += vec {
		if r&dup != 0 {
			continue
		}
		var pred value.Value
		switch {
		case masks != nil && uniq != nil:
			pred = l.cur.NewAnd(masks[r], uniq)
		case masks != nil:
			pred = masks[r]
		default:
			pred = uniq
		}
		elems := make([]value.Value, vec)
		for i := range elems {
			e := vals[min(r+i, len(vals)-1)]
			if !mt.Equal(rt) {
				e = l.cur.NewZExt(e, mt)
			}
			elems[i] = e
		}
		var v value.Value = elems[0]
		if vec > 1 {
			var w value.Value = constant.NewUndef(vt)
			for i, e := range elems {
				w = l.cur.NewInsertElement(w, e, i32(int64(i)))
			}
			v = w
		}
		// Sub-word integers (i8, i16, bf16) go as 32-bit words through
		// inline PTX, as Triton's st.global.v4.b32 (and as loadRegs loads
		// them): opt -O3 folds a bitcast to <4 x i32> back into a store of
		// <8 x i16>, which llc-14 splits into two st.global.v4.u16 (one of
		// <16 x i8> into four st.global.v4.u8, one of <4 x i8> into a
		// st.global.v4.u8 of four registers). It packs <8 x half> itself.
		_, isInt := mt.(*types.IntType)
		if pred == nil && !(isInt && bits < 32 && vec*bits >= 32 && vec*bits%32 == 0) {
			p := value.Value(ptrs[r])
			if vec > 1 {
				p = l.cur.NewBitCast(p, ptrTo(vt, asGlobal))
			}
			s := l.cur.NewStore(v, p)
			s.Align = lir.Align(vec * bits / 8)
			continue
		}
		n, wb := wordsOf(vec, bits)
		wt := types.NewInt(uint64(wb))
		var words []value.Value
		switch {
		case n == 1 && vec == 1:
			w := v
			if !mt.Equal(wt) {
				w = l.cur.NewBitCast(v, wt)
			}
			words = []value.Value{w}
		case n == 1:
			words = []value.Value{l.cur.NewBitCast(v, wt)}
		default:
			wv := l.cur.NewBitCast(v, types.NewVector(uint64(n), wt))
			for i := 0; i < n; i++ {
				words = append(words, l.cur.NewExtractElement(wv, i32(int64(i))))
			}
		}
		var cons, names []string
		params := []types.Type{}
		for i := range words {
			cons = append(cons, constraintFor(wb))
			names = append(names, fmt.Sprintf("$%d", i))
			params = append(params, wt)
		}
		suffix := ""
		if n > 1 {
			suffix = fmt.Sprintf(".v%d", n)
		}
		text := fmt.Sprintf("st.global%s.b%d [ $%d + 0 ], { %s };", suffix, wb, n, strings.Join(names, ", "))
		cons = append(cons, "l")
		params = append(params, ptrs[r].Type())
		args := append(words, ptrs[r])
		if pred != nil {
			text = fmt.Sprintf("@$%d ", n+1) + text
			cons = append(cons, "b")
			params = append(params, types.I1)
			args = append(args, pred)
		}
		l.cur.NewCall(inlineAsm(types.Void, text, strings.Join(cons, ","), params...), args...)
	}
}

// inWideWGMMALoop reports whether op is in a loop whose body holds a
// ttng.warp_group_dot with 64 or more accumulator registers per thread.
// There the in-bounds branch of unlessMasked measured slower on the H200
// (proof/results/h200-r6: the 128x128 sm_90 matmuls at 75-95% of Triton,
// from 101-107% without it; the cause, ptxas's wgmma pipelining across the
// branch or the registers it adds to a loop that already holds 64-128 per
// thread, is not established), while a 64x64 one with 32 gained 45%.
func (l *Lowerer) inWideWGMMALoop(op *ir.Operation) bool {
	for p := op.ParentOp(); p != nil; p = p.ParentOp() {
		if n := p.Name(); n != "scf.for" && n != "scf.while" {
			continue
		}
		wide := p.Walk(func(o *ir.Operation) ir.WalkResult {
			if o.Name() == "ttng.warp_group_dot" && numRegs(o.Result(0).Type()) >= 64 {
				return ir.Interrupt
			}
			return ir.Advance
		}) == ir.Interrupt
		if wide {
			return true
		}
	}
	return false
}

// unlessMasked runs full when every mask is true and masked otherwise, in
// two branches, and merges their registers: an access whose vector width
// only the mask's constancy limits (a bounds check against a size not known
// to be a multiple of the vector) is made with whole vectors where the
// thread's elements are all in bounds, the common case, and element by
// element only where they are not (Triton makes it element by element
// everywhere).
func (l *Lowerer) unlessMasked(masks []value.Value, hint string, full, masked func() []value.Value) []value.Value {
	all := masks[0]
	seen := map[value.Value]bool{all: true}
	for _, m := range masks[1:] {
		if !seen[m] {
			seen[m] = true
			all = l.cur.NewAnd(all, m)
		}
	}
	fb, mb, join := l.NewBlock(hint+".full"), l.NewBlock(hint+".masked"), l.NewBlock(hint+".join")
	l.cur.NewCondBr(all, fb, mb)
	l.cur = fb
	a := full()
	l.cur.NewBr(join)
	aEnd := l.cur
	l.cur = mb
	b := masked()
	l.cur.NewBr(join)
	bEnd := l.cur
	l.cur = join
	if a == nil {
		return nil
	}
	out := make([]value.Value, len(a))
	for i := range a {
		out[i] = join.NewPhi(lir.NewIncoming(a[i], aEnd), lir.NewIncoming(b[i], bEnd))
	}
	return out
}

// inLoop reports whether op is inside an scf.for or scf.while.
func inLoop(op *ir.Operation) bool {
	for p := op.ParentOp(); p != nil; p = p.ParentOp() {
		switch p.Name() {
		case "scf.for", "scf.while":
			return true
		case "tt.func":
			return false
		}
	}
	return false
}
