package linear

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// TestAttrStringOracle checks AttrString and ParseAttr against the #ttg.linear
// text Triton 3.6 printed for 400 layouts.
func TestAttrStringOracle(t *testing.T) {
	f, err := os.Open(testenv.Shared(t, "triton36/oracles/to_linear_layout.jsonl"))
	if os.IsNotExist(err) {
		t.Skip("oracle not available:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	rows := 0
	for sc.Scan() {
		var row struct {
			Shape  []int  `json:"shape"`
			Linear string `json:"linear"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		rows++
		ins, err := ParseAttr(row.Linear)
		if err != nil {
			t.Fatalf("row %d: %v", rows, err)
		}
		outs := make([]OutDim, len(row.Shape))
		for i, n := range StandardOutDimNames(len(row.Shape)) {
			outs[i] = OutDim{n, row.Shape[i]}
		}
		l, err := New(ins, outs, false)
		if err != nil {
			t.Fatalf("row %d: %v", rows, err)
		}
		if got := l.AttrString(); got != row.Linear {
			t.Errorf("row %d:\n got %s\nwant %s", rows, got, row.Linear)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows == 0 {
		t.Fatal("no rows")
	}
}

func TestString(t *testing.T) {
	l, err := New([]InDim{
		{"register", [][]int{{0, 1}, {1, 0}}},
		{"lane", nil},
	}, []OutDim{{"dim0", 2}, {"dim1", 2}}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		l    Layout
		want string
	}{
		{l, "\n - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n - lane is a size 1 dimension\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]"},
		{Empty(), "\n(empty layout)"},
		{mustSub(t, l, nil, []string{"dim1"}), "\n(empty layout with out-dims [dim1 (size 2)])"},
	} {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func mustSub(t *testing.T, l Layout, ins, outs []string) Layout {
	t.Helper()
	s, err := l.Sublayout(ins, outs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseAttr(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   string // AttrString of the parsed dims ("" if an error)
		offset int    // error offset
	}{
		{"#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2]], warp = [], block = []}>",
			"#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2]], warp = [], block = []}>", 0},
		{" {register=[[1]],\n lane=[]} ", "#ttg.linear<{register = [[1]], lane = []}>", 0},
		{`{"offset" = [[2], [1]]}`, "#ttg.linear<{offset = [[2], [1]]}>", 0},
		{"{}", "#ttg.linear<{}>", 0},
		{`{"0" = [], a.b$ = [[0]]}`, `#ttg.linear<{"0" = [], a.b$ = [[0]]}>`, 0},
		{"#ttg.linear<{}>  ", "#ttg.linear<{}>", 0},
		{"", "", 0},
		{"#ttg.blocked<{}>", "", 0},
		{"#ttg.linear{}", "", 11},
		{"{register = [[0, 1], [1]]}", "", 21},
		{"{register = [[0, -1]]}", "", 17},
		{"{register = [[1]], register = []}", "", 19},
		{"{register = [[1]] lane = []}", "", 18},
		{"{register = [[99999999999999999999]]}", "", 14},
		{"{1x = []}", "", 1},
		{"{a = [[1]]}>", "", 11},
		{"#ttg.linear<{a = []}", "", 20},
		{`{"a = []}`, "", 1},
	} {
		ins, err := ParseAttr(tc.in)
		if tc.want == "" {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("ParseAttr(%q): got %v, want a *SyntaxError", tc.in, err)
				continue
			}
			if se.Offset != tc.offset {
				t.Errorf("ParseAttr(%q): error %q at offset %d, want %d", tc.in, se.Msg, se.Offset, tc.offset)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseAttr(%q): %v", tc.in, err)
			continue
		}
		var sb strings.Builder
		sb.WriteString("#ttg.linear<")
		writeBody(&sb, ins)
		sb.WriteString(">")
		if got := sb.String(); got != tc.want {
			t.Errorf("ParseAttr(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func FuzzParseAttr(f *testing.F) {
	for _, s := range []string{
		"#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2]], warp = [], block = []}>",
		"{offset = [[1], [2]], block = []}",
		`{"x" = [[3]]}`,
		"#ttg.linear<{register = [[0, 1], [1]]}>",
		"{a = [[",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ins, err := ParseAttr(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("ParseAttr(%q): bad error %v", s, err)
			}
			return
		}
		// What parses must print and parse back to the same dims.
		var sb strings.Builder
		writeBody(&sb, ins)
		again, err := ParseAttr(sb.String())
		if err != nil {
			t.Fatalf("reparse of %q: %v", sb.String(), err)
		}
		var sb2 strings.Builder
		writeBody(&sb2, again)
		if sb.String() != sb2.String() {
			t.Fatalf("round trip: %q != %q", sb.String(), sb2.String())
		}
	})
}
