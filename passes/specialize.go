package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/axisinfo"
	"github.com/layoutopt/layoutopt/ir"
)

// SpecializeDivisibilityPass is specialize-divisibility. See its Doc.
var SpecializeDivisibilityPass = &Pass{
	Name:    "specialize-divisibility",
	Summary: "Give kernels whose arguments carry no tt.divisibility a second body that assumes them divisible by 16, coalesced for it, chosen at run time where the assumption holds",
	Anchor:  "builtin.module",
	Options: []Option{
		{Name: "divisor", Default: "16", Kind: IntOption,
			Doc: "the divisibility assumed (bytes for pointers), a power of two (Triton's JIT specializes on 16)"},
	},
	Doc: `Triton's JIT compiles a kernel for the arguments it is called with: a pointer
aligned to 16 bytes, or an integer divisible by 16, gets tt.divisibility = 16, and the
coalesce pass then gives the accesses through them vectors of up to 16 bytes. TTGIR
compiled ahead of time without those attributes (or written by hand) keeps one element
per access wherever alignment is unknown. This pass versions such kernels, as a
compiler multiversions loops: for each kernel (a public tt.func returning nothing,
with a single-block body, not called by a tt.call, in a module whose shared memory is
not allocated yet: no ttg.shared) it

 1. takes the pointer (!tt.ptr<T>, not block pointers) and integer arguments without
    tt.divisibility >= divisor as candidates;
 2. clones the kernel with tt.divisibility = divisor on all of them, runs coalesce and
    remove-redundant-conversions on the clone, and counts the global access
    instructions per thread of both (each load, store or atomic: its registers over
    its vector width, as llvmemit lowers it, masks aside);
 3. stops when the clone does not need fewer; otherwise drops, one by one in argument
    order, each candidate without which the clone needs no more accesses, so that the
    run-time test asks as little as it can;
 4. rewrites the kernel as

      %ok = (each kept pointer's address and integer) & (divisor - 1) == 0, and-ed
      scf.if %ok { the clone's body, its arguments re-derived as (x & -divisor) }
      else { the body as it was }
      tt.return

    The masked arguments equal the arguments in that branch; they carry the
    divisibility to the axis analysis (axisinfo knows x & -16 is divisible by 16),
    where a tt.divisibility attribute would apply to the other branch too.

A remark on every kernel says what was decided and why. layout-translate runs this
pass after order-programs, so that both bodies get the same program order.`,
	Run: runSpecializeDivisibility,
}

func init() { MustRegister(SpecializeDivisibilityPass) }

func runSpecializeDivisibility(ctx *Context, mod *ir.Operation) error {
	divisor := ctx.IntOption("divisor")
	if divisor < 2 || divisor&(divisor-1) != 0 {
		return ctx.Errorf(mod, "specialize-divisibility: divisor %d is not a power of two greater than 1", divisor)
	}
	decisions, err := SpecializeDivisibility(ctx.Module, divisor)
	if err != nil {
		return ctx.Errorf(mod, "specialize-divisibility: %v", err)
	}
	for _, d := range decisions {
		ctx.Remarkf(d.Func, "%s", d.Remark())
		if len(d.Args) > 0 {
			ctx.MarkChanged()
		}
	}
	if ctx.Changed() {
		regenerateAttrAliases(ctx.Module)
	}
	return nil
}

// Specialization is what SpecializeDivisibility decided for one kernel.
type Specialization struct {
	Func *ir.Operation
	// Args are the names of the arguments the specialized body assumes
	// divisible; none when the kernel was left as it was.
	Args []string
	// Accesses and Specialized count the global access instructions per
	// thread of the body as it was and of the specialized one (0 when not
	// tried).
	Accesses, Specialized int
	// Why says why the kernel was left alone, when it was.
	Why string
}

// Remark is the remark specialize-divisibility (and layout-translate
// -remarks) makes of the decision.
func (s Specialization) Remark() string { return "divisibility: " + s.String() }

func (s Specialization) String() string {
	if len(s.Args) == 0 {
		return "not specialized: " + s.Why
	}
	return fmt.Sprintf("specialized for %s divisible: %d global accesses per thread instead of %d",
		strings.Join(s.Args, ", "), s.Specialized, s.Accesses)
}

