package tensorlayout

import (
	"errors"

	"github.com/layoutopt/layoutopt/cute"
	"github.com/layoutopt/layoutopt/lit"
)

// runCuTe prints a CuTe layout given with -l: Mojo's print_layout table.
func runCuTe(p *lit.Proc, text, view string) int {
	l, err := cute.ParseLayout(text)
	if err != nil {
		var pe *cute.ParseError
		if errors.As(err, &pe) {
			return failAt(p, "-l", text, pe.Offset, pe.Msg)
		}
		return fail(p, "%v", err)
	}
	switch view {
	case "", "table":
		if err := cute.PrintTable(p.Stdout, l); err != nil {
			return fail(p, "%v", err)
		}
		return 0
	}
	return fail(p, "-view %s is not available for CuTe layouts (use -view table)", view)
}
