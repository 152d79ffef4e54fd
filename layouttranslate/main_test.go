package layouttranslate_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/layouttranslate"
	"github.com/layoutopt/layoutopt/llvmemit"
	"github.com/layoutopt/layoutopt/proc"
)

const kernel = `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %xp = tt.addptr %xs, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tt.load %xp : tensor<512x!tt.ptr<f32>, #b>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %yp = tt.addptr %ys, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    tt.store %yp, %v : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}
`

func run(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	p := &proc.Proc{Args: args, Dir: dir, Env: os.Environ(), Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}
	code := layouttranslate.Main(p)
	return code, out.String(), errb.String()
}

func TestLLVMIRAndMetadata(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k.ttgir"), []byte(kernel), 0o644)
	code, out, errs := run(t, dir, "", "-ttgir-to-llvmir", "k.ttgir", "-o", "k.ll", "-kernel-json", "k.json")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	ll, _ := os.ReadFile(filepath.Join(dir, "k.ll"))
	if !strings.Contains(string(ll), "load <4 x float>, <4 x float> addrspace(1)*") {
		t.Errorf("no 128-bit load in\n%s", ll)
	}
	js, _ := os.ReadFile(filepath.Join(dir, "k.json"))
	var ks []llvmemit.Kernel
	if err := json.Unmarshal(js, &ks); err != nil || len(ks) != 1 || ks[0].Name != "copy" || ks[0].Threads != 128 || len(ks[0].Params) != 4 {
		t.Errorf("metadata %s (%v)", js, err)
	}
	// Standard input and output.
	code, out, _ = run(t, dir, kernel, "-ttgir-to-llvmir")
	if code != 0 || !strings.Contains(out, "define void @copy(") {
		t.Errorf("stdin: exit %d, %q", code, out)
	}
}

func TestErrorsKeepOutput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k.ll"), []byte("old"), 0o644)
	bad := strings.Replace(kernel, "tt.return", "%q = tt.make_tensor_ptr %x, [], [], [] {order = array<i32>} : <tensor<f32>>\n    tt.return", 1)
	code, _, errs := run(t, dir, bad, "-ttgir-to-llvmir", "-", "-o", "k.ll")
	if code != 1 || !strings.Contains(errs, "<stdin>:") || !strings.Contains(errs, "cannot lower") {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "k.ll")); string(b) != "old" {
		t.Errorf("the output file was overwritten on error: %q", b)
	}
	for _, args := range [][]string{{}, {"-ttgir-to-llvmir", "-ttgir-to-ptx"}, {"-ttgir-to-llvmir", "a", "b"}, {"-ttgir-to-llvmir", "missing.ttgir"}} {
		if code, _, _ := run(t, dir, "", args...); code != 1 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if code, _, errs := run(t, dir, "module {", "-ttgir-to-llvmir"); code != 1 || !strings.Contains(errs, "<stdin>:1") {
		t.Errorf("parse error: exit %d, %s", code, errs)
	}
}

