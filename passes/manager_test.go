package passes

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/layoutopt/layoutopt/ir"
)

const testModule = `module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%arg0: i32) {
    %c = arith.constant 1 : i32
    %0 = arith.addi %arg0, %c : i32
    tt.return
  }
  tt.func @g() {
    tt.return
  }
}
`

func parseTestModule(t testing.TB) *ir.Module {
	t.Helper()
	m, diags := ir.Parse([]byte(testModule), ir.ParseConfig{Filename: "t.mlir"})
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("verify: %v", d)
	}
	return m
}

func runPipeline(t *testing.T, reg *Registry, text string, cfg RunConfig) (ir.Diagnostics, error) {
	t.Helper()
	pl, err := reg.ParsePipeline(text)
	if err != nil {
		t.Fatal(err)
	}
	return pl.Run(parseTestModule(t), cfg)
}

func TestRunOrderAndNesting(t *testing.T) {
	tests := []struct {
		pipeline string
		want     []string
	}{
		{"builtin.module(test-a,test-b,test-a)", []string{"test-a", "test-b", "test-a"}},
		// An explicit nested pipeline runs on each function in turn.
		{"builtin.module(tt.func(test-func,test-func),test-b)", []string{"test-func@f", "test-func@f", "test-func@g", "test-func@g", "test-b"}},
		// A pass anchored on tt.func in a module pipeline is nested implicitly.
		{"builtin.module(test-a,test-func,test-b)", []string{"test-a", "test-func@f", "test-func@g", "test-b"}},
		// A module pass in an any() pipeline runs on the module.
		{"any(test-a)", []string{"test-a"}},
		// A nested pipeline for an op kind that is absent runs nowhere.
		{"builtin.module(scf.for(test-func),test-b)", []string{"test-b"}},
		{"builtin.module(any(test-func))", []string{"test-func@f", "test-func@g"}},
	}
	for _, tt := range tests {
		var log []string
		reg := testPasses(t, &log)
		diags, err := runPipeline(t, reg, tt.pipeline, RunConfig{})
		if err != nil || len(diags) != 0 {
			t.Errorf("%s: err %v, diags %v", tt.pipeline, err, diags)
		}
		if diff := cmp.Diff(tt.want, log); diff != "" {
			t.Errorf("%s: passes ran (-want +got):\n%s", tt.pipeline, diff)
		}
	}
}

func TestRunOptions(t *testing.T) {
	tests := []struct {
		options string
		want    []string
	}{
		{"", []string{"mode=fast", "n=1", "label="}},
		{"mode=slow n=7 flag label='two words'", []string{"mode=slow", "n=7", "label=two words", "flag"}},
		{"flag=false n=-3", []string{"mode=fast", "n=-3", "label="}},
	}
	for _, tt := range tests {
		var log []string
		reg := testPasses(t, &log)
		pl := NewPipeline(ModuleOp)
		if err := pl.AddPass(reg.Lookup("test-opts"), tt.options); err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Run(parseTestModule(t), RunConfig{}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, log); diff != "" {
			t.Errorf("options %q (-want +got):\n%s", tt.options, diff)
		}
	}
}

func TestRunFailures(t *testing.T) {
	modulePos := ir.Pos{File: "t.mlir", Line: 1, Col: 1}
	tests := []struct {
		pipeline string
		pass     string
		ran      []string
		msg      string
	}{
		{"builtin.module(test-a,test-fail,test-b)", "test-fail", []string{"test-a", "test-fail"}, "test-fail refuses this module"},
		{"builtin.module(test-plainerr,test-b)", "test-plainerr", []string{"test-plainerr"}, "pass 'test-plainerr' failed: something broke"},
		{"builtin.module(test-a,test-panic,test-b)", "test-panic", []string{"test-a"}, "pass 'test-panic' failed: internal error: panic: boom"},
	}
	for _, tt := range tests {
		var log []string
		reg := testPasses(t, &log)
		diags, err := runPipeline(t, reg, tt.pipeline, RunConfig{})
		var f *Failure
		if !errors.As(err, &f) || f.Pass.Name != tt.pass || f.Verifier {
			t.Errorf("%s: error %v, want a failure of %s", tt.pipeline, err, tt.pass)
		}
		want := ir.Diagnostics{{Pos: modulePos, Severity: ir.Error, Msg: tt.msg}}
		if diff := cmp.Diff(want, diags); diff != "" {
			t.Errorf("%s: diagnostics (-want +got):\n%s", tt.pipeline, diff)
		}
		if diff := cmp.Diff(tt.ran, log); diff != "" {
			t.Errorf("%s: passes ran (-want +got):\n%s", tt.pipeline, diff)
		}
	}
}

