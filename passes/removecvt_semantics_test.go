package passes_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

// The value a program computes does not depend on layouts: a conversion
// is the identity on values, and re-creating an op in another layout
// computes the same values. So remove-redundant-conversions must leave every
// observable operation (stores, loads, dots, returns, loop inputs and
// outputs) computing the same terms, where a term is an op name with its
// attributes applied to the terms of its operands, conversions being
// transparent and layouts ignored.

type terms struct {
	ids   map[string]int        // term text -> id, shared by the modules compared
	memo  map[*ir.Value]int     // value -> term id
	ordOf map[*ir.Operation]int // op -> ordinal among ops of its name
}

func newTerms(ids map[string]int, m *ir.Module) *terms {
	t := &terms{ids: ids, memo: map[*ir.Value]int{}, ordOf: map[*ir.Operation]int{}}
	count := map[string]int{}
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		t.ordOf[op] = count[op.Name()]
		count[op.Name()]++
		return ir.Advance
	})
	return t
}

func (t *terms) intern(s string) int {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := len(t.ids)
	t.ids[s] = id
	return id
}

// forSlot returns the init and yielded values of slot k of a well-formed
// scf.for.
func forSlot(op *ir.Operation, k int) (init, yielded *ir.Value, ok bool) {
	if op == nil || op.Name() != "scf.for" || k < 0 || k >= op.NumResults() || 3+k >= op.NumOperands() || len(op.Regions()) != 1 {
		return nil, nil, false
	}
	b := op.Region(0).Entry()
	if b == nil || b.NumArgs() != op.NumResults()+1 || b.Last() == nil || b.Last().NumOperands() != op.NumResults() {
		return nil, nil, false
	}
	return op.Operand(3 + k), b.Last().Operand(k), true
}

// loopKey names an scf.for by its bounds and step.
func (t *terms) loopKey(op *ir.Operation) string {
	return fmt.Sprintf("for(%d,%d,%d)", t.of(op.Operand(0)), t.of(op.Operand(1)), t.of(op.Operand(2)))
}

func (t *terms) opKey(op *ir.Operation) string {
	return fmt.Sprintf("%s#%d", op.Name(), t.ordOf[op])
}

// attrText formats an op's attributes without the types inside them (dense
// constants carry their tensor type, layout included).
func attrText(op *ir.Operation) string {
	var parts []string
	for _, na := range append(slices.Clone(op.Props), op.Attrs...) {
		v := na.Value
		if d, ok := v.(*ir.DenseElementsAttr); ok {
			var el []string
			for _, e := range d.Elems {
				el = append(el, ir.AttrString(e))
			}
			parts = append(parts, na.Name+"=dense"+strings.Join(el, ",")+d.Hex)
			continue
		}
		parts = append(parts, na.Name+"="+ir.AttrString(v))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func (t *terms) of(v *ir.Value) int {
	if id, ok := t.memo[v]; ok {
		return id
	}
	var s string
	if d := v.DefiningOp(); d == nil {
		owner := v.OwnerBlock().ParentOp()
		if init, y, ok := forSlot(owner, v.ArgIndex()-1); ok && v.OwnerBlock() == owner.Region(0).Entry() {
			// An iteration argument: named by its loop's bounds and its
			// init value, so that dropping other slots of the loop does
			// not rename it; one that is yielded unchanged, or whose init
			// is yielded, is its init value.
			if y == v || y == init {
				id := t.of(init)
				t.memo[v] = id
				return id
			}
			s = fmt.Sprintf("iterarg(%s,%d)", t.loopKey(owner), t.of(init))
		} else {
			s = fmt.Sprintf("arg(%s,%d)", t.opKey(owner), v.ArgIndex())
		}
	} else {
		switch {
		case d.Name() == "ttg.convert_layout",
			// A reinterpretation to its source's own type is the source
			// (MemDescReinterpretOp::fold).
			d.Name() == "ttg.memdesc_reinterpret" && ir.TypesEqual(d.Operand(0).Type(), v.Type()),
			// So is a concatenation of one source of its type.
			d.Name() == "amdg.concat" && d.NumOperands() == 1 && ir.TypesEqual(d.Operand(0).Type(), v.Type()):
			id := t.of(d.Operand(0))
			t.memo[v] = id
			return id
		}
		switch d.Name() {
		case "scf.for":
			// A loop result is its slot's init value and yielded value,
			// or the init value when the slot carries it unchanged.
			init, y, ok := forSlot(d, v.ResultIndex())
			if !ok {
				s = fmt.Sprintf("result(%s,%d)", t.opKey(d), v.ResultIndex())
				break
			}
			if y == init || y == d.Region(0).Entry().Arg(v.ResultIndex()+1) {
				id := t.of(init)
				t.memo[v] = id
				return id
			}
			s = fmt.Sprintf("forres(%s,%d,%d)", t.loopKey(d), t.of(init), t.of(y))
		case "scf.while":
			s = fmt.Sprintf("result(%s,%d)", t.opKey(d), v.ResultIndex())
		case "scf.if":
			s = fmt.Sprintf("if(%d", t.of(d.Operand(0)))
			for _, r := range d.Regions() {
				y := r.Entry().Last()
				s += fmt.Sprintf(",%d", t.of(y.Operand(v.ResultIndex())))
			}
			s += ")"
		default:
			var ops []string
			for _, o := range d.Operands() {
				ops = append(ops, fmt.Sprint(t.of(o)))
			}
			body := ""
			for _, r := range d.Regions() {
				for _, b := range r.Blocks {
					for _, o := range b.Ops() {
						body += o.Name() + ";"
					}
				}
			}
			s = fmt.Sprintf("%s{%s}[%s](%s)#%d", d.Name(), attrText(d), body, strings.Join(ops, ","), v.ResultIndex())
		}
	}
	id := t.intern(s)
	t.memo[v] = id
	return id
}

// observations lists what m computes at every observable op.
func observations(ids map[string]int, m *ir.Module) []string {
	t := newTerms(ids, m)
	threads := int(m.IntAttr("ttg.num-warps", 4) * m.IntAttr("ttg.threads-per-warp", 32))
	var obs []string
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		observe := false
		switch op.Name() {
		case "ttg.local_alloc":
			// An allocation without an initial value computes nothing by
			// itself (DCE erases it when unused); its stores are observed.
			// An immutable one is a pure value until allocated (Triton's
			// LocalAllocOp::getEffects), seen through its uses.
			mt, _ := op.Result(0).Type().(*ir.MemDescType)
			observe = op.NumOperands() > 0 && (mt == nil || mt.Mutable || op.Attr("allocation.offset") != nil)
		case "tt.store", "tt.dot", "tt.return", "tt.atomic_rmw", "tt.atomic_cas", "ttg.local_store":
			// (Loops are seen through their results and the stores in
			// their bodies: a loop whose results are unused and that
			// stores nothing computes nothing.)
			observe = true
		case "scf.yield", "scf.condition":
			// scf.while's values are opaque: observe what it carries.
			observe = op.ParentOp() != nil && op.ParentOp().Name() == "scf.while"
		case "tt.load":
			// An anchor's pointers must keep their computation, but an
			// unused load computes nothing: DCE may erase it.
			observe = isAnchor(op, threads) && op.Result(0).NumUses() > 0
		}
		if !observe {
			return ir.Advance
		}
		var ops []string
		for _, o := range op.Operands() {
			ops = append(ops, fmt.Sprint(t.of(o)))
		}
		obs = append(obs, fmt.Sprintf("%s(%s)", op.Name(), strings.Join(ops, ",")))
		return ir.Advance
	})
	return obs
}

