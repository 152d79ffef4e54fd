package linear

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// algebraCase is one entry of the "algebra" list of triton_linear_layout.json:
// an assertion from Triton's LinearLayoutTest.cpp as an expression tree.
type algebraCase struct {
	Name     string `json:"name"`
	Case     int    `json:"case"`
	Check    string `json:"check"`
	Computed any    `json:"computed"`
	Expected any    `json:"expected"`
	LHS      any    `json:"lhs"`
	RHS      any    `json:"rhs"`
}

// optional is the result of an operation Triton returns as std::optional.
type optional struct {
	l  Layout
	ok bool
}

func TestTritonAlgebraVectors(t *testing.T) {
	data, err := os.ReadFile(testenv.Shared(t, "vectors/triton_linear_layout.json"))
	if os.IsNotExist(err) {
		t.Skip("vectors not available:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Algebra []algebraCase `json:"algebra"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Algebra) == 0 {
		t.Fatal("no algebra vectors")
	}
	for _, c := range file.Algebra {
		t.Run(fmt.Sprintf("%s/%d", c.Name, c.Case), func(t *testing.T) {
			var got, want any
			var err error
			switch {
			case c.LHS != nil:
				if got, err = eval(c.LHS); err == nil {
					want, err = eval(c.RHS)
				}
			default:
				got, err = eval(c.Computed)
				want = c.Expected
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []any{got, want} {
				switch v := v.(type) {
				case Layout:
					checkInvariants(t, v)
				case optional:
					checkInvariants(t, v.l)
				}
			}
			g, w := normalize(t, got), normalize(t, want)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("got  %s\nwant %s", jsonString(g), jsonString(w))
			}
		})
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// normalize turns an evaluation result into the vectors' JSON form, decoded
// generically, so that it compares with reflect.DeepEqual.
func normalize(t *testing.T, v any) any {
	t.Helper()
	var j any
	switch v := v.(type) {
	case Layout:
		j = layoutJSON(v)
	case optional:
		if !v.ok {
			t.Fatal("the optional result is empty")
		}
		j = layoutJSON(v.l)
	default:
		j = v
	}
	var r any
	if err := json.Unmarshal([]byte(jsonString(j)), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func layoutJSON(l Layout) map[string]any {
	bases := []any{}
	for _, d := range l.InDims() {
		bs := d.Bases
		if bs == nil {
			bs = [][]int{}
		}
		bases = append(bases, []any{d.Name, bs})
	}
	outs := []any{}
	for _, o := range l.OutDims() {
		outs = append(outs, []any{o.Name, o.Size})
	}
	return map[string]any{"bases": bases, "out_dims": outs}
}

// isNode reports whether a JSON value is an expression node.
func isNode(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"literal", "ctor", "op", "ColumnAction"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func literal(v any) (Layout, error) {
	m := v.(map[string]any)
	var ins []InDim
	for _, e := range m["bases"].([]any) {
		p := e.([]any)
		var bases [][]int
		for _, b := range p[1].([]any) {
			bases = append(bases, ints(b))
		}
		ins = append(ins, InDim{p[0].(string), bases})
	}
	var outs []OutDim
	for _, e := range m["out_dims"].([]any) {
		p := e.([]any)
		outs = append(outs, OutDim{p[0].(string), int(p[1].(float64))})
	}
	return New(ins, outs, false)
}

func ints(v any) []int {
	r := []int{}
	for _, x := range v.([]any) {
		r = append(r, int(x.(float64)))
	}
	return r
}

func strs(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	if s, ok := v.([]string); ok {
		return s
	}
	r := []string{}
	for _, x := range v.([]any) {
		r = append(r, x.(string))
	}
	return r
}

func asLayout(v any) (Layout, error) {
	switch v := v.(type) {
	case Layout:
		return v, nil
	case optional:
		if !v.ok {
			return Layout{}, fmt.Errorf("dereferencing an empty optional")
		}
		return v.l, nil
	}
	return Layout{}, fmt.Errorf("%T is not a layout", v)
}

// eval evaluates an expression node with this package.
func eval(n any) (any, error) {
	if !isNode(n) {
		return n, nil
	}
	m := n.(map[string]any)
	if lit, ok := m["literal"]; ok {
		return literal(lit)
	}
	if ca, ok := m["ColumnAction"]; ok {
		c := ca.(map[string]any)
		return NewColumnAction(ints(c["action"]), c["inDim"].(string), int(c["inSizeLog2"].(float64)))
	}
	if ctor, ok := m["ctor"]; ok {
		args := m["args"].([]any)
		num := func(i int) int { return int(args[i].(float64)) }
		switch ctor {
		case "empty":
			return Empty(), nil
		case "identity1D":
			return Identity1D(num(0), args[1].(string), args[2].(string))
		case "zeros1D":
			outSize := 1
			if len(args) > 3 {
				outSize = num(3)
			}
			return Zeros1D(num(0), args[1].(string), args[2].(string), outSize)
		case "strided1D":
			return Strided1D(num(0), num(1), args[2].(string), args[3].(string))
		}
		return nil, fmt.Errorf("unknown constructor %v", ctor)
	}
	op := m["op"].(string)
	var self any
	if s, ok := m["self"]; ok {
		var err error
		if self, err = eval(s); err != nil {
			return nil, err
		}
	}
	var args []any
	if a, ok := m["args"].([]any); ok {
		for _, x := range a {
			v, err := eval(x)
			if err != nil {
				return nil, err
			}
			args = append(args, v)
		}
	}
	layoutArg := func(i int) (Layout, error) { return asLayout(args[i]) }
	if op == "has_value" {
		o, ok := self.(optional)
		if !ok {
			return nil, fmt.Errorf("has_value on %T", self)
		}
		return o.ok, nil
	}
	if op == "empty" {
		return len(strs(self)) == 0, nil
	}
	if op == "supremum" {
		return Supremum(strs(args[0]), strs(args[1]))
	}
	if op == "divideLeft" || op == "divideRight" || op == "invertAndComposeBlockLocal" {
		a, err := layoutArg(0)
		if err != nil {
			return nil, err
		}
		b, err := layoutArg(1)
		if err != nil {
			return nil, err
		}
		switch op {
		case "divideLeft":
			c, ok := DivideLeft(a, b)
			return optional{c, ok}, nil
		case "divideRight":
			c, ok := DivideRight(a, b)
			return optional{c, ok}, nil
		}
		return InvertAndComposeBlockLocal(a, b)
	}
	if ca, ok := self.(ColumnAction); ok {
		switch op {
		case "ColumnAction.apply":
			l, err := layoutArg(0)
			if err != nil {
				return nil, err
			}
			return ca.Apply(l)
		case "ColumnAction.applyValues":
			return ApplyValues(ca, ints(args[0]))
		}
		return nil, fmt.Errorf("unknown ColumnAction op %q", op)
	}
	l, err := asLayout(self)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	switch op {
	case "getBases":
		var r []any
		for _, d := range l.InDims() {
			r = append(r, []any{d.Name, d.Bases})
		}
		if r == nil {
			r = []any{}
		}
		return r, nil
	case "getInDimNames":
		return l.InDimNames(), nil
	case "getOutDimNames":
		return l.OutDimNames(), nil
	case "getInDimSizeLog2":
		return l.InDimSizeLog2(args[0].(string)), nil
	case "getOutDimSizeLog2":
		return l.OutDimSizeLog2(args[0].(string)), nil
	case "getTotalOutDimSize":
		return l.TotalOutDimSize(), nil
	case "isSurjective":
		return l.IsSurjective(), nil
	case "getNumConsecutiveInOut":
		return l.NumConsecutiveInOut(), nil
	case "getFreeVariableMasks":
		r := []any{}
		for i, mk := range l.FreeVariableMasks() {
			r = append(r, []any{l.InDimNames()[i], mk})
		}
		return r, nil
	case "isIdentityOnOutDim":
		return l.IsIdentityOnOutDim(args[0].(string)), nil
	case "isTrivialOver":
		return l.IsTrivialOver(strs(args[0])), nil
	case "quotient":
		q, ok := l.Quotient(strs(args[0]))
		return optional{q, ok}, nil
	case "sublayoutIsZero":
		return l.SublayoutIsZero(strs(args[0]), strs(args[1]))
	case "sublayout":
		return l.Sublayout(strs(args[0]), strs(args[1]))
	case "transposeIns":
		return l.TransposeIns(strs(args[0]))
	case "transposeOuts":
		return l.TransposeOuts(strs(args[0]))
	case "reshapeIns", "reshapeOuts":
		var ds []Dim
		for _, e := range args[0].([]any) {
			p := e.([]any)
			size := p[1]
			if s, ok := size.([]any); ok {
				size = s[0]
			}
			ds = append(ds, Dim{p[0].(string), int(size.(float64))})
		}
		if op == "reshapeIns" {
			return l.ReshapeIns(ds)
		}
		return l.ReshapeOuts(ds)
	case "flattenIns":
		return l.FlattenIns(), nil
	case "flattenOuts":
		return l.FlattenOuts(), nil
	case "apply":
		var ins []Coord
		for _, e := range args[0].([]any) {
			p := e.([]any)
			ins = append(ins, Coord{p[0].(string), int(p[1].(float64))})
		}
		out, err := l.ApplyNamed(ins)
		if err != nil {
			return nil, err
		}
		r := []any{}
		for _, c := range out {
			r = append(r, []any{c.Name, c.Value})
		}
		return r, nil
	}
	o, err := layoutArg(0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	switch op {
	case "mul":
		return Mul(l, o)
	case "compose":
		return l.Compose(o)
	case "invertAndCompose":
		return l.InvertAndCompose(o)
	case "operator!=":
		return !l.Equal(o), nil
	case "operator==":
		return l.Equal(o), nil
	}
	return nil, fmt.Errorf("unknown op %q", op)
}
