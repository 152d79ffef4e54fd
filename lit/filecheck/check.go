package filecheck

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// matchType classifies a diagnostic for the input dump: FileCheckDiag's
// MatchType.
type matchType int

const (
	matchFoundAndExpected matchType = iota
	matchFoundButExcluded
	matchFoundButWrongLine
	matchFoundButDiscarded
	matchFoundErrorNote
	matchNoneAndExcluded
	matchNoneButExpected
	matchNoneForInvalidPattern
	matchFuzzy
)

// fcDiag is one recorded diagnostic, rendered later in the input dump.
type fcDiag struct {
	typ        checkType
	count      int
	checkBuf   *srcBuf
	checkOff   int
	mt         matchType
	start, end int // input offsets
	note       string
}

// nextFailure records a failing CHECK-NEXT/SAME/EMPTY block for the diff.
type nextFailure struct {
	cs        *checkString
	searchBeg int
}

// checker runs the checks of one check file over one input.
type checker struct {
	w       io.Writer
	in      *srcBuf
	cf      *checkFile
	o       *Options
	collect bool
	diags   []fcDiag
	nexts   []nextFailure
}

func (c *checker) verbose() bool     { return c.o.Verbose || c.o.VeryVerbose }
func (c *checker) veryVerbose() bool { return c.o.VeryVerbose }

// msgAt prints a SourceMgr-style message located at r.
func (c *checker) msgAt(r sref, kind, msg string) {
	printMessage(c.w, c.o.Color, r.b, r.lo, kind, msg)
}

// inMsg prints a message located in the input.
func (c *checker) inMsg(off int, kind, msg string, ranges ...[2]int) {
	printMessage(c.w, c.o.Color, c.in, off, kind, msg, ranges...)
}

func (c *checker) logErr(err error) {
	if de, ok := err.(*diagError); ok {
		b := de.b
		if b == nil {
			b = c.in
		}
		printMessage(c.w, c.o.Color, b, de.off, kindError, de.msg, de.ranges...)
		return
	}
	fmt.Fprintln(c.w, err)
}

func (c *checker) addDiag(pat *pattern, mt matchType, start, end int, note string) {
	if !c.collect {
		return
	}
	c.diags = append(c.diags, fcDiag{typ: pat.typ, count: pat.count, checkBuf: pat.loc.b, checkOff: pat.loc.lo, mt: mt, start: start, end: end, note: note})
}

// processMatchResult records a diagnostic for [start, start+n); with
// adjustPrev, it retypes the last pattern's diagnostics instead.
func (c *checker) processMatchResult(mt matchType, pat *pattern, start, n int, adjustPrev bool) {
	if !c.collect {
		return
	}
	if adjustPrev && len(c.diags) > 0 {
		c.retypeLastDiags(mt)
		return
	}
	c.addDiag(pat, mt, start, start+n, "")
}

// retypeLastDiags sets the match type of the trailing diagnostics that
// belong to the same pattern as the last one.
func (c *checker) retypeLastDiags(mt matchType) {
	last := c.diags[len(c.diags)-1]
	for i := len(c.diags) - 1; i >= 0 && c.diags[i].checkBuf == last.checkBuf && c.diags[i].checkOff == last.checkOff; i-- {
		c.diags[i].mt = mt
	}
}

func countSuffix(pat *pattern, i int) string {
	if pat.count > 1 {
		return fmt.Sprintf(" (%d out of %d)", i, pat.count)
	}
	return ""
}

// report is reportMatchResult/printMatch/printNoMatch. bufStart
// and bufEnd delimit the searched text. It reports whether an error was
// reported.
func (c *checker) report(expected bool, prefix string, pat *pattern, count int, bufStart, bufEnd int, res matchResult) bool {
	if res.found {
		return c.printMatch(expected, prefix, pat, count, bufStart, res)
	}
	return c.printNoMatch(expected, prefix, pat, count, bufStart, bufEnd, res.errs)
}

