package passes

import (
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/dialect/arith"
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// ProgramOrderPass is order-programs: the programs of a 2-D grid launched
// in the order whose neighbours store to neighbouring memory. See its Doc.
var ProgramOrderPass = &Pass{
	Name:    "order-programs",
	Summary: "Number the programs of a 2-D grid so that programs launched one after the other store to adjacent memory",
	Anchor:  "tt.func",
	Doc: `A GPU launches the programs (CTAs) of a grid with x varying fastest, so the
programs running at one time are a band of consecutive (x, y). When a kernel's
stores move by a small constant step from program y to program y+1 but by a
runtime stride from x to x+1 (a 2-D tile kernel whose pid x picks rows and pid
y columns of a row-major tensor), the programs running together write short
pieces of many rows, and DRAM serves them well below its bandwidth (on an H200
a 64x64 f16 tile copy reaches 83% of a device-to-device copy in launch order
and 97% with y fastest).

The pass renumbers the programs of such a kernel so that y varies fastest: from
the launch position lin = x + y * nx it computes

  pid_x = lin / ny,  pid_y = lin % ny

(nx, ny: tt.get_num_programs x, y) and uses these wherever the kernel reads
tt.get_program_id x or y; z is left alone. The numbering is a permutation of the
grid, so every program still runs once; when nx > 65535 (lin could overflow
i32) the kernel keeps the launch order at run time.

Triton's programs are independent and run in no specified order, so the kernel
computes the same result. The pass only renumbers a kernel whose every tt.store
moves by a constant number of bytes from y to y+1 and by more (or by a runtime
stride) from x to x+1, as an affine analysis of the store addresses shows
(program ids through arith addi/subi/muli/shli by constants, splat, broadcast,
expand_dims, convert_layout, casts and tt.addptr), and it leaves alone kernels
with dots (whose program order decides their L2 reuse), atomics or volatile
loads (with which programs may wait on each other), calls, tensor-descriptor
(TMA) accesses or warp specialization, and functions that are not kernels
(private, returning values, or called by a tt.call). A kernel it renumbered already
is left as it is.
A remark on each tt.func says what was decided and why.`,
	Run: runOrderPrograms,
}

func init() { MustRegister(ProgramOrderPass) }

func runOrderPrograms(ctx *Context, fn *ir.Operation) error {
	ctx.Remarkf(fn, "%s", OrderPrograms(fn).Remark())
	return nil
}

// OrderPrograms renumbers kernel fn's programs with y fastest when
// DecideProgramOrder says so, and returns the decision.
func OrderPrograms(fn *ir.Operation) ProgramOrder {
	d := DecideProgramOrder(fn)
	if d.YFastest {
		orderYFastest(fn)
	}
	return d
}

// ProgramOrder is what DecideProgramOrder found for a kernel.
type ProgramOrder struct {
	// YFastest: the kernel's programs should be renumbered with y fastest.
	YFastest bool
	// Why says why, or why not.
	Why string
}

// Remark is the remark order-programs (and layout-translate -remarks)
// makes of the decision.
func (d ProgramOrder) Remark() string { return "program order: " + d.String() }

func (d ProgramOrder) String() string {
	if d.YFastest {
		return "y fastest (" + d.Why + ")"
	}
	return "launch order (" + d.Why + ")"
}

// pidCoef is how a value moves with one program id: not at all, by a
// constant step (in elements for integers, bytes for pointers), or by a
// step the analysis does not know (a runtime stride).
type pidCoef struct {
	dep   bool // the value depends on the program id
	known bool // ... by the constant step c
	c     int64
}

var (
	noDep      = pidCoef{}
	unknownDep = pidCoef{dep: true}
)

func (a pidCoef) add(b pidCoef, sign int64) pidCoef {
	switch {
	case !a.dep:
		if !b.dep {
			return noDep
		}
		return pidCoef{dep: true, known: b.known, c: sign * b.c}
	case !b.dep:
		return a
	case a.known && b.known:
		return pidCoef{dep: true, known: true, c: a.c + sign*b.c}
	}
	return unknownDep
}

func (a pidCoef) scale(k int64) pidCoef {
	if !a.dep || !a.known {
		return a
	}
	return pidCoef{dep: true, known: true, c: a.c * k}
}

// programCoefs is the affine analysis of the program ids x and y (index 0
// and 1) over one kernel's values.
type programCoefs map[*ir.Value][2]pidCoef

func (pc programCoefs) of(v *ir.Value) [2]pidCoef {
	if r, ok := pc[v]; ok {
		return r
	}
	var r [2]pidCoef
	op := v.DefiningOp()
	if op == nil { // a block argument: the kernel's, or a loop-carried value
		if p := v.OwnerBlock().ParentOp(); p == nil || p.Name() != "tt.func" {
			r = [2]pidCoef{unknownDep, unknownDep}
		}
		pc[v] = r
		return r
	}
	pc[v] = [2]pidCoef{unknownDep, unknownDep} // cycles (none in SSA) stay unknown
	switch name := op.Name(); name {
	case "tt.get_program_id":
		if axis := ir.AttrIntValue(op.Attr("axis")); axis < 2 {
			r[axis] = pidCoef{dep: true, known: true, c: 1}
		}
	case "arith.select":
		if axis, ok := renumberedID(op); ok { // order-programs' program id
			r[axis] = pidCoef{dep: true, known: true, c: 1}
		} else {
			r = pc.opaque(op)
		}
	case "arith.constant", "tt.make_range", "tt.get_num_programs":
	case "tt.splat", "tt.broadcast", "tt.expand_dims", "ttg.convert_layout", "tt.reshape",
		"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast":
		r = pc.of(op.Operand(0))
	case "arith.addi", "arith.subi":
		a, b := pc.of(op.Operand(0)), pc.of(op.Operand(1))
		sign := int64(1)
		if name == "arith.subi" {
			sign = -1
		}
		for i := range r {
			r[i] = a[i].add(b[i], sign)
		}
	case "arith.muli", "arith.shli":
		a, b := pc.of(op.Operand(0)), pc.of(op.Operand(1))
		ka, aConst := intConst(constantValue(op.Operand(0)))
		kb, bConst := intConst(constantValue(op.Operand(1)))
		if name == "arith.shli" {
			aConst = false
			if bConst && kb >= 0 && kb < 62 {
				kb = 1 << kb
			} else {
				bConst = false
			}
		}
		for i := range r {
			switch {
			case !a[i].dep && !b[i].dep:
			case bConst:
				r[i] = a[i].scale(kb)
			case aConst:
				r[i] = b[i].scale(ka)
			default:
				r[i] = unknownDep
			}
		}
	case "tt.addptr":
		p, off := pc.of(op.Operand(0)), pc.of(op.Operand(1))
		pt, _ := ir.PointeeLike(op.Result(0).Type())
		size := int64(elemBytes(pt))
		for i := range r {
			r[i] = p[i].add(off[i].scale(size), 1)
		}
	default:
		r = pc.opaque(op)
	}
	pc[v] = r
	return r
}

// opaque is how a result of op, which the analysis does not follow, moves
// with each program id: by an unknown step where an operand depends on it.
func (pc programCoefs) opaque(op *ir.Operation) [2]pidCoef {
	var r [2]pidCoef
	for _, o := range op.Operands() {
		c := pc.of(o)
		for i := range r {
			if c[i].dep {
				r[i] = unknownDep
			}
		}
	}
	return r
}

// renumberedID reports which program id (0: x, 1: y) op is when it is
// one of those orderYFastest computes:
//
//	select(nx <= 65535, lin / ny (x) or lin % ny (y), get_program_id x or y)
//	lin = get_program_id x + get_program_id y * nx
//
// so that the analysis reads a renumbered kernel's program ids as such.
func renumberedID(op *ir.Operation) (int, bool) {
	if op.Name() != "arith.select" || op.NumOperands() != 3 {
		return 0, false
	}
	def := func(v *ir.Value, name string) *ir.Operation {
		if d := v.DefiningOp(); d != nil && d.Name() == name {
			return d
		}
		return nil
	}
	pid := func(v *ir.Value, name string) int {
		if d := def(v, name); d != nil {
			if a := ir.AttrIntValue(d.Attr("axis")); a < 2 {
				return int(a)
			}
		}
		return -1
	}
	axis := pid(op.Operand(2), "tt.get_program_id")
	q := def(op.Operand(1), [2]string{"arith.divui", "arith.remui"}[max(axis, 0)])
	if axis < 0 || q == nil || pid(q.Operand(1), "tt.get_num_programs") != 1 {
		return 0, false
	}
	lin := def(q.Operand(0), "arith.addi")
	if lin == nil || pid(lin.Operand(0), "tt.get_program_id") != 0 {
		return 0, false
	}
	t := def(lin.Operand(1), "arith.muli")
	if t == nil || pid(t.Operand(0), "tt.get_program_id") != 1 || pid(t.Operand(1), "tt.get_num_programs") != 0 {
		return 0, false
	}
	return axis, true
}

// renumbered reports whether fn's program ids are order-programs' (y
// fastest).
func renumbered(fn *ir.Operation) bool {
	found := false
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		if _, ok := renumberedID(op); ok {
			found = true
			return ir.Interrupt
		}
		return ir.Advance
	})
	return found
}

