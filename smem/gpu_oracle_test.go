package smem

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/linear"
)

// The files below were made on the GPU machine with Triton 3.6.0 by
// testdata/gen/oracle.py (see testdata/README.md): random register layouts
// against random shared layouts, and random conversions compiled through
// Triton's allocate-shared-memory pass.

func readJSONL[T any](t *testing.T, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

type gpuBankRow struct {
	ID        string `json:"id"`
	Register  string `json:"register_layout"`
	Shared    string `json:"shared_layout"`
	Shape     []int  `json:"shape"`
	Bitwidth  int    `json:"bitwidth"`
	Conflicts *int   `json:"conflicts"`
	// Aborts is the last line Triton printed when it aborted (an
	// assertion or report_fatal_error) instead of answering.
	Aborts string `json:"triton_aborts"`
	// RegisterLinear is Triton's linear layout of the register layout
	// (to_linear_layout): in-dims reg, lane, warp, block.
	RegisterLinear map[string][][]int `json:"register_linear"`
}

// encodingKind is "blocked", "nvmma_shared", … of an attribute's text.
func encodingKind(text string) string {
	k, _, _ := strings.Cut(strings.TrimPrefix(text, "#ttg."), "<")
	return k
}

// parseLayout is toLinear that returns the error.
func parseLayout(text string, shape []int) (linear.Layout, error) {
	enc, _, err := attr.Parse(text, nil)
	if err != nil {
		return linear.Layout{}, err
	}
	return enc.(attr.Layout).ToLinear(shape)
}

// TestGPUBankConflicts checks our count against Triton 3.6's
// get_shared_bank_conflicts on every generated row, our error where Triton
// aborted, and our linear layout of each register layout against Triton's.
func TestGPUBankConflicts(t *testing.T) {
	rows := readJSONL[gpuBankRow](t, "bank_conflicts_gpu.jsonl")
	counted, aborts, lls := 0, 0, 0
	kinds := map[string]int{}
	for _, r := range rows {
		reg, err := parseLayout(r.Register, r.Shape)
		var sh linear.Layout
		if err == nil {
			sh, err = parseLayout(r.Shared, r.Shape)
		}
		var got int
		if err == nil {
			got, err = BankConflicts(reg, sh, r.Bitwidth)
		}
		if r.Aborts != "" {
			if err == nil {
				t.Errorf("%s: %s / %s %v i%d: Triton aborts (%s), we count %d", r.ID, r.Register, r.Shared, r.Shape, r.Bitwidth, r.Aborts, got)
			}
			aborts++
			continue
		}
		if err != nil || got != *r.Conflicts {
			t.Errorf("%s: %s / %s %v i%d: got %d (%v), Triton %d", r.ID, r.Register, r.Shared, r.Shape, r.Bitwidth, got, err, *r.Conflicts)
			continue
		}
		counted++
		kinds[encodingKind(r.Register)+" / "+encodingKind(r.Shared)]++
		if r.RegisterLinear != nil {
			for in, name := range map[string]string{"reg": "register", "lane": "lane", "warp": "warp", "block": "block"} {
				want := r.RegisterLinear[in]
				if want == nil {
					want = [][]int{}
				}
				gotB := reg.Bases(name)
				if gotB == nil {
					gotB = [][]int{}
				}
				if !slices.EqualFunc(gotB, want, slices.Equal) {
					t.Errorf("%s: %s on %v: %s bases %v, Triton %v", r.ID, r.Register, r.Shape, name, gotB, want)
				}
			}
			lls++
		}
	}
	t.Logf("%d rows: %d counts equal Triton's, %d aborts of Triton are our errors, %d register layouts equal Triton's; by kind: %v",
		len(rows), counted, aborts, lls, kinds)
	if counted < 1000 {
		t.Errorf("only %d rows counted", counted)
	}
}

// TestGPURank3NVMMA is the part of the rows above on rank-3 nvmma_shared
// layouts (a leading batch dimension): with rank = 3 Triton computes a
// layout, and our counts equal Triton's; without it (rank 2 on a rank-3
// shape) Triton aborts and we report an error.
func TestGPURank3NVMMA(t *testing.T) {
	rows := readJSONL[gpuBankRow](t, "bank_conflicts_gpu.jsonl")
	ok, rejected := 0, 0
	for _, r := range rows {
		if len(r.Shape) != 3 || encodingKind(r.Shared) != "nvmma_shared" {
			continue
		}
		sh, err := parseLayout(r.Shared, r.Shape)
		if r.Aborts != "" {
			if err == nil {
				t.Errorf("%s: %s on %v: Triton aborts (%s), we compute a layout", r.ID, r.Shared, r.Shape, r.Aborts)
			}
			rejected++
			continue
		}
		if err != nil {
			t.Errorf("%s: %s on %v: %v", r.ID, r.Shared, r.Shape, err)
			continue
		}
		reg, err := parseLayout(r.Register, r.Shape)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := BankConflicts(reg, sh, r.Bitwidth); err != nil || got != *r.Conflicts {
			t.Errorf("%s: %s / %s %v: got %d (%v), Triton %d", r.ID, r.Register, r.Shared, r.Shape, got, err, *r.Conflicts)
			continue
		}
		ok++
	}
	t.Logf("rank-3 nvmma_shared: %d rows equal Triton's count, %d rejected as Triton rejects them", ok, rejected)
	if ok < 100 {
		t.Errorf("only %d rank-3 nvmma rows", ok)
	}
}

type gpuScratchRow struct {
	ID      string `json:"id"`
	Src     string `json:"src"`
	Dst     string `json:"dst"`
	Shape   []int  `json:"shape"`
	Elem    string `json:"elem"`
	CC      int    `json:"cc"`
	Scratch *int   `json:"scratch"`
	Error   string `json:"triton_error"`
}

// TestGPUScratch checks the scratch size of every generated conversion
// against what Triton 3.6's add_allocate_shared_memory_nv wrote into the
// module (ttg.shared), at cuda:80 and cuda:90.
func TestGPUScratch(t *testing.T) {
	rows := readJSONL[gpuScratchRow](t, "scratch_gpu.jsonl")
	bits := map[string]int{"i8": 8, "f16": 16, "f32": 32}
	perCC := map[int]int{}
	failed := 0
	for _, r := range rows {
		parse := func(text string) attr.Layout {
			enc, _, err := attr.Parse(text, nil)
			if err != nil {
				t.Fatalf("%s: %s: %v", r.ID, text, err)
			}
			return enc.(attr.Layout)
		}
		p, err := PlanEncodings(parse(r.Src), parse(r.Dst), r.Shape, bits[r.Elem], Target{ComputeCapability: r.CC})
		if r.Error != "" {
			if err == nil {
				t.Errorf("%s: %s -> %s %v %s cc%d: Triton fails (%s), we plan %d bytes", r.ID, r.Src, r.Dst, r.Shape, r.Elem, r.CC, r.Error, p.ScratchBytes)
			}
			failed++
			continue
		}
		if err != nil || p.ScratchBytes != *r.Scratch {
			var got int
			if p != nil {
				got = p.ScratchBytes
			}
			t.Errorf("%s: %s -> %s %v %s cc%d: %d bytes (%v), Triton %d", r.ID, r.Src, r.Dst, r.Shape, r.Elem, r.CC, got, err, *r.Scratch)
			continue
		}
		perCC[r.CC]++
	}
	t.Logf("%d conversions: scratch equal to Triton's at cc80 %d, cc90 %d; %d failures of Triton's pass are our errors", len(rows), perCC[80], perCC[90], failed)
	if perCC[80]+perCC[90] < 190 {
		t.Errorf("only %d conversions checked", perCC[80]+perCC[90])
	}
}