func (c *checker) printMatch(expected bool, prefix string, pat *pattern, count int, bufStart int, res matchResult) bool {
	hasErr := !expected || len(res.errs) > 0
	printDiag := true
	if !hasErr {
		if !c.verbose() || (!c.veryVerbose() && pat.typ == checkEOF) {
			return false
		}
		printDiag = !c.collect
	}
	mt := matchFoundAndExpected
	if !expected {
		mt = matchFoundButExcluded
	}
	start, end := bufStart+res.pos, bufStart+res.pos+res.n
	c.processMatchResult(mt, pat, start, res.n, false)
	if c.collect {
		c.substitutionDiags(pat, start, mt)
		c.varDefDiags(pat, mt)
	}
	if !printDiag {
		return hasErr
	}
	kind := kindRemark
	word := "expected"
	if !expected {
		kind, word = kindError, "excluded"
	}
	c.msgAt(pat.loc, kind, fmt.Sprintf("%s: %s string found in input%s", pat.description(prefix), word, countSuffix(pat, count)))
	c.inMsg(start, kindNote, "found here", [2]int{start, end})
	c.printSubstitutions(pat, start)
	c.printVarDefs(pat)
	for _, e := range res.errs {
		c.logErr(e)
		if de, ok := e.(*diagError); ok {
			c.addDiag(pat, matchFoundErrorNote, de.off, max(de.off, de.end), de.msg)
		}
	}
	return hasErr
}

func (c *checker) printNoMatch(expected bool, prefix string, pat *pattern, count int, bufStart, bufEnd int, errs []error) bool {
	hasErr := expected
	hasPatErr := len(errs) > 0
	mt := matchNoneAndExcluded
	if expected {
		mt = matchNoneButExpected
	}
	if hasPatErr {
		hasErr = true
		mt = matchNoneForInvalidPattern
		for _, e := range errs {
			c.logErr(e)
		}
	}
	printDiag := true
	if !hasErr {
		if !c.veryVerbose() {
			return false
		}
		printDiag = !c.collect
	}
	c.processMatchResult(mt, pat, bufStart, bufEnd-bufStart, false)
	if c.collect {
		for _, e := range errs {
			msg := e.Error()
			if de, ok := e.(*diagError); ok {
				msg = de.msg
			}
			c.addDiag(pat, mt, bufStart, bufStart, msg)
		}
		c.substitutionDiags(pat, bufStart, mt)
	}
	if printDiag && !hasPatErr {
		kind := kindRemark
		word := "excluded"
		if expected {
			kind, word = kindError, "expected"
		}
		c.msgAt(pat.loc, kind, fmt.Sprintf("%s: %s string not found in input%s", pat.description(prefix), word, countSuffix(pat, count)))
		c.inMsg(bufStart, kindNote, "scanning from here")
	}
	if printDiag {
		c.printSubstitutions(pat, bufStart)
		if expected {
			c.printFuzzyMatch(pat, bufStart, bufEnd)
		}
	}
	return hasErr
}

// substitutionMessages lists the "with X equal to Y" notes of pat.
func substitutionMessages(pat *pattern) []string {
	var out []string
	for _, s := range pat.substs {
		v, errs := s.result(pat.ctx)
		if len(errs) > 0 {
			continue
		}
		if s.expr == nil {
			// LLVM shows the regex-escaped value of string variables.
			v = llvmEscape(v)
		}
		out = append(out, `with "`+writeEscaped(s.from.str())+`" equal to "`+writeEscaped(v)+`"`)
	}
	return out
}

func (c *checker) printSubstitutions(pat *pattern, at int) {
	for _, m := range substitutionMessages(pat) {
		c.inMsg(at, kindNote, m)
	}
}

func (c *checker) substitutionDiags(pat *pattern, at int, mt matchType) {
	for _, m := range substitutionMessages(pat) {
		c.addDiag(pat, mt, at, at, m)
	}
}

type varCapture struct {
	name       string
	start, end int
}

