package tensorlayout

import (
	"fmt"
	"strconv"

	"github.com/layoutopt/layoutopt/cute"
)

// cuteShades are the eight grey levels CuTe's print_latex cycles through
// (offset mod 8), lightest first.
var cuteShades = []string{"#FFFFFF", "#EEEEEE", "#DDDDDD", "#CCCCCC", "#F4F4F4", "#E4E4E4", "#D4D4D4", "#C4C4C4"}

// modeSeps returns the separators of a mode of the given shape: after
// every product of its leading leaves, heavier for the outer ones (a mode
// (2,4) gets a line every 2 rows; (2,2,2) one every 2, a heavier one every
// 4). Positions are in cells of bs elements.
func modeSeps(t cute.IntTuple, bs int) map[int]int {
	leaves := t.Leaves()
	seps := map[int]int{}
	if len(leaves) < 2 {
		return seps
	}
	size := t.Size()
	p := 1
	for i, l := range leaves[:len(leaves)-1] {
		p *= l
		if p%bs != 0 {
			continue
		}
		for k := p; k < size; k += p {
			seps[k/bs] = max(seps[k/bs], min(i+2, 3))
		}
	}
	return seps
}

// cuteFigure is -view svg of a CuTe layout: Mojo's print_layout grid (rows
// are mode-0 coordinates, columns mode-1, each cell the offset) as a
// picture, the cells shaded by offset mod 8 as print_latex does, and the
// nested modes outlined.
func cuteFigure(l cute.SwizzledLayout, lim svgLimits) (*figure, error) {
	if l.Layout.Rank() != 2 {
		return nil, fmt.Errorf("a picture needs a rank-2 layout; %v has rank %d", l.Format(cute.CuTeNotation), l.Layout.Rank())
	}
	rows, cols := l.Layout.Mode(0).Size(), l.Layout.Mode(1).Size()
	if rows*cols > 1<<20 {
		return nil, fmt.Errorf("the layout has %d×%d cells, more than a picture shows", rows, cols)
	}
	br, bc := 1, 1
	for (rows+br-1)/br > lim.maxSide {
		br *= 2
	}
	for (cols+bc-1)/bc > lim.maxSide {
		bc *= 2
	}
	g := newGrid("", (rows+br-1)/br, (cols+bc-1)/bc, br, bc)
	labels := br == 1 && bc == 1 && rows*cols <= lim.maxLabelCells && cols <= lim.maxLabelCols
	if labels {
		g.label = make([]string, len(g.fill))
		g.title = make([]string, len(g.fill))
	}
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.cols; c++ {
			v, err := l.At(r*br, c*bc)
			if err != nil {
				return nil, err
			}
			i := r*g.cols + c
			g.fill[i] = cuteShades[((v%8)+8)%8]
			if labels {
				g.label[i] = strconv.Itoa(v)
				g.title[i] = fmt.Sprintf("(%d, %d) → %d", r, c, v)
			}
		}
	}
	f := &figure{title: l.Format(cute.MojoNotation)}
	f.notes = append(f.notes, fmt.Sprintf("rows: mode 0 (%v), columns: mode 1 (%v), each cell its offset; shade: offset mod 8; lines: nested modes",
		l.Layout.Shape().At(0), l.Layout.Shape().At(1)))
	if br > 1 || bc > 1 {
		f.notes = append(f.notes, fmt.Sprintf("large layout: each cell is a block of %d×%d coordinates, shaded by its first offset", br, bc))
	}
	f.columns = []column{{grids: []*cellGrid{g},
		rowSeps: modeSeps(l.Layout.Shape().At(0), br), colSeps: modeSeps(l.Layout.Shape().At(1), bc)}}
	return f, nil
}
