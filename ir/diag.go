package ir

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a source position: a file name and a 1-based line and column (in
// bytes). The zero Pos means "no position".
type Pos struct {
	File      string
	Line, Col int
}

// IsValid reports whether p carries a line number.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as MLIR does: "file:line:col".
func (p Pos) String() string {
	file := p.File
	if file == "" {
		file = "<stdin>"
	}
	if !p.IsValid() {
		return file + ":0:0"
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

// Before reports whether p sorts before q (by file, line, column).
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Severity is the kind of a diagnostic.
type Severity int

// The severities, in MLIR's spelling order.
const (
	Error Severity = iota
	Warning
	Remark
	Note
)

// String returns "error", "warning", "remark" or "note".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Remark:
		return "remark"
	case Note:
		return "note"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// Diagnostic is one message attached to a source position, with optional
// notes (each a Diagnostic of severity Note, usually).
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Msg      string
	Notes    []Diagnostic
}

// String formats d and its notes as MLIR prints them:
//
//	file:line:col: error: msg
//	file:line:col: note: note msg
func (d Diagnostic) String() string {
	var b strings.Builder
	d.write(&b)
	return strings.TrimSuffix(b.String(), "\n")
}

func (d Diagnostic) write(b *strings.Builder) {
	fmt.Fprintf(b, "%s: %s: %s\n", d.Pos, d.Severity, d.Msg)
	for _, n := range d.Notes {
		n.write(b)
	}
}

// Diagnostics is a list of diagnostics. A non-empty list is an error value.
type Diagnostics []Diagnostic

// Error prints every diagnostic in MLIR style, one per line (notes follow
// their diagnostic).
func (ds Diagnostics) Error() string {
	var b strings.Builder
	for _, d := range ds {
		d.write(&b)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// HasErrors reports whether ds contains a diagnostic of severity Error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns ds as an error, or nil when ds has no errors.
func (ds Diagnostics) Err() error {
	if !ds.HasErrors() {
		return nil
	}
	return ds
}

// Sort orders ds by position (stable, so diagnostics at one position keep
// their order).
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Pos.Before(ds[j].Pos) })
}

// Len is the number of diagnostics (sort.Interface).
func (ds Diagnostics) Len() int { return len(ds) }

// Less orders diagnostics by position (sort.Interface).
func (ds Diagnostics) Less(i, j int) bool { return ds[i].Pos.Before(ds[j].Pos) }

// Swap exchanges two diagnostics (sort.Interface).
func (ds Diagnostics) Swap(i, j int) { ds[i], ds[j] = ds[j], ds[i] }

// Errorf appends an error diagnostic at pos.
func (ds *Diagnostics) Errorf(pos Pos, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Pos: pos, Severity: Error, Msg: fmt.Sprintf(format, args...)})
}

// Render formats ds as mlir-opt prints diagnostics on a terminal: each
// line `file:line:col: severity: msg` followed by the source line and a
// caret under the column, when the position lies in src (whose first line
// is line startLine; 0 means 1).
func (ds Diagnostics) Render(src []byte, startLine int) string {
	if startLine <= 0 {
		startLine = 1
	}
	lines := strings.Split(string(src), "\n")
	var b strings.Builder
	var write func(d Diagnostic)
	write = func(d Diagnostic) {
		fmt.Fprintf(&b, "%s: %s: %s\n", d.Pos, d.Severity, d.Msg)
		if i := d.Pos.Line - startLine; d.Pos.IsValid() && i >= 0 && i < len(lines) {
			line := strings.TrimSuffix(lines[i], "\r")
			b.WriteString(line)
			b.WriteByte('\n')
			col := d.Pos.Col - 1
			if col > len(line) {
				col = len(line)
			}
			for k := 0; k < col; k++ {
				if line[k] == '\t' {
					b.WriteByte('\t')
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteString("^\n")
		}
		for _, n := range d.Notes {
			write(n)
		}
	}
	for _, d := range ds {
		write(d)
	}
	return b.String()
}