func TestPTX(t *testing.T) {
	llc := needLLVM(t, false)
	code, out, errs := run(t, t.TempDir(), kernel, "-ttgir-to-ptx", "-llc", llc)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{".version 7.0", ".target sm_80", ".visible .entry copy(", ".reqntid 128, 1, 1", "ld.global.v4.f32", "st.global.v4.f32"} {
		if !strings.Contains(out, want) {
			t.Errorf("PTX lacks %q", want)
		}
	}
	code, out, _ = run(t, t.TempDir(), kernel, "-ttgir-to-ptx", "-llc", llc, "-ptx-version", "8.0", "-ptx-target", "sm_90a")
	if code != 0 || !strings.Contains(out, ".version 8.0\n.target sm_90a") {
		t.Errorf("header rewrite: exit %d\n%.300s", code, out)
	}
	// A kernel with wgmma gets the sm_90a header without being asked, and
	// its launch metadata says so.
	wgmma, err := os.ReadFile(filepath.Join("..", "test", "llvmemit", "wgmma.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	code, out, errs = run(t, dir, string(wgmma), "-ttgir-to-ptx", "-llc", llc, "-kernel-json", "k.json")
	if code != 0 || !strings.Contains(out, ".version 8.0\n.target sm_90a") || !strings.Contains(out, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16") {
		t.Errorf("wgmma kernel: exit %d %s\n%.300s", code, errs, out)
	}
	if js, err := os.ReadFile(filepath.Join(dir, "k.json")); err != nil || !strings.Contains(string(js), `"arch": "sm_90a"`) {
		t.Errorf("wgmma kernel metadata: %s %v", js, err)
	}
	// Loads with an L2 prefetch size (l2-prefetch, run by default) need PTX
	// ISA 7.4: the header is raised, the target stays llc's; without them
	// it is llc's.
	transpose, err := os.ReadFile(filepath.Join("..", "test", "llvmemit", "specialize-divisibility.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, t.TempDir(), string(transpose), "-ttgir-to-ptx", "-llc", llc)
	if code != 0 || !strings.Contains(out, ".version 7.4\n.target sm_80") || !strings.Contains(out, "ld.global.L2::256B.v4.b32") {
		t.Errorf("l2-prefetch kernel: exit %d %s\n%.300s", code, errs, out)
	}
	code, out, errs = run(t, t.TempDir(), string(transpose), "-ttgir-to-ptx", "-llc", llc, "-l2-prefetch=off")
	if code != 0 || !strings.Contains(out, ".version 7.0\n.target sm_80") || strings.Contains(out, "L2::256B") {
		t.Errorf("l2-prefetch=off: exit %d %s\n%.300s", code, errs, out)
	}
	// -fuse-mad-wide: llc's mul.wide + add.s64 address arithmetic becomes
	// mad.wide where the add is the product's only use, with a remark
	// counting the pairs; without it llc's stays.
	reshape, err := os.ReadFile(filepath.Join("..", "passes", "testdata", "prepost", "reshape_16x64_sm80_w2.post.ttgir"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, t.TempDir(), string(reshape), "-ttgir-to-ptx", "-llc", llc, "-fuse-mad-wide", "-remarks")
	if code != 0 || strings.Count(out, "mad.wide.u32") != 3 || strings.Contains(out, "mul.wide") ||
		!strings.Contains(errs, "remark: fuse-mad-wide: 3 mul.wide + add.s64 pairs fused") {
		t.Errorf("-fuse-mad-wide: exit %d %s\n%s", code, errs, out)
	}
	if code, out, _ = run(t, t.TempDir(), string(reshape), "-ttgir-to-ptx", "-llc", llc); code != 0 || strings.Contains(out, "mad.wide") {
		t.Errorf("without -fuse-mad-wide: exit %d\n%s", code, out)
	}
	// A warp scan's step combines, then selects (selp.b32, as Triton): not
	// the identity -0.0 selected into an add that always runs, which
	// InstCombine makes of an LLVM select.
	cumsum, err := os.ReadFile(filepath.Join("..", "passes", "testdata", "prepost", "cumsum_axis1_32x64_sm90_w4.post.ttgir"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, t.TempDir(), string(cumsum), "-ttgir-to-ptx", "-llc", llc)
	if code != 0 || strings.Count(out, "selp.b32") < 4 || strings.Contains(out, "0f80000000") {
		t.Errorf("scan: exit %d %s\n%s", code, errs, out)
	}
	// A multiply and the add using it become one fma (llc -fp-contract=fast,
	// Triton's enable_fp_fusion); math.sqrt is sqrt.approx.ftz.f32.
	code, out, errs = run(t, t.TempDir(), fmaKernel, "-ttgir-to-ptx", "-llc", llc)
	if code != 0 || !strings.Contains(out, "fma.rn.f32") || strings.Contains(out, "mul.rn.f32") ||
		!strings.Contains(out, "sqrt.approx.ftz.f32") {
		t.Errorf("fma kernel: exit %d %s\n%s", code, errs, out)
	}
}

const fmaKernel = `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @axpy(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %a: f32) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %xp = tt.addptr %xs, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %yp = tt.addptr %ys, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = tt.load %xp : tensor<512x!tt.ptr<f32>, #b>
    %yv = tt.load %yp : tensor<512x!tt.ptr<f32>, #b>
    %as = tt.splat %a : f32 -> tensor<512xf32, #b>
    %m = arith.mulf %as, %xv : tensor<512xf32, #b>
    %s = arith.addf %m, %yv : tensor<512xf32, #b>
    %q = math.sqrt %s : tensor<512xf32, #b>
    tt.store %yp, %q : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}
`

// atomicKernel adds x into y with Triton's default tl.atomic_add
// semantics; each thread's four elements are contiguous and aligned.
const atomicKernel = `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @acc(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %xp = tt.addptr %xs, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tt.load %xp : tensor<512x!tt.ptr<f32>, #b>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %yp = tt.addptr %ys, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %yp, %v : (tensor<512x!tt.ptr<f32>, #b>, tensor<512xf32, #b>) -> tensor<512xf32, #b>
    tt.return
  }
}
`

// TestComputeCapability lowers an sm_80 module for sm_90, as Triton does
// when it compiles it on an H200: its fadd atomics become vector atomics
// (PTX ISA 8.1, sm_90a); a lower capability than the module's changes
// nothing.
func TestComputeCapability(t *testing.T) {
	llc := needLLVM(t, false)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{".version 7.0\n.target sm_80", "atom.acq_rel.gpu.global.add.f32 "}},
		{[]string{"-compute-capability", "75"}, []string{".version 7.0\n.target sm_80", "atom.acq_rel.gpu.global.add.f32 "}},
		{[]string{"-compute-capability", "90"}, []string{".version 8.1\n.target sm_90a", "atom.acq_rel.gpu.global.add.v4.f32 "}},
	} {
		dir := t.TempDir()
		code, out, errs := run(t, dir, atomicKernel, append([]string{"-ttgir-to-ptx", "-llc", llc, "-kernel-json", "k.json"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: PTX lacks %q", c.args, w)
			}
		}
		js, _ := os.ReadFile(filepath.Join(dir, "k.json"))
		if vector := strings.Contains(out, "add.v4.f32"); vector != strings.Contains(string(js), `"arch": "sm_90a"`) {
			t.Errorf("%v: metadata %s", c.args, js)
		}
	}
	if code, _, errs := run(t, t.TempDir(), atomicKernel, "-ttgir-to-llvmir", "-compute-capability", "-1"); code != 1 || !strings.Contains(errs, "-compute-capability") {
		t.Errorf("negative capability: exit %d, %s", code, errs)
	}
}

// maskedKernel loads and stores under a mask of no known constancy: each
// element is its own predicated access.
const maskedKernel = `#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scale(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c512 = arith.constant 512 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c512 : i32
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %bs = tt.splat %base : i32 -> tensor<512xi32, #b>
    %o = arith.addi %bs, %r : tensor<512xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b>
    %m = arith.cmpi slt, %o, %ns : tensor<512xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %xp = tt.addptr %xs, %o : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tt.load %xp, %m : tensor<512x!tt.ptr<f32>, #b>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %yp = tt.addptr %ys, %o : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    tt.store %yp, %v, %m : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}
`

// maskedLoadPTX matches a predicated scalar global load in PTX.
var maskedLoadPTX = regexp.MustCompile(`@%p[0-9]+ ld\.global\.b32`)

// TestOptimization: -ttgir-to-ptx runs opt-14 -O3 first unless -O0 says
// not to, and -ttgir-to-llvmir only when -O3 asks. Either way llc makes a
// thread's four element addresses one widening multiply and base+4, +8,
// +12 (the lowering writes the register offsets as add nuw nsw, which llc
// folds too; ptxas folds them into the accesses' offsets); only O3's global
// DCE drops the unused declaration of global_smem.
func TestOptimization(t *testing.T) {
	llc := needLLVM(t, true)
	for _, c := range []struct {
		args []string
		smem bool
	}{
		{[]string{"-ttgir-to-ptx"}, false},
		{[]string{"-ttgir-to-ptx", "-O3"}, false},
		{[]string{"-ttgir-to-ptx", "-O0"}, true},
	} {
		code, out, errs := run(t, t.TempDir(), maskedKernel, append(c.args, "-llc", llc)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		if n := strings.Count(out, "mul.wide.s32"); n != 1 || !maskedLoadPTX.MatchString(out) || strings.Contains(out, " global_smem[]") != c.smem {
			t.Errorf("%v: %d mul.wide.s32, want 1; global_smem declared: want %v:\n%s", c.args, n, c.smem, out)
		}
	}
	_, raw, _ := run(t, t.TempDir(), maskedKernel, "-ttgir-to-llvmir")
	_, opt, errs := run(t, t.TempDir(), maskedKernel, "-ttgir-to-llvmir", "-O3")
	// The lowering indexes with i32; O3 canonicalizes the indices to i64.
	const gep32 = "getelementptr float, float addrspace(1)* %x, i32 "
	if !strings.Contains(raw, gep32) || strings.Contains(opt, gep32) || !strings.Contains(opt, "define void @scale(") {
		t.Errorf("-ttgir-to-llvmir is not the lowering's IR, or -O3 did not optimize it (%s):\n%s\n%s", errs, raw, opt)
	}
	if code, _, errs := run(t, t.TempDir(), maskedKernel, "-ttgir-to-ptx", "-O0", "-O3"); code != 1 || !strings.Contains(errs, "-O0 and -O3") {
		t.Errorf("-O0 -O3: exit %d, %s", code, errs)
	}
}

// needLLVM returns llc-14's path (and checks for opt-14 too when withOpt),
// skipping the test where they are missing, failing it under CI.
func needLLVM(t *testing.T, withOpt bool) string {
	t.Helper()
	llc, err := llvmemit.FindLLC(os.Getenv)
	if err == nil {
		_, err = exec.LookPath(llc)
	}
	if err == nil && withOpt {
		_, err = llvmemit.FindOpt(os.Getenv)
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("LLVM 14's tools are required under CI: %v", err)
		}
		t.Skip(err)
	}
	return llc
}

func TestLaunchBounds(t *testing.T) {
	llc := needLLVM(t, false)
	code, out, errs := run(t, t.TempDir(), kernel, "-ttgir-to-ptx", "-llc", llc, "-min-ctas-per-sm", "1", "-maxnreg", "64")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, ".reqntid 128, 1, 1\n.minnctapersm 1\n.maxnreg 64") {
		t.Errorf("no launch bounds after .reqntid:\n%.600s", out)
	}
	// By default (auto) a kernel that reads no program id gets
	// .minnctapersm 1 and one that reads it none; 0 gives none.
	if code, out, _ := run(t, t.TempDir(), kernel, "-ttgir-to-ptx", "-llc", llc); code != 0 || !strings.Contains(out, ".reqntid 128, 1, 1\n.minnctapersm 1\n{") {
		t.Errorf("no .minnctapersm 1 by default on a kernel without program ids (exit %d):\n%.600s", code, out)
	}
	if code, out, _ := run(t, t.TempDir(), kernel, "-ttgir-to-ptx", "-llc", llc, "-min-ctas-per-sm", "0"); code != 0 || strings.Contains(out, ".minnctapersm") || strings.Contains(out, ".maxnreg") {
		t.Errorf("launch bounds with -min-ctas-per-sm 0 (exit %d):\n%.600s", code, out)
	}
	pid := strings.Replace(kernel, "%r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>",
		"%p = tt.get_program_id x : i32\n    %r = tt.splat %p : i32 -> tensor<512xi32, #b>", 1)
	code, out, errs = run(t, t.TempDir(), pid, "-ttgir-to-ptx", "-llc", llc, "-remarks")
	if code != 0 || strings.Contains(out, ".minnctapersm") {
		t.Errorf("a kernel that reads its program id got launch bounds (exit %d, %s):\n%.600s", code, errs, out)
	}
	if !strings.Contains(errs, "remark: launch bounds: none (it reads tt.get_program_id)") {
		t.Errorf("no launch-bounds remark in %s", errs)
	}
	code, out, errs = run(t, t.TempDir(), kernel, "-ttgir-to-llvmir", "-remarks", "-maxnreg", "80")
	if code != 0 || !strings.Contains(out, `!"minctasm", i32 1}`) || !strings.Contains(out, `!"maxnreg", i32 80}`) ||
		!strings.Contains(errs, "remark: launch bounds: .minnctapersm 1 (it reads no program id") {
		t.Errorf("auto with -maxnreg 80 (exit %d, %s):\n%s", code, errs, out)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k.ll"), []byte("old"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-maxnreg", "300"}, "layout-translate: error: -maxnreg 300: give 1 to 255 registers per thread"},
		{[]string{"-min-ctas-per-sm", "-1"}, `layout-translate: error: -min-ctas-per-sm "-1": give auto or a number of programs`},
		{[]string{"-min-ctas-per-sm", "many"}, `layout-translate: error: -min-ctas-per-sm "many": give auto or a number of programs`},
		{[]string{"-min-ctas-per-sm", "32"}, "32 programs of kernel copy's 128 threads are 4096 threads, more than the 2048 an SM holds"},
	} {
		code, _, errs := run(t, dir, kernel, append([]string{"-ttgir-to-llvmir", "-o", "k.ll"}, c.args...)...)
		if code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "k.ll")); string(b) != "old" {
		t.Errorf("the output file was overwritten on error: %q", b)
	}
}