func varCaptures(pat *pattern) []varCapture {
	var out []varCapture
	for _, i := range pat.strDefs {
		name := pat.pieces[i].name
		v := pat.ctx.strVars[name]
		out = append(out, varCapture{name, v.off, v.off + len(v.text)})
	}
	for _, i := range pat.numDefs {
		nv := pat.pieces[i].nv
		if nv.value == nil || nv.strLen < 0 {
			continue
		}
		out = append(out, varCapture{nv.name, nv.strOff, nv.strOff + nv.strLen})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

func (c *checker) printVarDefs(pat *pattern) {
	for _, vc := range varCaptures(pat) {
		c.inMsg(vc.start, kindNote, `captured var "`+vc.name+`"`, [2]int{vc.start, vc.end})
	}
}

func (c *checker) varDefDiags(pat *pattern, mt matchType) {
	for _, vc := range varCaptures(pat) {
		c.addDiag(pat, mt, vc.start, vc.end, `captured var "`+vc.name+`"`)
	}
}

// writeEscaped is raw_ostream::write_escaped.
func writeEscaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\':
			b.WriteString(`\\`)
		case ch == '\t':
			b.WriteString(`\t`)
		case ch == '\n':
			b.WriteString(`\n`)
		case ch == '"':
			b.WriteString(`\"`)
		case ch < 0x20 || ch >= 0x7f:
			fmt.Fprintf(&b, `\%03o`, ch)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// fuzzyExample is the string the fuzzy matcher compares against.
func fuzzyExample(pat *pattern) string {
	if pat.fixed != "" {
		return pat.fixed
	}
	return pat.llvmRe
}

// printFuzzyMatch is Pattern::printFuzzyMatch.
func (c *checker) printFuzzyMatch(pat *pattern, bufStart, bufEnd int) {
	buf := c.in.text[bufStart:bufEnd]
	example := fuzzyExample(pat)
	if example == "" {
		// LLVM computes an edit distance against an empty example string
		// from an uninitialized value here, so its note is unpredictable;
		// an empty example carries no information, so print none.
		return
	}
	lines := 0
	best := -1
	bestQ := 0.0
	limit := min(4096, len(buf))
	for i := 0; i < limit; i++ {
		if buf[i] == '\n' {
			lines++
		}
		if buf[i] == ' ' || buf[i] == '\t' {
			continue
		}
		prefix := buf[i:min(len(buf), i+len(example))]
		if j := strings.IndexByte(prefix, '\n'); j >= 0 {
			prefix = prefix[:j]
		}
		q := float64(editDistance(prefix, example)) + float64(lines)/100
		if best < 0 || q < bestQ {
			best, bestQ = i, q
		}
	}
	if best > 0 && bestQ < 50 {
		c.processMatchResult(matchFuzzy, pat, bufStart+best, 0, false)
		c.inMsg(bufStart+best, kindNote, "possible intended match here")
	}
}

// editDistance is the Levenshtein distance (StringRef::edit_distance).
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			old := row[j]
			if a[i-1] == b[j-1] {
				row[j] = prev
			} else {
				row[j] = 1 + min(prev, row[j], row[j-1])
			}
			prev = old
		}
	}
	return row[len(b)]
}

// countNewlines is CountNumNewlinesBetween; it also returns the offset
// just after the first newline.
func countNewlines(s string, base int) (int, int) {
	n, first := 0, -1
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "\n\r")
		if j < 0 {
			break
		}
		i += j
		n++
		if i+1 < len(s) && (s[i+1] == '\n' || s[i+1] == '\r') && s[i] != s[i+1] {
			i++
		}
		i++
		if n == 1 {
			first = base + i
		}
	}
	return n, first
}

// checkLineRule verifies the newline count before a NEXT/EMPTY/SAME match
// and reports whether it failed; [start, end) is the text between the
// previous match and this one.
func (c *checker) checkLineRule(cs *checkString, start, end int) bool {
	t := cs.pat.typ
	if t != checkNext && t != checkEmpty && t != checkSame {
		return false
	}
	n, first := countNewlines(c.in.text[start:end], start)
	name := cs.prefix + "-NEXT"
	if t == checkEmpty {
		name = cs.prefix + "-EMPTY"
	}
	var msg string
	switch {
	case t == checkSame && n == 0, t != checkSame && n == 1:
		return false
	case t == checkSame:
		msg = cs.prefix + "-SAME: is not on the same line as the previous match"
	case n == 0:
		msg = name + ": is on the same line as previous match"
	default:
		msg = name + ": is not on the line after the previous match"
	}
	c.msgAt(cs.loc, kindError, msg)
	c.inMsg(end, kindNote, "'next' match was here")
	c.inMsg(start, kindNote, "previous match ended here")
	if t != checkSame && n > 1 {
		c.inMsg(first, kindNote, "non-matching line after previous match is here")
	}
	return true
}

// checkNot is FileCheckString::CheckNot over [start, end).
func (c *checker) checkNot(cs *checkString, start, end int, nots []*pattern) bool {
	failed := false
	for _, pat := range nots {
		res := pat.match(c.in.text[start:end], start)
		if c.report(false, cs.prefix, pat, 1, start, end, res) {
			failed = true
		}
	}
	return failed
}