// unorderable reports an op that makes a kernel's program order matter
// beyond its stores' addresses (see ProgramOrderPass's Doc).
func unorderable(name string) bool {
	switch name {
	case "tt.atomic_rmw", "tt.atomic_cas", "tt.call", "ttg.warp_specialize":
		return true
	}
	return strings.Contains(name, "dot") || strings.Contains(name, "mma") ||
		strings.Contains(name, "descriptor") || strings.Contains(name, "tma")
}

// DecideProgramOrder says whether kernel fn (a tt.func) should run its
// programs with y fastest: see ProgramOrderPass.
func DecideProgramOrder(fn *ir.Operation) ProgramOrder {
	if why := notKernel(fn); why != "" {
		return ProgramOrder{Why: why}
	}
	if renumbered(fn) {
		return ProgramOrder{Why: "its programs are renumbered already (y fastest)"}
	}
	pc := programCoefs{}
	var stores []*ir.Operation
	readsY, why := false, ""
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		switch name := op.Name(); {
		case unorderable(name):
			why = fmt.Sprintf("it has %s", name)
			return ir.Interrupt
		case name == "tt.load" && ir.AttrBoolValue(op.AttrOrDefault("isVolatile")):
			why = "it has a volatile tt.load (which may wait on another program's store)"
			return ir.Interrupt
		case name == "tt.get_program_id" && ir.AttrIntValue(op.Attr("axis")) == 1:
			readsY = true
		case name == "tt.store":
			stores = append(stores, op)
		}
		return ir.Advance
	})
	switch {
	case why != "":
		return ProgramOrder{Why: why}
	case !readsY:
		return ProgramOrder{Why: "it does not read program id y"}
	case len(stores) == 0:
		return ProgramOrder{Why: "it has no tt.store"}
	}
	var steps []string
	for _, st := range stores {
		c := pc.of(st.Operand(0))
		x, y := c[0], c[1]
		switch {
		case !x.dep || !y.dep:
			return ProgramOrder{Why: fmt.Sprintf("a store at %s does not move with both program ids x and y", st.Pos())}
		case !y.known || y.c == 0:
			return ProgramOrder{Why: fmt.Sprintf("a store at %s moves with program id y by a step not known at compile time", st.Pos())}
		case x.known && abs64(x.c) <= abs64(y.c):
			return ProgramOrder{Why: fmt.Sprintf("a store at %s moves by %d bytes with program id x and %d with y", st.Pos(), x.c, y.c)}
		}
		xs := "a runtime stride"
		if x.known {
			xs = fmt.Sprintf("%d bytes", x.c)
		}
		steps = append(steps, fmt.Sprintf("%d bytes with y, %s with x", y.c, xs))
	}
	return ProgramOrder{YFastest: true, Why: "stores move by " + strings.Join(dedup(steps), "; ")}
}

