package gencheck

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/layoutopt/layoutopt/proc"
)

// Options configure [Generate].
type Options struct {
	// Prefix is the check prefix; "" means "CHECK".
	Prefix string
	// Comment is the comment leader of the check lines; "" means "//".
	Comment string
	// StartScope is the brace depth whose lines open a new section with a
	// CHECK-LABEL; lines shallower than it (such as "module {" and its
	// closing "}") are left out. 0 means 1; use a negative value for 0.
	StartScope int
	// SSANames names captures after the SSA values (%arg0 → ARG0) where the
	// value has a name that starts with a letter; others are VAL_N.
	SSANames bool
	// StrictNames captures SSA names with the regular expression of an SSA
	// name instead of ".*", which is safer when a line holds several.
	StrictNames bool
}

// leaders returns the check prefix and the comment leader, with their
// defaults filled in.
func (o Options) leaders() (prefix, comment string) {
	prefix, comment = o.Prefix, o.Comment
	if prefix == "" {
		prefix = "CHECK"
	}
	if comment == "" {
		comment = "//"
	}
	return prefix, comment
}

const ssaName = `[a-zA-Z0-9$._-]+`

var (
	ssaRE     = regexp.MustCompile(`^(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)`)
	resultsRE = regexp.MustCompile(`^\s*%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)(?::[0-9]+)?(?:\s*,\s*%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))*\s*=`)
	attrRE    = regexp.MustCompile(`#[a-zA-Z._-][a-zA-Z0-9._-]*`)
	attrDefRE = regexp.MustCompile(`^\s*(#[a-zA-Z._-][a-zA-Z0-9._-]*)\s*=`)
	badVarRE  = regexp.MustCompile(`[^a-zA-Z0-9_]`)
)

// namer hands out FileCheck variable names for SSA values, scoped by
// regions: a name defined in a region is visible in the regions it
// encloses.
type namer struct {
	scopes   []map[string]string
	counter  int
	used     map[string]bool
	toParent int // how many names still go to the enclosing scope
	ssaNames bool
}

func (n *namer) lookup(ssa string) (string, bool) {
	for i := len(n.scopes) - 1; i >= 0; i-- {
		if v, ok := n.scopes[i][ssa]; ok {
			return v, true
		}
	}
	return "", false
}

// define names a new SSA value: after the value itself when useSSA or
// the namer's ssaNames is set and the name starts with a letter, else VAL_N.
func (n *namer) define(ssa string, useSSA bool) string {
	name := ""
	if (n.ssaNames || useSSA) && ssa != "" && (ssa[0] >= 'a' && ssa[0] <= 'z' || ssa[0] >= 'A' && ssa[0] <= 'Z') {
		name = strings.ToUpper(badVarRE.ReplaceAllString(ssa, "_"))
	}
	if name == "" || n.used[name] {
		base := name
		if base == "" {
			base = "VAL"
		}
		for {
			name = fmt.Sprintf("%s_%d", base, n.counter)
			n.counter++
			if !n.used[name] {
				break
			}
		}
	}
	n.used[name] = true
	scope := len(n.scopes) - 1
	if n.toParent > 0 && scope > 0 {
		n.toParent--
		scope--
	}
	if scope >= 0 {
		n.scopes[scope][ssa] = name
	}
	return name
}

