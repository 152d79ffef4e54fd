package smem

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/linear"
)

// toLinear parses an encoding and returns its layout for shape.
func toLinear(tb interface {
	Helper()
	Fatalf(string, ...any)
}, text string, shape []int) linear.Layout {
	tb.Helper()
	enc, _, err := attr.Parse(text, nil)
	if err != nil {
		tb.Fatalf("%s: %v", text, err)
	}
	l, ok := enc.(attr.Layout)
	if !ok {
		tb.Fatalf("%s is not a layout", text)
	}
	ll, err := l.ToLinear(shape)
	if err != nil {
		tb.Fatalf("%s %v: %v", text, shape, err)
	}
	return ll
}

type bankRow struct {
	Register  string `json:"register_layout"`
	Shared    string `json:"shared_layout"`
	Shape     []int  `json:"shape"`
	Bitwidth  int    `json:"bitwidth"`
	Conflicts int    `json:"conflicts"`
}

func readBankRows(tb testing.TB) []bankRow {
	path := testenv.Shared(tb, filepath.Join("triton36", "oracles", "bank_conflicts.jsonl"))
	f, err := os.Open(path)
	if err != nil {
		tb.Skip(err)
	}
	defer f.Close()
	var rows []bankRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r bankRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatal(err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// TestOracleBankConflicts checks every row Triton 3.6 computed.
func TestOracleBankConflicts(t *testing.T) {
	rows := readBankRows(t)
	ok := 0
	for i, r := range rows {
		reg := toLinear(t, r.Register, r.Shape)
		sh := toLinear(t, r.Shared, r.Shape)
		got, err := BankConflicts(reg, sh, r.Bitwidth)
		if err != nil || got != r.Conflicts {
			t.Errorf("row %d: %s / %s %v i%d: got %d (%v), Triton %d", i+1, r.Register, r.Shared, r.Shape, r.Bitwidth, got, err, r.Conflicts)
			continue
		}
		ok++
	}
	t.Logf("%d/%d rows match Triton 3.6", ok, len(rows))
	if len(rows) != 120 {
		t.Errorf("%d rows, want 120", len(rows))
	}
}
