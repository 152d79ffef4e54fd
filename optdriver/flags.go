package optdriver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/layoutopt/layoutopt/internal/suggest"
	"github.com/layoutopt/layoutopt/passes"
)

// config holds the parsed command line.
type config struct {
	input  string
	output string

	pipeline     stringFlag
	passUses     []passUse
	dumpPipeline bool

	split             splitFlag
	outputSplitMarker string
	verifyDiags       verifyFlag
	verifyEach        bool
	allowUnregistered bool

	debugInfo  bool
	generic    bool
	localScope bool
	nameLoc    bool
	keepNames  bool

	printBeforeAll    bool
	printAfterAll     bool
	printAfterChange  bool
	printAfterFailure bool
	printModuleScope  bool
	printBefore       listFlag
	printAfter        listFlag

	timing        bool
	timingDisplay string

	listPasses       bool
	showDialects     bool
	help             bool
	version          bool
	disableThreading bool // -mlir-disable-threading: accepted for compatibility
}

// passUse is a pass given as a flag, with its option string.
type passUse struct {
	flag    string // the spelling used: the name or an alias
	pass    *passes.Pass
	options string
}

// stringFlag is a string flag that records whether it was set.
type stringFlag struct {
	value string
	set   bool
}

func (f *stringFlag) String() string     { return f.value }
func (f *stringFlag) Set(s string) error { f.value, f.set = s, true; return nil }

// splitFlag is -split-input-file[=MARKER]: a bare flag splits at
// DefaultSplitMarker.
type splitFlag struct{ marker string }

func (f *splitFlag) String() string   { return f.marker }
func (f *splitFlag) IsBoolFlag() bool { return true }
func (f *splitFlag) Set(s string) error {
	switch s {
	case "true":
		f.marker = DefaultSplitMarker
	case "false", "":
		f.marker = ""
	default:
		f.marker = s
	}
	return nil
}

// verifyFlag is -verify-diagnostics[=all|only-expected].
type verifyFlag struct{ mode string } // "", "all" or "only-expected"

func (f *verifyFlag) String() string   { return f.mode }
func (f *verifyFlag) IsBoolFlag() bool { return true }
func (f *verifyFlag) Set(s string) error {
	switch s {
	case "true", "all":
		f.mode = "all"
	case "only-expected":
		f.mode = s
	case "false":
		f.mode = ""
	default:
		return fmt.Errorf("want all or only-expected")
	}
	return nil
}

// listFlag is a comma-separated list of pass names.
type listFlag struct{ names []string }

func (f *listFlag) String() string { return strings.Join(f.names, ",") }
func (f *listFlag) Set(s string) error {
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			f.names = append(f.names, n)
		}
	}
	return nil
}

// passFlag is the flag of one pass (or alias): -NAME or -NAME='opt=v ...'.
// Every use is appended to *uses, so passes run in command-line order.
type passFlag struct {
	spelling string
	pass     *passes.Pass
	uses     *[]passUse
}

func (f *passFlag) String() string   { return "" }
func (f *passFlag) IsBoolFlag() bool { return true }
func (f *passFlag) Set(s string) error {
	if s == "true" {
		s = ""
	}
	*f.uses = append(*f.uses, passUse{flag: f.spelling, pass: f.pass, options: s})
	return nil
}

