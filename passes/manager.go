package passes

import (
	"errors"
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// RunConfig controls Pipeline.Run. The zero value runs the verifier after
// every pass and installs no instrumentation.
type RunConfig struct {
	// DisableVerify turns off the verifier that otherwise runs after every
	// pass (mlir-opt's -verify-each=false).
	DisableVerify bool
	// BeforePass, when set, is called before a pass runs on an op.
	BeforePass func(e PassEvent)
	// AfterPass, when set, is called after a pass ran on an op (also when it
	// failed; see PassEvent.Failed).
	AfterPass func(e PassEvent)
	// Timing, when set, receives the wall time of every pass and nested
	// pipeline, as a tree under Timing.Root.
	Timing *Timing
	// OnDiagnostic, when set, is called with each diagnostic as it is
	// reported, so that a driver can print diagnostics in order with its
	// instrumentation output. Run still returns them all.
	OnDiagnostic func(d ir.Diagnostic)
}

// PassEvent describes one run of a pass on one op, for instrumentation.
type PassEvent struct {
	Pass   *Pass
	Op     *ir.Operation // the op the pass runs on
	Module *ir.Module
	Failed bool // AfterPass only: the pass failed on Op
	// Verifier is set in the extra AfterPass call made when the pass ran
	// without error on all its ops but left IR that does not verify; Op is
	// then the op the pipeline runs on, and Failed is true.
	Verifier bool
}

// Run runs the pipeline on m, whose top-level op must match p.Anchor. It
// returns every diagnostic reported (by passes and by the verifier), in the
// order reported, and an error when a pass failed or left IR that does not
// verify; the run stops at the first failure, leaving m as that pass left
// it.
//
// Passes run in order. A nested pipeline runs on each op of its anchor kind
// directly nested in the op the enclosing pipeline runs on, in program
// order; so does a pass anchored on another op than its pipeline (implicit
// nesting). Unless cfg.DisableVerify is set, the module is verified after
// each pass has run on all its ops; a pass that breaks it is reported as
// "pass 'NAME' produced IR that does not verify", followed by the
// verifier's diagnostics.
func (p *Pipeline) Run(m *ir.Module, cfg RunConfig) (ir.Diagnostics, error) {
	r := &runner{m: m, cfg: cfg, sink: &diagSink{notify: cfg.OnDiagnostic}}
	root := m.Op
	var timer *Timer
	if cfg.Timing != nil {
		timer = cfg.Timing.Root()
	}
	var err error
	if !anchorMatches(p.Anchor, root) {
		err = fmt.Errorf("pipeline anchored on '%s' cannot run on '%s'", p.Anchor, root.Name())
		r.sink.emit(ir.Diagnostic{Pos: OpPos(root), Severity: ir.Error, Msg: err.Error()})
	} else {
		err = r.pipeline(p, root, timer)
	}
	return r.sink.diags, err
}

// Failure is the error Pipeline.Run returns when a pass fails.
type Failure struct {
	Pass     *Pass
	Verifier bool // the pass ran, but the IR it left does not verify
}

// Error says which pass failed, and whether through the verifier.
func (f *Failure) Error() string {
	if f.Verifier {
		return fmt.Sprintf("pass '%s' produced IR that does not verify", f.Pass.Name)
	}
	return fmt.Sprintf("pass '%s' failed", f.Pass.Name)
}

// implicitNest keys the timer of the implicit pipeline around a pass
// anchored on another op than its pipeline.
type implicitNest struct{ e *Element }

type runner struct {
	m    *ir.Module
	cfg  RunConfig
	sink *diagSink
}

func anchorMatches(anchor string, op *ir.Operation) bool {
	return anchor == AnyOp || anchor == op.Name()
}

// children returns the ops directly nested in op (in all its regions and
// blocks, in order) whose name matches anchor.
func children(op *ir.Operation, anchor string) []*ir.Operation {
	var ops []*ir.Operation
	for _, r := range op.Regions() {
		for _, b := range r.Blocks {
			for c := b.First(); c != nil; c = c.Next() {
				if anchorMatches(anchor, c) {
					ops = append(ops, c)
				}
			}
		}
	}
	return ops
}

// implicitTargets returns the ops of kind anchor (not builtin.module) that
// a pass anchored on anchor reaches by implicit nesting from op: op's
// direct children of that kind and, through every builtin.module nested in
// op, those modules' children of that kind. A chunk with several top-level
// modules parses as one module holding them (TritonGPU/combine.mlir has
// seven in one chunk), and Triton's passes, which are module passes that
// walk every function, change the functions of all of them; a tt.func pass
// given as a flag must too. Explicit nested pipelines
// ("builtin.module(tt.func(...))") still reach only direct children, as in
// MLIR.
func implicitTargets(op *ir.Operation, anchor string) []*ir.Operation {
	var ops []*ir.Operation
	for _, r := range op.Regions() {
		for _, b := range r.Blocks {
			for c := b.First(); c != nil; c = c.Next() {
				switch {
				case anchorMatches(anchor, c):
					ops = append(ops, c)
				case c.Name() == ModuleOp:
					ops = append(ops, implicitTargets(c, anchor)...)
				}
			}
		}
	}
	return ops
}

func (r *runner) pipeline(p *Pipeline, op *ir.Operation, timer *Timer) error {
	for i := range p.Elems {
		e := &p.Elems[i]
		if e.Nested != nil {
			t := timer.childKey(e, "'"+e.Nested.Anchor+"' Pipeline")
			var err error
			t.Time(func() {
				for _, c := range children(op, e.Nested.Anchor) {
					if err = r.pipeline(e.Nested, c, t); err != nil {
						return
					}
				}
			})
			if err != nil {
				return err
			}
			continue
		}
		if err := r.element(e, p.Anchor, op, timer); err != nil {
			return err
		}
	}
	return nil
}

// element runs one pass on op, or, when the pass is anchored on another op
// kind than the pipeline, on each matching child of op; then verifies.
func (r *runner) element(e *Element, anchor string, op *ir.Operation, timer *Timer) error {
	pass := e.Pass
	targets := []*ir.Operation{op}
	var nest *Timer // the implicit pipeline's timer
	if a := pass.AnchorOp(); a != AnyOp && a != anchor && !(anchor == AnyOp && a == op.Name()) {
		// Implicit nesting: run on the children of the anchor kind,
		// including those of nested modules.
		targets = implicitTargets(op, a)
		nest = timer.childKey(implicitNest{e}, "'"+a+"' Pipeline")
		timer = nest
	}
	opts := resolveOptions(pass, e.Options)
	t := timer.childKey(e, pass.DisplayName())
	var err error
	nest.Time(func() {
		for _, target := range targets {
			if err = r.runPass(pass, opts, target, t); err != nil {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	if r.cfg.DisableVerify {
		return nil
	}
	diags := ir.Verify(r.m)
	if diags.HasErrors() {
		if r.cfg.AfterPass != nil {
			r.cfg.AfterPass(PassEvent{Pass: pass, Op: op, Module: r.m, Failed: true, Verifier: true})
		}
		r.sink.emit(ir.Diagnostic{
			Pos:      OpPos(op),
			Severity: ir.Error,
			Msg:      fmt.Sprintf("pass '%s' produced IR that does not verify", pass.Name),
		})
		for _, d := range diags {
			r.sink.emit(d)
		}
		return &Failure{Pass: pass, Verifier: true}
	}
	return nil
}

func (r *runner) runPass(pass *Pass, opts map[string]string, op *ir.Operation, t *Timer) error {
	ev := PassEvent{Pass: pass, Op: op, Module: r.m}
	if r.cfg.BeforePass != nil {
		r.cfg.BeforePass(ev)
	}
	ctx := &Context{Module: r.m, Pass: pass, opts: opts, sink: r.sink}
	errorsBefore := r.sink.errors
	var err error
	t.Time(func() { err = safeRun(pass, ctx, op) })
	if err != nil {
		var rep *reportedError
		if !errors.As(err, &rep) {
			r.sink.emit(ir.Diagnostic{
				Pos:      OpPos(op),
				Severity: ir.Error,
				Msg:      fmt.Sprintf("pass '%s' failed: %v", pass.Name, err),
			})
		}
	}
	failed := err != nil || r.sink.errors > errorsBefore
	if r.cfg.AfterPass != nil {
		ev.Failed = failed
		r.cfg.AfterPass(ev)
	}
	if failed {
		return &Failure{Pass: pass}
	}
	return nil
}

// safeRun runs the pass, turning a panic into an error so that one broken
// pass cannot crash the tool hosting it.
func safeRun(pass *Pass, ctx *Context, op *ir.Operation) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error: panic: %v", v)
		}
	}()
	return pass.Run(ctx, op)
}

// resolveOptions returns every option of pass with its value: given ones,
// defaults for the others.
func resolveOptions(pass *Pass, given []OptionValue) map[string]string {
	opts := make(map[string]string, len(pass.Options))
	for _, o := range pass.Options {
		opts[o.Name] = o.Default
	}
	for _, g := range given {
		opts[g.Name] = g.Value
	}
	return opts
}

// DisplayName returns the pass name in CamelCase, as MLIR's IR dumps and
// timing reports name passes: "remove-redundant-conversions" gives
// "RemoveRedundantConversions".
func (p *Pass) DisplayName() string {
	var b strings.Builder
	up := true
	for i := 0; i < len(p.Name); i++ {
		c := p.Name[i]
		if c == '-' || c == '_' || c == '.' {
			up = true
			continue
		}
		if up && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b.WriteByte(c)
	}
	return b.String()
}
