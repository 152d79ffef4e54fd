package llvmemit_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestGatherSharedOrder checks the shared-memory order of a gather along
// axis 0 (gather_axis0_64x16_sm90_w2: 64x16 f32, 4 columns and 4 row
// repeats 16 apart per thread): the source is stored with the axis
// fastest, as Triton does, so every store is one base register plus an
// immediate (column j at +256 bytes·j, row repeat k at +64 bytes·k) and
// every load is the thread's row pointer plus the index, the column an
// immediate. Row-major storage needed an address per store and spread a
// warp's data-dependent loads over 8 of the 32 banks.
func TestGatherSharedOrder(t *testing.T) {
	as, llc := llvmTools(t)
	res, err := lower(t, "../passes/testdata/prepost/gather_axis0_64x16_sm90_w2.post.ttgir")
	if err != nil {
		t.Fatal(err)
	}
	ptx, err := compile(t, as, llc, res.Module.String())
	if err != nil {
		t.Fatal(err)
	}
	access := regexp.MustCompile(`(ld|st)\.shared\.\w+\s.*\[(%r\d+)(?:\+(\d+))?\]`)
	bases := map[string]map[string]bool{"ld": {}, "st": {}}
	offs := map[string][]string{}
	for _, line := range strings.Split(string(ptx), "\n") {
		m := access.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if m[3] == "" {
			m[3] = "0"
		}
		bases[m[1]][m[2]] = true
		offs[m[1]] = append(offs[m[1]], m[3])
	}
	var want []string
	for j := 0; j < 4; j++ {
		for k := 0; k < 4; k++ {
			want = append(want, fmt.Sprint(256*j+64*k))
		}
	}
	sort.Strings(want)
	sort.Strings(offs["st"])
	if len(bases["st"]) != 1 || strings.Join(offs["st"], " ") != strings.Join(want, " ") {
		t.Errorf("stores: base registers %v, offsets %v; want one base, offsets %v", bases["st"], offs["st"], want)
	}
	// The loads: one address per index (16), the column in the immediate.
	var lwant []string
	for i := 0; i < 4; i++ {
		lwant = append(lwant, "0", "256", "512", "768")
	}
	sort.Strings(lwant)
	sort.Strings(offs["ld"])
	if strings.Join(offs["ld"], " ") != strings.Join(lwant, " ") {
		t.Errorf("load offsets %v, want %v", offs["ld"], lwant)
	}
}
