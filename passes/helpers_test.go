package passes

import (
	"errors"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

// testPasses returns a registry of test-only passes that record what they
// do in *log:
//
//	test-a, test-b   module passes that log their name
//	test-func        a tt.func pass that logs "test-func@SYM"
//	test-opts        options mode (enum fast|slow), n (int), flag (bool), label (string)
//	test-fail        reports an error with ctx.Errorf
//	test-plainerr    returns a plain error
//	test-panic       panics
//	test-warn        reports a warning and a remark, and succeeds
func testPasses(t testing.TB, log *[]string) *Registry {
	t.Helper()
	reg := NewRegistry()
	logger := func(name string) func(*Context, *ir.Operation) error {
		return func(ctx *Context, op *ir.Operation) error {
			*log = append(*log, name)
			return nil
		}
	}
	defs := []*Pass{
		{Name: "test-a", Summary: "log test-a", Aliases: []string{"test-alias-a"}, Run: logger("test-a")},
		{Name: "test-b", Summary: "log test-b", Run: logger("test-b")},
		{Name: "test-func", Summary: "log each function", Anchor: "tt.func", Run: func(ctx *Context, op *ir.Operation) error {
			name := "?"
			if s, ok := op.Attr("sym_name").(*ir.StringAttr); ok {
				name = s.Value
			}
			*log = append(*log, "test-func@"+name)
			return nil
		}},
		{Name: "test-opts", Summary: "log options", Options: []Option{
			{Name: "mode", Doc: "speed", Default: "fast", Values: []string{"fast", "slow"}},
			{Name: "n", Doc: "count", Default: "1", Kind: IntOption},
			{Name: "flag", Doc: "a switch", Default: "false", Kind: BoolOption},
			{Name: "label", Doc: "free text", Default: ""},
		}, Run: func(ctx *Context, op *ir.Operation) error {
			*log = append(*log, "mode="+ctx.Option("mode"), "n="+ctx.Option("n"), "label="+ctx.Option("label"))
			if ctx.BoolOption("flag") {
				*log = append(*log, "flag")
			}
			_ = ctx.IntOption("n")
			return nil
		}},
		{Name: "test-fail", Summary: "fail with a located error", Run: func(ctx *Context, op *ir.Operation) error {
			*log = append(*log, "test-fail")
			return ctx.Errorf(op, "test-fail refuses this module")
		}},
		{Name: "test-plainerr", Summary: "return a plain error", Run: func(ctx *Context, op *ir.Operation) error {
			*log = append(*log, "test-plainerr")
			return errors.New("something broke")
		}},
		{Name: "test-panic", Summary: "panic", Run: func(ctx *Context, op *ir.Operation) error {
			panic("boom")
		}},
		{Name: "test-warn", Summary: "warn and remark", Run: func(ctx *Context, op *ir.Operation) error {
			ctx.Warningf(op, "a warning")
			ctx.Remarkf(op, "a remark")
			*log = append(*log, "test-warn")
			return nil
		}},
	}
	for _, p := range defs {
		if err := reg.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}
