package tensorlayout

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The SVG views draw a tensor as a grid of cells, one per element, or one
// per block of elements when the tensor is large. Everything here is
// deterministic: the same layout gives the same bytes.

// warpPalette is Paul Tol's "muted" qualitative scheme, which stays
// distinguishable under the common colour-vision deficiencies; warps past
// its end reuse it in paler tints (see warpColour).
var warpPalette = []string{"#CC6677", "#332288", "#DDCC77", "#117733", "#88CCEE", "#882255", "#44AA99", "#999933", "#AA4499"}

// okabeIto is the Okabe–Ito palette without black, for the few categories
// of a conversion and for wavefronts.
var okabeIto = []string{"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}

const (
	mixedColour = "#BBBBBB" // a merged cell whose elements differ
	emptyColour = "#FFFFFF"
)

// warpColour is the colour of warp w (counting the warps of every CTA one
// after the other): the palette, then paler tints of it.
func warpColour(w int) string {
	c := warpPalette[w%len(warpPalette)]
	return tint(c, float64(w/len(warpPalette))*0.4)
}

// tint mixes the colour #RRGGBB with white, by f in [0, 1) (repeatedly
// past 1, never quite white).
func tint(c string, f float64) string {
	for f >= 1 {
		f -= 0.5
	}
	if f <= 0 {
		return c
	}
	v, _ := strconv.ParseUint(c[1:], 16, 32)
	r, g, b := float64(v>>16&0xff), float64(v>>8&0xff), float64(v&0xff)
	mix := func(x float64) int { return int(x + (255-x)*f + 0.5) }
	return fmt.Sprintf("#%02X%02X%02X", mix(r), mix(g), mix(b))
}

// bankPalette is Paul Tol's "light" qualitative scheme without its grey:
// eight colours made for cells that carry labels, distinguishable under
// the common colour-vision deficiencies, like the warp palette.
var bankPalette = []string{"#77AADD", "#99DDFF", "#44BB99", "#BBCC33", "#AAAA00", "#EEDD88", "#EE8866", "#FFAABB"}

// bankLevels are the lightness steps that tell apart the four banks of a
// palette colour (b, b+8, b+16, b+24): the colour, then darker shades of
// it (a negative step mixes with black, a positive one with white; the
// palette is light already, so paler tints would not stand apart).
var bankLevels = []float64{0, -0.25, -0.45, -0.65}

// bankColour is the colour of shared-memory bank b of 32, as the warp
// palette's approach extended to 32: neighbouring banks take neighbouring
// colours of bankPalette (banks b and b+1 always differ in hue), and the
// banks 8 apart that share a colour differ in lightness, which does not
// depend on colour vision. A swizzle shows as the colours moving from row
// to row.
func bankColour(b int) string {
	b &= 31
	c := bankPalette[b%len(bankPalette)]
	f := bankLevels[b/len(bankPalette)]
	if f < 0 {
		return shade(c, -f)
	}
	return tint(c, f)
}

// shade mixes the colour #RRGGBB with black, by f in [0, 1].
func shade(c string, f float64) string {
	v, _ := strconv.ParseUint(c[1:], 16, 32)
	r, g, b := float64(v>>16&0xff), float64(v>>8&0xff), float64(v&0xff)
	mix := func(x float64) int { return int(x*(1-f) + 0.5) }
	return fmt.Sprintf("#%02X%02X%02X", mix(r), mix(g), mix(b))
}

// textColour is black or white, whichever reads better on fill.
func textColour(fill string) string {
	if !strings.HasPrefix(fill, "#") || len(fill) != 7 {
		return "#000"
	}
	v, _ := strconv.ParseUint(fill[1:], 16, 32)
	r, g, b := float64(v>>16&0xff), float64(v>>8&0xff), float64(v&0xff)
	if 0.299*r+0.587*g+0.114*b < 140 {
		return "#FFF"
	}
	return "#000"
}

// Limits of the grids. A slice of a tensor larger than maxSide cells along
// a side has its cells merged into blocks (powers of two) until it fits;
// labels are drawn only when a slice has at most maxLabelCells cells and
// maxLabelCols columns.
type svgLimits struct {
	maxSide       int
	maxLabelCells int
	maxLabelCols  int
}

var defaultLimits = svgLimits{maxSide: 128, maxLabelCells: 4096, maxLabelCols: 64}

// cellGrid is one 2-D picture: rows×cols cells, each standing for br×bc
// elements. fill holds the colour of every cell, row-major; label (nil when
// the grid is drawn without labels), title (tooltips, nil for none), badge
// (a small mark in a corner, "" for none) and outline (a highlight colour,
// "" for none) are optional and indexed alike.
type cellGrid struct {
	caption    string
	rows, cols int
	br, bc     int
	fill       []string
	label      []string
	labelFill  []string // text colour of labels, "" for the automatic one
	title      []string
	badge      []string
	outline    []string
}

func newGrid(caption string, rows, cols, br, bc int) *cellGrid {
	return &cellGrid{caption: caption, rows: rows, cols: cols, br: br, bc: bc, fill: make([]string, rows*cols)}
}

// figure is what an SVG view draws: a title, notes, columns of grids side
// by side (each column a heading and grids stacked), and a legend.
type figure struct {
	title   string
	notes   []string
	columns []column
	legend  []legendItem
}

type column struct {
	heading string
	grids   []*cellGrid
	// separators are thick lines after these row and column indices (of
	// cells) in every grid of the column: CuTe's nested modes.
	rowSeps, colSeps map[int]int // index → weight (1 thin .. 3 thick)
}

type legendItem struct {
	colour, text string
	outline      bool // a swatch drawn as an outline (highlights)
}

// Geometry of a drawn grid.
const (
	fontSize   = 10
	charWidth  = 6.1 // of the monospace font at fontSize, generously
	labelCellH = 18
	margin     = 12
	axisW      = 30 // room for row numbers
	axisH      = 14 // room for column numbers
	gap        = 28
)

// cellSize returns the width and height of g's cells.
func (g *cellGrid) cellSize() (int, int) {
	if g.label != nil {
		w := 0
		for _, l := range g.label {
			w = max(w, len(l))
		}
		return max(int(float64(w)*charWidth+0.999)+8, 20), labelCellH
	}
	side := max(g.rows, g.cols)
	s := max(4, min(14, 640/max(side, 1))) &^ 1 // even: rows are strokes centred on a pixel
	return s, s
}

func (g *cellGrid) size() (int, int) {
	cw, ch := g.cellSize()
	return axisW + g.cols*cw + 1, axisH + g.rows*ch + 1 + 18 // caption line below
}

// svgWriter builds an SVG document; write never fails (bytes.Buffer).
type svgWriter struct {
	b bytes.Buffer
}

func (s *svgWriter) printf(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

// xmlEscape escapes text for element content and attribute values.
func xmlEscape(t string) string {
	var sb strings.Builder
	for _, r := range t {
		switch r {
		case '<':
			sb.WriteString("&lt;")
		case '>':
			sb.WriteString("&gt;")
		case '&':
			sb.WriteString("&amp;")
		case '"':
			sb.WriteString("&quot;")
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func textWidth(t string, size float64) int {
	return int(float64(len([]rune(t)))*size*0.61 + 0.999)
}

// writeFigure draws f as a complete SVG document.
func writeFigure(w io.Writer, f *figure) error {
	_, err := w.Write(renderFigure(f, true))
	return err
}

// renderFigure draws f; with standalone it starts with the XML
// declaration and the namespace (for .svg files), without it is an <svg>
// element to inline in HTML.
func renderFigure(f *figure, standalone bool) []byte {
	var body svgWriter
	y := margin
	width := 2 * margin
	// Title and notes.
	y += 14
	body.printf(`<text class="title" x="%d" y="%d">%s</text>`+"\n", margin, y, xmlEscape(f.title))
	width = max(width, 2*margin+textWidth(f.title, 13))
	for _, n := range f.notes {
		y += 15
		body.printf(`<text class="note" x="%d" y="%d">%s</text>`+"\n", margin, y, xmlEscape(n))
		width = max(width, 2*margin+textWidth(n, 11))
	}
	y += 12
	// Columns side by side.
	x := margin
	colBottom := y
	for ci, c := range f.columns {
		if ci > 0 {
			x += gap
		}
		cy := y
		colW := 0
		if c.heading != "" {
			cy += 14
			body.printf(`<text class="heading" x="%d" y="%d">%s</text>`+"\n", x, cy, xmlEscape(c.heading))
			colW = textWidth(c.heading, 12)
			cy += 6
		}
		for _, g := range c.grids {
			gw, gh := drawGrid(&body, g, x, cy, c.rowSeps, c.colSeps)
			colW = max(colW, gw)
			cy += gh + 8
		}
		x += colW
		colBottom = max(colBottom, cy)
	}
	width = max(width, x+margin)
	y = colBottom + 4
	// Legend, wrapped to the width.
	if len(f.legend) > 0 {
		lx := margin
		y += 12
		for _, it := range f.legend {
			iw := 18 + textWidth(it.text, 11) + 16
			if lx > margin && lx+iw > width-margin {
				lx = margin
				y += 18
			}
			if it.outline {
				body.printf(`<rect x="%d" y="%d" width="12" height="12" fill="none" stroke="%s" stroke-width="3"/>`, lx, y-10, it.colour)
			} else {
				body.printf(`<rect x="%d" y="%d" width="12" height="12" fill="%s" stroke="#555" stroke-width="0.5"/>`, lx, y-10, it.colour)
			}
			body.printf(`<text class="legend" x="%d" y="%d">%s</text>`+"\n", lx+18, y, xmlEscape(it.text))
			lx += iw
		}
		y += 8
	}
	height := y + margin

	var out bytes.Buffer
	if standalone {
		out.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	}
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">`+"\n", width, height, width, height)
	out.WriteString(`<style>text{font-size:10px;fill:#000}.title{font-size:13px;font-weight:bold}.note{font-size:11px;fill:#333}.heading{font-size:12px;font-weight:bold}.legend{font-size:11px}.axis{font-size:8px;fill:#666}.cap{font-size:10px;fill:#333}.l{text-anchor:middle;dominant-baseline:central}</style>` + "\n")
	fmt.Fprintf(&out, `<rect width="%d" height="%d" fill="#FFFFFF"/>`+"\n", width, height)
	out.Write(body.b.Bytes())
	out.WriteString("</svg>\n")
	return out.Bytes()
}

// drawGrid draws g with its top-left corner at (x, y) and returns the size
// it took.
func drawGrid(s *svgWriter, g *cellGrid, x, y int, rowSeps, colSeps map[int]int) (int, int) {
	cw, ch := g.cellSize()
	gx, gy := x+axisW, y+axisH
	// Axis numbers: the element index of a cell's first row or column,
	// every cell when labelled, else every 8th.
	step := 1
	if g.label == nil {
		step = 8
		if cw*8 < 40 {
			step = 16
		}
	}
	for c := 0; c < g.cols; c += step {
		s.printf(`<text class="axis" x="%d" y="%d">%d</text>`, gx+c*cw+1, gy-3, c*g.bc)
	}
	for r := 0; r < g.rows; r += step {
		s.printf(`<text class="axis" x="%d" y="%d">%d</text>`, x, gy+r*ch+min(ch, 10), r*g.br)
	}
	s.printf("\n")
	if g.label != nil {
		for r := 0; r < g.rows; r++ {
			for c := 0; c < g.cols; c++ {
				i := r*g.cols + c
				s.printf(`<g><rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#FFF"/>`, gx+c*cw, gy+r*ch, cw, ch, g.fill[i])
				if g.title != nil && g.title[i] != "" {
					s.printf(`<title>%s</title>`, xmlEscape(g.title[i]))
				}
				if l := g.label[i]; l != "" {
					tc := textColour(g.fill[i])
					if g.labelFill != nil && g.labelFill[i] != "" {
						tc = g.labelFill[i]
					}
					s.printf(`<text class="l" x="%d" y="%d" style="fill:%s">%s</text>`, gx+c*cw+cw/2, gy+r*ch+ch/2, tc, xmlEscape(l))
				}
				s.printf("</g>\n")
			}
		}
	} else {
		// One path per colour, stroked as wide as a cell: each run of equal
		// cells along a row is one segment, relative to the end of the one
		// before.
		type pen struct {
			sb   strings.Builder
			x, y int
		}
		paths := map[string]*pen{}
		var order []string
		for r := 0; r < g.rows; r++ {
			for c := 0; c < g.cols; {
				f := g.fill[r*g.cols+c]
				e := c + 1
				for e < g.cols && g.fill[r*g.cols+e] == f {
					e++
				}
				p := paths[f]
				x, y := gx+c*cw, gy+r*ch+ch/2
				if p == nil {
					p = &pen{}
					paths[f] = p
					order = append(order, f)
					fmt.Fprintf(&p.sb, "M%d %d", x, y)
				} else {
					fmt.Fprintf(&p.sb, "m%d %d", x-p.x, y-p.y)
				}
				fmt.Fprintf(&p.sb, "h%d", (e-c)*cw)
				p.x, p.y = x+(e-c)*cw, y
				c = e
			}
		}
		for _, f := range order {
			s.printf(`<path fill="none" stroke="%s" stroke-width="%d" d="%s"/>`+"\n", f, ch, paths[f].sb.String())
		}
		// Thin grid lines when the cells are big enough to tell apart.
		if cw >= 8 {
			var p strings.Builder
			for r := 1; r < g.rows; r++ {
				fmt.Fprintf(&p, "M%d %dh%d", gx, gy+r*ch, g.cols*cw)
			}
			for c := 1; c < g.cols; c++ {
				fmt.Fprintf(&p, "M%d %dv%d", gx+c*cw, gy, g.rows*ch)
			}
			s.printf(`<path fill="none" stroke="#FFF" stroke-width="0.6" d="%s"/>`+"\n", p.String())
		}
	}
	// Badges (broadcast copies): text when labelled, else one path of
	// dots.
	if g.badge != nil {
		var dots strings.Builder
		px, py := 0, 0
		for i, bd := range g.badge {
			if bd == "" {
				continue
			}
			r, c := i/g.cols, i%g.cols
			if g.label != nil {
				s.printf(`<text x="%d" y="%d" style="font-size:7px;fill:%s">%s</text>`+"\n", gx+c*cw+cw-textWidth(bd, 7)-1, gy+r*ch+7, textColour(g.fill[i]), xmlEscape(bd))
				continue
			}
			x, y := gx+c*cw+cw/2-1, gy+r*ch+ch/2
			if dots.Len() == 0 {
				fmt.Fprintf(&dots, "M%d %dh2", x, y)
			} else {
				fmt.Fprintf(&dots, "m%d %dh2", x-px, y-py)
			}
			px, py = x+2, y
		}
		if dots.Len() > 0 {
			s.printf(`<path fill="none" stroke="#000" stroke-width="2" d="%s"/>`+"\n", dots.String())
		}
	}
	for i := range g.fill {
		if g.outline != nil && g.outline[i] != "" {
			r, c := i/g.cols, i%g.cols
			s.printf(`<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="%s" stroke-width="2.5"/>`+"\n", gx+c*cw+1, gy+r*ch+1, cw-2, ch-2, g.outline[i])
		}
	}
	// The nested-mode separators of CuTe layouts, then the frame.
	for r, wgt := range sortedSeps(rowSeps) {
		if wgt > 0 && r > 0 && r < g.rows {
			s.printf(`<path stroke="#000" stroke-width="%d" d="M%d %dh%d"/>`+"\n", wgt, gx, gy+r*ch, g.cols*cw)
		}
	}
	for c, wgt := range sortedSeps(colSeps) {
		if wgt > 0 && c > 0 && c < g.cols {
			s.printf(`<path stroke="#000" stroke-width="%d" d="M%d %dv%d"/>`+"\n", wgt, gx+c*cw, gy, g.rows*ch)
		}
	}
	s.printf(`<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n", gx, gy, g.cols*cw, g.rows*ch)
	w, h := g.size()
	if g.caption != "" {
		s.printf(`<text class="cap" x="%d" y="%d">%s</text>`+"\n", gx, gy+g.rows*ch+13, xmlEscape(g.caption))
		w = max(w, axisW+textWidth(g.caption, 10))
	}
	return w, h
}

// sortedSeps returns seps as a slice indexed by position (weight 0 where
// there is none), so that iteration order is deterministic.
func sortedSeps(seps map[int]int) []int {
	n := 0
	for k := range seps {
		n = max(n, k+1)
	}
	out := make([]int, n)
	for k, v := range seps {
		if k >= 0 {
			out[k] = v
		}
	}
	return out
}