func TestRunWarningsDoNotFail(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	diags, err := runPipeline(t, reg, "builtin.module(test-warn,test-b)", RunConfig{})
	if err != nil {
		t.Fatal(err)
	}
	pos := ir.Pos{File: "t.mlir", Line: 1, Col: 1}
	want := ir.Diagnostics{
		{Pos: pos, Severity: ir.Warning, Msg: "a warning"},
		{Pos: pos, Severity: ir.Remark, Msg: "a remark"},
	}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"test-warn", "test-b"}, log); diff != "" {
		t.Errorf("passes ran (-want +got):\n%s", diff)
	}
}

func TestRunEmittedErrorFails(t *testing.T) {
	// A pass that emits an error but returns nil still fails.
	reg := NewRegistry()
	reg.Register(&Pass{Name: "emit-only", Run: func(ctx *Context, op *ir.Operation) error {
		ctx.Emit(ir.Diagnostic{Pos: OpPos(op), Severity: ir.Error, Msg: "bad"})
		return nil
	}})
	diags, err := runPipeline(t, reg, "builtin.module(emit-only)", RunConfig{})
	if err == nil || len(diags) != 1 || diags[0].Msg != "bad" {
		t.Errorf("err %v, diags %v; want a failure with one diagnostic", err, diags)
	}
}

func TestRunAnchorMismatch(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	diags, err := runPipeline(t, reg, "tt.func(test-func)", RunConfig{})
	if err == nil || len(diags) != 1 || diags[0].Msg != "pipeline anchored on 'tt.func' cannot run on 'builtin.module'" {
		t.Errorf("err %v, diags %v", err, diags)
	}
	if len(log) != 0 {
		t.Errorf("passes ran: %v", log)
	}
}

// breakIR is a pass that removes the constant feeding arith.addi in @f,
// leaving a use of an undefined value.
var breakIR = &Pass{Name: "test-break", Summary: "break the IR", Run: func(ctx *Context, op *ir.Operation) error {
	var victim *ir.Operation
	op.Walk(func(o *ir.Operation) ir.WalkResult {
		if o.Name() == "arith.constant" {
			victim = o
			return ir.Interrupt
		}
		return ir.Advance
	})
	victim.Remove()
	ctx.MarkChanged()
	return nil
}}

func TestRunVerifierNamesThePass(t *testing.T) {
	reg := NewRegistry()
	reg.Register(breakIR)
	var events []PassEvent
	var streamed ir.Diagnostics
	diags, err := runPipeline(t, reg, "builtin.module(test-break)", RunConfig{
		AfterPass:    func(e PassEvent) { events = append(events, e) },
		OnDiagnostic: func(d ir.Diagnostic) { streamed = append(streamed, d) },
	})
	if len(events) != 2 || events[0].Failed || !events[1].Failed || !events[1].Verifier || events[1].Op.Name() != "builtin.module" {
		t.Errorf("AfterPass events %+v: want a success, then a verifier failure on the module", events)
	}
	if diff := cmp.Diff(diags, streamed); diff != "" {
		t.Errorf("OnDiagnostic saw other diagnostics than Run returned (-returned +streamed):\n%s", diff)
	}
	var f *Failure
	if !errors.As(err, &f) || !f.Verifier || f.Pass != breakIR {
		t.Fatalf("error %v, want a verifier failure of test-break", err)
	}
	if err.Error() != "pass 'test-break' produced IR that does not verify" {
		t.Errorf("Error() = %q", err.Error())
	}
	if len(diags) < 2 || diags[0].Msg != "pass 'test-break' produced IR that does not verify" || diags[0].Severity != ir.Error {
		t.Fatalf("diagnostics %v: want the pass named first, then the verifier's", diags)
	}
	if !ir.Diagnostics(diags[1:]).HasErrors() {
		t.Errorf("no verifier error after the pass error: %v", diags)
	}

	// With the verifier off, the same pipeline succeeds.
	diags, err = runPipeline(t, reg, "builtin.module(test-break)", RunConfig{DisableVerify: true})
	if err != nil || len(diags) != 0 {
		t.Errorf("DisableVerify: err %v, diags %v", err, diags)
	}
}