// SpecializeDivisibility versions the kernels of m as the
// specialize-divisibility pass does and returns a decision per kernel.
func SpecializeDivisibility(m *ir.Module, divisor int) ([]Specialization, error) {
	var out []Specialization
	_, allocated := m.Op.IntAttr("ttg.shared")
	for _, fn := range m.Body().Ops() {
		if fn.Name() != "tt.func" {
			continue
		}
		if allocated {
			// A new body's conversions would have no allocation.offset.
			out = append(out, Specialization{Func: fn, Why: "the module's shared memory is already allocated (ttg.shared)"})
			continue
		}
		d, err := specializeKernel(m, fn, divisor)
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}

func specializeKernel(m *ir.Module, fn *ir.Operation, divisor int) (Specialization, error) {
	d := Specialization{Func: fn}
	body := entryBlock(fn)
	if body == nil || len(fn.Region(0).Blocks) != 1 {
		d.Why = "the function has no body or several blocks"
		return d, nil
	}
	if why := notKernel(fn); why != "" {
		d.Why = why
		return d, nil
	}
	// The analysis reads the arguments' tt.divisibility.
	facts := axisinfo.Analyze(fn)
	var cands []int
	for i, a := range body.Args() {
		if specializable(a.Type()) && facts.Get(a).Divisibility[0] < int64(divisor) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		d.Why = "every pointer and integer argument has tt.divisibility"
		return d, nil
	}
	base, err := accessCount(fn, facts)
	if err != nil {
		return d, err
	}
	d.Accesses = base
	spec, best, err := specializedClone(m, fn, cands, divisor)
	if err != nil {
		return d, err
	}
	d.Specialized = best
	if best >= base {
		d.Why = fmt.Sprintf("assuming the arguments divisible by %d would not widen an access (%d global accesses per thread)", divisor, base)
		return d, nil
	}
	keep := cands
	for i := 0; i < len(keep); i++ {
		fewer := append(append([]int(nil), keep[:i]...), keep[i+1:]...)
		s, n, err := specializedClone(m, fn, fewer, divisor)
		if err != nil {
			return d, err
		}
		if n <= best {
			keep, spec, best = fewer, s, n
			i--
		}
	}
	d.Specialized = best
	if len(keep) == 0 {
		d.Why = fmt.Sprintf("coalesce alone, assuming nothing, takes the accesses from %d to %d per thread: the layouts are not coalesced", base, best)
		return d, nil
	}
	for _, i := range keep {
		name := body.Arg(i).NameHint
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		d.Args = append(d.Args, "%"+name)
	}
	dispatch(fn, spec, keep, divisor)
	return d, nil
}

// specializable reports whether an argument of type t can be assumed
// divisible: a scalar pointer (to a scalar) or an integer wider than i1.
func specializable(t ir.Type) bool {
	switch x := t.(type) {
	case *ir.PointerType:
		_, block := x.Pointee.(*ir.RankedTensorType)
		return !block
	case *ir.IntegerType:
		return x.Width > 1
	}
	return false
}

// setArgDivisibility gives argument i of fn tt.divisibility = v.
func setArgDivisibility(fn *ir.Operation, i int, v int) {
	n := entryBlock(fn).NumArgs()
	elems := make([]ir.Attribute, n)
	if aa, ok := fn.Attr("arg_attrs").(*ir.ArrayAttr); ok && len(aa.Elems) == n {
		copy(elems, aa.Elems)
	}
	for k := range elems {
		if elems[k] == nil {
			elems[k] = &ir.DictionaryAttr{}
		}
	}
	old := elems[i].(*ir.DictionaryAttr)
	nd := &ir.DictionaryAttr{}
	for _, e := range old.Entries {
		if e.Name != "tt.divisibility" {
			nd.Entries = append(nd.Entries, e)
		}
	}
	nd.Entries = append(nd.Entries, ir.NamedAttr{Name: "tt.divisibility", Value: &ir.IntegerAttr{Value: int64(v), Type: ir.I32}})
	elems[i] = nd
	fn.SetAttr("arg_attrs", &ir.ArrayAttr{Elems: elems})
}

// specializedClone returns a copy of fn whose arguments args are divisible
// by divisor, coalesced and propagated for it, and its access count.
func specializedClone(m *ir.Module, fn *ir.Operation, args []int, divisor int) (*ir.Operation, int, error) {
	// The whole module is cloned, not fn alone: fn's tt.calls must still
	// find their callees when the trial pipeline verifies it.
	trial := m.Clone()
	var clone *ir.Operation
	for _, op := range trial.Body().Ops() {
		if op.Name() == "tt.func" && ir.AttrsEqual(op.Attr("sym_name"), fn.Attr("sym_name")) {
			clone = op
		}
	}
	for _, i := range args {
		setArgDivisibility(clone, i, divisor)
	}
	p := NewPipeline("builtin.module")
	if err := p.AddPass(CoalescePass, ""); err != nil {
		return nil, 0, err
	}
	if err := p.Nest("tt.func").AddPass(RemoveConversionsPass, ""); err != nil {
		return nil, 0, err
	}
	if diags, err := p.Run(trial, RunConfig{}); err != nil {
		return nil, 0, fmt.Errorf("%v\n%v", err, diags)
	}
	n, err := accessCount(clone, axisinfo.Analyze(clone))
	return clone, n, err
}

// accessCount is the number of global access instructions a thread of fn
// issues, each load, store or atomic counted once: its registers over its
// vector width (a is fn's axis analysis).
func accessCount(fn *ir.Operation, a *axisinfo.Analysis) (int, error) {
	n := 0
	var err error
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		ptr := memAccessPtr(op)
		if ptr == nil || op.Name() == "ttg.async_copy_global_to_local" {
			return ir.Advance
		}
		_, enc, shape := tensorInfo(ptr.Type())
		ll, e := attr.Linear(enc, shape)
		if e != nil {
			err = e
			return ir.Interrupt
		}
		n += ll.InDimSize("register") / a.VectorWidth(ptr, nil, &ll)
		return ir.Advance
	})
	return n, err
}

