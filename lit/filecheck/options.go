package filecheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Options are FileCheck's command-line options. Start from DefaultOptions;
// the zero value differs from its defaults in DumpInputContext and NextDiff.
type Options struct {
	// CheckPrefixes are the directive prefixes; empty means "CHECK".
	CheckPrefixes []string
	// CommentPrefixes replace the default "COM", "RUN" when non-nil.
	CommentPrefixes []string
	// AllowUnusedPrefixes accepts check prefixes that never occur.
	AllowUnusedPrefixes bool
	// ImplicitCheckNot patterns behave like a CHECK-NOT before every
	// positive directive and at the end.
	ImplicitCheckNot []string
	// MatchFullLines anchors every positive pattern to whole lines.
	MatchFullLines bool
	// StrictWhitespace turns off horizontal whitespace canonicalization.
	StrictWhitespace bool
	// IgnoreCase matches case-insensitively.
	IgnoreCase bool
	// AllowEmpty accepts an empty input.
	AllowEmpty bool
	// Defines are -D definitions: "VAR=VALUE" for string variables,
	// "#VAR=EXPR" or "#%fmt,VAR=EXPR" for numeric ones.
	Defines []string
	// EnableVarScope clears local variables at each CHECK-LABEL.
	EnableVarScope bool
	// AllowDeprecatedDagOverlap lets CHECK-DAG matches overlap.
	AllowDeprecatedDagOverlap bool
	// Verbose (-v) reports good matches; VeryVerbose (-vv) more.
	Verbose, VeryVerbose bool
	// DumpInput is "fail" (or ""), "always" or "never".
	DumpInput string
	// DumpInputFilter is "all", "annotation-full", "annotation", "error",
	// or "" for the default (error on failure, all for always).
	DumpInputFilter string
	// DumpInputContext is the number of context lines around filtered lines.
	DumpInputContext int
	// Color writes diagnostics and the input dump with LLVM's ANSI colors
	// (--color); FileCheck only colors a terminal by default, and Check
	// never writes to one, so it is off by default.
	Color bool
	// NextDiff adds a line diff (expected patterns against the nearest
	// input lines) after the report of a failing CHECK-NEXT block. This is
	// an extension; LLVM FileCheck has no such output.
	NextDiff bool
}

// DefaultOptions returns FileCheck's defaults.
func DefaultOptions() Options {
	return Options{DumpInputContext: 5, NextDiff: true}
}

// optSpec describes one command-line option.
type optSpec struct {
	name   string
	kind   int // optBool, optString or optList
	hidden bool
}

const (
	optBool   = iota
	optString // takes a value, at most once
	optList   // takes a value, repeatable
)

var optSpecs = []optSpec{
	{"check-prefix", optList, false},
	{"check-prefixes", optList, false},
	{"comment-prefixes", optList, true},
	{"allow-unused-prefixes", optBool, false},
	{"input-file", optString, false},
	{"strict-whitespace", optBool, false},
	{"ignore-case", optBool, false},
	{"match-full-lines", optBool, false},
	{"allow-empty", optBool, false},
	{"implicit-check-not", optList, false},
	{"enable-var-scope", optBool, false},
	{"allow-deprecated-dag-overlap", optBool, false},
	{"v", optBool, false},
	{"vv", optBool, false},
	{"color", optBool, false},
	{"dump-input", optList, false},
	{"dump-input-filter", optList, false},
	{"dump-input-context", optList, false},
	{"next-diff", optBool, false},
	{"help", optBool, false},
	{"version", optBool, false},
	{"D", optList, false},
}

// cmdLine is the result of parsing FileCheck's arguments.
type cmdLine struct {
	opts      Options
	checkFile string
	inputFile string
	help      bool
	version   bool
	dumpHelp  bool
}

// usageError is a command-line error; FileCheck exits with 1 for these.
type usageError struct{ lines []string }

func (e *usageError) Error() string { return strings.Join(e.lines, "\n") }

func cmdErr(lines ...string) *usageError { return &usageError{lines} }

func findSpec(name string) *optSpec {
	for i := range optSpecs {
		if optSpecs[i].name == name {
			return &optSpecs[i]
		}
	}
	return nil
}