func TestRunHooks(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	var events []string
	record := func(when string) func(PassEvent) {
		return func(e PassEvent) {
			s := when + " " + e.Pass.Name + " on " + e.Op.Name()
			if e.Failed {
				s += " failed"
			}
			if e.Module == nil {
				s += " without module"
			}
			events = append(events, s)
		}
	}
	_, err := runPipeline(t, reg, "builtin.module(test-a,tt.func(test-func),test-fail)", RunConfig{
		BeforePass: record("before"),
		AfterPass:  record("after"),
	})
	if err == nil {
		t.Fatal("test-fail did not fail")
	}
	want := []string{
		"before test-a on builtin.module", "after test-a on builtin.module",
		"before test-func on tt.func", "after test-func on tt.func",
		"before test-func on tt.func", "after test-func on tt.func",
		"before test-fail on builtin.module", "after test-fail on builtin.module failed",
	}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestRunTiming(t *testing.T) {
	var log []string
	reg := testPasses(t, &log)
	timing := NewTiming()
	if _, err := runPipeline(t, reg, "builtin.module(test-a,tt.func(test-func),test-func,test-a)", RunConfig{Timing: timing}); err != nil {
		t.Fatal(err)
	}
	var tree []string
	var walk func(*Timer, string)
	walk = func(x *Timer, indent string) {
		tree = append(tree, indent+x.Name)
		for _, c := range x.Children {
			walk(c, indent+"  ")
		}
	}
	for _, c := range timing.Root().Children {
		walk(c, "")
	}
	want := []string{"TestA", "'tt.func' Pipeline", "  TestFunc", "'tt.func' Pipeline", "  TestFunc", "TestA"}
	if diff := cmp.Diff(want, tree); diff != "" {
		t.Errorf("timer tree (-want +got):\n%s", diff)
	}
	// A pipeline's time covers its passes'.
	for _, c := range timing.Root().Children {
		for _, cc := range c.Children {
			if c.Wall < cc.Wall {
				t.Errorf("%s took %v, less than its %s (%v)", c.Name, c.Wall, cc.Name, cc.Wall)
			}
		}
		if strings.HasSuffix(c.Name, "Pipeline") && c.Wall == 0 {
			t.Errorf("%s has no time", c.Name)
		}
	}
	for _, mode := range []DisplayMode{DisplayTree, DisplayList} {
		var b bytes.Buffer
		if err := timing.Report(&b, mode); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, s := range []string{"... Execution time report ...", "Total Execution Time:", "----Wall Time----  ----Name----", "TestFunc\n", "Rest\n", "Total\n"} {
			if !strings.Contains(out, s) {
				t.Errorf("mode %d: report lacks %q:\n%s", mode, s, out)
			}
		}
		if mode == DisplayTree && (!strings.Contains(out, "%)  'tt.func' Pipeline\n") || !strings.Contains(out, "%)    TestFunc\n")) {
			t.Errorf("tree report does not indent nested passes:\n%s", out)
		}
		if mode == DisplayList && strings.Count(out, "TestA\n") != 1 {
			t.Errorf("list report does not merge timers by name:\n%s", out)
		}
	}
}

func TestContextChangedAndOpPos(t *testing.T) {
	m := parseTestModule(t)
	reg := NewRegistry()
	var changed []bool
	var pos ir.Pos
	reg.Register(&Pass{Name: "touch", Anchor: "tt.func", Run: func(ctx *Context, fn *ir.Operation) error {
		changed = append(changed, ctx.Changed())
		ctx.MarkChanged()
		changed = append(changed, ctx.Changed())
		// A new op has no position; diagnostics about it use its parent's.
		op := ir.NewOperation("test.new", nil, nil, nil, 0)
		fn.Region(0).Entry().InsertBefore(fn.Region(0).Entry().First(), op)
		pos = OpPos(op)
		op.Remove()
		return nil
	}})
	pl, _ := reg.ParsePipeline("builtin.module(touch)")
	if _, err := pl.Run(m, RunConfig{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{false, true, false, true}, changed); diff != "" {
		t.Errorf("Changed() (-want +got):\n%s", diff)
	}
	if want := (ir.Pos{File: "t.mlir", Line: 7, Col: 3}); pos != want {
		t.Errorf("OpPos of a new op in @g = %v, want %v (the function's)", pos, want)
	}
	if p := OpPos(nil); p.IsValid() {
		t.Errorf("OpPos(nil) = %v", p)
	}
}

func TestContextOptionPanicsOnUndeclared(t *testing.T) {
	reg := NewRegistry()
	reg.Register(&Pass{Name: "asks", Run: func(ctx *Context, op *ir.Operation) error {
		ctx.Option("undeclared")
		return nil
	}})
	diags, err := runPipeline(t, reg, "builtin.module(asks)", RunConfig{})
	if err == nil || len(diags) != 1 || !strings.Contains(diags[0].Msg, "pass 'asks' has no option 'undeclared'") {
		t.Errorf("err %v, diags %v", err, diags)
	}
}

func BenchmarkRunPipeline(b *testing.B) {
	var log []string
	reg := testPasses(b, &log)
	pl, err := reg.ParsePipeline("builtin.module(test-a,tt.func(test-func),test-opts{mode=slow})")
	if err != nil {
		b.Fatal(err)
	}
	m := parseTestModule(b)
	b.ReportAllocs()
	for b.Loop() {
		log = log[:0]
		if _, err := pl.Run(m, RunConfig{}); err != nil {
			b.Fatal(err)
		}
	}
}