// Generate reads tool output (MLIR-like text) from r and writes FileCheck
// lines for it to w, the way MLIR's generate-test-checks.py does: the first
// line of each top-level operation (a function) becomes a CHECK-LABEL with
// its arguments on CHECK-SAME lines, every other line a CHECK; each SSA
// value becomes a capture %[[VAL_N:.*]] where it is defined and %[[VAL_N]]
// where it is used (function arguments are named after themselves:
// %arg0 → ARG0); attribute aliases (#blocked = ...) become global captures
// #[[$BLOCKED:.+]] that later lines refer to. "{{" and "[[" in the text are
// escaped. The checks are meant as a starting point for a test, to be
// trimmed by hand.
func Generate(w io.Writer, r io.Reader, opts Options) error {
	sections, err := generate(r, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for i, sec := range sections {
		for _, l := range sec {
			bw.WriteString(l)
			bw.WriteByte('\n')
		}
		if i > 0 && len(sec) > 0 {
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// generate returns the check lines by section: the first holds what comes
// before the first top-level operation (attribute aliases), each other one
// top-level operation.
func generate(r io.Reader, opts Options) ([][]string, error) {
	prefix, comment := opts.leaders()
	start := opts.StartScope
	if start == 0 {
		start = 1
	} else if start < 0 {
		start = 0
	}
	varRE := ".*"
	if opts.StrictNames {
		varRE = ssaName
	}
	nm := &namer{used: map[string]bool{}, ssaNames: opts.SSANames}
	attrs := map[string]string{}
	attrUsed := map[string]bool{}
	sections := [][]string{nil}
	body := 0 // lines of the current section that came from its operation
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "// -----") {
			continue
		}
		cur := len(sections) - 1
		if m := attrDefRE.FindStringSubmatch(line); m != nil {
			base := strings.ToUpper(badVarRE.ReplaceAllString(strings.TrimPrefix(m[1], "#"), "_"))
			name := "$" + base
			for i := 0; attrUsed[name]; i++ {
				name = fmt.Sprintf("$%s_%d", base, i)
			}
			attrUsed[name] = true
			rest := replaceAttrs(escape(line[len(m[0]):]), attrs)
			attrs[m[1]] = name
			sections[cur] = append(sections[cur], fmt.Sprintf("%s %s: #[[%s:.+]] =%s", comment, prefix, name, rest))
		}
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed[0] == '^' { // a block label; drop its "// pred:" comment
			if i := strings.LastIndex(line, "//"); i >= 0 {
				line = strings.TrimRight(line[:i], " \t")
			}
		}
		level := len(nm.scopes)
		if trimmed[0] == '}' && len(nm.scopes) > 0 {
			nm.scopes = nm.scopes[:len(nm.scopes)-1]
			level = len(nm.scopes)
		}
		if strings.HasSuffix(line, "{") {
			nm.scopes = append(nm.scopes, map[string]string{})
			if level == start {
				sections = append(sections, nil)
				cur, body = cur+1, 0
			}
			if m := resultsRE.FindString(line); m != "" {
				nm.toParent = strings.Count(m, "%")
			}
		}
		if level < start {
			continue
		}
		if body == 0 {
			nm.counter = 0
			nm.used = map[string]bool{}
		}
		line = replaceAttrs(escape(line), attrs)
		chunks := strings.Split(line, "%")
		if body > 0 || strings.TrimSpace(chunks[0]) == "" {
			sections[cur] = append(sections[cur], comment+" "+prefix+":       "+chunks[0]+nameChunks(nm, chunks[1:], varRE, false))
			body++
			continue
		}
		sections[cur] = append(sections[cur], comment+" "+prefix+"-LABEL: "+strings.TrimLeft(chunks[0], " \t"))
		for _, c := range chunks[1:] {
			sections[cur] = append(sections[cur], comment+" "+prefix+"-SAME:  "+nameChunks(nm, []string{c}, ssaName, true))
		}
		body++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return sections, nil
}

// DefaultSourceDelim is the default of --source-delim-regex: a function
// definition, with or without a visibility (tt.func public @k as Triton
// prints its kernels, func.func private @f).
const DefaultSourceDelim = `func (public |private |nested )?@`

// Update writes source to w with fresh check lines for output: lines of
// source that are checks with opts' prefix are dropped, the checks of each
// top-level operation of output go right before the line of source that
// starts the same operation (the n-th line matching delim, a regular
// expression such as [DefaultSourceDelim], that is not a comment), and the checks
// before the first operation (attribute aliases) right before the first
// such line. Source and output must hold the same number of operations.
func Update(w io.Writer, source, output io.Reader, opts Options, delim *regexp.Regexp) error {
	sections, err := generate(output, opts)
	if err != nil {
		return err
	}
	prefix, comment := opts.leaders()
	old := regexp.MustCompile(`^\s*` + regexp.QuoteMeta(comment) + `\s*` + regexp.QuoteMeta(prefix) + `(-[A-Z]+)?:`)
	data, err := io.ReadAll(source)
	if err != nil {
		return err
	}
	src := [][]string{nil}
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l == "" || old.MatchString(l) {
			continue
		}
		if delim.MatchString(l) && !strings.HasPrefix(strings.TrimSpace(l), comment) {
			src = append(src, nil)
		}
		src[len(src)-1] = append(src[len(src)-1], l)
	}
	if len(src) != len(sections) {
		return fmt.Errorf("the source has %d operations (lines matching %q) but the output has %d", len(src)-1, delim, len(sections)-1)
	}
	bw := bufio.NewWriter(w)
	for i, lines := range src {
		if i == 0 {
			for _, l := range lines {
				bw.WriteString(l)
			}
			continue
		}
		if i == 1 {
			for _, l := range sections[0] {
				bw.WriteString(l + "\n")
			}
		}
		for _, l := range sections[i] {
			bw.WriteString(l + "\n")
		}
		for _, l := range lines {
			bw.WriteString(l)
		}
	}
	return bw.Flush()
}

// nameChunks rebuilds a line split at "%": each chunk starts with an SSA
// name, which becomes a capture or a use of one.
func nameChunks(nm *namer, chunks []string, varRE string, useSSA bool) string {
	var b strings.Builder
	for _, c := range chunks {
		ssa := ssaRE.FindString(c)
		if ssa == "" {
			b.WriteString("%" + c)
			continue
		}
		if v, ok := nm.lookup(ssa); ok {
			b.WriteString("%[[" + v + "]]")
		} else {
			b.WriteString("%[[" + nm.define(ssa, useSSA) + ":" + varRE + "]]")
		}
		b.WriteString(c[len(ssa):])
	}
	return strings.TrimRight(b.String(), " \t")
}

// escape protects text that FileCheck would read as a regular expression
// or a variable.
func escape(s string) string {
	s = strings.ReplaceAll(s, "{{", `{{\{\{}}`)
	s = strings.ReplaceAll(s, "[[", `{{\[\[}}`)
	return strings.ReplaceAll(s, "[%", `{{\[}}%`)
}

// replaceAttrs replaces known attribute aliases with their captures.
func replaceAttrs(s string, attrs map[string]string) string {
	if len(attrs) == 0 {
		return s
	}
	return attrRE.ReplaceAllStringFunc(s, func(a string) string {
		if v, ok := attrs[a]; ok {
			return "#[[" + v + "]]"
		}
		return a
	})
}

// Main is the gen-checks command: it reads tool output from the named file
// (or stdin) and writes CHECK lines to stdout or -o FILE. With --source
// TEST it writes TEST with the checks put in place instead (see [Update]),
// and with -i it rewrites TEST itself.
func Main(p *proc.Proc) int {
	fs := flag.NewFlagSet("gen-checks", flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	var opts Options
	var out, source, delim string
	var inPlace bool
	fs.StringVar(&opts.Prefix, "check-prefix", "CHECK", "check `PREFIX` to write")
	fs.StringVar(&opts.Comment, "comment", "//", "comment `LEADER` of the check lines")
	fs.IntVar(&opts.StartScope, "starts-from-scope", 1, "brace `DEPTH` whose lines start a CHECK-LABEL section (0: top level)")
	fs.BoolVar(&opts.SSANames, "use-ssa-names", false, "name captures after SSA values (%x → X)")
	fs.BoolVar(&opts.StrictNames, "strict-names", false, "capture SSA names with their exact syntax instead of .*")
	fs.StringVar(&out, "o", "", "write to `FILE` instead of stdout")
	fs.StringVar(&source, "source", "", "put the checks into the test `FILE`, before each operation, replacing old ones")
	fs.StringVar(&delim, "source-delim-regex", DefaultSourceDelim, "`REGEX` of the source lines that start an operation")
	fs.BoolVar(&inPlace, "i", false, "with --source: rewrite the source file")
	fs.Usage = func() {
		fmt.Fprintln(p.Stderr, "usage: gen-checks [options] [FILE]\n\nPrints FileCheck lines for tool output read from FILE or stdin, e.g.\n  layout-opt t.mlir -remove-redundant-conversions | lit gen-checks\n  layout-opt t.mlir -remove-redundant-conversions | lit gen-checks --source t.mlir -i\n\nOptions:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(p.Args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(p.Stderr, "gen-checks: %v\n", err)
		return 1
	}
	if opts.StartScope == 0 {
		opts.StartScope = -1
	}
	if inPlace && (source == "" || out != "") {
		return fail(fmt.Errorf("-i needs --source and no -o"))
	}
	delimRE, err := regexp.Compile(delim)
	if err != nil {
		return fail(fmt.Errorf("bad --source-delim-regex: %v", err))
	}
	in := p.Stdin
	switch fs.NArg() {
	case 0:
	case 1:
		if fs.Arg(0) != "-" {
			f, err := os.Open(p.Path(fs.Arg(0)))
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			in = f
		}
	default:
		fs.Usage()
		return 2
	}
	var buf bytes.Buffer
	if source == "" {
		err = Generate(&buf, in, opts)
	} else {
		if source == "-" && (in == p.Stdin || inPlace) {
			return fail(errors.New("--source - reads the test from standard input: give the tool output as a file, and no -i"))
		}
		var src []byte
		if src, err = p.ReadFile(source); err == nil {
			err = Update(&buf, bytes.NewReader(src), in, opts, delimRE)
		}
	}
	if err != nil {
		return fail(err)
	}
	if inPlace {
		out = source
	}
	if out == "" {
		if _, err := p.Stdout.Write(buf.Bytes()); err != nil {
			return fail(err)
		}
		return 0
	}
	if err := proc.WriteFileAtomic(p.Path(out), buf.Bytes()); err != nil {
		return fail(err)
	}
	return 0
}