// checkDag is FileCheckString::CheckDag over [start, end); it returns the
// absolute offset where the following positive match must start searching,
// or -1 on failure, and the CHECK-NOTs left after the last group.
func (c *checker) checkDag(cs *checkString, start, end int) (int, []*pattern) {
	if len(cs.dagNot) == 0 {
		return start, nil
	}
	var nots []*pattern
	startPos := start
	type rng struct{ pos, end int }
	var ranges []rng
	for k, pat := range cs.dagNot {
		if pat.typ == checkNot {
			nots = append(nots, pat)
			continue
		}
		matchLen, matchPos := 0, startPos
		mi := 0
		for {
			res := pat.match(c.in.text[matchPos:end], matchPos)
			if !res.found || len(res.errs) > 0 || c.veryVerbose() {
				if c.report(true, cs.prefix, pat, 1, matchPos, end, res) {
					return -1, nil
				}
			}
			matchLen = res.n
			matchPos += res.pos
			m := rng{matchPos, matchPos + matchLen}
			if c.o.AllowDeprecatedDagOverlap {
				if len(ranges) == 0 {
					ranges = append(ranges, m)
				} else {
					ranges[0].pos = min(ranges[0].pos, m.pos)
					ranges[0].end = max(ranges[0].end, m.end)
				}
				break
			}
			overlap := false
			for ; mi < len(ranges); mi++ {
				if m.pos < ranges[mi].end {
					overlap = ranges[mi].pos < m.end
					break
				}
			}
			if !overlap {
				ranges = append(ranges, rng{})
				copy(ranges[mi+1:], ranges[mi:])
				ranges[mi] = m
				break
			}
			if c.veryVerbose() {
				if !c.collect {
					old := ranges[mi]
					c.inMsg(old.pos, kindNote, "match discarded, overlaps earlier DAG match here", [2]int{old.pos, old.end})
				} else if len(c.diags) > 0 {
					c.retypeLastDiags(matchFoundButDiscarded)
				}
			}
			matchPos = ranges[mi].end
			mi++
		}
		if !c.veryVerbose() {
			c.printMatch(true, cs.prefix, pat, 1, 0, matchResult{found: true, pos: matchPos, n: matchLen})
		}
		if k+1 == len(cs.dagNot) || cs.dagNot[k+1].typ == checkNot {
			if len(nots) > 0 {
				if c.checkNot(cs, startPos, ranges[0].pos, nots) {
					return -1, nil
				}
				nots = nil
			}
			startPos = ranges[len(ranges)-1].end
			ranges = ranges[:0]
		}
	}
	return startPos, nots
}

// check is FileCheckString::Check over [start, end). It returns the
// absolute offset of the first match and the length up to the end of the
// last one, or -1.
func (c *checker) check(cs *checkString, start, end int, labelScan bool) (int, int) {
	lastPos := start
	var nots []*pattern
	if !labelScan {
		lastPos, nots = c.checkDag(cs, start, end)
		if lastPos < 0 {
			return -1, 0
		}
	}
	lastMatchEnd := lastPos
	firstMatch := 0
	pat := cs.pat
	for i := 1; i <= pat.count; i++ {
		res := pat.match(c.in.text[lastMatchEnd:end], lastMatchEnd)
		if c.report(true, cs.prefix, pat, i, lastMatchEnd, end, res) {
			if cs.pat.typ == checkNext || cs.pat.typ == checkEmpty {
				c.nexts = append(c.nexts, nextFailure{cs, lastMatchEnd})
			}
			return -1, 0
		}
		if i == 1 {
			firstMatch = lastMatchEnd + res.pos
		}
		lastMatchEnd += res.pos + res.n
	}
	matchLen := lastMatchEnd - firstMatch
	if !labelScan {
		if c.checkLineRule(cs, lastPos, firstMatch) {
			c.processMatchResult(matchFoundButWrongLine, pat, firstMatch, matchLen, c.verbose())
			if cs.pat.typ != checkSame {
				c.nexts = append(c.nexts, nextFailure{cs, lastPos})
			}
			return -1, 0
		}
		if c.checkNot(cs, lastPos, firstMatch, nots) {
			return -1, 0
		}
	}
	return firstMatch, matchLen
}

// checkInput is FileCheck::checkInput.
func (c *checker) checkInput() bool {
	failed := false
	strs := c.cf.strings
	buf := 0
	end := len(c.in.text)
	i, j := 0, 0
	for {
		var regionStart, regionEnd int
		if j == len(strs) {
			regionStart, regionEnd = buf, end
		} else {
			label := strs[j]
			if label.pat.typ != checkLabel {
				j++
				continue
			}
			pos, n := c.check(label, buf, end, true)
			if pos < 0 {
				return false
			}
			regionStart, regionEnd = buf, pos+n
			buf = pos + n
			j++
		}
		if i != 0 && c.o.EnableVarScope {
			c.cf.ctx.clearLocalVars()
		}
		for ; i != j; i++ {
			pos, n := c.check(strs[i], regionStart, regionEnd, false)
			if pos < 0 {
				failed = true
				i = j
				break
			}
			regionStart = pos + n
		}
		if j == len(strs) {
			break
		}
	}
	return !failed
}
