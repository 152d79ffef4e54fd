package cute

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// A Function2D is a layout that WriteGrid, WriteTable, PrintTable and Table
// draw as a table; Layout and SwizzledLayout implement it. Only a rank-2
// layout of at most 2^20 cells can be drawn; others give an error.
type Function2D interface {
	At(coords ...int) (int, error)
	Format(n Notation) string
	table() (rows, cols, cosize int, err error)
}

// table checks that l can be drawn (rank 2, at most maxTableCells cells) and
// returns its dimensions and the cosize that sets the cell width.
func (l Layout) table() (rows, cols, cosize int, err error) {
	if l.Rank() != 2 {
		return 0, 0, 0, errorf("a table needs a rank-2 layout; %v has rank %d", l, l.Rank())
	}
	rows, cols = l.Mode(0).Size(), l.Mode(1).Size()
	if rows*cols > maxTableCells {
		return 0, 0, 0, errorf("table of %d×%d cells is too large to print", rows, cols)
	}
	return rows, cols, l.Cosize(), nil
}

// table is Layout.table with the cosize of the swizzled offsets, which it
// evaluates in full.
func (s SwizzledLayout) table() (rows, cols, cosize int, err error) {
	rows, cols, _, err = s.Layout.table()
	if err != nil {
		return 0, 0, 0, err
	}
	cosize = 1
	for _, v := range s.Values() {
		cosize = max(cosize, v+1)
	}
	return rows, cols, cosize, nil
}

// maxTableCells bounds the tables this package draws.
const maxTableCells = 1 << 20

// WriteGrid writes the table of a rank-2 layout without a title line, as
// Mojo's format_layout does: rows are mode-0 coordinates and columns mode-1
// coordinates, each split colexicographically within its mode, and each cell
// holds the offset. Cells are digits(cosize)+2 wide. In CuTeNotation the
// column-number line ends with a space after every column, as CuTe C++'s
// print_layout writes it; in MojoNotation only columns are separated.
func WriteGrid(w io.Writer, f Function2D, n Notation) error {
	rows, cols, cosize, err := f.table()
	if err != nil {
		return err
	}
	return writeGrid(w, f, n, rows, cols, cosize)
}

// writeGrid is WriteGrid with the dimensions f.table returned.
func writeGrid(w io.Writer, f Function2D, n Notation, rows, cols, cosize int) error {
	bw := bufio.NewWriter(w)
	width := len(strconv.Itoa(cosize)) + 2
	pad := func(v, width int) {
		s := strconv.Itoa(v)
		for i := len(s); i < width; i++ {
			bw.WriteByte(' ')
		}
		bw.WriteString(s)
	}
	border := "    " + strings.Repeat("+"+strings.Repeat("-", width), cols) + "+\n"
	bw.WriteString("    ")
	for c := range cols {
		bw.WriteString("  ")
		pad(c, width-2)
		if n == CuTeNotation || c+1 < cols {
			bw.WriteByte(' ')
		}
	}
	bw.WriteByte('\n')
	for r := range rows {
		bw.WriteString(border)
		pad(r, 2)
		bw.WriteString("  ")
		for c := range cols {
			v, err := f.At(r, c)
			if err != nil {
				return err
			}
			bw.WriteString("| ")
			pad(v, width-2)
			bw.WriteByte(' ')
		}
		bw.WriteString("|\n")
	}
	bw.WriteString(border)
	return bw.Flush()
}

// WriteTable writes the layout's string in notation n on one line, then its
// grid (see WriteGrid). With MojoNotation this is byte for byte Mojo's
// print_layout; with CuTeNotation it is CuTe C++'s print_layout (with
// dynamic integers, so without '_' prefixes).
func WriteTable(w io.Writer, f Function2D, n Notation) error {
	rows, cols, cosize, err := f.table()
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, f.Format(n)+"\n"); err != nil {
		return err
	}
	return writeGrid(w, f, n, rows, cols, cosize)
}

// PrintTable writes Mojo's print_layout of f to w.
func PrintTable(w io.Writer, f Function2D) error { return WriteTable(w, f, MojoNotation) }

// Table returns Mojo's print_layout text of f, for example for
// RowMajor(3, 4):
//
//	((3, 4):(4, 1))
//	       0    1    2    3
//	    +----+----+----+----+
//	 0  |  0 |  1 |  2 |  3 |
//	    +----+----+----+----+
//	 …
func Table(f Function2D) (string, error) {
	var b strings.Builder
	if err := PrintTable(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}
