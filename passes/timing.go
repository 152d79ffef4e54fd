package passes

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Timing collects wall times as a tree of timers — the pass manager adds one
// per pipeline element, the driver adds "Parser" and "Output" — and prints
// the report of mlir-opt's -mlir-timing. A Timing is not safe for concurrent
// use.
type Timing struct {
	root  Timer
	start time.Time
}

// NewTiming returns a Timing whose total time starts now.
func NewTiming() *Timing {
	return &Timing{root: Timer{Name: "root"}, start: time.Now()}
}

// Root returns the top-level timer: add phases to it with Child.
func (t *Timing) Root() *Timer { return &t.root }

// Timer accumulates the wall time of one named activity and holds the
// timers of its sub-activities, in the order they were first created. All
// methods accept a nil *Timer and then record nothing (Child returns nil,
// Time still runs its function), so that code can time unconditionally.
type Timer struct {
	Name     string        // as the report shows it: "Parser", "'tt.func' Pipeline", a pass's DisplayName
	Wall     time.Duration // accumulated wall time
	Children []*Timer      // sub-activities, in order of creation

	key any // identity of the activity; Child merges on it
}

// Child returns the sub-timer named name, creating it on first use.
func (t *Timer) Child(name string) *Timer { return t.childKey(name, name) }

// childKey returns the sub-timer with identity key, creating it with the
// given name on first use. Two pipeline elements running the same pass get
// different keys, and so two lines in the report, as in MLIR.
func (t *Timer) childKey(key any, name string) *Timer {
	if t == nil {
		return nil
	}
	for _, c := range t.Children {
		if c.key == key {
			return c
		}
	}
	c := &Timer{Name: name, key: key}
	t.Children = append(t.Children, c)
	return c
}

// Add adds d to the timer's wall time.
func (t *Timer) Add(d time.Duration) {
	if t != nil {
		t.Wall += d
	}
}

// Time runs f and adds its wall time to t.
func (t *Timer) Time(f func()) {
	start := time.Now()
	f()
	t.Add(time.Since(start))
}

// DisplayMode selects the layout of the timing report.
type DisplayMode int

// Display modes, as mlir-opt's -mlir-timing-display.
const (
	DisplayTree DisplayMode = iota // nested timers indented under their parents, in execution order
	DisplayList                    // timers merged by name, sorted by decreasing time
)

// Report writes the report in MLIR's text format: a banner, the total wall
// time since NewTiming, one line per timer ("  0.0012 ( 9.3%)  Name"), then
// "Rest" (time not covered by top-level timers) and "Total".
func (t *Timing) Report(w io.Writer, mode DisplayMode) error {
	total := time.Since(t.start)
	const desc = "... Execution time report ..."
	var b strings.Builder
	rule := "===" + strings.Repeat("-", 73) + "===\n"
	b.WriteString(rule)
	b.WriteString(strings.Repeat(" ", (80-len(desc))/2) + desc + "\n")
	b.WriteString(rule)
	fmt.Fprintf(&b, "  Total Execution Time: %.4f seconds\n\n", total.Seconds())
	b.WriteString("  ----Wall Time----  ----Name----\n")
	line := func(indent int, name string, d time.Duration) {
		pct := 0.0
		if total > 0 {
			pct = 100 * d.Seconds() / total.Seconds()
		}
		fmt.Fprintf(&b, "  %8.4f (%5.1f%%)  %s%s\n", d.Seconds(), pct, strings.Repeat(" ", indent), name)
	}
	switch mode {
	case DisplayList:
		sums := map[string]time.Duration{}
		var names []string
		var walk func(*Timer)
		walk = func(x *Timer) {
			if _, ok := sums[x.Name]; !ok {
				names = append(names, x.Name)
			}
			sums[x.Name] += x.Wall
			for _, c := range x.Children {
				walk(c)
			}
		}
		for _, c := range t.root.Children {
			walk(c)
		}
		sort.SliceStable(names, func(i, j int) bool { return sums[names[i]] > sums[names[j]] })
		for _, n := range names {
			line(0, n, sums[n])
		}
	default:
		var walk func(*Timer, int)
		walk = func(x *Timer, indent int) {
			line(indent, x.Name, x.Wall)
			for _, c := range x.Children {
				walk(c, indent+2)
			}
		}
		for _, c := range t.root.Children {
			walk(c, 0)
		}
	}
	rest := total
	for _, c := range t.root.Children {
		rest -= c.Wall
	}
	line(0, "Rest", max(rest, 0))
	line(0, "Total", total)
	_, err := io.WriteString(w, b.String())
	return err
}