// dispatch rewrites kernel fn's body as scf.if %ok { spec's body } else {
// the body }, where %ok tests that the arguments args are divisible by
// divisor and spec's uses of them see the arguments masked with -divisor.
func dispatch(fn, spec *ir.Operation, args []int, divisor int) {
	body := entryBlock(fn)
	ret := body.Last()
	loc := ret.Loc
	i1 := &ir.IntegerType{Width: 1}
	var pre []*ir.Operation
	emit := func(name string, operands []*ir.Value, t ir.Type, attrs ...ir.NamedAttr) *ir.Value {
		op := ir.NewOperation(name, operands, []ir.Type{t}, attrs, 0)
		op.Loc = loc
		pre = append(pre, op)
		return op.Result(0)
	}
	consts := map[string]*ir.Value{}
	constant := func(v int64, t ir.Type) *ir.Value {
		key := fmt.Sprintf("%d:%s", v, ir.TypeString(t))
		if c, ok := consts[key]; ok {
			return c
		}
		c := emit("arith.constant", nil, t, ir.NamedAttr{Name: "value", Value: &ir.IntegerAttr{Value: v, Type: t}})
		consts[key] = c
		return c
	}
	asInt := func(v *ir.Value) (*ir.Value, ir.Type) {
		if _, ok := v.Type().(*ir.PointerType); ok {
			return emit("tt.ptr_to_int", []*ir.Value{v}, ir.I64), ir.I64
		}
		return v, v.Type()
	}
	var ok *ir.Value
	for _, i := range args {
		x, t := asInt(body.Arg(i))
		low := emit("arith.andi", []*ir.Value{x, constant(int64(divisor-1), t)}, t)
		eq := emit("arith.cmpi", []*ir.Value{low, constant(0, t)}, i1,
			ir.NamedAttr{Name: "predicate", Value: &ir.IntegerAttr{Value: 0, Type: ir.I64}})
		if ok == nil {
			ok = eq
		} else {
			ok = emit("arith.andi", []*ir.Value{ok, eq}, i1)
		}
	}
	ifOp := ir.NewOperation("scf.if", []*ir.Value{ok}, nil, nil, 2)
	ifOp.Loc = loc
	thenB, elseB := ir.NewBlock(), ir.NewBlock()
	ifOp.Region(0).AddBlock(thenB)
	ifOp.Region(1).AddBlock(elseB)

	// The else branch: the body as it was.
	for _, op := range body.Ops() {
		if op == ret {
			break
		}
		op.Remove()
		elseB.Append(op)
	}
	// The then branch: the clone's body, its arguments mapped to the
	// kernel's, the divisible ones masked.
	sb := entryBlock(spec)
	test := pre // the run-time test, before the scf.if
	pre = nil   // from here: the masked arguments, at the top of the then branch
	for i, a := range sb.Args() {
		v := body.Arg(i)
		if slices.Contains(args, i) {
			x, t := asInt(v)
			masked := emit("arith.andi", []*ir.Value{x, constant(int64(-divisor), t)}, t)
			if _, isPtr := v.Type().(*ir.PointerType); isPtr {
				masked = emit("tt.int_to_ptr", []*ir.Value{masked}, v.Type())
			}
			v = masked
		}
		a.ReplaceAllUsesWith(v)
	}
	for _, op := range pre {
		thenB.Append(op)
	}
	for _, op := range sb.Ops() {
		if op == sb.Last() {
			break
		}
		op.Remove()
		thenB.Append(op)
	}
	for _, b := range []*ir.Block{thenB, elseB} {
		y := ir.NewOperation("scf.yield", nil, nil, nil, 0)
		y.Loc = loc
		b.Append(y)
	}
	for _, op := range test {
		body.InsertBefore(ret, op)
	}
	body.InsertBefore(ret, ifOp)
}
