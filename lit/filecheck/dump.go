package filecheck

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// DumpHelp is the text printed by --dump-input=help (LLVM 14, no colors).
const DumpHelp = `The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines
  - -v and -vv add more annotations
  - -color forces colors to be enabled both in the dump and below
  - -help documents the above options in more detail

These options can also be set via FILECHECK_OPTS.  For example, for
maximum debugging output on failures:

  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check

Input dump annotation format:

  - L:     labels line number L of the input file
           An extra space is added after each input line to represent the
           newline character
  - T:L    labels the only match result for either (1) a pattern of type T from
           line L of the check file if L is an integer or (2) the I-th implicit
           pattern if L is "imp" followed by an integer I (index origin one)
  - T:L'N  labels the Nth match result for such a pattern
  - ^~~    marks good match (reported if -v)
  - !~~    marks bad match, such as:
           - CHECK-NEXT on same line as previous match (error)
           - CHECK-NOT found (error)
           - CHECK-DAG overlapping match (discarded, reported if -vv)
  - X~~    marks search range when no match is found, such as:
           - CHECK-NEXT not found (error)
           - CHECK-NOT not found (success, reported if -vv)
           - CHECK-DAG not found after discarded matches (error)
  - ?      marks fuzzy match when no match is found
  - ...    indicates elided input lines and annotations, as specified by
           -dump-input-filter and -dump-input-context
  - colors success, error, fuzzy match, discarded match, unmatched input
`

type marker struct {
	lead         byte
	note         string
	filtersAsErr bool
	color        int
}

func markerFor(mt matchType) marker {
	switch mt {
	case matchFoundAndExpected:
		return marker{lead: '^', color: colorGreen}
	case matchFoundButExcluded:
		return marker{'!', "error: no match expected", true, colorRed}
	case matchFoundButWrongLine:
		return marker{'!', "error: match on wrong line", true, colorRed}
	case matchFoundButDiscarded:
		return marker{'!', "discard: overlaps earlier match", false, colorCyan}
	case matchFoundErrorNote:
		return marker{'!', "error: unknown error after match", true, colorRed}
	case matchNoneAndExcluded:
		return marker{lead: 'X', color: colorGreen}
	case matchNoneButExpected:
		return marker{'X', "error: no match found", true, colorRed}
	case matchNoneForInvalidPattern:
		return marker{'X', "error: match failed for invalid pattern", true, colorRed}
	case matchFuzzy:
		return marker{'?', "possible intended match", true, colorMagenta}
	}
	return marker{lead: ' '}
}

type annotation struct {
	diagIndex        int
	label            string
	firstLine        bool
	line             int
	startCol, endCol int // endCol is exclusive; math.MaxInt: to end of line
	m                marker
	foundExpected    bool // a good match for an expected pattern
}

// buildAnnotations is BuildInputAnnotations.
func (c *checker) buildAnnotations() ([]annotation, int) {
	type key struct {
		b   *srcBuf
		off int
	}
	perPattern := map[key]int{}
	for _, d := range c.diags {
		perPattern[key{d.checkBuf, d.checkOff}]++
	}
	index := map[key]int{}
	var out []annotation
	width := 0
	for i, d := range c.diags {
		k := key{d.checkBuf, d.checkOff}
		label := d.typ.abbrev(d.count) + ":"
		if d.checkBuf == c.cf.buf {
			l, _ := d.checkBuf.lineCol(d.checkOff)
			label += fmt.Sprint(l)
		} else {
			for n, ib := range c.cf.impBufs {
				if ib == d.checkBuf {
					label += fmt.Sprintf("imp%d", n+1)
				}
			}
		}
		if perPattern[k] > 1 {
			label += fmt.Sprintf("'%d", index[k])
			index[k]++
		}
		width = max(width, len(label))
		a := annotation{diagIndex: i, label: label, m: markerFor(d.mt), firstLine: true, foundExpected: d.mt == matchFoundAndExpected}
		sl, sc := c.in.lineCol(d.start)
		el, ec := c.in.lineCol(d.end)
		if d.note != "" {
			a.m.note = d.note
			if sl == el && sc == ec {
				a.m.lead = ' '
			}
		}
		if d.mt == matchFoundErrorNote {
			a.m.note = "error: " + a.m.note
		}
		a.line, a.startCol = sl, sc
		if sl == el {
			a.endCol = max(sc+1, ec)
			out = append(out, a)
			continue
		}
		a.endCol = math.MaxInt
		out = append(out, a)
		for l := sl + 1; l <= el; l++ {
			if ec == 1 && l == el {
				break
			}
			b := annotation{diagIndex: i, label: label, line: l, m: a.m, startCol: 1, foundExpected: a.foundExpected}
			b.m.lead = '~'
			b.m.note = ""
			if l != el {
				b.endCol = math.MaxInt
			} else {
				b.endCol = ec
			}
			out = append(out, b)
		}
	}
	return out, width
}

