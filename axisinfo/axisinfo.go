// Package axisinfo is a port of Triton 3.6's AxisInfo analysis
// (lib/Analysis/AxisInfo.cpp): for every dim of an integer or pointer value
// of a tt.func it knows the contiguity (runs of values increasing by 1), the
// divisibility (largest power of two dividing the first value of every run;
// in bytes for pointers) and the constancy (runs of equal values). Ops it
// does not model get the pessimistic facts (1, 1, 1), which is always
// correct: a fact only ever makes accesses wider.
//
// The lowering (package llvmemit) sizes vector loads and stores with it
// (VectorWidth), the coalesce pass (package passes) chooses memory layouts
// with it, and specialize-divisibility weighs the accesses of a kernel's two
// bodies with it.
package axisinfo

import (
	"slices"

	"github.com/layoutopt/layoutopt/ir"
)

// Info is what the analysis knows about one value, per dim of its shape (a
// scalar has one dim of size 1).
type Info struct {
	// Contiguity[d] is the length of the shortest run of values increasing
	// by 1 along dim d; Divisibility[d] the largest power of two dividing
	// the first value of every such run (bytes for pointers); Constancy[d]
	// the length of the shortest run of equal values along d.
	Contiguity, Divisibility, Constancy []int64
	// Constant is set when every element is known and equal.
	Constant *int64
}

// MaxDivisor stands for "divisible by any power of two" (the value 0).
const MaxDivisor = int64(1) << 62

func highestPow2Divisor(v int64) int64 {
	if d := v & -v; d > 0 && d < MaxDivisor {
		return d
	}
	return MaxDivisor // 0, or a multiple of 2^62 (MinInt64 & -MinInt64 is negative)
}