// newFlagSet defines the driver's flags on a new FlagSet writing into c,
// and one flag per pass and alias of reg. It returns the set and the names
// of the pass flags.
func (t *Tool) newFlagSet(c *config, reg *passes.Registry) (*flag.FlagSet, map[string]bool) {
	fs := flag.NewFlagSet(t.name(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}

	fs.StringVar(&c.output, "o", "-", "Output `filename` (- for standard output); written only on success")
	fs.Var(&c.pipeline, "pass-pipeline", "Textual description of the `pipeline` to run, e.g. 'builtin.module(canonicalize-layouts{form=linear})'")
	fs.Var(&c.pipeline, "p", "Alias for --pass-pipeline (the `pipeline` text)")
	fs.BoolVar(&c.dumpPipeline, "dump-pass-pipeline", false, "Print the pipeline that will be run to standard error")
	fs.Var(&c.split, "split-input-file", "Split the input at `marker` lines (default '// -----') and process each chunk independently")
	fs.StringVar(&c.outputSplitMarker, "output-split-marker", DefaultSplitMarker, "Write `marker` between the outputs of split chunks")
	fs.Var(&c.verifyDiags, "verify-diagnostics", "Check that emitted diagnostics match expected-* comments in the input (`mode`: all or only-expected)")
	fs.BoolVar(&c.verifyEach, "verify-each", true, "Run the verifier after each transformation pass")
	fs.BoolVar(&c.allowUnregistered, "allow-unregistered-dialect", false, "Allow operations of unregistered dialects (in generic form)")
	fs.BoolVar(&c.debugInfo, "mlir-print-debuginfo", false, "Print locations (loc(...)) in the output")
	fs.BoolVar(&c.generic, "mlir-print-op-generic", false, "Print operations in generic form")
	fs.BoolVar(&c.localScope, "mlir-print-local-scope", false, "Print attributes, types and locations inline instead of through aliases")
	fs.BoolVar(&c.nameLoc, "mlir-use-nameloc-as-prefix", false, "Name SSA values after the name locations (loc(\"x\")) of their locations, as Triton prints its IR")
	fs.BoolVar(&c.keepNames, "keep-ssa-names", false, "Print SSA values with the names the input gave them (not an MLIR flag; MLIR names values itself)")
	fs.BoolVar(&c.printBeforeAll, "mlir-print-ir-before-all", false, "Print the IR before every pass, to standard error")
	fs.BoolVar(&c.printAfterAll, "mlir-print-ir-after-all", false, "Print the IR after every pass, to standard error")
	fs.BoolVar(&c.printAfterChange, "mlir-print-ir-after-change", false, "Print the IR after a pass only if the pass changed it (alone: after every pass that changed it)")
	fs.BoolVar(&c.printAfterFailure, "mlir-print-ir-after-failure", false, "Print the IR after a pass that failed")
	fs.BoolVar(&c.printModuleScope, "mlir-print-ir-module-scope", false, "Print the whole module in IR dumps, even for passes that run on nested ops")
	fs.Var(&c.printBefore, "mlir-print-ir-before", "Print the IR before each pass in the comma-separated `passes`")
	fs.Var(&c.printAfter, "mlir-print-ir-after", "Print the IR after each pass in the comma-separated `passes`")
	fs.BoolVar(&c.timing, "mlir-timing", false, "Print a report of the time spent in each pass, to standard error")
	fs.StringVar(&c.timingDisplay, "mlir-timing-display", "tree", "Layout of the -mlir-timing report (`mode`: tree or list)")
	fs.BoolVar(&c.disableThreading, "mlir-disable-threading", false, "Accepted for compatibility with mlir-opt; passes always run on one thread")
	fs.BoolVar(&c.listPasses, "list-passes", false, "Print the registered passes and their options, then exit")
	fs.BoolVar(&c.showDialects, "show-dialects", false, "Print the dialects whose ops are registered, then exit")
	fs.BoolVar(&c.help, "help", false, "Print this help, then exit")
	fs.BoolVar(&c.help, "h", false, "Alias for --help")
	fs.BoolVar(&c.version, "version", false, "Print the version, then exit")

	passFlags := map[string]bool{}
	for _, p := range reg.All() {
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if fs.Lookup(n) != nil {
				continue // a driver flag wins; the pass is still reachable by -pass-pipeline
			}
			fs.Var(&passFlag{spelling: n, pass: p, uses: &c.passUses}, n, p.Summary)
			passFlags[n] = true
		}
	}
	return fs, passFlags
}

// parseArgs parses args. Flags and the input file may come in any order,
// as with mlir-opt; "--" ends the flags.
func (t *Tool) parseArgs(args []string, reg *passes.Registry) (*config, *flag.FlagSet, map[string]bool, error) {
	c := &config{}
	fs, passFlags := t.newFlagSet(c, reg)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, nil, flagError(err, fs)
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	switch len(positional) {
	case 0:
		c.input = "-"
	case 1:
		c.input = positional[0]
	default:
		return nil, nil, nil, fmt.Errorf("too many input files: %s (at most one)", strings.Join(positional, " "))
	}
	if c.timingDisplay != "tree" && c.timingDisplay != "list" {
		return nil, nil, nil, fmt.Errorf("invalid value %q for -mlir-timing-display: want tree or list", c.timingDisplay)
	}
	return c, fs, passFlags, nil
}

// flagError rewords the flag package's errors in mlir-opt's terms; an
// unknown flag gets a "did you mean" hint when a flag or pass of fs is close.
func flagError(err error, fs *flag.FlagSet) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := ""
		if c := suggest.Closest(strings.TrimLeft(name, "-"), names); c != "" {
			hint = "; did you mean '-" + c + "'?"
		}
		return fmt.Errorf("unknown command line argument '%s': not a flag or a registered pass (see -help and -list-passes)%s", name, hint)
	}
	// Flags that take an optional value (-verify-diagnostics[=mode]) are
	// "boolean" to the flag package; their values are not.
	if rest, ok := strings.CutPrefix(msg, "invalid boolean value "); ok {
		return errors.New("invalid value " + rest)
	}
	return err
}
