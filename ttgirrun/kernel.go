package ttgirrun

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/internal/suggest"
	"github.com/layoutopt/layoutopt/ir"
)

// kernel is the tt.func to run and its module.
type kernel struct {
	mod    *ir.Module
	fn     *ir.Operation
	name   string
	params []param
}

// param is one parameter of the tt.func.
type param struct {
	index int
	name  string  // its SSA name (x for %x), or argN
	typ   ir.Type // the parameter type
	elem  ir.Type // the pointee of a pointer parameter, the element of a descriptor's, else nil
	// desc is the type of a tensor descriptor parameter (a host-side TMA
	// descriptor: its buffer is a row-major tensor of the spec's shape).
	desc *ir.TensorDescType
}

// findKernel picks the tt.func called name, or the module's only public
// one when name is empty.
func findKernel(m *ir.Module, name string) (*kernel, error) {
	var funcs []tt.FuncOp
	var names []string
	for _, op := range m.Body().Ops() {
		if f, ok := tt.AsFunc(op); ok {
			funcs = append(funcs, f)
			names = append(names, f.SymName())
		}
	}
	var pick *tt.FuncOp
	for i, f := range funcs {
		switch {
		case name != "" && f.SymName() == name:
			pick = &funcs[i]
		case name == "" && f.SymVisibility() != "private":
			if pick != nil {
				return nil, fmt.Errorf("the module has several public tt.funcs (%s): pick one with -func", strings.Join(names, ", "))
			}
			pick = &funcs[i]
		}
	}
	if pick == nil {
		if name != "" {
			return nil, fmt.Errorf("no tt.func @%s in the module%s", name, suggest.Hint(name, names))
		}
		return nil, fmt.Errorf("the module has no public tt.func")
	}
	ft, _ := pick.FunctionType().(*ir.FunctionType)
	body := pick.Body()
	if ft == nil || body == nil || len(body.Blocks) == 0 {
		return nil, fmt.Errorf("@%s has no body or function type", pick.SymName())
	}
	k := &kernel{mod: m, fn: pick.Operation, name: pick.SymName()}
	args := body.Blocks[0].Args()
	for i, t := range ft.Inputs {
		p := param{index: i, name: "arg" + strconv.Itoa(i), typ: t}
		if i < len(args) && args[i].NameHint != "" {
			p.name = args[i].NameHint
		}
		if pt, ok := t.(*ir.PointerType); ok {
			p.elem = pt.Pointee
		} else if dt, ok := t.(*ir.TensorDescType); ok && dt.Block != nil {
			p.elem, p.desc = dt.Block.Elem, dt
		} else if _, ok := t.(*ir.IntegerType); !ok {
			if _, ok := t.(*ir.FloatType); !ok {
				return nil, fmt.Errorf("parameter %%%s of @%s has type %s: only pointers, tensor descriptors, integers and floats can be passed", p.name, k.name, ir.TypeString(t))
			}
		}
		k.params = append(k.params, p)
	}
	return k, nil
}

// lookup finds the parameter a -arg name refers to: its SSA name, or its
// position (0, 1, …).
func (k *kernel) lookup(name string) (*param, error) {
	for i := range k.params {
		if k.params[i].name == name {
			return &k.params[i], nil
		}
	}
	if i, err := strconv.Atoi(name); err == nil && i >= 0 && i < len(k.params) {
		return &k.params[i], nil
	}
	names := make([]string, len(k.params))
	for i, p := range k.params {
		names[i] = p.name
	}
	return nil, fmt.Errorf("@%s has no parameter %q%s (it takes %s)", k.name, name, suggest.Hint(name, names), k.signature())
}

// signature lists the parameters, "x: !tt.ptr<f32>, n: i32".
func (k *kernel) signature() string {
	parts := make([]string, len(k.params))
	for i, p := range k.params {
		parts[i] = p.name + ": " + ir.TypeString(p.typ)
	}
	return strings.Join(parts, ", ")
}

// missing lists the parameters no -arg gave, sorted.
func (k *kernel) missing(given map[int]bool) []string {
	var out []string
	for _, p := range k.params {
		if !given[p.index] {
			out = append(out, p.name)
		}
	}
	sort.Strings(out)
	return out
}
