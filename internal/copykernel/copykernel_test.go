package copykernel

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the checked-in PTX in ../../cuda/testdata")

// variants are the kernels checked in as PTX for package cuda's GPU tests
// and the proof bundle.
var variants = []struct {
	file      string
	roundTrip bool
}{
	{"copy1d_f32.ptx", false},
	{"copy1d_f32_roundtrip.ptx", true},
}

func tool(t *testing.T, name string) string {
	for _, p := range []string{name + "-14", "/usr/lib/llvm-14/bin/" + name} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s-14 not found", name)
	}
	t.Skipf("%s-14 not found", name)
	return ""
}

// TestPTX compiles each variant with llvm-as-14 and llc-14 and checks the
// PTX: Triton's ABI (five parameters), the block size, vector accesses, no
// unresolved intrinsic (.extern .func), shared memory only in the
// round-trip variant, and equality with the checked-in file.
func TestPTX(t *testing.T) {
	llvmAs, llc := tool(t, "llvm-as"), tool(t, "llc")
	for _, v := range variants {
		t.Run(v.file, func(t *testing.T) {
			m, err := Module("copy1d", v.roundTrip)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			ll := filepath.Join(dir, "k.ll")
			if err := os.WriteFile(ll, []byte(m.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(llvmAs, ll, "-o", os.DevNull).CombinedOutput(); err != nil {
				t.Fatalf("llvm-as: %v\n%s\n%s", err, out, m)
			}
			ptxFile := filepath.Join(dir, "k.ptx")
			args := append(append([]string{}, LLCArgs...), ll, "-o", ptxFile)
			if out, err := exec.Command(llc, args...).CombinedOutput(); err != nil {
				t.Fatalf("llc: %v\n%s", err, out)
			}
			ptx, err := os.ReadFile(ptxFile)
			if err != nil {
				t.Fatal(err)
			}
			s := string(ptx)
			for _, want := range []string{".visible .entry copy1d(", "copy1d_param_4", ".reqntid 128, 1, 1",
				"ld.global.v4.f32", "st.global.v4.f32", "@%p", ".target sm_80"} {
				if !strings.Contains(s, want) {
					t.Errorf("PTX lacks %q", want)
				}
			}
			if strings.Contains(s, "copy1d_param_5") {
				t.Error("PTX has more than five parameters")
			}
			if strings.Contains(s, ".extern .func") {
				t.Error("PTX calls an unresolved function (an intrinsic LLVM 14 does not know)")
			}
			if got := strings.Contains(s, "global_smem") && strings.Contains(s, "shfl.sync.idx.b32"); got != v.roundTrip {
				t.Errorf("shared memory and shuffle in the PTX: %v, want %v", got, v.roundTrip)
			}
			golden := filepath.Join("..", "..", "cuda", "testdata", v.file)
			if *update {
				if err := os.WriteFile(golden, ptx, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./internal/copykernel -update writes it)", err)
			}
			if !bytes.Equal(ptx, want) {
				t.Errorf("%s is stale: go test ./internal/copykernel -update", golden)
			}
		})
	}
}
