package tensorlayout

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/linear"
)

// maxPrintedPoints bounds the tables the tensor and hw views draw.
const maxPrintedPoints = 1 << 18

// points calls f for every input point of l, in the order Triton's tool
// walks them: the first in-dim (register / offset) fastest, block slowest.
func points(l linear.Layout, f func(in, out []int)) {
	ins := l.InDims()
	vals := make([]int, len(ins))
	for idx := 0; idx < l.TotalInDimSize(); idx++ {
		rest := idx
		for i, d := range ins {
			n := 1 << len(d.Bases)
			vals[i] = rest % n
			rest /= n
		}
		f(vals, l.Apply(vals...))
	}
}

// labeler returns how the tensor view names one hardware location of a
// layout that is neither distributed nor shared (tensor memory): its
// in-dim values joined by ':', after "B<block>:" when there are several
// blocks.
func labeler(l linear.Layout) func(in []int) string {
	names := l.InDimNames()
	b, blocks := l.InDimIndex("block"), l.InDimSize("block")
	return func(in []int) string {
		var parts []string
		for i, n := range names {
			if n != "block" {
				parts = append(parts, strconv.Itoa(in[i]))
			}
		}
		prefix := ""
		if b >= 0 && blocks > 1 {
			prefix = "B" + strconv.Itoa(in[b]) + ":"
		}
		return prefix + strings.Join(parts, ":")
	}
}

func tooLarge(l linear.Layout, shape []int) error {
	total := product(shape)
	if l.TotalInDimSize() > maxPrintedPoints || total > maxPrintedPoints {
		return fmt.Errorf("the layout is too large to print as a table (%d hardware locations, %d elements); use -view linear or -view json", l.TotalInDimSize(), total)
	}
	return nil
}

func product(shape []int) int {
	total := 1
	for _, s := range shape {
		total *= s
	}
	return total
}

// padding is how many spaces Triton puts before v so that it is as wide as
// limit (numCharacterPadding in Triton's Dialect.cpp).
func padding(v, limit int) int {
	return max(0, len(strconv.Itoa(limit))-len(strconv.Itoa(v)))
}

// coordString is "(i,j,…)" with each index padded to the width of its
// dimension's size and sep between them (Triton's paddedString).
func coordString(out, shape []int, sep string) string {
	var sb strings.Builder
	sb.WriteByte('(')
	for d, v := range out {
		if d > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(strings.Repeat(" ", padding(v, shape[d])))
		sb.WriteString(strconv.Itoa(v))
	}
	sb.WriteByte(')')
	return sb.String()
}

// layoutKind tells how Triton's tool prints l: "distributed" (in-dims
// register, lane, warp, block), "shared" (offset, block), or "" for the
// others (tensor memory: row, col, block), which Triton's tool does not
// print.
func layoutKind(l linear.Layout) string {
	n := l.NumInDims()
	switch {
	case l.InDimIndex("register") >= 0 && l.InDimIndex("lane") >= 0 && l.InDimIndex("warp") >= 0:
		return "distributed"
	case l.InDimIndex("offset") >= 0 && (n == 1 || n == 2 && l.InDimIndex("block") >= 0):
		return "shared"
	}
	return ""
}

// inSize is the size of l's in-dim name, 1 when l has none.
func inSize(l linear.Layout, name string) int {
	if l.InDimIndex(name) < 0 {
		return 1
	}
	return l.InDimSize(name)
}

// applier returns a function that maps values of the named in-dims, given
// in the order of names, through l; names l lacks are skipped and l's
// other in-dims are 0. The tables call it for every point, so the
// in-dims are looked up once.
func applier(l linear.Layout, names ...string) func(vals ...int) []int {
	idx := make([]int, len(names))
	for i, n := range names {
		idx[i] = l.InDimIndex(n)
	}
	in := make([]int, l.NumInDims())
	return func(vals ...int) []int {
		for i, v := range vals {
			if idx[i] >= 0 {
				in[idx[i]] = v
			}
		}
		return l.Apply(in...)
	}
}

