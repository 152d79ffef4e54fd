package passes

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
)

// triton36Allocation is passes/testdata/allocation_triton36.json: what
// Triton 3.6.0's allocate-shared-memory-nv wrote on the shared kernels.
type triton36Allocation struct {
	Kernels map[string]struct {
		Shared  int               `json:"shared"`
		Offsets []json.RawMessage `json:"offsets"` // [op name, offset]
	} `json:"kernels"`
}

func runPassText(t *testing.T, src []byte, name, pipeline string) *ir.Module {
	t.Helper()
	m, diags := ir.Parse(src, ir.ParseConfig{Filename: name})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := ParsePipeline(pipeline)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := p.Run(m, RunConfig{}); err != nil {
		t.Fatalf("%s: %v %v", name, err, d)
	}
	return m
}

// TestAllocationMatchesTriton36 runs allocate-shared-memory-nv (at each
// kernel's compute capability) and allocate-shared-memory on every shared
// Triton 3.6 kernel and compares ttg.shared and every allocation.offset,
// in program order, with what Triton printed.
func TestAllocationMatchesTriton36(t *testing.T) {
	dir := testenv.SharedDir()
	if dir == "" {
		t.Skip("../shared not present")
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "allocation_triton36.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want triton36Allocation
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Kernels) == 0 {
		t.Fatal("no kernels in the ground truth")
	}
	for name, w := range want.Kernels {
		src, err := os.ReadFile(filepath.Join(dir, "triton36", "ttgir", name+".ttgir"))
		if err != nil {
			t.Fatal(err)
		}
		cc := "80"
		if strings.Contains(string(src), `"cuda:90"`) {
			cc = "90"
		}
		for _, pipeline := range []string{"builtin.module(allocate-shared-memory-nv{compute-capability=" + cc + "})", "builtin.module(allocate-shared-memory)"} {
			m := runPassText(t, src, name, pipeline)
			if got := m.IntAttr("ttg.shared", -1); got != int64(w.Shared) {
				t.Errorf("%s, %s: ttg.shared = %d, Triton %d", name, pipeline, got, w.Shared)
			}
			var got [][2]any
			m.Walk(func(op *ir.Operation) ir.WalkResult {
				if off, ok := op.IntAttr("allocation.offset"); ok {
					got = append(got, [2]any{op.Name(), off})
				}
				return ir.Advance
			})
			if len(got) != len(w.Offsets) {
				t.Errorf("%s, %s: %d ops with allocation.offset, Triton %d: %v", name, pipeline, len(got), len(w.Offsets), got)
				continue
			}
			for i, o := range w.Offsets {
				var pair [2]any
				if err := json.Unmarshal(o, &pair); err != nil {
					t.Fatal(err)
				}
				if pair[0] != got[i][0] || int64(pair[1].(float64)) != got[i][1] {
					t.Errorf("%s, %s: buffer %d is %v, Triton %v", name, pipeline, i, got[i], pair)
				}
			}
		}
	}
}
