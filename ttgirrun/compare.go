package ttgirrun

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/layoutopt/layoutopt/interp"
)

// exact reports whether t is the zero tolerance, under which compare
// compares bits (every NaN equals every NaN) rather than values.
func exact(t interp.Tolerance) bool { return t.Abs == 0 && t.Rel == 0 }

// mismatch is one differing element.
type mismatch struct {
	Index    int     `json:"index"`
	Coord    []int   `json:"coord,omitempty"`
	Got      float64 `json:"got"`
	Want     float64 `json:"want"`
	GotBits  string  `json:"got_bits"`
	WantBits string  `json:"want_bits"`
}

// comparison is the result of comparing one buffer.
type comparison struct {
	Name       string     `json:"name"`
	Elem       string     `json:"elem"`
	Elements   int        `json:"elements"`
	Mismatches int        `json:"mismatches"`
	MaxAbsErr  float64    `json:"max_abs_err"`
	MaxRelErr  float64    `json:"max_rel_err"`
	First      []mismatch `json:"first,omitempty"`
}

// jsonFloat keeps a non-finite value out of JSON (which has none).
func jsonFloat(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return math.MaxFloat64
	}
	return v
}

// compare compares got with want element by element, keeping the first
// keep mismatches.
//
// Integers are always compared exactly, floats bit for bit under the zero
// tolerance, else by value within tol (interp.Tolerance.Agree).
func compare(name string, e elemType, shape []int, got, want []byte, tol interp.Tolerance, keep int) comparison {
	n := len(want) / e.bytes
	c := comparison{Name: name, Elem: e.name, Elements: n}
	if bytes.Equal(got, want) { // the common case, at memory speed
		return c
	}
	for i := range n {
		g, w := got[i*e.bytes:(i+1)*e.bytes], want[i*e.bytes:(i+1)*e.bytes]
		gb, wb := e.bits(g), e.bits(w)
		if gb == wb {
			continue
		}
		gv, wv := e.value(g), e.value(w)
		if e.float != nil {
			if math.IsNaN(gv) && math.IsNaN(wv) {
				continue
			}
			d := math.Abs(gv - wv)
			if !exact(tol) && tol.Agree(gv, wv) {
				if d > c.MaxAbsErr {
					c.MaxAbsErr = d
				}
				if wv != 0 && d/math.Abs(wv) > c.MaxRelErr {
					c.MaxRelErr = d / math.Abs(wv)
				}
				continue
			}
		}
		d := math.Abs(gv - wv)
		if math.IsNaN(d) {
			d = math.Inf(1)
		}
		c.MaxAbsErr = max(c.MaxAbsErr, d)
		if wv != 0 {
			c.MaxRelErr = max(c.MaxRelErr, d/math.Abs(wv))
		} else if d > 0 {
			c.MaxRelErr = math.Inf(1)
		}
		c.Mismatches++
		if len(c.First) < keep {
			width := 2 * e.bytes
			c.First = append(c.First, mismatch{Index: i, Coord: coord(i, shape), Got: jsonFloat(gv), Want: jsonFloat(wv),
				GotBits: fmt.Sprintf("0x%0*x", width, gb), WantBits: fmt.Sprintf("0x%0*x", width, wb)})
		}
	}
	c.MaxAbsErr, c.MaxRelErr = jsonFloat(c.MaxAbsErr), jsonFloat(c.MaxRelErr)
	return c
}

// coord is element i's coordinates in a row-major shape (nil for rank 1).
func coord(i int, shape []int) []int {
	if len(shape) < 2 {
		return nil
	}
	c := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		c[d] = i % shape[d]
		i /= shape[d]
	}
	return c
}

// write prints the comparison: one line, then the first mismatches.
func (c comparison) write(w io.Writer, gotName, wantName string) {
	if c.Mismatches == 0 {
		fmt.Fprintf(w, "  %s: %d %s elements equal", c.Name, c.Elements, c.Elem)
		if c.MaxAbsErr > 0 {
			fmt.Fprintf(w, " within tolerance (max abs error %.3g, max rel error %.3g)", c.MaxAbsErr, c.MaxRelErr)
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "  %s: %d of %d %s elements differ (max abs error %.3g, max rel error %.3g); the first %d:\n",
		c.Name, c.Mismatches, c.Elements, c.Elem, c.MaxAbsErr, c.MaxRelErr, len(c.First))
	for _, m := range c.First {
		at := fmt.Sprintf("[%d]", m.Index)
		if m.Coord != nil {
			parts := make([]string, len(m.Coord))
			for i, x := range m.Coord {
				parts[i] = fmt.Sprint(x)
			}
			at += " (" + strings.Join(parts, ", ") + ")"
		}
		fmt.Fprintf(w, "    %-24s %s %-14.8g %s  %s %-14.8g %s\n", at, gotName, m.Got, m.GotBits, wantName, m.Want, m.WantBits)
	}
}
