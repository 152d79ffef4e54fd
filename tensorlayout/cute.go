package tensorlayout

import (
	"errors"
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/cute"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/proc"
)

// runCuTe prints a CuTe layout given with -l ("(6,4):(4,1)", Mojo's
// "((6, 4):(4, 1))", or a swizzled "Sw<3,4,3> o (8,64):(64,1)"): Mojo's
// print_layout table (-view table, the default), or its GF(2) linear form
// (-view linear, -view json) when the layout is linear.
func runCuTe(p *proc.Proc, text, view string) int {
	l, err := cute.ParseSwizzledLayout(text)
	if err != nil {
		var pe *cute.ParseError
		if errors.As(err, &pe) {
			return failAt(p, "-l", text, pe.Offset, pe.Msg)
		}
		return fail(p, "%v", err)
	}
	switch view {
	case "", "table", "tensor":
		if err := cute.PrintTable(p.Stdout, l); err != nil {
			return fail(p, "%v", err)
		}
		return 0
	case "svg":
		f, err := cuteFigure(l, defaultLimits)
		if err != nil {
			return fail(p, "%v", err)
		}
		if err := writeFigure(p.Stdout, f); err != nil {
			return fail(p, "%v", err)
		}
		return 0
	case "linear", "json":
		ll, err := l.ToLinear()
		if err != nil {
			return fail(p, "%s has no linear form: %v", text, err)
		}
		if view == "json" {
			var shape []int
			for _, m := range l.Layout.Modes() {
				shape = append(shape, m.Size())
			}
			err = writeJSON(p.Stdout, l.Format(cute.CuTeNotation), shape, ll)
		} else {
			_, err = fmt.Fprintln(p.Stdout, cuteLinearText(ll))
		}
		if err != nil {
			return fail(p, "%v", err)
		}
		return 0
	}
	return fail(p, "-view %s is not available for CuTe layouts (use table, linear, json or svg)", view)
}

// cuteLinearText writes the linear form of a CuTe layout on one line, in
// the #ttg.linear spacing: the bases of each mode, then the offset size,
// e.g. "{mode0 = [[8], [16], [32]], mode1 = [[1], [2], [4]]} -> offset[64]".
func cuteLinearText(ll linear.Layout) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, d := range ll.InDims() {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(d.Name + " = [")
		for j, b := range d.Bases {
			if j > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "[%d]", b[0])
		}
		sb.WriteByte(']')
	}
	sb.WriteByte('}')
	for _, o := range ll.OutDims() {
		fmt.Fprintf(&sb, " -> %s[%d]", o.Name, o.Size)
	}
	return sb.String()
}