// parseArgs parses arguments the way llvm::cl does for FileCheck's options.
func parseArgs(args []string) (*cmdLine, error) {
	cl := &cmdLine{opts: DefaultOptions()}
	seen := map[string]bool{}
	var dumps, filters []string
	var contexts []int
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		dashes := "-"
		body := a[1:]
		if strings.HasPrefix(body, "-") {
			dashes, body = "--", body[1:]
		}
		name, value, hasValue := strings.Cut(body, "=")
		var spec *optSpec
		if strings.HasPrefix(body, "D") && findSpec(name) == nil {
			// -D is an always-prefix option: -DVAR=V; "-D VAR=V" is accepted too.
			spec, name, value, hasValue = findSpec("D"), "D", body[1:], true
			if value == "" {
				if i+1 >= len(args) {
					return nil, cmdErr("FileCheck: for the -D option: requires a value!")
				}
				i++
				value = args[i]
			}
		} else {
			spec = findSpec(name)
		}
		if spec == nil {
			lines := []string{fmt.Sprintf("FileCheck: Unknown command line argument '%s'.  Try: 'FileCheck --help'", a)}
			if s := nearestOption(name); s != "" {
				lines = append(lines, fmt.Sprintf("FileCheck: Did you mean '%s%s'?", dashes, s))
			}
			return nil, cmdErr(lines...)
		}
		optName := dashes + name
		if spec.name == "D" {
			optName = "-D"
		}
		once := func() error {
			if seen[spec.name] {
				return cmdErr(fmt.Sprintf("FileCheck: for the %s option: may only occur zero or one times!", optName))
			}
			seen[spec.name] = true
			return nil
		}
		if spec.kind == optBool {
			v := true
			if hasValue {
				switch value {
				case "true", "TRUE", "True", "1":
				case "false", "FALSE", "False", "0":
					v = false
				default:
					return nil, cmdErr(fmt.Sprintf("FileCheck: for the %s option: '%s' is invalid value for boolean argument! Try 0 or 1", optName, value))
				}
			}
			if err := once(); err != nil {
				return nil, err
			}
			switch spec.name {
			case "allow-unused-prefixes":
				cl.opts.AllowUnusedPrefixes = v
			case "strict-whitespace":
				cl.opts.StrictWhitespace = v
			case "ignore-case":
				cl.opts.IgnoreCase = v
			case "match-full-lines":
				cl.opts.MatchFullLines = v
			case "allow-empty":
				cl.opts.AllowEmpty = v
			case "enable-var-scope":
				cl.opts.EnableVarScope = v
			case "allow-deprecated-dag-overlap":
				cl.opts.AllowDeprecatedDagOverlap = v
			case "v":
				cl.opts.Verbose = v
			case "vv":
				cl.opts.VeryVerbose = v
			case "color":
				cl.opts.Color = v
			case "next-diff":
				cl.opts.NextDiff = v
			case "help":
				cl.help = v
			case "version":
				cl.version = v
			}
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, cmdErr(fmt.Sprintf("FileCheck: for the %s option: requires a value!", optName))
			}
			i++
			value = args[i]
		}
		switch spec.name {
		case "input-file":
			if err := once(); err != nil {
				return nil, err
			}
			cl.inputFile = value
		case "check-prefix":
			cl.opts.CheckPrefixes = append(cl.opts.CheckPrefixes, value)
		case "check-prefixes":
			cl.opts.CheckPrefixes = append(cl.opts.CheckPrefixes, strings.Split(value, ",")...)
		case "comment-prefixes":
			if cl.opts.CommentPrefixes == nil {
				cl.opts.CommentPrefixes = []string{}
			}
			cl.opts.CommentPrefixes = append(cl.opts.CommentPrefixes, strings.Split(value, ",")...)
		case "implicit-check-not":
			cl.opts.ImplicitCheckNot = append(cl.opts.ImplicitCheckNot, value)
		case "D":
			cl.opts.Defines = append(cl.opts.Defines, value)
		case "dump-input":
			switch value {
			case "help", "always", "fail", "never":
				dumps = append(dumps, value)
			default:
				return nil, cmdErr(fmt.Sprintf("FileCheck: for the %s option: Cannot find option named '%s'!", optName, value))
			}
		case "dump-input-filter":
			switch value {
			case "all", "annotation-full", "annotation", "error":
				filters = append(filters, value)
			default:
				return nil, cmdErr(fmt.Sprintf("FileCheck: for the %s option: Cannot find option named '%s'!", optName, value))
			}
		case "dump-input-context":
			n, err := strconv.ParseUint(value, 0, 32)
			if err != nil {
				return nil, cmdErr(fmt.Sprintf("FileCheck: for the %s option: '%s' value invalid for uint argument!", optName, value))
			}
			contexts = append(contexts, int(n))
		}
	}
	if len(positional) > 1 {
		return nil, cmdErr("FileCheck: Too many positional arguments specified!",
			"Can specify at most 1 positional arguments: See: FileCheck --help")
	}
	if len(positional) == 1 {
		cl.checkFile = positional[0]
	}
	// Precedence: help > always > fail > never; all > annotation-full >
	// annotation > error; the largest context.
	cl.opts.DumpInput = highest(dumps, "never", "fail", "always", "help")
	if cl.opts.DumpInput == "help" {
		cl.dumpHelp = true
		cl.opts.DumpInput = ""
	}
	cl.opts.DumpInputFilter = highest(filters, "error", "annotation", "annotation-full", "all")
	if len(contexts) > 0 {
		cl.opts.DumpInputContext = slices.Max(contexts)
	}
	return cl, nil
}

// highest returns the value of vals that comes last in order, or "" when
// vals is empty; every value must be in order.
func highest(vals []string, order ...string) string {
	best := -1
	for _, v := range vals {
		best = max(best, slices.Index(order, v))
	}
	if best < 0 {
		return ""
	}
	return order[best]
}

// nearestOption suggests the visible option closest to name.
func nearestOption(name string) string {
	best, bestD := "", 0
	for _, s := range optSpecs {
		if s.hidden || s.name == "D" {
			continue
		}
		d := editDistance(name, s.name)
		if best == "" || d < bestD {
			best, bestD = s.name, d
		}
	}
	if bestD > len(name)/2+2 {
		return ""
	}
	return best
}

// splitGNU tokenizes FILECHECK_OPTS like llvm::cl::TokenizeGNUCommandLine:
// blanks separate words, quotes group, backslash escapes.
func splitGNU(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != c; i++ {
				if c == '"' && s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}
