package gencheck

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/layoutopt/layoutopt/lit"
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

func (n *namer) define(ssa string) string {
	name := ""
	if n.ssaNames && ssa != "" && (ssa[0] >= 'a' && ssa[0] <= 'z' || ssa[0] >= 'A' && ssa[0] <= 'Z') {
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
// where it is used; attribute aliases (#blocked = ...) become global
// captures #[[$BLOCKED:.+]] that later lines refer to. "{{" and "[[" in the
// text are escaped. The checks are meant as a starting point for a test,
// to be trimmed by hand.
func Generate(w io.Writer, r io.Reader, opts Options) error {
	prefix := opts.Prefix
	if prefix == "" {
		prefix = "CHECK"
	}
	comment := opts.Comment
	if comment == "" {
		comment = "//"
	}
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
	bw := bufio.NewWriter(w)
	nm := &namer{used: map[string]bool{}, ssaNames: opts.SSANames}
	attrs := map[string]string{}
	attrUsed := map[string]bool{}
	var segment []string // check lines of the current section
	flush := func() {
		if len(segment) > 0 {
			for _, l := range segment {
				bw.WriteString(l)
				bw.WriteByte('\n')
			}
			bw.WriteByte('\n')
			segment = segment[:0]
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "// -----") {
			continue
		}
		if m := attrDefRE.FindStringSubmatch(line); m != nil {
			name := "$" + strings.ToUpper(badVarRE.ReplaceAllString(strings.TrimPrefix(m[1], "#"), "_"))
			for i := 0; attrUsed[name]; i++ {
				name = fmt.Sprintf("$%s_%d", strings.ToUpper(badVarRE.ReplaceAllString(strings.TrimPrefix(m[1], "#"), "_")), i)
			}
			attrUsed[name] = true
			rest := escape(line[len(m[0]):])
			rest = replaceAttrs(rest, attrs)
			attrs[m[1]] = name
			fmt.Fprintf(bw, "%s %s: #[[%s:.+]] =%s\n", comment, prefix, name, rest)
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
				flush()
			}
			if m := resultsRE.FindString(line); m != "" {
				nm.toParent = strings.Count(m, "%")
			}
		}
		if level < start {
			continue
		}
		if len(segment) == 0 {
			nm.counter = 0
			nm.used = map[string]bool{}
		}
		line = replaceAttrs(escape(line), attrs)
		chunks := strings.Split(line, "%")
		if len(segment) > 0 || strings.TrimSpace(chunks[0]) == "" {
			segment = append(segment, comment+" "+prefix+":       "+chunks[0]+nameChunks(nm, chunks[1:], varRE))
			continue
		}
		segment = append(segment, comment+" "+prefix+"-LABEL: "+strings.TrimLeft(chunks[0], " \t"))
		for _, c := range chunks[1:] {
			segment = append(segment, comment+" "+prefix+"-SAME:  "+nameChunks(nm, []string{c}, ssaName))
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	flush()
	return bw.Flush()
}

// nameChunks rebuilds a line split at "%": each chunk starts with an SSA
// name, which becomes a capture or a use of one.
func nameChunks(nm *namer, chunks []string, varRE string) string {
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
			b.WriteString("%[[" + nm.define(ssa) + ":" + varRE + "]]")
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

// Main is the gen-checks command: it reads the named file (or stdin) and
// writes CHECK lines to stdout or -o FILE.
func Main(p *lit.Proc) int {
	fs := flag.NewFlagSet("gen-checks", flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	var opts Options
	var out string
	fs.StringVar(&opts.Prefix, "check-prefix", "CHECK", "check `PREFIX` to write")
	fs.StringVar(&opts.Comment, "comment", "//", "comment `LEADER` of the check lines")
	fs.IntVar(&opts.StartScope, "starts-from-scope", 1, "brace `DEPTH` whose lines start a CHECK-LABEL section (0: top level)")
	fs.BoolVar(&opts.SSANames, "use-ssa-names", false, "name captures after SSA values (%arg0 → ARG0)")
	fs.BoolVar(&opts.StrictNames, "strict-names", false, "capture SSA names with their exact syntax instead of .*")
	fs.StringVar(&out, "o", "", "write to `FILE` instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(p.Stderr, "usage: gen-checks [options] [FILE]\n\nPrints FileCheck lines for tool output read from FILE or stdin, e.g.\n  layout-opt t.mlir -canonicalize | lit gen-checks\n\nOptions:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(p.Args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if opts.StartScope == 0 {
		opts.StartScope = -1
	}
	in := p.Stdin
	switch fs.NArg() {
	case 0:
	case 1:
		if fs.Arg(0) != "-" {
			f, err := os.Open(p.Path(fs.Arg(0)))
			if err != nil {
				fmt.Fprintf(p.Stderr, "gen-checks: %v\n", err)
				return 1
			}
			defer f.Close()
			in = f
		}
	default:
		fs.Usage()
		return 2
	}
	var w io.Writer = p.Stdout
	var buf strings.Builder
	if out != "" {
		w = &buf
	}
	if err := Generate(w, in, opts); err != nil {
		fmt.Fprintf(p.Stderr, "gen-checks: %v\n", err)
		return 1
	}
	if out != "" {
		if err := os.WriteFile(p.Path(out), []byte(buf.String()), 0o644); err != nil {
			fmt.Fprintf(p.Stderr, "gen-checks: %v\n", err)
			return 1
		}
	}
	return 0
}
