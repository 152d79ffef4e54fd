package llvmemit_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	_ "github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
)

// minLowered is the number of corpus kernels that lowered and compiled
// when last measured; raise it after an improvement.
const minLowered = 252

// llvmTools returns llvm-as-14 and llc-14, skipping the test when they
// are absent (and failing under CI=true, where .ci/run installs them).
func llvmTools(t testing.TB) (as, llc string) {
	t.Helper()
	llc, err := llvmemit.FindLLC(os.Getenv)
	if err == nil {
		as, err = exec.LookPath("llvm-as-14")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("LLVM 14 tools are required under CI: %v", err)
		}
		t.Skipf("LLVM 14 tools not found: %v", err)
	}
	return as, llc
}

// compile checks a module with llvm-as-14 and compiles it with llc-14;
// it returns the PTX.
func compile(t testing.TB, as, llc string, ll string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command(as, "-o", "/dev/null")
	cmd.Stdin = strings.NewReader(ll)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, errors.New("llvm-as-14: " + string(out))
	}
	return llvmemit.CompilePTX(context.Background(), llc, []byte(ll))
}

// compileResult compiles a lowered module as layout-translate does: with
// libdevice linked in when it calls libdevice (skip is then set when
// libdevice.10.bc or llvm-link-14 is missing).
func compileResult(t testing.TB, as, llc string, res *llvmemit.Result) (ptx []byte, skip bool, err error) {
	t.Helper()
	ll := res.Module.String()
	if res.Libdevice {
		lib, err1 := llvmemit.FindLibdevice(os.Getenv)
		link, err2 := llvmemit.FindLLVMLink(os.Getenv)
		opt, err3 := llvmemit.FindOpt(os.Getenv)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, true, err
		}
		linked, err := llvmemit.LinkLibdevice(context.Background(), link, opt, lib, []byte(ll), res.KernelNames())
		if err != nil {
			return nil, false, err
		}
		ll = string(linked)
	}
	ptx, err = compile(t, as, llc, ll)
	return ptx, false, err
}

func lower(t testing.TB, path string) (*llvmemit.Result, error) {
	t.Helper()
	m, err := ir.ParseFile(path, ir.ParseConfig{})
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("verify %s: %v", path, d)
	}
	if d, err := llvmemit.AllocateSharedMemory(m); err != nil {
		return nil, fmt.Errorf("allocate-shared-memory-nv: %v %v", err, d)
	}
	return llvmemit.Emit(m)
}

// TestCorpus lowers every shared Triton 3.6 kernel and every kernel of
// the remove-redundant-conversions corpus, compiles each with llc-14 and
// reports which lower and which ops are missing. A kernel that lowers must
// compile, and a warp_group_dot must become wgmma; without -short ptxas
// assembles each PTX it knows the header of (findPTXAS). PTX_DIR=dir writes
// the PTX there (for ptxas on the device; Hopper kernels with the sm_90a
// header).
func TestCorpus(t *testing.T) {
	as, llc := llvmTools(t)
	var files []string
	if dir := testenv.SharedDir(); dir != "" {
		fs, _ := filepath.Glob(filepath.Join(dir, "triton36", "ttgir", "*.ttgir"))
		files = append(files, fs...)
	}
	pattern := "*.ttgir"
	if testing.Short() {
		pattern = "*_w4.post.ttgir" // a sample: the whole corpus takes minutes of llc
	}
	fs, _ := filepath.Glob(filepath.Join("..", "passes", "testdata", "prepost", pattern))
	files = append(files, fs...)
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	ptxDir := os.Getenv("PTX_DIR")
	var ptxas *ptxasChecker
	if !testing.Short() {
		ptxas = newPTXAS(t)
	}
	missing := map[string][]string{}
	ok := 0
	for _, f := range files {
		name := filepath.Base(f)
		res, err := lower(t, f)
		if err != nil {
			var le *llvmemit.Error
			if !errors.As(err, &le) {
				t.Errorf("%s: %v", name, err)
				continue
			}
			missing[le.Op+": "+le.Msg] = append(missing[le.Op+": "+le.Msg], name)
			continue
		}
		path := ""
		if ptxDir != "" {
			path = filepath.Join(ptxDir, strings.TrimSuffix(name, ".ttgir")+".ptx")
		}
		ptx, compiled := compileAndWrite(t, as, llc, ptxas, name, path, res)
		if !compiled {
			continue
		}
		ok++
		// Every warp_group_dot of the corpus runs as wgmma (none falls back
		// to mma.sync), and its PTX is for sm_90a.
		if src, _ := os.ReadFile(f); strings.Contains(string(src), "ttng.warp_group_dot ") {
			if !res.Hopper || !strings.Contains(string(ptx), "wgmma.mma_async") || strings.Contains(string(ptx), "mma.sync") {
				t.Errorf("%s: a warp_group_dot did not become wgmma (Hopper %v)", name, res.Hopper)
			}
		}
	}
	ptxas.wait(t)
	if ptxas != nil {
		// Reported, not failed: the .pre files lowered as they are keep
		// their redundant conversions (the proof lowers our passes' output
		// of them), and a spill is slow, not wrong.
		for _, s := range ptxas.spills {
			t.Logf("spills: %s", s)
		}
	}
	t.Logf("%d of %d kernels lower and compile", ok, len(files))
	// A ratchet: the whole corpus (10 shared kernels and 242 before/after
	// files) lowered all 252 kernels when this was written.
	if !testing.Short() && len(files) == 252 && ok < minLowered {
		t.Errorf("only %d kernels lower and compile, %d did before", ok, minLowered)
	}
	logMissing(t, missing)
}

// logMissing logs why kernels did not lower: each error with its count
// and one example, the most frequent first.
func logMissing(t *testing.T, missing map[string][]string) {
	var keys []string
	for k := range missing {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(missing[keys[i]]) > len(missing[keys[j]]) })
	for _, k := range keys {
		t.Logf("%3d kernels: %s (e.g. %s)", len(missing[k]), k, missing[k][0])
	}
}

// writePTX rewrites a kernel's PTX header as layout-translate does (the
// sm_90a header when it uses Hopper's instructions, a newer .version when
// an instruction needs it), hands it to ptxas (c, nil for none), and
// writes it to path (PTX_DIR, for ptxas on the GPU machine; "" writes
// nothing).
// compileAndWrite compiles res with llc (compileResult) and hands the PTX
// to writePTX (path "" keeps no copy), or logs why it was not compiled
// (a missing tool) or reports the failure; it returns the PTX llc made and
// whether it did.
func compileAndWrite(t *testing.T, as, llc string, c *ptxasChecker, name, path string, res *llvmemit.Result) ([]byte, bool) {
	t.Helper()
	ptx, skip, err := compileResult(t, as, llc, res)
	if skip {
		t.Logf("%s: not compiled: %v", name, err)
		return nil, false
	}
	if err != nil {
		t.Errorf("%s lowers but does not compile: %v", name, err)
		return nil, false
	}
	writePTX(t, c, name, path, res, ptx)
	return ptx, true
}

func writePTX(t *testing.T, c *ptxasChecker, name, path string, res *llvmemit.Result, ptx []byte) {
	t.Helper()
	if version, target := res.Header(); version != "" || target != "" {
		var err error
		if ptx, err = llvmemit.RewritePTXHeader(ptx, version, target); err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
	}
	c.check(name, ptx)
	if path == "" {
		return
	}
	if err := os.WriteFile(path, ptx, 0o644); err != nil {
		t.Fatal(err)
	}
}
