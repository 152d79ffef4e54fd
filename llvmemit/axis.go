package llvmemit

import (
	"slices"

	"github.com/layoutopt/layoutopt/ir"
)

// Axis analysis: a port of Triton 3.6's AxisInfo (lib/Analysis/AxisInfo.cpp)
// for the ops this package lowers. For every dim of an integer or pointer
// value it knows the contiguity (runs of values increasing by 1), the
// divisibility (largest power of two dividing the first value of every run;
// in bytes for pointers) and the constancy (runs of equal values). Ops it
// does not model get the pessimistic facts (1, 1, 1), which is always
// correct: a fact only ever makes accesses wider.

type axisInfo struct {
	contig, div, constancy []int64
	// constant is set when every element is known and equal.
	constant *int64
}

const maxDivisor = int64(1) << 62

func highestPow2Divisor(v int64) int64 {
	if v == 0 {
		return maxDivisor
	}
	return v & -v
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

func shapeOf(t ir.Type) []int64 {
	if s, ok := ir.ShapeOf(t); ok {
		return s
	}
	return []int64{1}
}

func pessimistic(t ir.Type) *axisInfo {
	n := len(shapeOf(t))
	a := &axisInfo{contig: make([]int64, n), div: make([]int64, n), constancy: make([]int64, n)}
	for i := range n {
		a.contig[i], a.div[i], a.constancy[i] = 1, 1, 1
	}
	return a
}

func constantInfo(t ir.Type, v int64) *axisInfo {
	shape := shapeOf(t)
	a := pessimistic(t)
	for i := range shape {
		a.div[i] = highestPow2Divisor(v)
		a.constancy[i] = shape[i]
	}
	a.constant = &v
	return a
}

func (a *axisInfo) equal(b *axisInfo) bool {
	return slices.Equal(a.contig, b.contig) && slices.Equal(a.div, b.div) && slices.Equal(a.constancy, b.constancy) &&
		(a.constant == nil) == (b.constant == nil) && (a.constant == nil || *a.constant == *b.constant)
}

// join is the facts that hold for both a and b (Triton's AxisInfo::join).
func join(a, b *axisInfo) *axisInfo {
	if len(a.contig) != len(b.contig) {
		return a
	}
	r := &axisInfo{contig: make([]int64, len(a.contig)), div: make([]int64, len(a.contig)), constancy: make([]int64, len(a.contig))}
	for i := range a.contig {
		r.contig[i] = gcd(a.contig[i], b.contig[i])
		r.div[i] = gcd(a.div[i], b.div[i])
		r.constancy[i] = gcd(a.constancy[i], b.constancy[i])
	}
	if a.constant != nil && b.constant != nil && *a.constant == *b.constant {
		r.constant = a.constant
	}
	return r
}

type axisAnalysis struct {
	info map[*ir.Value]*axisInfo
}

func newAxisAnalysis(fn *ir.Operation) *axisAnalysis {
	a := &axisAnalysis{info: map[*ir.Value]*axisInfo{}}
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
						fill(info.div, v)
					case "tt.contiguity":
						fill(info.contig, v)
					case "tt.constancy":
						fill(info.constancy, v)
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

// get returns the facts about v (pessimistic when unknown).
func (a *axisAnalysis) get(v *ir.Value) *axisInfo {
	if i, ok := a.info[v]; ok {
		return i
	}
	return pessimistic(v.Type())
}

func (a *axisAnalysis) block(b *ir.Block) {
	for _, op := range b.Ops() {
		a.op(op)
	}
}

func (a *axisAnalysis) op(op *ir.Operation) {
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
				a.info[res] = join(a.get(yields[0][i]), a.get(yields[1][i]))
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
	if info := a.transfer(op); info != nil {
		a.info[op.Result(0)] = info
	}
}

// loop analyses scf.for to a fixed point: the iteration arguments start
// from the initial values and are joined with the yielded ones.
func (a *axisAnalysis) loop(op *ir.Operation) {
	body := op.Region(0).Entry()
	inits := op.Operands()[3:]
	args := body.Args()
	a.info[args[0]] = pessimistic(args[0].Type())
	for i, v := range inits {
		a.info[args[i+1]] = a.get(v)
	}
	for iter := 0; iter < 8; iter++ {
		a.block(body)
		yield := body.Last().Operands()
		changed := false
		for i, v := range inits {
			n := join(a.get(v), a.get(yield[i]))
			if !n.equal(a.get(args[i+1])) {
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
		a.info[res] = join(a.get(inits[i]), a.get(yield[i]))
	}
}

func elemBytes(t ir.Type) int64 {
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

func (a *axisAnalysis) transfer(op *ir.Operation) *axisInfo {
	t := op.Result(0).Type()
	shape := shapeOf(t)
	operand := func(i int) *axisInfo { return a.get(op.Operand(i)) }
	isContig := func(x *axisInfo, d int) bool { return x.contig[d] == shape[d] }
	isConst := func(x *axisInfo, d int) bool { return x.constancy[d] == shape[d] }
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
	case "tt.make_range":
		r := pessimistic(t)
		start := ir.AttrIntValue(op.Attr("start"))
		r.contig[0] = shape[0]
		r.div[0] = highestPow2Divisor(start)
		return r
	case "tt.splat":
		src := operand(0)
		r := pessimistic(t)
		for d := range shape {
			r.div[d] = src.div[0]
			r.constancy[d] = shape[d]
		}
		r.constant = src.constant
		return r
	case "tt.broadcast":
		src := operand(0)
		srcShape := shapeOf(op.Operand(0).Type())
		r := pessimistic(t)
		for d := range shape {
			r.div[d] = src.div[d]
			if srcShape[d] == 1 && shape[d] != 1 {
				r.constancy[d] = shape[d]
			} else {
				r.contig[d], r.constancy[d] = src.contig[d], src.constancy[d]
			}
		}
		r.constant = src.constant
		return r
	case "tt.expand_dims":
		src := operand(0)
		axis := int(ir.AttrIntValue(op.Attr("axis")))
		newDiv := int64(1)
		if src.constant != nil {
			newDiv = highestPow2Divisor(*src.constant)
		} else {
			for d := range src.div {
				v := src.div[d]
				if src.contig[d] > 1 {
					v = 1
				}
				if d == 0 {
					newDiv = v
				} else {
					newDiv = gcd(newDiv, v)
				}
			}
		}
		r := &axisInfo{constant: src.constant}
		r.contig = insert(src.contig, axis, 1)
		r.div = insert(src.div, axis, newDiv)
		r.constancy = insert(src.constancy, axis, 1)
		return r
	case "ttg.convert_layout", "arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
		"arith.index_castui", "tt.int_to_ptr", "tt.ptr_to_int", "tt.bitcast", "arith.bitcast":
		return operand(0)
	case "tt.addptr", "arith.addi", "arith.subi":
		x, y := operand(0), operand(1)
		r := pessimistic(t)
		ydiv := y.div
		if op.Name() == "tt.addptr" {
			eb := elemBytes(op.Operand(0).Type())
			ydiv = make([]int64, len(y.div))
			for d := range y.div {
				ydiv[d] = min(y.div[d]*eb, maxDivisor)
				if y.div[d] >= maxDivisor/eb {
					ydiv[d] = maxDivisor
				}
			}
		}
		for d := range shape {
			if op.Name() == "arith.subi" {
				r.contig[d] = gcd(x.contig[d], y.constancy[d])
			} else {
				r.contig[d] = max(gcd(x.contig[d], y.constancy[d]), gcd(x.constancy[d], y.contig[d]))
			}
			r.div[d] = gcd(x.div[d], ydiv[d])
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
		}
		if x.constant != nil && y.constant != nil && op.Name() != "tt.addptr" {
			v := *x.constant + *y.constant
			if op.Name() == "arith.subi" {
				v = *x.constant - *y.constant
			}
			return constantInfo(t, v)
		}
		return r
	case "arith.muli":
		x, y := operand(0), operand(1)
		if x.constant != nil && y.constant != nil {
			return constantInfo(t, *x.constant**y.constant)
		}
		r := pessimistic(t)
		for d := range shape {
			if y.constant != nil && *y.constant == 1 {
				r.contig[d] = x.contig[d]
			}
			if x.constant != nil && *x.constant == 1 {
				r.contig[d] = y.contig[d]
			}
			r.div[d] = min(x.div[d]*y.div[d], maxDivisor)
			if x.div[d] >= maxDivisor/max(y.div[d], 1) {
				r.div[d] = maxDivisor
			}
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
		}
		return r
	case "arith.divsi", "arith.divui":
		x, y := operand(0), operand(1)
		if x.constant != nil && y.constant != nil && *y.constant != 0 {
			return constantInfo(t, *x.constant / *y.constant)
		}
		r := pessimistic(t)
		for d := range shape {
			if y.constant != nil && *y.constant == 1 {
				r.contig[d], r.div[d] = x.contig[d], x.div[d]
			}
			if x.constant != nil && *x.constant == 0 {
				r.div[d] = x.div[d]
			}
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			if isContig(x, d) && isConst(y, d) {
				r.constancy[d] = max(r.constancy[d], gcd(x.contig[d], gcd(x.div[d], y.div[d])))
			}
		}
		return r
	case "arith.remsi", "arith.remui":
		x, y := operand(0), operand(1)
		if x.constant != nil && y.constant != nil && *y.constant != 0 {
			return constantInfo(t, *x.constant%*y.constant)
		}
		r := pessimistic(t)
		for d := range shape {
			if isContig(x, d) && isConst(y, d) {
				r.contig[d] = gcd(x.contig[d], y.div[d])
				r.div[d] = gcd(x.div[d], y.div[d])
			}
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
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
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			if gt && isConst(x, d) {
				r.constancy[d] = max(r.constancy[d], gcd(y.contig[d], gcd(x.div[d], y.div[d])))
			} else if lt && isConst(y, d) {
				r.constancy[d] = max(r.constancy[d], gcd(x.contig[d], gcd(x.div[d], y.div[d])))
			}
		}
		return r
	case "arith.select":
		c, x, y := operand(0), operand(1), operand(2)
		r := pessimistic(t)
		for d := range shape {
			cc := c.constancy[0]
			if d < len(c.constancy) {
				cc = c.constancy[d]
			}
			r.contig[d] = min(gcd(x.contig[d], cc), gcd(y.contig[d], cc))
			r.div[d] = min(x.div[d], y.div[d])
			r.constancy[d] = min(gcd(x.constancy[d], cc), gcd(y.constancy[d], cc))
		}
		return r
	case "arith.andi", "arith.ori", "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui":
		x, y := operand(0), operand(1)
		r := pessimistic(t)
		for d := range shape {
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
		}
		return r
	case "arith.shli":
		x, y := operand(0), operand(1)
		r := pessimistic(t)
		for d := range shape {
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			if y.constant != nil && *y.constant >= 0 && *y.constant < 62 {
				s := *y.constant
				if s == 0 {
					r.contig[d] = x.contig[d]
				}
				r.div[d] = min(x.div[d]<<uint(s), maxDivisor)
				if x.div[d] > maxDivisor>>uint(s) {
					r.div[d] = maxDivisor
				}
			}
		}
		if x.constant != nil && y.constant != nil {
			return constantInfo(t, *x.constant<<uint(*y.constant))
		}
		return r
	case "arith.shrsi", "arith.shrui":
		x, y := operand(0), operand(1)
		r := pessimistic(t)
		for d := range shape {
			r.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			if y.constant != nil && *y.constant >= 0 && *y.constant < 62 {
				r.div[d] = max(x.div[d]>>uint(*y.constant), 1)
			}
		}
		return r
	case "tt.trans":
		src := operand(0)
		order := ir.AttrInts(op.Attr("order"))
		r := &axisInfo{constant: src.constant}
		for _, o := range order {
			r.contig = append(r.contig, src.contig[o])
			r.div = append(r.div, src.div[o])
			r.constancy = append(r.constancy, src.constancy[o])
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
