package tensorlayout

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// TestBanksViewOracle runs -view banks on every row of the shared
// bank-conflict oracle and smem's GPU-made rows (Triton 3.6's
// get_shared_bank_conflicts): the output ends with exactly one line
// "bank conflicts: N" and N is Triton's count; where Triton aborts the view
// fails with a located error and exit status 1.
func TestBanksViewOracle(t *testing.T) {
	type row struct {
		Register  string `json:"register_layout"`
		Shared    string `json:"shared_layout"`
		Shape     []int  `json:"shape"`
		Bitwidth  int    `json:"bitwidth"`
		Conflicts *int   `json:"conflicts"`
		Aborts    string `json:"triton_aborts"`
	}
	files := []string{filepath.Join("..", "smem", "testdata", "bank_conflicts_gpu.jsonl")}
	if dir := testenv.SharedDir(); dir != "" {
		files = append(files, filepath.Join(dir, "triton36", "oracles", "bank_conflicts.jsonl"))
	}
	elem := map[int]string{8: "i8", 16: "f16", 32: "f32"}
	n := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<22)
		for i := 0; sc.Scan(); i++ {
			if testing.Short() && i%10 != 0 {
				continue
			}
			var r row
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			dims := make([]string, len(r.Shape))
			for k, d := range r.Shape {
				dims[k] = fmt.Sprint(d)
			}
			typ := "tensor<" + strings.Join(dims, "x") + "x" + elem[r.Bitwidth] + ">"
			out, errOut, code := run(t, "", "-l", r.Register, "-shared", r.Shared, "-t", typ, "-view", "banks")
			where := fmt.Sprintf("%s:%d: %s / %s %s", filepath.Base(file), i+1, r.Register, r.Shared, typ)
			if r.Aborts != "" {
				if code != 1 || out != "" || !strings.Contains(errOut, ":1:") {
					t.Errorf("%s: Triton aborts; exit %d, stdout %q, stderr %q", where, code, out, errOut)
				}
				continue
			}
			if code != 0 {
				t.Errorf("%s: exit %d: %s", where, code, errOut)
				continue
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if got, want := lines[len(lines)-1], fmt.Sprintf("bank conflicts: %d", *r.Conflicts); got != want {
				t.Errorf("%s: last line %q, want %q", where, got, want)
			}
			if c := strings.Count(out, "bank conflicts:"); c != 1 {
				t.Errorf("%s: %d lines with \"bank conflicts:\"", where, c)
			}
			n++
		}
		f.Close()
	}
	t.Logf("%d rows", n)
}
