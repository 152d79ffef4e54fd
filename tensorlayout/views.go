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

// labeler returns how the tensor view names one hardware location.
func labeler(l linear.Layout) func(in []int) string {
	names := l.InDimNames()
	idx := func(n string) int { return l.InDimIndex(n) }
	blocks := l.InDimSize("block")
	prefix := func(in []int) string {
		if b := idx("block"); b >= 0 && blocks > 1 {
			return "B" + strconv.Itoa(in[b]) + ":"
		}
		return ""
	}
	if r, ln, w := idx("register"), idx("lane"), idx("warp"); r >= 0 && ln >= 0 && w >= 0 {
		lanes := l.InDimSize("lane")
		return func(in []int) string {
			return fmt.Sprintf("%sT%d:%d", prefix(in), in[ln]+in[w]*lanes, in[r])
		}
	}
	return func(in []int) string {
		var parts []string
		for i, n := range names {
			if n != "block" {
				parts = append(parts, strconv.Itoa(in[i]))
			}
		}
		return prefix(in) + strings.Join(parts, ":")
	}
}

func linearize(coords, shape []int) int {
	idx := 0
	for d, c := range coords {
		idx = idx*shape[d] + c
	}
	return idx
}

func tooLarge(l linear.Layout, shape []int) error {
	total := 1
	for _, s := range shape {
		total *= s
	}
	if l.TotalInDimSize() > maxPrintedPoints || total > maxPrintedPoints {
		return fmt.Errorf("the layout is too large to print as a table (%d hardware locations, %d elements); use -view linear or -view json", l.TotalInDimSize(), total)
	}
	return nil
}

// writeTensorView prints, for every tensor element (row-major), the
// hardware locations that hold it, nested in brackets per dimension as
// Triton's triton-tensor-layout does, with cells aligned.
func writeTensorView(w io.Writer, l linear.Layout, shape []int) error {
	if err := tooLarge(l, shape); err != nil {
		return err
	}
	total := 1
	for _, s := range shape {
		total *= s
	}
	cells := make([]string, total)
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
	var sb strings.Builder
	rank := len(shape)
	coords := make([]int, rank)
	newLine := true
	for i := 0; i < total; i++ {
		open := 0
		for j := rank - 1; j >= 0 && coords[j] == 0; j-- {
			open++
		}
		if newLine {
			sb.WriteString(strings.Repeat(" ", rank-open))
			newLine = false
		}
		sb.WriteString(strings.Repeat("[", open))
		sb.WriteString(strings.Repeat(" ", width-len(cells[i])))
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
			sb.WriteString(", ")
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func coordString(out, shape []int) string {
	var sb strings.Builder
	sb.WriteByte('(')
	for d, v := range out {
		if d > 0 {
			sb.WriteByte(',')
		}
		s := strconv.Itoa(v)
		sb.WriteString(strings.Repeat(" ", len(strconv.Itoa(shape[d]-1))-len(s)))
		sb.WriteString(s)
	}
	sb.WriteByte(')')
	return sb.String()
}

// writeHWView prints, for each block and warp, one line per register
// listing the element every lane holds (distributed layouts), or for
// other layouts one line per run of the first input dim.
func writeHWView(w io.Writer, l linear.Layout, shape []int) error {
	if err := tooLarge(l, shape); err != nil {
		return err
	}
	var sb strings.Builder
	ins := l.InDims()
	blocks := l.InDimSize("block")
	reg, lane, warp := l.InDimIndex("register"), l.InDimIndex("lane"), l.InDimIndex("warp")
	if reg >= 0 && lane >= 0 && warp >= 0 {
		nl, nr := l.InDimSize("lane"), l.InDimSize("register")
		vals := make([]int, len(ins))
		b := l.InDimIndex("block")
		for blk := 0; blk < blocks; blk++ {
			if blocks > 1 {
				fmt.Fprintf(&sb, "Block%d:\n", blk)
			}
			for wp := 0; wp < l.InDimSize("warp"); wp++ {
				fmt.Fprintf(&sb, "Warp%d:\n", wp)
				for r := 0; r < nr; r++ {
					for ln := 0; ln < nl; ln++ {
						vals[reg], vals[lane], vals[warp] = r, ln, wp
						if b >= 0 {
							vals[b] = blk
						}
						if ln > 0 {
							sb.WriteString(", ")
						}
						sb.WriteString(coordString(l.Apply(vals...), shape))
					}
					sb.WriteByte('\n')
				}
			}
		}
		_, err := io.WriteString(w, sb.String())
		return err
	}
	// Other layouts (shared: offset, block; tensor memory: row, col,
	// block): the first in-dim runs along each line, 16 per line, under
	// a header naming the other in-dims.
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
		line = append(line, " "+coordString(out, shape))
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
		b := d.Bases
		if b == nil {
			b = [][]int{}
		}
		v.InDims = append(v.InDims, jsonIn{Name: d.Name, Size: 1 << len(d.Bases), Bases: b})
	}
	for _, d := range l.OutDims() {
		v.Outs = append(v.Outs, jsonOut{Name: d.Name, Size: d.Size})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
