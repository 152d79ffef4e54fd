package optdriver

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/layoutopt/layoutopt/internal/suggest"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

// Version is the version layout-opt reports with -version.
const Version = "0.1.0"

// Tool is an mlir-opt-style driver over a pass registry. The zero Tool is
// layout-opt over passes.Default(); another Go program can host its own
// tool, with its own passes registered, the same way.
type Tool struct {
	Name     string           // program name for messages and -help; "layout-opt" when empty
	Version  string           // reported by -version; Version when empty
	Overview string           // first line of -help
	Registry *passes.Registry // passes available as flags and in pipelines; passes.Default() when nil

	// BatchGC tunes the garbage collector for a process that runs Main
	// once (the layout-opt command sets it; a process running many tools
	// in-process must not): the IR read is nearly all live until the
	// end, so collecting at the default GOGC=100 marks a growing heap
	// again and again for little garbage. Main then sets GOGC=400 and a
	// soft memory limit of 10 times the input's size plus 128 MiB (a
	// backstop for passes that make much garbage). A GOGC or GOMEMLIMIT
	// in the environment is respected: that setting is left alone.
	BatchGC bool
	// MapInput maps an input file of at least 1 MiB into memory instead
	// of reading it (the layout-opt command sets it): no copy, and the
	// kernel maps the file's cached pages instead of faulting in fresh
	// ones. The mapping stays until the process exits, so only a process
	// that runs Main once should set it.
	MapInput bool
}

// mapInputMin is the smallest input MapInput maps.
const mapInputMin = 1 << 20

// Main runs layout-opt with the process environment p and returns the exit
// status: 0 on success, 1 on any error.
func Main(p *proc.Proc) int { return (&Tool{}).Main(p) }

func (t *Tool) name() string {
	if t.Name == "" {
		return "layout-opt"
	}
	return t.Name
}

func (t *Tool) version() string {
	if t.Version == "" {
		return Version
	}
	return t.Version
}

func (t *Tool) registry() *passes.Registry {
	if t.Registry == nil {
		return passes.Default()
	}
	return t.Registry
}

// errorf prints "NAME: error: MSG".
func (t *Tool) errorf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "%s: error: %s\n", t.name(), fmt.Sprintf(format, args...))
}

