package lit

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// runLine is one RUN command of a test, after joining continuation lines.
type runLine struct {
	line    int    // 1-based line of its first RUN:
	text    string // the command text, before substitution
	defines int    // how many of the test's DEFINE/REDEFINE come before it
}

// define is a DEFINE: or REDEFINE: directive of a test.
type define struct {
	line     int
	redefine bool
	sub      Substitution
}

// testScript is what a test file asks of the runner.
type testScript struct {
	runs         []runLine
	defines      []define
	requires     []string // each must be true
	unsupported  []string // any true: the test is unsupported
	xfail        []string // any true ("*" always): the test must fail
	allowRetries int
}

var keywords = []string{"RUN:", "REQUIRES:", "UNSUPPORTED:", "XFAIL:", "ALLOW_RETRIES:", "DEFINE:", "REDEFINE:", "END."}

// defineRE matches the text of a DEFINE: or REDEFINE: directive.
var defineRE = regexp.MustCompile(`^\s*(%\{[-+=._a-zA-Z0-9:]+\})\s*=(.*)$`)

var lineExpr = regexp.MustCompile(`%\(line *([+-]) *([0-9]+) *\)|%\(line\)`)

// findKeyword returns the leftmost keyword on line that is not the tail of
// a longer word (so "CHECK-RUN:" and "XRUN:" are not RUN lines), and the
// text after it.
func findKeyword(line string) (kw, rest string, ok bool) {
	best := -1
	for _, k := range keywords {
		for from := 0; ; {
			i := strings.Index(line[from:], k)
			if i < 0 {
				break
			}
			i += from
			if i == 0 || !isWordChar(line[i-1]) {
				if best < 0 || i < best {
					best, kw = i, k
				}
				break
			}
			from = i + 1
		}
	}
	if best < 0 {
		return "", "", false
	}
	return kw, line[best+len(kw):], true
}

func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// parseTestScript reads the keywords of a test file. Errors are located as
// "file:line: error: ...".
func parseTestScript(file string, data []byte) (*testScript, error) {
	s := &testScript{allowRetries: -1}
	continuing := false
	lastRunLine := 0
	defining := "" // the DEFINE:/REDEFINE: keyword whose text continues
	defineText := ""
	for n, line := range strings.Split(string(data), "\n") {
		lineNo := n + 1
		errorf := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: error: %s", file, lineNo, fmt.Sprintf(format, args...))
		}
		kw, rest, ok := findKeyword(line)
		if !ok {
			continue
		}
		if kw == "END." {
			if strings.TrimSpace(rest) == "" {
				break
			}
			continue
		}
		rest = strings.TrimRight(rest, " \t\r")
		if kw != "RUN:" && continuing {
			return nil, errorf("RUN: line ending in '\\' is followed by %s", kw)
		}
		if defining != "" && kw != defining {
			return nil, errorf("%s line ending in '\\' is followed by %s", defining, kw)
		}
		switch kw {
		case "DEFINE:", "REDEFINE:":
			text := strings.TrimSpace(rest)
			if defining != "" {
				defineText += " " + text
			} else {
				defineText = text
			}
			if strings.HasSuffix(defineText, `\`) {
				defining = kw
				defineText = strings.TrimSpace(strings.TrimSuffix(defineText, `\`))
				continue
			}
			defining = ""
			m := defineRE.FindStringSubmatch(defineText)
			if m == nil {
				return nil, errorf("%s expects '%%{name} = value', not %q", kw, defineText)
			}
			s.defines = append(s.defines, define{line: lineNo, redefine: kw == "REDEFINE:", sub: Substitution{m[1], strings.TrimSpace(m[2])}})
		case "RUN:":
			rest = lineExpr.ReplaceAllStringFunc(rest, func(m string) string {
				sub := lineExpr.FindStringSubmatch(m)
				if sub[1] == "" {
					return strconv.Itoa(lineNo)
				}
				k, _ := strconv.Atoi(sub[2])
				if sub[1] == "-" {
					k = -k
				}
				return strconv.Itoa(lineNo + k)
			})
			if continuing {
				last := &s.runs[len(s.runs)-1]
				last.text = strings.TrimSuffix(last.text, `\`) + rest
			} else {
				s.runs = append(s.runs, runLine{line: lineNo, text: rest, defines: len(s.defines)})
			}
			continuing = strings.HasSuffix(rest, `\`)
			lastRunLine = lineNo
		case "REQUIRES:", "UNSUPPORTED:", "XFAIL:":
			if strings.HasSuffix(rest, `\`) {
				return nil, errorf("%s does not take continuation lines", kw)
			}
			var exprs []string
			for _, e := range strings.Split(rest, ",") {
				e = strings.TrimSpace(e)
				if e == "" {
					return nil, errorf("empty expression in %s", kw)
				}
				if !(kw == "XFAIL:" && e == "*") {
					if _, err := EvalFeatures(e, nil); err != nil {
						return nil, errorf("%s %v", kw, err)
					}
				}
				exprs = append(exprs, e)
			}
			switch kw {
			case "REQUIRES:":
				s.requires = append(s.requires, exprs...)
			case "UNSUPPORTED:":
				s.unsupported = append(s.unsupported, exprs...)
			default:
				s.xfail = append(s.xfail, exprs...)
			}
		case "ALLOW_RETRIES:":
			if s.allowRetries >= 0 {
				return nil, errorf("ALLOW_RETRIES: given more than once")
			}
			k, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || k < 0 {
				return nil, errorf("ALLOW_RETRIES: expects a non-negative integer, not %q", strings.TrimSpace(rest))
			}
			s.allowRetries = k
		}
	}
	if continuing {
		return nil, fmt.Errorf("%s:%d: error: RUN: line ends in '\\' but no RUN: line follows", file, lastRunLine)
	}
	if defining != "" {
		return nil, fmt.Errorf("%s: error: %s line ends in '\\' but no %s line follows", file, defining, defining)
	}
	if len(s.runs) == 0 {
		return nil, fmt.Errorf("%s: error: test has no 'RUN:' line", file)
	}
	if s.allowRetries < 0 {
		s.allowRetries = 0
	}
	return s, nil
}

// substitute applies subs in order to a RUN line; "%%" stands for a literal
// "%" and is protected from the other substitutions.
func substitute(line string, subs []Substitution) string {
	const marker = "\x00percent\x00"
	line = strings.ReplaceAll(line, "%%", marker)
	for _, s := range subs {
		line = strings.ReplaceAll(line, s.Pattern, s.Replacement)
	}
	return strings.ReplaceAll(line, marker, "%")
}

// applyDefines returns base with the DEFINE/REDEFINE directives defs
// applied in order: DEFINE adds a substitution in front of the others (it
// must be new), REDEFINE changes the value of one that exists. base is
// never changed; the result may share it.
func applyDefines(file string, base []Substitution, defs []define) ([]Substitution, error) {
	subs := base
	for _, d := range defs {
		i := slices.IndexFunc(subs, func(s Substitution) bool { return s.Pattern == d.sub.Pattern })
		switch {
		case d.redefine && i < 0:
			return nil, fmt.Errorf("%s:%d: error: REDEFINE: %s is not defined", file, d.line, d.sub.Pattern)
		case d.redefine:
			subs = slices.Clone(subs)
			subs[i].Replacement = d.sub.Replacement
		case i >= 0:
			return nil, fmt.Errorf("%s:%d: error: DEFINE: %s is already defined; use REDEFINE:", file, d.line, d.sub.Pattern)
		default:
			subs = append([]Substitution{d.sub}, subs...)
		}
	}
	return subs, nil
}