// filterMode is the --dump-input-filter value, in precedence order.
type filterMode int

const (
	filterError filterMode = iota
	filterAnnotation
	filterAnnotationFull
	filterAll
)

func nextLineInFilter(f filterMode, cur int, anns []annotation) int {
	if f == filterAll {
		return cur
	}
	for _, a := range anns {
		switch f {
		case filterAnnotationFull:
			return a.line
		case filterAnnotation:
			if a.firstLine {
				return a.line
			}
		case filterError:
			if a.firstLine && a.m.filtersAsErr {
				return a.line
			}
		}
	}
	return math.MaxInt
}

// dumpAnnotatedInput is DumpAnnotatedInput.
func (c *checker) dumpAnnotatedInput(w io.Writer, filter filterMode, context int) {
	anns, labelWidth := c.buildAnnotations()
	color := c.o.Color
	verbose := c.verbose()
	var sb strings.Builder
	sb.WriteString("Input was:\n<<<<<<\n")
	if color {
		sb.WriteString(ansiBold + ansiReset)
	}
	sort.SliceStable(anns, func(i, j int) bool {
		if anns[i].line != anns[j].line {
			return anns[i].line < anns[j].line
		}
		return anns[i].diagIndex < anns[j].diagIndex
	})
	text := c.in.text
	lineCount := strings.Count(text, "\n")
	if len(text) == 0 || text[len(text)-1] != '\n' {
		lineCount++
	}
	lineNoWidth := digits(lineCount)
	labelWidth = max(labelWidth, lineNoWidth) + 3
	prevInFilter, nextInFilter := 0, 0
	var elided strings.Builder
	flushElided := func() {
		if strings.Count(elided.String(), "\n") > 3 {
			for i := 0; i < 3; i++ {
				if color {
					fmt.Fprintf(&sb, "%s%*s%s\n", ansiColor(colorBlack, true, false), labelWidth, ".", ansiReset)
				} else {
					fmt.Fprintf(&sb, "%*s\n", labelWidth, ".")
				}
			}
		} else {
			sb.WriteString(elided.String())
		}
		elided.Reset()
	}
	p := 0
	ai := 0
	for line := 1; p < len(text) || ai < len(anns); line++ {
		lineStart := p
		if nextInFilter < line {
			nextInFilter = nextLineInFilter(filter, line, anns[ai:])
		}
		if nextInFilter == line {
			prevInFilter = line
		}
		out := &sb
		if (prevInFilter == 0 || prevInFilter+context < line) && (nextInFilter == math.MaxInt || line+context < nextInFilter) {
			out = &elided
		} else {
			flushElided()
		}
		if color {
			fmt.Fprintf(out, "%s%*d: %s", ansiColor(colorBlack, true, false), labelWidth, line, ansiReset)
		} else {
			fmt.Fprintf(out, "%*d: ", labelWidth, line)
		}
		var good []annotation
		if verbose && color {
			for _, a := range anns[ai:] {
				if a.line != line {
					break
				}
				if a.foundExpected {
					good = append(good, a)
				}
			}
		}
		if color {
			out.WriteString(ansiBold)
			if verbose {
				out.WriteString(ansiColor(colorCyan, true, true))
			}
		}
		inMatch := false
		for col := 1; p < len(text); col++ {
			was := inMatch
			inMatch = false
			for _, a := range good {
				if a.startCol <= col && col < a.endCol {
					inMatch = true
					break
				}
			}
			if !was && inMatch {
				out.WriteString(ansiReset)
			} else if was && !inMatch {
				out.WriteString(ansiColor(colorCyan, true, true))
			}
			ch := text[p]
			p++
			if ch == '\n' {
				out.WriteByte(' ')
				break
			}
			out.WriteByte(ch)
		}
		if color {
			out.WriteString(ansiReset)
		}
		out.WriteByte('\n')
		width := p - lineStart
		for ai < len(anns) && anns[ai].line == line {
			a := anns[ai]
			if color {
				out.WriteString(ansiColor(a.m.color, true, false))
			}
			fmt.Fprintf(out, "%-*s  ", labelWidth, a.label)
			col := 1
			for ; col < a.startCol; col++ {
				out.WriteByte(' ')
			}
			out.WriteByte(a.m.lead)
			for col++; col < a.endCol && col <= width; col++ {
				out.WriteByte('~')
			}
			if a.m.note != "" {
				for ; col <= width; col++ {
					out.WriteByte(' ')
				}
				out.WriteString(" " + a.m.note)
			}
			out.WriteByte('\n')
			if color {
				out.WriteString(ansiReset)
			}
			ai++
		}
	}
	flushElided()
	sb.WriteString(">>>>>>\n")
	io.WriteString(w, sb.String())
}

// digits returns the number of decimal digits of n (n >= 1).
func digits(n int) int {
	return int(math.Log10(float64(n))) + 1
}