// Main runs the tool with the process environment p and returns the exit
// status: 0 on success, 1 on any error (with -verify-diagnostics: 1 when
// the diagnostics do not match the expectations).
func (t *Tool) Main(p *proc.Proc) (status int) {
	// A bug must not take down a process that runs many tools in-process
	// (the lit runner): report it as an error instead.
	defer func() {
		if v := recover(); v != nil {
			t.errorf(p.Stderr, "internal error: %v (please report this bug)", v)
			status = 1
		}
	}()
	if t.BatchGC && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(batchGCPercent)
	}
	reg := t.registry()
	c, fs, passFlags, err := t.parseArgs(p.Args, reg)
	if err != nil {
		t.errorf(p.Stderr, "%v", err)
		return 1
	}
	switch {
	case c.help:
		t.usage(p.Stdout, fs, passFlags, reg)
		return 0
	case c.version:
		fmt.Fprintf(p.Stdout, "%s version %s (%s)\n", t.name(), t.version(), runtime.Version())
		return 0
	case c.listPasses:
		listPasses(p.Stdout, reg)
		return 0
	case c.showDialects:
		fmt.Fprintf(p.Stdout, "Available Dialects: %s\n", strings.Join(dialects(), ", "))
		return 0
	}
	pl, err := t.pipeline(c, reg, p.Stderr)
	if err != nil {
		return 1
	}
	if c.dumpPipeline {
		fmt.Fprintln(p.Stderr, pl)
	}
	r := &run{cfg: c, proc: p, pipeline: pl}
	if r.printBefore, err = resolvePasses(reg, c.printBefore.names); err == nil {
		r.printAfter, err = resolvePasses(reg, c.printAfter.names)
	}
	if err != nil {
		t.errorf(p.Stderr, "%v", err)
		return 1
	}
	if c.timing {
		r.timing = passes.NewTiming()
	}
	name, text, err := readInput(p, c.input, t.MapInput)
	if err != nil {
		t.errorf(p.Stderr, "%v", err)
		return 1
	}
	if t.BatchGC && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(batchMemLimit(len(text)))
	}
	var stream *streamedOutput
	if c.output != "-" {
		if stream = streamOutput(p.Path(c.output)); stream != nil {
			defer stream.abort() // a panic must not leave the temporary file
		}
	}
	var buf bytes.Buffer
	var out io.Writer = &buf
	if stream != nil {
		out = stream
	} else {
		// The output is usually about the input's size (a little more
		// when the generic form is printed from the custom one): one
		// allocation instead of a doubling series.
		buf.Grow(len(text) + len(text)/8)
	}
	ok := r.process(name, text, out)
	if r.timing != nil {
		mode := passes.DisplayTree
		if c.timingDisplay == "list" {
			mode = passes.DisplayList
		}
		r.timing.Report(p.Stderr, mode)
	}
	switch {
	case c.output == "-":
		if _, err := p.Stdout.Write(buf.Bytes()); err != nil {
			t.errorf(p.Stderr, "writing output: %v", err)
			return 1
		}
	case stream != nil && ok:
		if err := stream.commit(); err != nil {
			t.errorf(p.Stderr, "cannot write output file '%s': %v", c.output, unwrapPath(err))
			return 1
		}
	case stream != nil:
		stream.abort()
	case ok:
		if err := proc.WriteFileAtomic(p.Path(c.output), buf.Bytes()); err != nil {
			t.errorf(p.Stderr, "cannot write output file '%s': %v", c.output, unwrapPath(err))
			return 1
		}
	}
	if !ok {
		return 1
	}
	return 0
}

// batchGCPercent is the GOGC that BatchGC sets.
const batchGCPercent = 400

// batchMemLimit is the soft memory limit that BatchGC sets for an input of
// n bytes.
func batchMemLimit(n int) int64 { return 10*int64(n) + 128<<20 }

// pipeline builds the pipeline of -pass-pipeline or of the pass flags, in
// command-line order. Errors are printed to stderr.
func (t *Tool) pipeline(c *config, reg *passes.Registry, stderr io.Writer) (*passes.Pipeline, error) {
	if c.pipeline.set {
		if len(c.passUses) > 0 {
			err := fmt.Errorf("'-pass-pipeline' option can't be used with individual pass options")
			t.errorf(stderr, "%v", err)
			return nil, err
		}
		pl, err := reg.ParsePipeline(c.pipeline.value)
		if err != nil {
			if pe, ok := err.(*passes.PipelineError); ok {
				fmt.Fprintf(stderr, "%s\n%s\n", pe.Error(), pe.Snippet())
				t.errorf(stderr, "invalid pass pipeline")
			} else {
				t.errorf(stderr, "%v", err)
			}
			return nil, err
		}
		return pl, nil
	}
	pl := passes.NewPipeline(passes.ModuleOp)
	for _, u := range c.passUses {
		if err := pl.AddPass(u.pass, u.options); err != nil {
			msg := err.Error()
			if pe, ok := err.(*passes.PipelineError); ok {
				msg = pe.Msg
			}
			t.errorf(stderr, "invalid options for -%s=%q: %s", u.flag, u.options, msg)
			return nil, err
		}
	}
	return pl, nil
}

// resolvePasses looks up pass names (or aliases) given to
// -mlir-print-ir-before/after.
func resolvePasses(reg *passes.Registry, names []string) (map[*passes.Pass]bool, error) {
	set := map[*passes.Pass]bool{}
	for _, n := range names {
		p := reg.Lookup(n)
		if p == nil {
			return nil, fmt.Errorf("'%s' does not refer to a registered pass%s", n, suggest.Hint(n, reg.Names()))
		}
		set[p] = true
	}
	return set, nil
}

