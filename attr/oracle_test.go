package attr

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/linear"
)

// sharedDir returns ../shared relative to the module root, or skips.
func sharedDir(t testing.TB) string {
	t.Helper()
	return testenv.Shared(t, ".")
}

// basesOf returns the in-dim → bases map of a layout.
func basesOf(l linear.Layout) map[string][][]int {
	m := map[string][][]int{}
	for _, d := range l.InDims() {
		b := d.Bases
		if b == nil {
			b = [][]int{}
		}
		m[d.Name] = b
	}
	return m
}

func sameBases(got linear.Layout, ins []string, want map[string][][]int, sizes []int) bool {
	if !slices.Equal(got.InDimNames(), ins) || !slices.Equal(outSizes(got), sizes) {
		return false
	}
	g := basesOf(got)
	for _, n := range ins {
		if !basesEqual(g[n], want[n]) {
			return false
		}
	}
	return true
}

func TestOracleToLinearLayout(t *testing.T) {
	path := filepath.Join(sharedDir(t), "triton36", "oracles", "to_linear_layout.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n, ok := 0, 0
	for sc.Scan() {
		var row struct {
			Layout string
			Shape  []int
			Linear string
			Bases  map[string][][]int
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		n++
		enc, used, err := Parse(row.Layout, nil)
		if err != nil || used != len(row.Layout) {
			t.Errorf("row %d: Parse(%s) = %v, used %d", n, row.Layout, err, used)
			continue
		}
		if got := enc.Format(nil); got != row.Layout {
			t.Errorf("row %d: print(parse(x)) =\n %s\nwant\n %s", n, got, row.Layout)
		}
		l, err := convert(enc.(Layout), row.Shape)
		if err != nil {
			t.Errorf("row %d: %s at %v: %v", n, row.Layout, row.Shape, err)
			continue
		}
		if !sameBases(l, []string{"register", "lane", "warp", "block"}, row.Bases, row.Shape) {
			t.Errorf("row %d: %s at %v:\n got %v %v\nwant %v", n, row.Layout, row.Shape, basesOf(l), outSizes(l), row.Bases)
			continue
		}
		ll, err := enc.(Layout).ToLinear(row.Shape)
		if err != nil {
			t.Errorf("row %d: ToLinear: %v", n, err)
			continue
		}
		if got := ll.AttrString(); got != row.Linear {
			t.Errorf("row %d: AttrString =\n %s\nwant\n %s", n, got, row.Linear)
			continue
		}
		ok++
	}
	t.Logf("oracle rows matched: %d of %d", ok, n)
	if n == 0 {
		t.Fatal("no oracle rows read")
	}
}