// multiplyDivisor is the divisibility of a product: a·b, at most MaxDivisor.
func multiplyDivisor(a, b int64) int64 {
	if a > MaxDivisor/max(b, 1) {
		return MaxDivisor
	}
	return a * b
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// dims is the shape the facts of a value of type t are kept for: the
// tensor's shape, [1] for a scalar or a rank-0 tensor.
func dims(t ir.Type) []int64 {
	if s, ok := ir.ShapeOf(t); ok && len(s) > 0 {
		return s
	}
	return []int64{1}
}

func pessimistic(t ir.Type) *Info {
	n := len(dims(t))
	a := &Info{Contiguity: make([]int64, n), Divisibility: make([]int64, n), Constancy: make([]int64, n)}
	for i := range n {
		a.Contiguity[i], a.Divisibility[i], a.Constancy[i] = 1, 1, 1
	}
	return a
}

func constantInfo(t ir.Type, v int64) *Info {
	shape := dims(t)
	a := pessimistic(t)
	for i := range shape {
		a.Divisibility[i] = highestPow2Divisor(v)
		a.Constancy[i] = shape[i]
	}
	a.Constant = &v
	return a
}

func (a *Info) equal(b *Info) bool {
	return slices.Equal(a.Contiguity, b.Contiguity) && slices.Equal(a.Divisibility, b.Divisibility) && slices.Equal(a.Constancy, b.Constancy) &&
		(a.Constant == nil) == (b.Constant == nil) && (a.Constant == nil || *a.Constant == *b.Constant)
}

// join is the facts that hold for both a and b (Triton's AxisInfo::join).
func join(a, b *Info) *Info {
	if len(a.Contiguity) != len(b.Contiguity) {
		return a
	}
	r := &Info{Contiguity: make([]int64, len(a.Contiguity)), Divisibility: make([]int64, len(a.Contiguity)), Constancy: make([]int64, len(a.Contiguity))}
	for i := range a.Contiguity {
		r.Contiguity[i] = gcd(a.Contiguity[i], b.Contiguity[i])
		r.Divisibility[i] = gcd(a.Divisibility[i], b.Divisibility[i])
		r.Constancy[i] = gcd(a.Constancy[i], b.Constancy[i])
	}
	if a.Constant != nil && b.Constant != nil && *a.Constant == *b.Constant {
		r.Constant = a.Constant
	}
	return r
}

// Analysis holds the facts about the values of one function.
type Analysis struct {
	info map[*ir.Value]*Info
}

// Analyze runs the analysis over function fn (a tt.func): its arguments
// start from their tt.divisibility, tt.contiguity and tt.constancy
// attributes.
func Analyze(fn *ir.Operation) *Analysis {
	a := &Analysis{info: map[*ir.Value]*Info{}}
	body := fn.Region(0).Entry()
	var argAttrs []ir.Attribute
	if aa, ok := fn.Attr("arg_attrs").(*ir.ArrayAttr); ok {
		argAttrs = aa.Elems
	}
	for i, arg := range body.Args() {
		info := pessimistic(arg.Type())
		if i < len(argAttrs) {
			if d, ok := argAttrs[i].(*ir.DictionaryAttr); ok {
				for _, e := range d.Entries {
					v := ir.AttrIntValue(e.Value)
					switch e.Name {
					case "tt.divisibility":
						fill(info.Divisibility, v)
					case "tt.contiguity":
						fill(info.Contiguity, v)
					case "tt.constancy":
						fill(info.Constancy, v)
					}
				}
			}
		}
		a.info[arg] = info
	}
	a.block(body)
	return a
}

func fill(s []int64, v int64) {
	if v <= 0 {
		return
	}
	for i := range s {
		s[i] = v
	}
}

// Get returns the facts about v (pessimistic when unknown).
func (a *Analysis) Get(v *ir.Value) *Info {
	if i, ok := a.info[v]; ok {
		return i
	}
	return pessimistic(v.Type())
}

func (a *Analysis) block(b *ir.Block) {
	for _, op := range b.Ops() {
		a.op(op)
	}
}

func (a *Analysis) op(op *ir.Operation) {
	switch op.Name() {
	case "scf.for":
		a.loop(op)
		return
	case "scf.if":
		for _, r := range op.Regions() {
			for _, b := range r.Blocks {
				a.block(b)
			}
		}
		var yields [][]*ir.Value
		for _, r := range op.Regions() {
			if e := r.Entry(); e != nil && e.Last() != nil {
				yields = append(yields, e.Last().Operands())
			}
		}
		if len(yields) == 2 {
			for i, res := range op.Results() {
				a.info[res] = join(a.Get(yields[0][i]), a.Get(yields[1][i]))
			}
		}
		return
	}
	for _, r := range op.Regions() {
		for _, b := range r.Blocks {
			a.block(b)
		}
	}
	if op.NumResults() != 1 {
		return
	}
	info := a.transfer(op)
	if info == nil || len(info.Contiguity) != len(dims(op.Result(0).Type())) {
		info = pessimistic(op.Result(0).Type())
	}
	a.info[op.Result(0)] = withHints(op, info)
}

// withHints overrides info with the op's own tt.contiguity, tt.divisibility
// and tt.constancy (dense, one value per dim or a splat), as Triton's
// visitOperation does: the hints tl.max_contiguous, tl.multiple_of and
// tl.max_constancy leave on ops.
func withHints(op *ir.Operation, info *Info) *Info {
	var out *Info
	for _, h := range []struct {
		name string
		dst  func(*Info) []int64
	}{
		{"tt.contiguity", func(i *Info) []int64 { return i.Contiguity }},
		{"tt.divisibility", func(i *Info) []int64 { return i.Divisibility }},
		{"tt.constancy", func(i *Info) []int64 { return i.Constancy }},
	} {
		d, ok := op.Attr(h.name).(*ir.DenseElementsAttr)
		if !ok || (len(d.Elems) != 1 && len(d.Elems) != len(info.Contiguity)) {
			continue
		}
		if out == nil {
			out = &Info{Contiguity: slices.Clone(info.Contiguity), Divisibility: slices.Clone(info.Divisibility),
				Constancy: slices.Clone(info.Constancy), Constant: info.Constant}
		}
		dst := h.dst(out)
		for k := range dst {
			if v := ir.AttrIntValue(d.Elems[min(k, len(d.Elems)-1)]); v > 0 {
				dst[k] = v
			}
		}
	}
	if out == nil {
		return info
	}
	return out
}

// loop analyses scf.for to a fixed point: the iteration arguments start
// from the initial values and are joined with the yielded ones.
func (a *Analysis) loop(op *ir.Operation) {
	body := op.Region(0).Entry()
	inits := op.Operands()[3:]
	args := body.Args()
	// The induction variable: every value is lb + k*step, so it is
	// divisible by what divides both (Triton's visitForOpInductionVar).
	iv := pessimistic(args[0].Type())
	iv.Divisibility[0] = gcd(a.Get(op.Operand(0)).Divisibility[0], a.Get(op.Operand(2)).Divisibility[0])
	a.info[args[0]] = iv
	for i, v := range inits {
		a.info[args[i+1]] = a.Get(v)
	}
	for iter := 0; iter < 8; iter++ {
		a.block(body)
		yield := body.Last().Operands()
		changed := false
		for i, v := range inits {
			n := join(a.Get(v), a.Get(yield[i]))
			if !n.equal(a.Get(args[i+1])) {
				a.info[args[i+1]] = n
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	yield := body.Last().Operands()
	for i, res := range op.Results() {
		a.info[res] = join(a.Get(inits[i]), a.Get(yield[i]))
	}
}

// ElemBytes is the size in bytes of the elements of t (of the pointee for
// pointers; at least 1), the unit that turns a pointer's Divisibility into
// elements.
func ElemBytes(t ir.Type) int64 {
	e := ir.ElementType(t)
	if p, ok := e.(*ir.PointerType); ok {
		e = p.Pointee
	}
	w := int64(64)
	switch x := e.(type) {
	case *ir.IntegerType:
		w = int64(x.Width)
	case *ir.FloatType:
		w = int64(x.FloatBits())
	}
	return max(w/8, 1)
}

func (a *Analysis) transfer(op *ir.Operation) *Info {
	t := op.Result(0).Type()
	shape := dims(t)
	operand := func(i int) *Info { return a.Get(op.Operand(i)) }
	isContig := func(x *Info, d int) bool { return x.Contiguity[d] == shape[d] }
	isConst := func(x *Info, d int) bool { return x.Constancy[d] == shape[d] }
	// Ops with operands of the result's rank (all but splat, expand_dims
	// and select's condition) are only analysed when the ranks agree, so
	// that unverified IR cannot index out of range.
	switch op.Name() {
	case "tt.splat", "arith.constant", "ub.poison", "tt.make_range":
	case "tt.expand_dims":
		axis := int(ir.AttrIntValue(op.Attr("axis")))
		if op.NumOperands() != 1 || len(operand(0).Contiguity) != len(shape)-1 || axis < 0 || axis >= len(shape) {
			return nil
		}
	case "arith.select":
		if op.NumOperands() != 3 || len(operand(1).Contiguity) != len(shape) || len(operand(2).Contiguity) != len(shape) {
			return nil
		}
	default:
		for i := range op.NumOperands() {
			if len(operand(i).Contiguity) != len(shape) {
				return nil
			}
		}
		if op.Name() == "tt.trans" {
			order := ir.AttrInts(op.Attr("order"))
			if len(order) != len(shape) || slices.ContainsFunc(order, func(o int64) bool { return o < 0 || o >= int64(len(shape)) }) {
				return nil
			}
		}
	}
	switch op.Name() {
	case "arith.constant":
		switch v := op.Attr("value").(type) {
		case *ir.IntegerAttr:
			return constantInfo(t, v.Value)
		case *ir.DenseElementsAttr:
			if len(v.Elems) == 1 {
				if iv, ok := v.Elems[0].(*ir.IntegerAttr); ok {
					return constantInfo(t, iv.Value)
				}
			}
		}
	case "ub.poison":
		// Never read, so anything may be assumed (Triton's PoisonOp visitor):
		// joined with the other side of an scf.if it leaves that side's facts.
		r := pessimistic(t)
		fill(r.Contiguity, MaxDivisor)
		fill(r.Divisibility, MaxDivisor)
		fill(r.Constancy, MaxDivisor)
		return r
	case "tt.make_range":
		r := pessimistic(t)
		start := ir.AttrIntValue(op.Attr("start"))
		r.Contiguity[0] = shape[0]
		// start is an i32 attribute: Triton's highestPowOf2Divisor<int32_t>
		// gives 2^30 for 0.
		r.Divisibility[0] = min(highestPow2Divisor(start), 1<<30)
		return r
	case "tt.splat":
		src := operand(0)
		r := pessimistic(t)
		for d := range shape {
			r.Divisibility[d] = src.Divisibility[0]
			r.Constancy[d] = shape[d]
		}
		r.Constant = src.Constant
		return r
	case "tt.broadcast":
		src := operand(0)
		srcShape := dims(op.Operand(0).Type())
		r := pessimistic(t)
		for d := range shape {
			r.Divisibility[d] = src.Divisibility[d]
			if srcShape[d] == 1 && shape[d] != 1 {
				r.Constancy[d] = shape[d]
			} else {
				r.Contiguity[d], r.Constancy[d] = src.Contiguity[d], src.Constancy[d]
			}
		}
		r.Constant = src.Constant
		return r
	case "tt.expand_dims":
		src := operand(0)
		axis := int(ir.AttrIntValue(op.Attr("axis")))
		newDiv := int64(1)
		if src.Constant != nil {
			newDiv = highestPow2Divisor(*src.Constant)
		} else {
			for d := range src.Divisibility {
				v := src.Divisibility[d]
				if src.Contiguity[d] > 1 {
					v = 1
				}
				if d == 0 {
					newDiv = v
				} else {
					newDiv = gcd(newDiv, v)
				}
			}
		}
		r := &Info{Constant: src.Constant}
		r.Contiguity = insert(src.Contiguity, axis, 1)
		r.Divisibility = insert(src.Divisibility, axis, newDiv)
		r.Constancy = insert(src.Constancy, axis, 1)
		return r
	case "ttg.convert_layout", "arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
		"arith.index_castui", "tt.int_to_ptr", "tt.ptr_to_int", "tt.bitcast", "arith.bitcast":
		return operand(0)
	case "tt.addptr", "arith.addi", "arith.subi":
		x, y := operand(0), operand(1)
		r := pessimistic(t)
		// eb is the step of one element: bytes for the pointer and the
		// offsets of tt.addptr, 1 for integers.
		eb := int64(1)
		if op.Name() == "tt.addptr" {
			eb = ElemBytes(op.Operand(0).Type())
		}
		for d := range shape {
			if op.Name() == "arith.subi" {
				r.Contiguity[d] = gcd(x.Contiguity[d], y.Constancy[d])
			} else {
				r.Contiguity[d] = max(gcd(x.Contiguity[d], y.Constancy[d]), gcd(x.Constancy[d], y.Contiguity[d]))
			}
			// The divisibility of the sum's run starts (Triton's gcd of the
			// two). A side whose runs got shorter vouches only for the
			// short runs' starts, c elements into its own runs: Triton
			// would call the pairs of [0..127] + [0, 0, 8, 8, 16, 16, ...]
			// divisible by 8, but 10 starts one.
			c := r.Contiguity[d]
			xd, yd := x.Divisibility[d], multiplyDivisor(y.Divisibility[d], eb)
			if x.Contiguity[d] > c {
				xd = gcd(xd, c*eb)
			}
			if y.Contiguity[d] > c {
				yd = gcd(yd, c*eb)
			}
			r.Divisibility[d] = gcd(xd, yd)
			r.Constancy[d] = gcd(x.Constancy[d], y.Constancy[d])
		}
		if x.Constant != nil && y.Constant != nil && op.Name() != "tt.addptr" {
			v := *x.Constant + *y.Constant
			if op.Name() == "arith.subi" {
				v = *x.Constant - *y.Constant
			}
			return constantInfo(t, v)
		}
		return r
	case "arith.muli":
		x, y := operand(0), operand(1)
		if x.Constant != nil && y.Constant != nil {
			return constantInfo(t, *x.Constant**y.Constant)
		}
		r := pessimistic(t)
		for d := range shape {
			if y.Constant != nil && *y.Constant == 1 {
				r.Contiguity[d] = x.Contiguity[d]
			}
			if x.Constant != nil && *x.Constant == 1 {
				r.Contiguity[d] = y.Contiguity[d]
			}
			// A run [2^n, 2^n+1, ...] counts as divisible by 1, not 2^n,
			// unless it is multiplied by 1 (Triton's MulI visitor).
			xd, yd := x.Divisibility[d], y.Divisibility[d]
			if x.Contiguity[d] > 1 && (y.Constant == nil || *y.Constant != 1) {
				xd = 1
			}
			if y.Contiguity[d] > 1 && (x.Constant == nil || *x.Constant != 1) {
				yd = 1
			}
			r.Divisibility[d] = multiplyDivisor(xd, yd)
			r.Constancy[d] = gcd(x.Constancy[d], y.Constancy[d])
		}
		return r
	case "arith.divsi", "arith.divui":
		x, y := operand(0), operand(1)
		if x.Constant != nil && y.Constant != nil && *y.Constant != 0 {
			return constantInfo(t, *x.Constant / *y.Constant)
		}
		r := pessimistic(t)
		for d := range shape {
			if y.Constant != nil && *y.Constant == 1 {
				r.Contiguity[d], r.Divisibility[d] = x.Contiguity[d], x.Divisibility[d]
			}
			if x.Constant != nil && *x.Constant == 0 {
				r.Divisibility[d] = x.Divisibility[d]
			}
			r.Constancy[d] = gcd(x.Constancy[d], y.Constancy[d])
			if isContig(x, d) && isConst(y, d) {
				r.Constancy[d] = max(r.Constancy[d], gcd(x.Contiguity[d], gcd(x.Divisibility[d], y.Divisibility[d])))
			}
		}
		return r
	case "arith.remsi", "arith.remui":
		x, y := operand(0), operand(1)
		if x.Constant != nil && y.Constant != nil && *y.Constant != 0 {
			return constantInfo(t, *x.Constant%*y.Constant)
		}
		r := pessimistic(t)
		for d := range shape {
			if isContig(x, d) && isConst(y, d) {
				r.Contiguity[d] = gcd(x.Contiguity[d], y.Divisibility[d])
				r.Divisibility[d] = gcd(x.Divisibility[d], y.Divisibility[d])
			}
			r.Constancy[d] = gcd(x.Constancy[d], y.Constancy[d])
		}
		return r
	case "arith.cmpi":
		x, y := operand(0), operand(1)
		pred := ir.AttrIntValue(op.Attr("predicate"))
		// eq ne slt sle sgt sge ult ule ugt uge
		lt := pred == 2 || pred == 6 || pred == 5 || pred == 9
		gt := pred == 4 || pred == 8 || pred == 3 || pred == 7
		r := pessimistic(t)
		for d := range shape {
			r.Constancy[d] = gcd(x.Constancy[d], y.Constancy[d])
			if gt && isConst(x, d) {
				r.Constancy[d] = max(r.Constancy[d], gcd(y.Contiguity[d], gcd(x.Divisibility[d], y.Divisibility[d])))
			} else if lt && isConst(y, d) {
				r.Constancy[d] = max(r.Constancy[d], gcd(x.Contiguity[d], gcd(x.Divisibility[d], y.Divisibility[d])))
			}
		}
		return r
	case "arith.select":
		// Triton's SelectOp visitor.
		c, x, y := operand(0), operand(1), operand(2)
		if c.Constant != nil { // one side, whole
			if *c.Constant == 0 {
				return y
			}
			return x
		}
		r := pessimistic(t)
		_, scalarCond := op.Operand(0).Type().(*ir.IntegerType)
		for d := range shape {
			if scalarCond || d >= len(c.Constancy) { // all of one side or all of the other
				r.Contiguity[d] = min(x.Contiguity[d], y.Contiguity[d])
				r.Divisibility[d] = min(x.Divisibility[d], y.Divisibility[d])
				r.Constancy[d] = min(x.Constancy[d], y.Constancy[d])
				continue
			}
			cc := c.Constancy[d]
			r.Contiguity[d] = min(gcd(x.Contiguity[d], cc), gcd(y.Contiguity[d], cc))
			r.Constancy[d] = min(gcd(x.Constancy[d], cc), gcd(y.Constancy[d], cc))
			if r.Contiguity[d] == x.Contiguity[d] && r.Contiguity[d] == y.Contiguity[d] {
				r.Divisibility[d] = gcd(x.Divisibility[d], y.Divisibility[d])
			} else {
				// Shorter runs start inside the old ones: [[0, 1], [4, 5]]
				// and [16, 17, 18, 19] selected by pairs are runs of 2
				// divisible by 2, not by 4.
				r.Divisibility[d] = min(gcd(x.Divisibility[d], r.Contiguity[d]), gcd(y.Divisibility[d], r.Contiguity[d]))
			}
		}
		if x.Constant != nil && y.Constant != nil && *x.Constant == *y.Constant {
			r.Constant = x.Constant
		}
		return r
	case "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui":
		// Triton's MaxMin visitor: the result is one of the two operands
		// element by element, so it has the facts both have.
		x, y := operand(0), operand(1)
		if x.Constant != nil && y.Constant != nil {
			a, b := *x.Constant, *y.Constant
			v := min(a, b)
			switch op.Name() {
			case "arith.maxsi":
				v = max(a, b)
			case "arith.maxui":
				v = int64(max(uint64(a), uint64(b)))
			case "arith.minui":
				v = int64(min(uint64(a), uint64(b)))
			}
			return constantInfo(t, v)
		}
		r := pessimistic(t)
		for d := range shape {
			c := min(x.Contiguity[d], y.Contiguity[d])
			r.Contiguity[d] = c
			r.Constancy[d] = min(x.Constancy[d], y.Constancy[d])
			// A side whose runs got shorter vouches only for the short
			// runs' starts (Triton takes the plain minimum, which claims
			// max([0..127], 8)'s 9 is divisible by 8).
			own := func(v *Info) int64 {
				if v.Contiguity[d] > c {
					return gcd(v.Divisibility[d], c)
				}
				return v.Divisibility[d]
			}
			r.Divisibility[d] = min(own(x), own(y))
		}
		return r
	case "arith.andi", "arith.ori", "arith.xori":
		x, y := operand(0), operand(1)
		if x.Constant != nil && y.Constant != nil {
			v := *x.Constant & *y.Constant
			if op.Name() == "arith.ori" {
				v = *x.Constant | *y.Constant
			} else if op.Name() == "arith.xori" {
				v = *x.Constant ^ *y.Constant
			}
			return constantInfo(t, v)
		}
		r := pessimistic(t)
		for d := range shape {
			r.Constancy[d] = gcd(x.Constancy[d], y.Constancy[d])
			if op.Name() == "arith.andi" {
				// x & y has the trailing zero bits of both (beyond Triton,
				// which knows nothing of an andi's divisibility): a pointer
				// or stride masked with -16 is divisible by 16. A run's
				// divisibility holds for its first element only.
				own := func(v *Info) int64 {
					if v.Contiguity[d] > 1 {
						return 1
					}
					return v.Divisibility[d]
				}
				r.Divisibility[d] = max(own(x), own(y))
			}
		}
		return r
	case "arith.shli", "arith.shrsi", "arith.shrui":
		// Triton's ShLI and ShR visitors: a run [2^n, 2^n+1, ...] shifted
		// counts as divisible by 1, not by 2^n.
		x, y := operand(0), operand(1)
		if x.Constant != nil && y.Constant != nil && *y.Constant >= 0 && *y.Constant < 64 {
			if op.Name() == "arith.shli" {
				return constantInfo(t, *x.Constant<<uint(*y.Constant))
			}
			return constantInfo(t, *x.Constant>>uint(*y.Constant))
		}
		shift := int64(-1) // unknown
		if y.Constant != nil && *y.Constant >= 0 && *y.Constant < 62 {
			shift = *y.Constant
		}
		r := pessimistic(t)
		for d := range shape {
			r.Constancy[d] = gcd(x.Constancy[d], y.Constancy[d])
			if shift == 0 {
				r.Contiguity[d] = x.Contiguity[d]
			}
			xd := x.Divisibility[d]
			if x.Contiguity[d] > 1 && shift != 0 {
				xd = 1
			}
			switch {
			case op.Name() == "arith.shli" && shift >= 0:
				r.Divisibility[d] = multiplyDivisor(xd, int64(1)<<uint(shift))
			case op.Name() == "arith.shli":
				r.Divisibility[d] = xd // x << s keeps x's trailing zeros
			case shift >= 0:
				r.Divisibility[d] = max(1, xd>>uint(shift))
			}
		}
		return r
	case "tt.trans":
		src := operand(0)
		order := ir.AttrInts(op.Attr("order"))
		r := &Info{Constant: src.Constant}
		for _, o := range order {
			r.Contiguity = append(r.Contiguity, src.Contiguity[o])
			r.Divisibility = append(r.Divisibility, src.Divisibility[o])
			r.Constancy = append(r.Constancy, src.Constancy[o])
		}
		return r
	}
	return nil
}

func insert(s []int64, i int, v int64) []int64 {
	r := make([]int64, 0, len(s)+1)
	r = append(r, s[:i]...)
	r = append(r, v)
	return append(r, s[i:]...)
}