// readInput reads the input file, or standard input for "-", straight into
// a string (the parser works on strings, so the source is never copied). It
// returns the name diagnostics use for it. With mapLarge, a regular file
// of at least mapInputMin bytes is mapped instead (see Tool.MapInput).
func readInput(p *proc.Proc, input string, mapLarge bool) (string, string, error) {
	var b strings.Builder
	if input == "-" {
		if _, err := io.Copy(&b, p.Stdin); err != nil {
			return "", "", fmt.Errorf("cannot read standard input: %v", err)
		}
		return "<stdin>", b.String(), nil
	}
	f, err := os.Open(p.Path(input))
	if err == nil {
		defer f.Close()
		if fi, serr := f.Stat(); serr == nil && fi.Mode().IsRegular() {
			if mapLarge && fi.Size() >= mapInputMin {
				if s, ok := mapFile(f, fi.Size()); ok {
					return input, s, nil
				}
			}
			b.Grow(int(fi.Size()))
		}
		_, err = io.Copy(&b, f)
	}
	if err != nil {
		return "", "", fmt.Errorf("cannot open input file '%s': %v", input, unwrapPath(err))
	}
	return input, b.String(), nil
}

// unwrapPath strips the operation and path from an *os.PathError or
// *os.LinkError, whose message the caller words itself.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

// run is one execution of the tool over an input.
type run struct {
	cfg         *config
	proc        *proc.Proc
	pipeline    *passes.Pipeline
	printBefore map[*passes.Pass]bool
	printAfter  map[*passes.Pass]bool
	timing      *passes.Timing

	src *source
}

// process splits the input as asked, processes each chunk, writes the
// joined output to out and returns whether everything succeeded.
func (r *run) process(file, text string, out io.Writer) bool {
	r.src = newSource(file, text)
	chunks, warns := splitInput(text, r.cfg.split.marker, file)
	for _, w := range warns {
		r.src.print(r.proc.Stderr, report{Diagnostic: w})
	}
	ok := true
	for i, ch := range chunks {
		if i > 0 {
			io.WriteString(out, "\n"+r.cfg.outputSplitMarker+"\n")
		}
		if !r.chunk(ch, out) {
			ok = false
		}
	}
	return ok
}

// chunk parses, verifies, transforms and prints one chunk. With
// -verify-diagnostics, the result is whether the diagnostics matched the
// chunk's expectations; otherwise whether every step succeeded.
func (r *run) chunk(ch chunk, out io.Writer) bool {
	var verifier *diagVerifier
	var emit func(ir.Diagnostic)
	if mode := r.cfg.verifyDiags.mode; mode != "" {
		exps, errs := parseExpectations(r.src.text, ch, r.src.file)
		for _, e := range errs {
			r.src.print(r.proc.Stderr, report{Diagnostic: e})
		}
		if len(errs) > 0 {
			return false
		}
		verifier = &diagVerifier{file: r.src.file, exps: exps, onlyExpected: mode == "only-expected"}
		emit = verifier.process
	} else {
		emit = func(d ir.Diagnostic) { r.src.print(r.proc.Stderr, report{Diagnostic: d}) }
	}
	ok := r.transform(ch, out, emit)
	if verifier == nil {
		return ok
	}
	verifier.finish()
	for _, f := range verifier.failures {
		r.src.print(r.proc.Stderr, f)
	}
	return len(verifier.failures) == 0
}