// sameComputation checks that after computes what before computes.
func sameComputation(t *testing.T, name string, before, after *ir.Module) {
	t.Helper()
	ids := map[string]int{}
	b, a := observations(ids, before), observations(ids, after)
	if !slices.Equal(b, a) {
		t.Errorf("%s: the computation changed:\nbefore %v\nafter  %v\n%s", name, b, a, after)
	}
}

// TestRemoveConversionsKeepsMeaning checks the pre/post inputs and every
// lit test input of the pass.
func TestRemoveConversionsKeepsMeaning(t *testing.T) {
	var inputs []string
	var names []string
	if dir, missing := findShared(t, "triton36"); missing == "" {
		fs, _ := filepath.Glob(filepath.Join(dir, "*", "*.ttgir"))
		for _, f := range fs {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inputs, names = append(inputs, string(src)), append(names, filepath.Base(f))
		}
	}
	lits, _ := filepath.Glob(filepath.Join("..", "test", "passes", "remove-conversions-*.mlir"))
	for _, f := range lits {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, chunk := range strings.Split(string(src), "// -----") {
			inputs, names = append(inputs, chunk), append(names, fmt.Sprintf("%s#%d", filepath.Base(f), i))
		}
	}
	if len(inputs) == 0 {
		t.Skip("no inputs")
	}
	for i, src := range inputs {
		before, diags := ir.ParseString(src, ir.ParseConfig{Filename: names[i]})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", names[i], diags)
		}
		after := runPipeline(t, names[i], []byte(src), "builtin.module(remove-redundant-conversions)")
		sameComputation(t, names[i], before, after)
	}
}

// TestObservationsDetectChanges makes sure the comparison above can fail:
// swapping the operands of a subtraction changes what is stored, while
// inserting a conversion does not.
func TestObservationsDetectChanges(t *testing.T) {
	const src = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<256x!tt.ptr<f32>, #blocked>, %a: tensor<256xf32, #blocked>, %b: tensor<256xf32, #blocked>) {
    %0 = arith.subf %a, %b : tensor<256xf32, #blocked>
    tt.store %p, %0 : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}`
	ids := map[string]int{}
	base := observations(ids, ir.MustParse(src))
	swapped := ir.MustParse(strings.Replace(src, "arith.subf %a, %b", "arith.subf %b, %a", 1))
	if slices.Equal(base, observations(ids, swapped)) {
		t.Error("swapped operands not detected")
	}
	converted := ir.MustParse(strings.Replace(src, "tt.store %p, %0",
		"%1 = ttg.convert_layout %0 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>\n"+
			"    %2 = ttg.convert_layout %1 : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked>\n"+
			"    tt.store %p, %2", 1))
	if !slices.Equal(base, observations(ids, converted)) {
		t.Error("conversions changed the observations")
	}
}
