package ttgirrun

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/cuda"
	"github.com/layoutopt/layoutopt/internal/mockcuda"
	"github.com/layoutopt/layoutopt/proc"
)

// mock is set when the GPU tests run on the mock driver (no GPU here).
var mock bool

func TestMain(m *testing.M) {
	var cleanup func()
	if _, err := os.Stat("/dev/nvidiactl"); err != nil && os.Getenv(cuda.LibraryEnv) == "" {
		if dir, err := os.MkdirTemp("", "mockcuda"); err == nil {
			if so, err := mockcuda.Build(dir); err == nil {
				os.Setenv(cuda.LibraryEnv, so)
				mock = true
			}
			cleanup = func() { os.RemoveAll(dir) }
		}
	}
	code := m.Run()
	if cleanup != nil {
		cleanup()
	}
	os.Exit(code)
}

func runTool(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = Main(&proc.Proc{Args: args, Dir: ".", Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e})
	return o.String(), e.String(), code
}

func needDriver(t *testing.T) {
	t.Helper()
	if err := cuda.Available(); err != nil {
		t.Skipf("no CUDA driver (nor mock): %v", err)
	}
}

func readF32(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// copyArgs are the arguments of testdata/copy1d_f32.ttgir for n elements.
func copyArgs(n int) []string {
	return []string{"-arg", fmt.Sprintf("x=rand:f32:%d", n), "-arg", fmt.Sprintf("y=zeros:f32:%d", n),
		"-arg", fmt.Sprintf("n=%d", n), "-grid", fmt.Sprint((n + 511) / 512)}
}

func TestCPU(t *testing.T) {
	dir := t.TempDir()
	const n = 5000 // a ragged last program
	out, errs, code := runTool(t, append([]string{"testdata/copy1d_f32.ttgir", "-dump", dir, "-json", filepath.Join(dir, "r.json")}, copyArgs(n)...)...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if !strings.Contains(out, "@copy1d on the interpreter: grid 10,1,1") {
		t.Errorf("stdout: %s", out)
	}
	x, y := readF32(t, filepath.Join(dir, "x.in.bin")), readF32(t, filepath.Join(dir, "y.out.bin"))
	if len(x) != n || len(y) != n {
		t.Fatalf("%d and %d elements", len(x), len(y))
	}
	for i := range x {
		if x[i] != y[i] || x[i] < -1 || x[i] >= 1 {
			t.Fatalf("element %d: x %v, y %v", i, x[i], y[i])
		}
	}
	var rep report
	data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Kernel != "copy1d" || rep.CPU == nil || len(rep.Args) != 3 || rep.Args[0].Bytes != 4*n || rep.GPU != nil {
		t.Errorf("report %+v", rep)
	}
}

// TestCPUGlobalScratch: a module allocating global scratch without the
// offsets (as Triton prints TTGIR) runs: ttgir-run allocates it first, and
// each program of the interpreter gets its own scratch.
func TestCPUGlobalScratch(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := runTool(t, "testdata/global_scratch.ttgir", "-arg", "out=zeros:i32:4x128", "-grid", "4", "-dump", dir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out.out.bin"))
	if err != nil || len(b) != 4*512 {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	for i := range 512 {
		if got, want := int32(binary.LittleEndian.Uint32(b[4*i:])), int32(3*(i%128+i/128)); got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

// TestWorkers: the interpreter's programs on several goroutines leave the
// buffers as on one, and a bad count is an error.
func TestWorkers(t *testing.T) {
	dump := func(workers string) []byte {
		dir := t.TempDir()
		if _, errs, code := runTool(t, append([]string{"testdata/copy1d_f32.ttgir", "-workers", workers, "-dump", dir}, copyArgs(9000)...)...); code != 0 {
			t.Fatal(errs)
		}
		b, err := os.ReadFile(filepath.Join(dir, "y.out.bin"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one := dump("1")
	if !bytes.Equal(one, dump("4")) {
		t.Error("-workers 4 left another y than -workers 1")
	}
	if _, errs, code := runTool(t, append([]string{"testdata/copy1d_f32.ttgir", "-workers", "0"}, copyArgs(64)...)...); code != 1 || !strings.Contains(errs, "-workers takes a count ≥ 1") {
		t.Errorf("-workers 0: status %d, %s", code, errs)
	}
}

// TestSeeds checks that the buffers depend on -seed and the name only.
func TestSeeds(t *testing.T) {
	dump := func(seed string) []float32 {
		dir := t.TempDir()
		if _, errs, code := runTool(t, append([]string{"testdata/copy1d_f32.ttgir", "-seed", seed, "-dump", dir}, copyArgs(3000)...)...); code != 0 {
			t.Fatal(errs)
		}
		return readF32(t, filepath.Join(dir, "x.in.bin"))
	}
	a, b, c := dump("1"), dump("1"), dump("2")
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the same seed gave different buffers")
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Error("different seeds gave the same buffer")
	}
}

func TestErrors(t *testing.T) {
	k := "testdata/copy1d_f32.ttgir"
	x, y, n := "x=rand:f32:1024", "y=zeros:f32:1024", "n=1024"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{k, "-arg", x, "-arg", y, "-arg", n}, "missing -grid"},
		{[]string{"-grid", "2"}, "no TTGIR file"},
		{[]string{k, k, "-grid", "2"}, "one TTGIR file at a time"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y}, "no -arg for n (@copy1d takes x: !tt.ptr<f32>, y: !tt.ptr<f32>, n: i32)"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", "nn=3"}, "-arg:1:1: error: @copy1d has no parameter \"nn\"; did you mean 'n'?"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", n, "-arg", "2=5"}, "parameter n is given twice (also by -arg n=1024)"},
		{[]string{k, "-grid", "2", "-arg", "x=rand:f16:1024", "-arg", y, "-arg", n}, "x points to f32, not f16"},
		{[]string{k, "-grid", "2", "-arg", "x=3", "-arg", y, "-arg", n}, "x is a pointer (!tt.ptr<f32>): give a buffer, such as rand:f32:65536"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", "n=zeros:i32:4"}, "n is a scalar (i32): give a number"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", "n=1.5"}, "n is an integer (i32); 1.5 is not"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", "n=8589934592"}, "8589934592 does not fit i32"},
		{[]string{k, "-grid", "2", "-arg", "x=rand:f32:1024:lo=2:hi=1", "-arg", y, "-arg", n}, "lo=2 is above hi=1"},
		{[]string{k, "-grid", "2", "-arg", "x=rand:f32:1024:mean=1", "-arg", y, "-arg", n}, "-arg:1:17: error: unknown option \"mean\" of rand (want lo, hi, seed)\nx=rand:f32:1024:mean=1\n                ^"},
		{[]string{k, "-grid", "2", "-arg", "x=file:/does/not/exist", "-arg", y, "-arg", n}, "no such file"},
		{[]string{k, "-grid", "0", "-arg", x, "-arg", y, "-arg", n}, "-grid 0: \"0\" is not a positive 32-bit count"},
		{[]string{k, "-grid", "1,2,3,4", "-arg", x, "-arg", y, "-arg", n}, "at most three dimensions"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", n, "-bench", "5"}, "-bench and -check need -ptx"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", n, "-ptx", "k.ptx", "-graph", "10"}, "-graph goes with -bench"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", n, "-ptx", "k.ptx", "-bench", "3", "-graph", "-1"}, "take counts ≥ 0"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", n, "-ptx", "k.ptx", "-bench", "3", "-graph", "10001"}, "-graph 10001: at most 10000 launches per graph"},
		{[]string{k, "-grid", "2", "-arg", x, "-arg", y, "-arg", n, "-func", "copy"}, "no tt.func @copy in the module; did you mean 'copy1d'?"},
		{[]string{k, "-grid", "2", "-benhc", "3"}, "did you mean -bench?"},
		{[]string{k, "-grid", "2", "-arg", "x"}, "want NAME=SPEC"},
	} {
		_, errs, code := runTool(t, c.args...)
		if code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("ttgir-run %s: status %d, stderr:\n%s\nwant %q", strings.Join(c.args, " "), code, errs, c.want)
		}
	}
}

func TestBadModule(t *testing.T) {
	f := filepath.Join(t.TempDir(), "bad.ttgir")
	os.WriteFile(f, []byte("module {\n  tt.func @k(%x: i32) {\n    tt.bogus\n  }\n}\n"), 0o644)
	_, errs, code := runTool(t, f, "-grid", "1", "-arg", "x=1")
	if code != 1 || !strings.Contains(errs, "bad.ttgir:3:") {
		t.Errorf("status %d, stderr %q", code, errs)
	}
}

// TestGPU runs the copy kernel's PTX (internal/copykernel) on the GPU, or
// the mock driver, with -check, -bench, -dump and -json.
func TestGPU(t *testing.T) {
	needDriver(t)
	dir := t.TempDir()
	const n = 100_003
	args := append([]string{"testdata/copy1d_f32.ttgir", "-ptx", "../cuda/testdata/copy1d_f32_roundtrip.ptx", "-check",
		"-bench", "5", "-warmup", "1", "-dump", dir, "-json", filepath.Join(dir, "r.json")}, copyArgs(n)...)
	meta := filepath.Join(dir, "meta.json")
	os.WriteFile(meta, []byte(`[{"name": "copy1d", "threads": 128, "num_warps": 4, "shared_bytes": 2048}]`), 0o644) // layout-translate -kernel-json
	out, errs, code := runTool(t, append(args, "-meta", meta)...)
	if code != 0 {
		t.Fatalf("status %d: %s%s", code, out, errs)
	}
	for _, want := range []string{"@copy1d on ", "check: the GPU and the interpreter agree", "x: 100003 f32 elements equal",
		"bench: 5 runs, 781.3 KiB moved per launch", "% of copy"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	var rep report
	data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.GPU == nil || rep.GPU.SharedBytes != 2048 || rep.Check == nil || !rep.Check.OK || rep.Bench == nil ||
		rep.Bench.Bytes != 8*n || rep.Bench.Runs != 5 || rep.Bench.Kernel.Median <= 0 || rep.Bench.PctOfCopy <= 0 {
		t.Errorf("report %s", data)
	}
	if rep.Bench.Graph != 0 {
		t.Errorf("graph %d without -graph", rep.Bench.Graph)
	}
	x, y := readF32(t, filepath.Join(dir, "x.in.bin")), readF32(t, filepath.Join(dir, "y.out.bin"))
	ref := readF32(t, filepath.Join(dir, "y.ref.bin"))
	for i := range x {
		if x[i] != y[i] || y[i] != ref[i] {
			t.Fatalf("element %d: x %v, gpu %v, interp %v", i, x[i], y[i], ref[i])
		}
	}
}

// TestGPUGraph times the copy kernel in CUDA graphs (-graph): the report
// says so and gives times per launch.
func TestGPUGraph(t *testing.T) {
	needDriver(t)
	dir := t.TempDir()
	out, errs, code := runTool(t, append([]string{"testdata/copy1d_f32.ttgir", "-ptx", "../cuda/testdata/copy1d_f32.ptx",
		"-bench", "4", "-graph", "25", "-warmup", "1", "-json", filepath.Join(dir, "r.json")}, copyArgs(4096)...)...)
	if code != 0 {
		t.Fatalf("status %d: %s%s", code, out, errs)
	}
	if want := "bench: 4 runs (each a CUDA graph of 25 launches; times per launch), 32.0 KiB moved per launch"; !strings.Contains(out, want) {
		t.Errorf("stdout lacks %q:\n%s", want, out)
	}
	var rep report
	data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Bench == nil || rep.Bench.Graph != 25 || rep.Bench.Runs != 4 || rep.Bench.Bytes != 8*4096 {
		t.Errorf("report %s", data)
	}
}

// TestMismatch runs the copy kernel's PTX under a TTGIR that adds one:
// -check must fail with status 2 and name the first differing elements.
func TestMismatch(t *testing.T) {
	needDriver(t)
	dir := t.TempDir()
	out, errs, code := runTool(t, append([]string{"testdata/addone_as_copy1d.ttgir", "-ptx", "../cuda/testdata/copy1d_f32.ptx",
		"-check", "-show", "3", "-json", filepath.Join(dir, "r.json")}, copyArgs(1000)...)...)
	if code != 2 {
		t.Fatalf("status %d, want 2: %s%s", code, out, errs)
	}
	for _, want := range []string{"MISMATCH", "x: 1000 f32 elements equal", "y: 1000 of 1000 f32 elements differ", "[0] ", "[2] ", "gpu", "interp"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[3] ") {
		t.Errorf("more than -show 3 mismatches printed:\n%s", out)
	}
}

func TestJITErrorReported(t *testing.T) {
	needDriver(t)
	bad := filepath.Join(t.TempDir(), "bad.ptx")
	params := strings.Repeat(".param .u64 p,", 4) + ".param .u64 p"
	os.WriteFile(bad, []byte(".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry copy1d("+params+")\n{\n\tMOCK_PTX_ERROR;\n}\n"), 0o644)
	_, errs, code := runTool(t, append([]string{"testdata/copy1d_f32.ttgir", "-ptx", bad}, copyArgs(1000)...)...)
	if code != 1 || !strings.Contains(errs, "the driver cannot compile the PTX") || !strings.Contains(errs, "CUDA_ERROR_INVALID_PTX") {
		t.Errorf("status %d, stderr %q", code, errs)
	}
}

func TestParseMeta(t *testing.T) {
	lt := `[{"name": "other", "threads": 256, "num_warps": 8, "shared_bytes": 0},
		{"name": "copy1d", "threads": 128, "num_warps": 4, "shared_bytes": 2048, "params": []}]`
	m, err := parseMeta([]byte(lt), "copy1d")
	if err != nil || m != (cuda.Meta{Name: "copy1d", NumWarps: 4, ThreadsPerWarp: 32, Shared: 2048}) {
		t.Errorf("layout-translate metadata: %+v, %v", m, err)
	}
	if _, err := parseMeta([]byte(lt), "nope"); err == nil || !strings.Contains(err.Error(), "no kernel nope among 2") {
		t.Errorf("missing kernel: %v", err)
	}
	m, err = parseMeta([]byte(`[{"name": "k", "threads": 128, "num_warps": 4, "shared_bytes": 0, "global_scratch_size": 1024, "global_scratch_align": 16}]`), "k")
	if err != nil || m.GlobalScratchSize != 1024 || m.GlobalScratchAlign != 16 {
		t.Errorf("layout-translate metadata with global scratch: %+v, %v", m, err)
	}
	m, err = parseMeta([]byte(`{"name": "k", "num_warps": 8, "shared": 100}`), "k")
	if err != nil || m.Name != "k" || m.NumWarps != 8 || m.Shared != 100 {
		t.Errorf("Triton metadata: %+v, %v", m, err)
	}
}

// TestABI runs a PTX kernel under a tt.func with a different parameter
// count: a clear error, no launch.
func TestABI(t *testing.T) {
	ptx := []byte(".visible .entry copy1d(\n\t.param .u64 copy1d_param_0,\n\t.param .u64 copy1d_param_1,\n\t.param .u32 copy1d_param_2,\n\t.param .u64 copy1d_param_3,\n\t.param .u64 copy1d_param_4\n)\n")
	if n, ok := entryParams(ptx, "copy1d"); !ok || n != 5 {
		t.Errorf("entryParams = %d, %v", n, ok)
	}
	if _, ok := entryParams(ptx, "copy"); ok {
		t.Error("entryParams found a kernel by prefix")
	}
	f := filepath.Join(t.TempDir(), "two.ttgir")
	os.WriteFile(f, []byte("module attributes {\"ttg.num-warps\" = 4 : i32} {\n  tt.func public @copy1d(%x: !tt.ptr<f32>, %n: i32) {\n    tt.return\n  }\n}\n"), 0o644)
	_, errs, code := runTool(t, f, "-grid", "1", "-arg", "x=zeros:f32:4", "-arg", "n=4", "-ptx", "../cuda/testdata/copy1d_f32.ptx")
	if code != 1 || !strings.Contains(errs, "the PTX kernel copy1d takes 5 parameters, but @copy1d has 2") {
		t.Errorf("status %d, stderr %q", code, errs)
	}
}

// TestCPUTensorDescriptors: a kernel taking host-side tensor descriptors
// (Triton's TensorDescriptor: a descriptor, then its shape and strides)
// copies a tensor whose rows and columns are not whole blocks; the blocks
// past its edges are clipped. A descriptor's spec must give a shape of its
// rank, its rows whole multiples of 16 bytes (the TMA's rule).
func TestCPUTensorDescriptors(t *testing.T) {
	dir := t.TempDir()
	args := []string{"testdata/tma_copy2d.ttgir", "-grid", "4,3", "-dump", dir,
		"-arg", "in=randn:f16:200x320", "-arg", "in_m=200", "-arg", "in_n=320", "-arg", "in_sm=320", "-arg", "in_sn=1",
		"-arg", "out=zeros:f16:200x320", "-arg", "out_m=200", "-arg", "out_n=320", "-arg", "out_sm=320", "-arg", "out_sn=1"}
	if _, errs, code := runTool(t, args...); code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	in, err := os.ReadFile(filepath.Join(dir, "in.in.bin"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dir, "out.out.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 2*200*320 || !bytes.Equal(in, out) {
		t.Errorf("the copy differs (%d and %d bytes)", len(in), len(out))
	}
	args[6] = "in=randn:f16:60000"
	if _, errs, code := runTool(t, args...); code != 1 || !strings.Contains(errs, "in is a tensor descriptor of rank 2") || !strings.Contains(errs, "such as rand:f16:1024x2048") {
		t.Errorf("a 1-D spec for a 2-D descriptor: status %d, stderr:\n%s", code, errs)
	}
	args[6] = "in=randn:f16:200x300"
	if _, errs, code := runTool(t, args...); code != 1 || !strings.Contains(errs, "in's rows of 300 f16 take 600 bytes: a tensor descriptor's strides must be multiples of 16 bytes") {
		t.Errorf("rows of 600 bytes: status %d, stderr:\n%s", code, errs)
	}
}

// TestCPUDescriptorPadding: a block loaded over the edge of a host-side
// descriptor's tensor reads 0 out of bounds, or NaN with padding=nan
// (Triton's TensorDescriptor padding); padding= is refused elsewhere.
func TestCPUDescriptorPadding(t *testing.T) {
	for _, c := range []struct {
		spec string
		nan  bool
	}{{"in=iota:f32:40x16", false}, {"in=iota:f32:40x16:padding=zero", false}, {"in=iota:f32:40x16:padding=nan", true}} {
		dir := t.TempDir()
		args := []string{"testdata/tma_load_tile.ttgir", "-grid", "1", "-dump", dir, "-arg", c.spec,
			"-arg", "out=zeros:f32:512", "-arg", "r=16", "-arg", "c=0"}
		if _, errs, code := runTool(t, args...); code != 0 {
			t.Fatalf("%s: status %d: %s", c.spec, code, errs)
		}
		out := readF32(t, filepath.Join(dir, "out.out.bin"))
		for i, v := range out {
			row := i / 16
			switch {
			case row < 24 && v != float32(256+i): // rows 16..39 of the iota
				t.Fatalf("%s: element %d = %v, want %d", c.spec, i, v, 256+i)
			case row >= 24 && c.nan != math.IsNaN(float64(v)), row >= 24 && !c.nan && v != 0:
				t.Fatalf("%s: element %d (out of bounds) = %v", c.spec, i, v)
			}
		}
	}
	for _, bad := range []struct{ arg, want string }{
		{"in=iota:f32:40x16:padding=maybe", `padding="maybe": want zero or nan`},
		{"in=iota:f32:40x16:padding=nan:padding=zero", "option padding given twice"},
	} {
		if _, errs, code := runTool(t, "testdata/tma_load_tile.ttgir", "-grid", "1", "-arg", bad.arg, "-arg", "out=zeros:f32:512",
			"-arg", "r=16", "-arg", "c=0"); code != 1 || !strings.Contains(errs, bad.want) {
			t.Errorf("%s: status %d, stderr:\n%s", bad.arg, code, errs)
		}
	}
	if _, errs, code := runTool(t, "testdata/tma_load_tile.ttgir", "-grid", "1", "-arg", "in=iota:f32:40x16", "-arg", "out=zeros:f32:512:padding=nan",
		"-arg", "r=16", "-arg", "c=0"); code != 1 || !strings.Contains(errs, "padding= is for tensor descriptor parameters; out is !tt.ptr<f32>") {
		t.Errorf("padding on a pointer: status %d, stderr:\n%s", code, errs)
	}
}