// transform runs parse, verify, pipeline and print on a chunk, sending
// every diagnostic to emit.
func (r *run) transform(ch chunk, out io.Writer, emit func(ir.Diagnostic)) bool {
	var root *passes.Timer
	if r.timing != nil {
		root = r.timing.Root()
	}
	var m *ir.Module
	var diags ir.Diagnostics
	root.Child("Parser").Time(func() {
		m, diags = ir.ParseString(ch.text, ir.ParseConfig{
			Filename:          r.src.file,
			AllowUnregistered: r.cfg.allowUnregistered,
			StartLine:         ch.startLine,
		})
		if !diags.HasErrors() {
			diags = append(diags, ir.Verify(m)...)
		}
	})
	for _, d := range diags {
		emit(d)
	}
	if m == nil || diags.HasErrors() {
		return false
	}
	rc := r.runConfig()
	rc.OnDiagnostic = emit
	if _, err := r.pipeline.Run(m, rc); err != nil {
		return false
	}
	var perr error
	root.Child("Output").Time(func() {
		perr = ir.Print(out, m, r.printConfig())
	})
	if perr != nil {
		emit(ir.Diagnostic{Severity: ir.Error, Msg: "printing the result: " + perr.Error()})
		return false
	}
	return true
}

func (r *run) printConfig() ir.PrintConfig {
	c := r.cfg
	return ir.PrintConfig{DebugInfo: c.debugInfo, Generic: c.generic, LocalScope: c.localScope,
		NameLocAsPrefix: c.nameLoc, KeepNames: c.keepNames}
}

// runConfig returns the pass manager configuration: verifier, timing and
// the IR printing instrumentation.
func (r *run) runConfig() passes.RunConfig {
	c := r.cfg
	rc := passes.RunConfig{DisableVerify: !c.verifyEach, Timing: r.timing}
	afterAll := c.printAfterAll || (c.printAfterChange && len(r.printAfter) == 0)
	var before [sha256.Size]byte
	rc.BeforePass = func(e passes.PassEvent) {
		if c.printAfterChange {
			before = r.fingerprint(e.Module)
		}
		if c.printBeforeAll || r.printBefore[e.Pass] {
			r.dump(e, "Before")
		}
	}
	rc.AfterPass = func(e passes.PassEvent) {
		if e.Failed {
			if c.printAfterFailure || afterAll || r.printAfter[e.Pass] {
				r.dump(e, "After", " Failed")
			}
			return
		}
		if !afterAll && !r.printAfter[e.Pass] {
			return
		}
		if c.printAfterChange && r.fingerprint(e.Module) == before {
			return
		}
		r.dump(e, "After")
	}
	return rc
}

// fingerprint hashes the whole module as printed in generic form with
// locations, so that any change is seen.
func (r *run) fingerprint(m *ir.Module) [sha256.Size]byte {
	h := sha256.New()
	ir.Print(h, m, ir.PrintConfig{DebugInfo: true, Generic: true})
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// dump prints the IR for -mlir-print-ir-*, to standard error, with MLIR's
// header: "// -----// IR Dump After Name (name) //----- //". A pass that
// runs on a nested op prints that op, unless -mlir-print-ir-module-scope
// asks for the whole module.
func (r *run) dump(e passes.PassEvent, when string, failed ...string) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// -----// IR Dump %s %s%s (%s)", when, e.Pass.DisplayName(), strings.Join(failed, ""), e.Pass.Name)
	if e.Op == e.Module.Op {
		b.WriteString(" //----- //\n")
		ir.Print(&b, e.Module, r.printConfig())
	} else if r.cfg.printModuleScope {
		fmt.Fprintf(&b, " ('%s' operation%s) //----- //\n", e.Op.Name(), symbolSuffix(e.Op))
		ir.Print(&b, e.Module, r.printConfig())
	} else {
		b.WriteString(" //----- //\n")
		ir.PrintOp(&b, e.Op, r.printConfig())
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	r.proc.Stderr.Write(b.Bytes())
}

// symbolSuffix returns ": @name" for an op with a sym_name, as MLIR's
// module-scope dump headers show.
func symbolSuffix(op *ir.Operation) string {
	if s, ok := op.Attr("sym_name").(*ir.StringAttr); ok {
		return ": @" + s.Value
	}
	return ""
}
