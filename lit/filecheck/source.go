package filecheck

import (
	"fmt"
	"io"
	"strings"
)

// srcBuf is one named text buffer that diagnostics can point into: the
// check file, the input, or a synthetic buffer for command-line patterns.
type srcBuf struct {
	name string
	text string
	// lineStarts[i] is the offset of the first byte of line i+1.
	lineStarts []int
}

func newSrcBuf(name, text string) *srcBuf {
	b := &srcBuf{name: name, text: text, lineStarts: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			b.lineStarts = append(b.lineStarts, i+1)
		}
	}
	return b
}

// lineCol returns the 1-based line and column of offset off.
func (b *srcBuf) lineCol(off int) (int, int) {
	lo, hi := 0, len(b.lineStarts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if b.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1, off - b.lineStarts[lo] + 1
}

// line returns the text of 1-based line n, with its newline if it has one.
func (b *srcBuf) line(n int) string {
	end := len(b.text)
	if n < len(b.lineStarts) {
		end = b.lineStarts[n]
	}
	return b.text[b.lineStarts[n-1]:end]
}

// sref is a piece of a buffer, LLVM's StringRef with its location.
type sref struct {
	b      *srcBuf
	lo, hi int
}

func (r sref) str() string   { return r.b.text[r.lo:r.hi] }
func (r sref) len() int      { return r.hi - r.lo }
func (r sref) empty() bool   { return r.hi <= r.lo }
func (r sref) at(i int) byte { return r.b.text[r.lo+i] }

func (r sref) hasPrefix(p string) bool { return strings.HasPrefix(r.str(), p) }

func (r *sref) consume(p string) bool {
	if r.hasPrefix(p) {
		r.lo += len(p)
		return true
	}
	return false
}

func (r sref) dropFront(n int) sref {
	if n > r.len() {
		n = r.len()
	}
	return sref{r.b, r.lo + n, r.hi}
}

func (r sref) takeFront(n int) sref {
	if n > r.len() {
		n = r.len()
	}
	return sref{r.b, r.lo, r.lo + n}
}

func (r sref) ltrim() sref {
	for r.lo < r.hi && (r.b.text[r.lo] == ' ' || r.b.text[r.lo] == '\t') {
		r.lo++
	}
	return r
}

func (r sref) rtrim() sref {
	for r.lo < r.hi && (r.b.text[r.hi-1] == ' ' || r.b.text[r.hi-1] == '\t') {
		r.hi--
	}
	return r
}

func (r sref) index(s string) int { return strings.Index(r.str(), s) }

// Diagnostic kinds, as SourceMgr prints them.
const (
	kindError  = "error"
	kindNote   = "note"
	kindRemark = "remark"
)

// diagError is a located diagnostic: LLVM's ErrorDiagnostic.
type diagError struct {
	b      *srcBuf
	off    int
	msg    string
	ranges [][2]int // offsets in b, underlined in the message
	end    int      // end of the text the error is about (for the dump)
	exit   int      // exit status FileCheck uses for this error (0: default)
	// logged marks errors LLVM reports through logAllUnhandledErrors,
	// which adds an empty line after the diagnostic.
	logged bool
}

// markLogged sets logged on err when it is a *diagError and returns it.
func markLogged(err error) error {
	if de, ok := err.(*diagError); ok {
		de.logged = true
	}
	return err
}

func (e *diagError) Error() string {
	if e.b == nil {
		return e.msg
	}
	l, c := e.b.lineCol(e.off)
	return fmt.Sprintf("%s:%d:%d: %s", e.b.name, l, c, e.msg)
}

func errAt(r sref, msg string) *diagError {
	return &diagError{b: r.b, off: r.lo, end: max(r.lo, r.hi), msg: msg}
}

// ANSI sequences as llvm::raw_ostream emits them when colors are forced.
const (
	ansiBold  = "\x1b[1m" // SAVEDCOLOR
	ansiReset = "\x1b[0m"
)

// ansiColor is raw_ostream's OutputColor: code 0 black .. 6 cyan.
func ansiColor(code int, bold, bg bool) string {
	s := "\x1b[0;"
	if bold {
		s += "1;"
	}
	if bg {
		return s + "4" + string(rune('0'+code)) + "m"
	}
	return s + "3" + string(rune('0'+code)) + "m"
}

// Color codes of llvm::raw_ostream::Colors.
const (
	colorBlack   = 0
	colorRed     = 1
	colorGreen   = 2
	colorBlue    = 4
	colorMagenta = 5
	colorCyan    = 6
)

// printMessage writes a diagnostic the way llvm::SourceMgr::PrintMessage
// does: "name:line:col: kind: msg", the source line and a caret line, with
// LLVM's ANSI colors when color is set.
func printMessage(w io.Writer, color bool, b *srcBuf, off int, kind, msg string, ranges ...[2]int) {
	line, col := b.lineCol(off)
	var sb strings.Builder
	loc := fmt.Sprintf("%s:%d:%d: ", b.name, line, col)
	if color {
		kindColor := map[string]int{kindError: colorRed, kindNote: colorBlack, kindRemark: colorBlue}[kind]
		sb.WriteString(ansiBold + loc + ansiReset + ansiColor(kindColor, true, false) + kind + ": " + ansiReset + ansiBold + msg + "\n" + ansiReset)
	} else {
		sb.WriteString(loc + kind + ": " + msg + "\n")
	}
	// The line around off, bounded by \n or \r as SourceMgr does.
	ls := off
	for ls > 0 && b.text[ls-1] != '\n' && b.text[ls-1] != '\r' {
		ls--
	}
	le := off
	for le < len(b.text) && b.text[le] != '\n' && b.text[le] != '\r' {
		le++
	}
	content := b.text[ls:le]
	caret := []byte(strings.Repeat(" ", len(content)+1))
	for _, r := range ranges {
		s, e := r[0], r[1]
		if s > le || e < ls {
			continue
		}
		s = max(s, ls)
		e = min(e, le)
		for i := s - ls; i < e-ls; i++ {
			caret[i] = '~'
		}
	}
	if c := off - ls; c <= len(content) {
		caret[c] = '^'
	}
	caretStr := strings.TrimRight(string(caret), " ")
	writeExpanded(&sb, content, content, false)
	sb.WriteByte('\n')
	if color {
		sb.WriteString(ansiColor(colorGreen, true, false))
	}
	writeExpanded(&sb, caretStr, content, true)
	sb.WriteByte('\n')
	if color {
		sb.WriteString(ansiReset)
	}
	io.WriteString(w, sb.String())
}

// writeExpanded writes s, expanding each position where ref has a tab to
// the next multiple of 8 columns, as SourceMgr does: the source line is
// filled with spaces, the caret line repeats its own character.
func writeExpanded(sb *strings.Builder, s, ref string, isCaret bool) {
	if !strings.Contains(ref, "\t") {
		sb.WriteString(s)
		return
	}
	col := 0
	for i := 0; i < len(s); i++ {
		if i >= len(ref) || ref[i] != '\t' {
			sb.WriteByte(s[i])
			col++
			continue
		}
		fill := byte(' ')
		if isCaret {
			fill = s[i]
		}
		for {
			sb.WriteByte(fill)
			col++
			if col%8 == 0 {
				break
			}
		}
	}
}