// writeTensorView prints the tensor view of Triton's triton-tensor-layout
// (getLayoutStr without the hardware point of view), byte for byte:
//
//   - distributed layouts: for every tensor element, row-major, the
//     threads and registers that hold it, "T<thread>:<register>" (thread =
//     lane + warp·lanes), with "B<block>:" before it when there are
//     several CTAs, several joined by "|"; each is padded on the left to
//     the widths of the numbers of blocks, threads and registers; the
//     elements are separated by ", ";
//   - shared layouts: for every offset in order, laid out in the tensor's
//     shape, the element stored there, "(i:j)" with each index padded to
//     the width of its dimension's size, separated by ",".
//
// Rows are nested in brackets, one per dimension; a line starts with the
// brackets opening on it, then one space for each dimension not opened.
// Tensor memory layouts, which Triton's tool does not print, get the
// distributed format with "row:col" for each location and every element
// right-aligned to the widest.
func writeTensorView(w io.Writer, l linear.Layout, shape []int) error {
	if err := tooLarge(l, shape); err != nil {
		return err
	}
	total := product(shape)
	cells := make([]string, total)
	sep := ", "
	switch layoutKind(l) {
	case "distributed":
		nb, nw, nl, nr := inSize(l, "block"), inSize(l, "warp"), inSize(l, "lane"), inSize(l, "register")
		apply := applier(l, "block", "warp", "lane", "register")
		for b := 0; b < nb; b++ {
			for wp := 0; wp < nw; wp++ {
				for ln := 0; ln < nl; ln++ {
					for r := 0; r < nr; r++ {
						i := linearize(apply(b, wp, ln, r), shape)
						if cells[i] != "" {
							cells[i] += "|"
						}
						t := ln + wp*nl
						cells[i] += strings.Repeat(" ", padding(b, nb)+padding(t, nw*nl)+padding(r, nr))
						if nb > 1 {
							cells[i] += "B" + strconv.Itoa(b) + ":"
						}
						cells[i] += "T" + strconv.Itoa(t) + ":" + strconv.Itoa(r)
					}
				}
			}
		}
	case "shared":
		sep = ","
		nb := inSize(l, "block")
		perBlock := min(total/nb, inSize(l, "offset"))
		apply := applier(l, "block", "offset")
		for b := 0; b < nb; b++ {
			for off := 0; off < perBlock; off++ {
				cells[b*(total/nb)+off] = coordString(apply(b, off), shape, ":")
			}
		}
	default:
		label := labeler(l)
		points(l, func(in, out []int) {
			i := linearize(out, shape)
			if cells[i] != "" {
				cells[i] += "|"
			}
			cells[i] += label(in)
		})
		width := 0
		for _, c := range cells {
			width = max(width, len(c))
		}
		for i, c := range cells {
			cells[i] = strings.Repeat(" ", width-len(c)) + c
		}
	}
	_, err := io.WriteString(w, grid(cells, shape, sep))
	return err
}

// grid lays cells out row-major in nested brackets as Triton's getLayoutStr
// does: on each line the brackets opening there, then a space for each
// dimension not opened on it, the cells separated by sep, and the brackets
// closing.
func grid(cells []string, shape []int, sep string) string {
	var sb strings.Builder
	rank := len(shape)
	coords := make([]int, rank)
	newLine := true
	for i := range cells {
		open := 0
		for j := rank - 1; j >= 0 && coords[j] == 0; j-- {
			open++
		}
		sb.WriteString(strings.Repeat("[", open))
		if newLine {
			sb.WriteString(strings.Repeat(" ", rank-open))
			newLine = false
		}
		sb.WriteString(cells[i])
		// advance coords and close the brackets of dims that wrap
		closed := 0
		for j := rank - 1; j >= 0; j-- {
			coords[j]++
			if coords[j] < shape[j] {
				break
			}
			coords[j] = 0
			closed++
		}
		sb.WriteString(strings.Repeat("]", closed))
		if closed > 0 {
			sb.WriteString("\n")
			newLine = true
		} else {
			sb.WriteString(sep)
		}
	}
	return sb.String()
}

func linearize(coords, shape []int) int {
	idx := 0
	for d, c := range coords {
		idx = idx*shape[d] + c
	}
	return idx
}

