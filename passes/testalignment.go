package passes

import (
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/axisinfo"
	"github.com/layoutopt/layoutopt/ir"
)

// TestPrintAlignmentPass is Triton's -test-print-alignment.
var TestPrintAlignmentPass = &Pass{
	Name:    "test-print-alignment",
	Summary: "Report the axis analysis (contiguity, divisibility, constancy) of every op result as remarks (Triton's test pass)",
	Doc: `Runs the axis analysis (package axisinfo: what coalesce, specialize-divisibility and the
lowering's vector widths rest on) on every tt.func and reports, as Triton's TestAlignment
pass does, one remark per result of every op, nested ops before the op around them:

  contiguity = [C0, ...], divisibility = [D0, ...], constancy = [K0, ...], constant_value = V

per dim of the value (a scalar has one), V being <none> unless every element is known.
"Divisible by anything" (the value 0) is 4611686018427387904 (2^62). The IR is unchanged.
Use it to see why an access is or is not vectorized, with -verify-diagnostics in tests.`,
	Run: runTestPrintAlignment,
}

func init() { MustRegister(TestPrintAlignmentPass) }

func runTestPrintAlignment(ctx *Context, mod *ir.Operation) error {
	mod.Walk(func(fn *ir.Operation) ir.WalkResult {
		if fn.Name() != "tt.func" || entryBlock(fn) == nil {
			return ir.Advance
		}
		a := axisinfo.Analyze(fn)
		for _, op := range entryBlock(fn).Ops() {
			op.WalkPost(func(o *ir.Operation) ir.WalkResult {
				for _, r := range o.Results() {
					ctx.Remarkf(o, "%s", formatAxisInfo(a.Get(r)))
				}
				return ir.Advance
			})
		}
		return ir.Skip
	})
	return nil
}

func formatAxisInfo(i *axisinfo.Info) string {
	list := func(v []int64) string {
		s := make([]string, len(v))
		for k, x := range v {
			s[k] = fmt.Sprint(x)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	c := "<none>"
	if i.Constant != nil {
		c = fmt.Sprint(*i.Constant)
	}
	return fmt.Sprintf("contiguity = %s, divisibility = %s, constancy = %s, constant_value = %s",
		list(i.Contiguity), list(i.Divisibility), list(i.Constancy), c)
}