// notKernel says why fn is not a kernel (whose program ids may be
// renumbered on their own), or "": a private function, one with results,
// or one a tt.call of its module calls, runs with its caller's numbering.
func notKernel(fn *ir.Operation) string {
	if v, ok := fn.Attr("sym_visibility").(*ir.StringAttr); ok && v.Value != "public" {
		return "not a kernel: " + v.Value
	}
	if ft := tt.FuncType(fn); ft != nil && len(ft.Results) > 0 {
		return "not a kernel: it returns values"
	}
	name, _ := fn.Attr("sym_name").(*ir.StringAttr)
	m := fn.ParentOp()
	if name == nil || m == nil {
		return ""
	}
	called := false
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if c, ok := op.Attr("callee").(*ir.SymbolRefAttr); ok && op.Name() == "tt.call" && c.Root == name.Value {
			called = true
			return ir.Interrupt
		}
		return ir.Advance
	})
	if called {
		return "not a kernel: tt.call calls it"
	}
	return ""
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func dedup(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// orderYFastest renumbers kernel fn's programs with y varying
// fastest: its reads of tt.get_program_id x and y are replaced by the
// program ids computed from the launch position (see ProgramOrderPass),
// at the start of its body.
func orderYFastest(fn *ir.Operation) {
	body := fn.Region(0).Entry()
	var reads [2][]*ir.Operation
	var loc ir.Location
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "tt.get_program_id" {
			if axis := ir.AttrIntValue(op.Attr("axis")); axis < 2 {
				if loc == nil {
					loc = op.Loc
				}
				reads[axis] = append(reads[axis], op)
			}
		}
		return ir.Advance
	})
	at := body.First()
	emit := func(name string, operands []*ir.Value, attrs ...ir.NamedAttr) *ir.Value {
		t := ir.I32
		if name == "arith.cmpi" {
			t = ir.I1
		}
		op := ir.NewOperation(name, operands, []ir.Type{t}, attrs, 0)
		op.Loc = loc
		body.InsertBefore(at, op)
		return op.Result(0)
	}
	axis := func(a int64) ir.NamedAttr { return ir.NamedAttr{Name: "axis", Value: tt.ProgramIDDim.Attr(a)} }
	x := emit("tt.get_program_id", nil, axis(0))
	y := emit("tt.get_program_id", nil, axis(1))
	nx := emit("tt.get_num_programs", nil, axis(0))
	ny := emit("tt.get_num_programs", nil, axis(1))
	lin := emit("arith.addi", []*ir.Value{x, emit("arith.muli", []*ir.Value{y, nx})})
	qx := emit("arith.divui", []*ir.Value{lin, ny})
	qy := emit("arith.remui", []*ir.Value{lin, ny})
	// lin fits in 32 bits when nx < 2^16 (ny < 2^16 in CUDA).
	limit := emit("arith.constant", nil, ir.NamedAttr{Name: "value", Value: ir.Int(65535, ir.I32)})
	ule, _ := arith.CmpIPredicate.Value("ule")
	ok := emit("arith.cmpi", []*ir.Value{nx, limit}, ir.NamedAttr{Name: "predicate", Value: arith.CmpIPredicate.Attr(ule)})
	ids := [2]*ir.Value{
		emit("arith.select", []*ir.Value{ok, qx, x}),
		emit("arith.select", []*ir.Value{ok, qy, y}),
	}
	for a, ops := range reads {
		for _, op := range ops {
			ids[a].NameHint = op.Result(0).NameHint
			op.Result(0).ReplaceAllUsesWith(ids[a])
			if err := op.Erase(); err != nil {
				panic("passes: order-programs: " + err.Error())
			}
		}
	}
}
