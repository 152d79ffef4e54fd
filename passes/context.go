package passes

import (
	"fmt"
	"strconv"

	"github.com/layoutopt/layoutopt/ir"
)

// Context is what one run of a pass sees: its options, the module, and a
// place to report diagnostics. The pass manager makes a new Context for each
// op a pass runs on.
type Context struct {
	// Module is the module being transformed (the op passed to Run is the
	// module's top-level op or one nested in it).
	Module *ir.Module
	// Pass is the pass being run.
	Pass *Pass

	opts    map[string]string // every declared option, defaults applied
	sink    *diagSink
	changed bool
}

// diagSink collects the diagnostics of a pipeline run.
type diagSink struct {
	diags  ir.Diagnostics
	errors int
	notify func(ir.Diagnostic) // RunConfig.OnDiagnostic
}

func (s *diagSink) emit(d ir.Diagnostic) {
	if d.Severity == ir.Error {
		s.errors++
	}
	s.diags = append(s.diags, d)
	if s.notify != nil {
		s.notify(d)
	}
}

// Option returns the value of the pass option name, as given in the
// pipeline or its default; the value has already been checked against the
// option's Kind and Values. Asking for an option the pass does not declare
// is a programming error and panics.
func (c *Context) Option(name string) string {
	v, ok := c.opts[name]
	if !ok {
		panic(fmt.Sprintf("passes: pass '%s' has no option '%s'", c.Pass.Name, name))
	}
	return v
}

// IntOption returns the value of an IntOption. It panics if the option is
// not declared or is not an IntOption.
func (c *Context) IntOption(name string) int {
	v, err := strconv.Atoi(c.Option(name))
	if err != nil {
		panic(fmt.Sprintf("passes: option '%s' of pass '%s' is not an int option", name, c.Pass.Name))
	}
	return v
}

// BoolOption returns the value of a BoolOption. It panics if the option is
// not declared or is not a BoolOption.
func (c *Context) BoolOption(name string) bool {
	v, ok := parseBool(c.Option(name))
	if !ok {
		panic(fmt.Sprintf("passes: option '%s' of pass '%s' is not a bool option", name, c.Pass.Name))
	}
	return v
}

// Emit reports a diagnostic. An error diagnostic makes the pass fail, even
// if Run returns nil.
func (c *Context) Emit(d ir.Diagnostic) { c.sink.emit(d) }

// Errorf reports an error located at op and returns an error that Run can
// return as is:
//
//	return ctx.Errorf(op, "cannot convert %s", t)
//
// The manager does not report the returned error a second time.
func (c *Context) Errorf(op *ir.Operation, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	c.Emit(ir.Diagnostic{Pos: OpPos(op), Severity: ir.Error, Msg: msg})
	return &reportedError{msg: msg}
}

// Warningf reports a warning located at op. Warnings do not make the pass
// fail.
func (c *Context) Warningf(op *ir.Operation, format string, args ...any) {
	c.Emit(ir.Diagnostic{Pos: OpPos(op), Severity: ir.Warning, Msg: fmt.Sprintf(format, args...)})
}

// Remarkf reports a remark located at op.
func (c *Context) Remarkf(op *ir.Operation, format string, args ...any) {
	c.Emit(ir.Diagnostic{Pos: OpPos(op), Severity: ir.Remark, Msg: fmt.Sprintf(format, args...)})
}

// MarkChanged records that the pass changed the IR. Passes that iterate to
// a fixed point, and instrumentation, can read it back with Changed. (The
// -mlir-print-ir-after-change flag compares the IR itself, so a pass that
// forgets to call MarkChanged is still printed correctly.)
func (c *Context) MarkChanged() { c.changed = true }

// Changed reports whether MarkChanged was called during this run.
func (c *Context) Changed() bool { return c.changed }

// reportedError is returned by Context.Errorf: the diagnostic has already
// been emitted.
type reportedError struct{ msg string }

func (e *reportedError) Error() string { return e.msg }

// OpPos returns the source position to report a diagnostic about op at: the
// position op was parsed at, or, for an op created by a pass, that of its
// nearest parsed ancestor. It returns the zero Pos for nil.
func OpPos(op *ir.Operation) ir.Pos {
	for o := op; o != nil; o = o.ParentOp() {
		if p := o.Pos(); p.Line > 0 {
			return p
		}
	}
	return ir.Pos{}
}