// writeHWView prints the hardware view of Triton's triton-tensor-layout
// (getLayoutStr with the hardware point of view), byte for byte:
//
//   - distributed layouts: "Block<b>:" when there are several CTAs, then
//     for each warp "Warp<w>:" and one line per register giving the
//     element every lane holds, "(i,j)" with each index padded to the
//     width of its dimension's size, separated by ", ";
//   - shared layouts: for each block "Block: <b>:", then one line per
//     offset, "Offset: <o> -> (i,j)", padded alike.
//
// Tensor memory layouts, which Triton's tool does not print, get one line
// per 16 values of the first in-dim (row), under a header naming the
// other in-dims.
func writeHWView(w io.Writer, l linear.Layout, shape []int) error {
	if err := tooLarge(l, shape); err != nil {
		return err
	}
	var sb strings.Builder
	ins := l.InDims()
	blocks := inSize(l, "block")
	switch layoutKind(l) {
	case "distributed":
		nw, nl, nr := inSize(l, "warp"), inSize(l, "lane"), inSize(l, "register")
		apply := applier(l, "block", "warp", "lane", "register")
		for b := 0; b < blocks; b++ {
			if blocks > 1 {
				fmt.Fprintf(&sb, "Block%d:\n", b)
			}
			for wp := 0; wp < nw; wp++ {
				fmt.Fprintf(&sb, "Warp%d:\n", wp)
				for r := 0; r < nr; r++ {
					for ln := 0; ln < nl; ln++ {
						if ln > 0 {
							sb.WriteString(", ")
						}
						sb.WriteString(coordString(apply(b, wp, ln, r), shape, ","))
					}
					sb.WriteByte('\n')
				}
			}
		}
		_, err := io.WriteString(w, sb.String())
		return err
	case "shared":
		perBlock := min(product(shape)/blocks, inSize(l, "offset"))
		apply := applier(l, "block", "offset")
		for b := 0; b < blocks; b++ {
			fmt.Fprintf(&sb, "Block: %d:\n", b)
			for off := 0; off < perBlock; off++ {
				fmt.Fprintf(&sb, "Offset: %d -> %s\n", off, coordString(apply(b, off), shape, ","))
			}
		}
		_, err := io.WriteString(w, sb.String())
		return err
	}
	// Other layouts (tensor memory: row, col, block): the first in-dim
	// runs along each line, 16 per line, under a header naming the other
	// in-dims.
	first := 1 << len(ins[0].Bases)
	perLine := min(first, 16)
	digits := len(strconv.Itoa(first - 1))
	header := ""
	var line []string
	points(l, func(in, out []int) {
		var hs []string
		for i := 1; i < len(ins); i++ {
			if ins[i].Name == "block" && blocks == 1 {
				continue
			}
			hs = append(hs, fmt.Sprintf("%s%d", strings.ToUpper(ins[i].Name[:1])+ins[i].Name[1:], in[i]))
		}
		if h := strings.Join(hs, " "); h != header {
			header = h
			sb.WriteString(h + ":\n")
		}
		if in[0]%perLine == 0 {
			fmt.Fprintf(&sb, "%s %*d:", ins[0].Name, digits, in[0])
		}
		line = append(line, " "+coordString(out, shape, ","))
		if in[0]%perLine == perLine-1 {
			sb.WriteString(strings.Join(line, ","))
			sb.WriteByte('\n')
			line = line[:0]
		}
	})
	_, err := io.WriteString(w, sb.String())
	return err
}

type jsonIn struct {
	Name  string  `json:"name"`
	Size  int     `json:"size"`
	Bases [][]int `json:"bases"`
}

type jsonOut struct {
	Name string `json:"name"`
	Size int    `json:"size"`
}

// writeJSON prints the layout's bases and sizes as one JSON object.
func writeJSON(w io.Writer, attrText string, shape []int, l linear.Layout) error {
	v := struct {
		Layout string    `json:"layout"`
		Shape  []int     `json:"shape"`
		InDims []jsonIn  `json:"in_dims"`
		Outs   []jsonOut `json:"out_dims"`
	}{Layout: attrText, Shape: shape}
	for _, d := range l.InDims() {
		v.InDims = append(v.InDims, jsonIn{Name: d.Name, Size: 1 << len(d.Bases), Bases: nonNil(d.Bases)})
	}
	for _, d := range l.OutDims() {
		v.Outs = append(v.Outs, jsonOut{Name: d.Name, Size: d.Size})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
