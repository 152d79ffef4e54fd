// Package testpasses defines small passes that exercise the driver in
// tests: they report diagnostics, change the IR, break it or fail, so that
// every driver path can be checked without depending on the behaviour of
// the real layout passes.
package testpasses

import (
	"errors"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// Passes returns fresh definitions of the test passes:
//
//	test-remark      (tt.func) a remark "function @NAME" on each function
//	test-mark        sets the unit attribute test.marked on the module (changes the IR)
//	test-noop        does nothing
//	test-break       removes the first arith.constant, leaving its uses dangling
//	test-fail        an error "test-fail: refusing op 'NAME'" on the first op of the module body
//	test-plainerr    returns a plain Go error
//	test-opts        options mode (fast|slow, default fast) and n (int, default 1); a remark "mode=M n=N"
//	test-warn        a warning "test warning" on the module
//
// test-mark has the alias test-mark-alias.
func Passes() []*passes.Pass {
	return []*passes.Pass{
		{Name: "test-remark", Summary: "Remark on each function", Anchor: "tt.func",
			Run: func(ctx *passes.Context, fn *ir.Operation) error {
				name := "?"
				if s, ok := fn.Attr("sym_name").(*ir.StringAttr); ok {
					name = s.Value
				}
				ctx.Remarkf(fn, "function @%s", name)
				return nil
			}},
		{Name: "test-mark", Summary: "Set test.marked on the module", Aliases: []string{"test-mark-alias"},
			Run: func(ctx *passes.Context, op *ir.Operation) error {
				op.SetAttr("test.marked", &ir.UnitAttr{})
				ctx.MarkChanged()
				return nil
			}},
		{Name: "test-noop", Summary: "Do nothing",
			Run: func(ctx *passes.Context, op *ir.Operation) error { return nil }},
		{Name: "test-break", Summary: "Remove the first arith.constant, breaking the IR",
			Run: func(ctx *passes.Context, op *ir.Operation) error {
				op.Walk(func(o *ir.Operation) ir.WalkResult {
					if o.Name() == "arith.constant" {
						o.Remove()
						return ir.Interrupt
					}
					return ir.Advance
				})
				return nil
			}},
		{Name: "test-fail", Summary: "Fail with an error on the first op",
			Run: func(ctx *passes.Context, op *ir.Operation) error {
				first := op
				if b := op.Region(0).Entry(); b != nil && b.First() != nil {
					first = b.First()
				}
				return ctx.Errorf(first, "test-fail: refusing op '%s'", first.Name())
			}},
		{Name: "test-plainerr", Summary: "Fail with a plain error",
			Run: func(ctx *passes.Context, op *ir.Operation) error {
				return errors.New("plain failure")
			}},
		{Name: "test-opts", Summary: "Remark on its options", Options: []passes.Option{
			{Name: "mode", Doc: "how fast", Default: "fast", Values: []string{"fast", "slow"}},
			{Name: "n", Doc: "how many", Default: "1", Kind: passes.IntOption},
		}, Run: func(ctx *passes.Context, op *ir.Operation) error {
			ctx.Remarkf(op, "mode=%s n=%d", ctx.Option("mode"), ctx.IntOption("n"))
			return nil
		}},
		{Name: "test-warn", Summary: "Warn on the module",
			Run: func(ctx *passes.Context, op *ir.Operation) error {
				ctx.Warningf(op, "test warning")
				return nil
			}},
	}
}

// Register adds the test passes to reg.
func Register(reg *passes.Registry) error {
	for _, p := range Passes() {
		if err := reg.Register(p); err != nil {
			return err
		}
	}
	return nil
}
