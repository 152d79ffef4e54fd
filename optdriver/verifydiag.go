package optdriver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// expectation is one expected-* designator of a -verify-diagnostics input.
type expectation struct {
	severity ir.Severity
	line     int    // line the diagnostic is expected on (original numbering)
	unknown  bool   // @unknown: expected at an unknown location
	pos      ir.Pos // where the designator is written (start of "expected-")
	text     string // the text between {{ and }}
	re       *regexp.Regexp
	matched  bool
}

// match reports whether msg matches the expectation's text: a substring,
// or, for expected-*-re, a regular expression built from the text where
// {{...}} blocks are regexes and the rest is literal. '.' also matches a
// newline, so one expectation can match a message of several lines.
func (e *expectation) match(msg string) bool {
	if e.re != nil {
		return e.re.MatchString(msg)
	}
	return strings.Contains(msg, e.text)
}

// designatorRE is MLIR's pattern for expectation comments.
var designatorRE = regexp.MustCompile(`expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$`)

// designatorSeverity maps the kind of an expected-KIND designator to its
// severity.
var designatorSeverity = map[string]ir.Severity{
	"error": ir.Error, "warning": ir.Warning, "remark": ir.Remark, "note": ir.Note,
}

// parseExpectations scans a chunk (starting at line startLine and byte
// offset offset of the whole input src) for expected-* designators. Errors
// in designators (a bad regex) are returned as diagnostics.
func parseExpectations(src string, c chunk, file string) ([]*expectation, ir.Diagnostics) {
	var exps []*expectation
	var errs ir.Diagnostics
	lines := strings.Split(c.text, "\n")
	lastNonDesignator := 0 // 0-based chunk line of the last line without a designator
	var forNext []*expectation
	lineOff := c.offset
	for i, raw := range lines {
		lineStart := lineOff
		lineOff += len(raw) + 1
		line := strings.TrimRight(raw, " \t\r\n\v\f")
		m := designatorRE.FindStringSubmatchIndex(line)
		if m == nil {
			for _, e := range forNext {
				e.line = c.startLine + i
			}
			forNext = nil
			lastNonDesignator = i
			continue
		}
		e := &expectation{
			severity: designatorSeverity[line[m[2]:m[3]]],
			line:     c.startLine + i,
			pos:      posAt(src, lineStart+m[0], file),
			text:     line[m[10]:m[11]],
		}
		if m[4] >= 0 { // -re
			re, err := compileExpectation(e.text)
			if err != nil {
				errs = append(errs, ir.Diagnostic{Pos: e.pos, Severity: ir.Error, Msg: err.Error()})
				continue
			}
			e.re = re
		}
		if m[8] >= 0 {
			switch off := line[m[8]:m[9]]; off {
			case "unknown":
				e.unknown = true
			case "above":
				e.line = c.startLine + lastNonDesignator
			case "below":
				forNext = append(forNext, e)
				e.line = c.startLine + len(lines) - 1 // if it dangles: the last line, as in MLIR
			default:
				n, err := strconv.Atoi(off[1:])
				if err != nil {
					errs = append(errs, ir.Diagnostic{Pos: e.pos, Severity: ir.Error, Msg: fmt.Sprintf("invalid line offset %q", off)})
					continue
				}
				if off[0] == '+' {
					e.line += n
				} else {
					e.line -= n
				}
			}
		}
		exps = append(exps, e)
	}
	return exps, errs
}

// compileExpectation turns the text of an expected-*-re designator into a
// regular expression: {{...}} blocks are regexes, the rest is literal.
func compileExpectation(text string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("(?s)")
	rest := text
	for rest != "" {
		i := strings.Index(rest, "{{")
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:i]))
		rest = rest[i+2:]
		j := strings.Index(rest, "}}")
		if j < 0 {
			return nil, fmt.Errorf("found start of regex with no end '}}'")
		}
		if _, err := regexp.Compile(rest[:j]); err != nil {
			return nil, fmt.Errorf("invalid regex: %v", err)
		}
		b.WriteString("(" + rest[:j] + ")")
		rest = rest[j+2:]
	}
	return regexp.Compile(b.String())
}

// diagVerifier checks the diagnostics of one chunk against its
// expectations, as MLIR's SourceMgrDiagnosticVerifierHandler does.
type diagVerifier struct {
	file         string // the input: diagnostics located in other files match no expectation
	exps         []*expectation
	onlyExpected bool     // -verify-diagnostics=only-expected
	failures     []report // what to report, in order
}

// process checks one diagnostic (and then its notes).
func (v *diagVerifier) process(d ir.Diagnostic) {
	v.processOne(d)
	for _, n := range d.Notes {
		if strings.HasPrefix(n.Msg, "see current operation") {
			continue // mlir-opt does not attach the op to diagnostics it verifies
		}
		v.processOne(n)
	}
}

func (v *diagVerifier) processOne(d ir.Diagnostic) {
	var nearMiss *expectation
	for _, e := range v.exps {
		if d.Pos.IsValid() {
			if e.unknown || e.line != d.Pos.Line || d.Pos.File != v.file {
				continue
			}
		} else if !e.unknown {
			continue
		}
		if !e.match(d.Msg) {
			continue
		}
		if e.severity == d.Severity {
			e.matched = true
			return
		}
		nearMiss = e
	}
	if v.onlyExpected {
		return
	}
	if nearMiss != nil {
		v.failures = append(v.failures, report{Diagnostic: ir.Diagnostic{
			Pos:      nearMiss.pos,
			Severity: ir.Error,
			Msg:      fmt.Sprintf("'%s' diagnostic emitted when expecting a '%s'", d.Severity, nearMiss.severity),
		}})
		return
	}
	v.failures = append(v.failures, report{Diagnostic: ir.Diagnostic{
		Pos:      d.Pos,
		Severity: ir.Error,
		Msg:      fmt.Sprintf("unexpected %s: %s", d.Severity, d.Msg),
	}})
}

// finish reports every expectation that no diagnostic matched.
func (v *diagVerifier) finish() {
	for _, e := range v.exps {
		if !e.matched {
			pos := e.pos
			if e.unknown {
				pos = ir.Pos{} // MLIR reports these at "<unknown>:0"
			}
			v.failures = append(v.failures, report{
				Diagnostic: ir.Diagnostic{
					Pos:      pos,
					Severity: ir.Error,
					Msg:      fmt.Sprintf("expected %s \"%s\" was not produced", e.severity, e.text),
				},
				span: len(e.text),
			})
		}
	}
}
