package optdriver

import (
	"fmt"
	"io"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// report is a diagnostic to print, with an optional span: how many bytes
// from its column to underline with '~' (MLIR underlines the text of an
// expectation that was not produced).
type report struct {
	ir.Diagnostic
	span int
}

// source is the input being processed, for quoting source lines in
// diagnostics the way LLVM's SourceMgr does.
type source struct {
	file  string
	text  string   // the whole input
	lines []string // lines of text, without "\n"; split at the first diagnostic
}

func newSource(file, text string) *source {
	return &source{file: file, text: text}
}

// print writes r and its notes:
//
//	t.mlir:7:10: error: message
//	    %1 = tt.foo %0
//	         ^
//
// A note repeats the source line only when its position differs from the
// previous one.
func (s *source) print(w io.Writer, r report) {
	var b strings.Builder
	s.write(&b, r.Diagnostic, r.span, true)
	prev := r.Pos
	for _, n := range r.Notes {
		s.write(&b, n, 0, n.Pos != prev)
		prev = n.Pos
	}
	io.WriteString(w, b.String())
}

func (s *source) write(b *strings.Builder, d ir.Diagnostic, span int, showLine bool) {
	if !d.Pos.IsValid() {
		fmt.Fprintf(b, "<unknown>:0: %s: %s\n", d.Severity, d.Msg)
		return
	}
	fmt.Fprintf(b, "%s: %s: %s\n", d.Pos, d.Severity, d.Msg)
	if !showLine || s == nil || d.Pos.File != s.file {
		return
	}
	if s.lines == nil {
		// Split only when a diagnostic quotes a line: a run without any
		// does not pay for a slice header per line of a large input.
		s.lines = strings.Split(s.text, "\n")
	}
	if d.Pos.Line > len(s.lines) {
		return
	}
	line := strings.TrimRight(s.lines[d.Pos.Line-1], "\r")
	b.WriteString(line)
	b.WriteByte('\n')
	col := max(d.Pos.Col-1, 0)
	for i := 0; i < col; i++ {
		if i < len(line) && line[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	if end := min(col+span, len(line)); end > col+1 {
		b.WriteString(strings.Repeat("~", end-col-1))
	}
	b.WriteByte('\n')
}
