package ttgirrun

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// manifestKernel is an entry of proof/kernels.json (written by
// proof/manifest.py), as far as ttgir-run reads it.
type manifestKernel struct {
	Name      string   `json:"name"`
	TTGIR     string   `json:"ttgir"`
	From      string   `json:"from"`
	Args      []string `json:"args"`
	Grid      string   `json:"grid"`
	CheckArgs []string `json:"check_args"`
	CheckGrid string   `json:"check_grid"`
}

// TestProofManifest: every kernel of the proof's manifest takes its
// benchmark arguments (-dry-run: the buffers are not made) and runs on the
// interpreter at its check size without an access outside its buffers,
// the check the GPU run compares with. Kernels from .pre files run on the
// GPU as layout-opt's output, which has the same parameters: they are
// dry-run only. -short dry-runs everything.
func TestProofManifest(t *testing.T) {
	data, err := os.ReadFile("../proof/kernels.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Kernels []manifestKernel `json:"kernels"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	byName := map[string]manifestKernel{}
	for _, k := range m.Kernels {
		byName[k.Name] = k
	}
	if len(m.Kernels) < 250 {
		t.Errorf("%d kernels in the manifest, want every file of ../shared/triton36/ttgir and the corpus", len(m.Kernels))
	}
	for _, k := range m.Kernels {
		t.Run(k.Name, func(t *testing.T) {
			var file string
			switch {
			case strings.HasPrefix(k.TTGIR, "shared:"):
				file = testenv.Shared(t, filepath.Join("triton36", strings.TrimPrefix(k.TTGIR, "shared:")))
			case strings.HasPrefix(k.TTGIR, "prepost:"):
				file = filepath.Join("..", "passes", "testdata", "prepost", strings.TrimPrefix(k.TTGIR, "prepost:"))
			default:
				file = filepath.Join("..", "proof", k.TTGIR)
			}
			if _, err := os.Stat(file); err != nil {
				t.Skip(err)
			}
			src := k
			if k.From != "" {
				var ok bool
				if src, ok = byName[k.From]; !ok {
					t.Fatalf("from %q: no such kernel", k.From)
				}
			}
			launch := func(args []string, grid string, extra ...string) {
				t.Helper()
				argv := append([]string{file, "-grid", grid, "-q"}, extra...)
				for _, a := range args {
					argv = append(argv, "-arg", a)
				}
				if _, errs, code := runTool(t, argv...); code != 0 {
					t.Errorf("ttgir-run %s: status %d\n%s", strings.Join(argv, " "), code, errs)
				}
			}
			launch(src.Args, src.Grid, "-dry-run")
			launch(src.CheckArgs, src.CheckGrid, "-dry-run")
			if !testing.Short() && !strings.HasSuffix(file, ".pre.ttgir") {
				launch(src.CheckArgs, src.CheckGrid)
			}
		})
	}
}
