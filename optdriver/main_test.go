package optdriver_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/optdriver/internal/testpasses"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

// Binaries built once by TestMain.
var (
	layoutOptBin string // cmd/layout-opt
	testToolBin  string // optdriver/internal/testtool: layout-opt plus the test passes
	buildErr     error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "optdriver-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	layoutOptBin = filepath.Join(dir, "layout-opt")
	testToolBin = filepath.Join(dir, "testtool")
	buildErr = goBuild(layoutOptBin, "./cmd/layout-opt")
	if buildErr == nil {
		buildErr = goBuild(testToolBin, "./optdriver/internal/testtool")
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// goBuild builds the package pkg (relative to the module root) into out.
func goBuild(out, pkg string) error {
	root, err := testenv.ModuleRoot()
	if err != nil {
		return err
	}
	cmd := exec.Command(testenv.GoCommand(), "build", "-o", out, pkg)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return nil
}

// result is what one run of the driver produced.
type result struct {
	stdout, stderr string
	code           int
	dir            string // the working directory it ran in
}

// testRegistry is the registry the in-process runs use: the test passes
// plus every registered real pass, as in the testtool binary.
func testRegistry(t testing.TB) *passes.Registry {
	t.Helper()
	reg := passes.NewRegistry()
	if err := testpasses.Register(reg); err != nil {
		t.Fatal(err)
	}
	for _, p := range passes.All() {
		if err := reg.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// runInProcess runs the driver through Tool.Main in dir.
func runInProcess(t testing.TB, dir, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	tool := &optdriver.Tool{Registry: testRegistry(t)}
	code := tool.Main(&proc.Proc{Args: args, Dir: dir, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return result{stdout: out.String(), stderr: errb.String(), code: code, dir: dir}
}

// runBinary runs a built binary in dir.
func runBinary(t testing.TB, bin, dir, stdin string, args ...string) result {
	t.Helper()
	if buildErr != nil {
		t.Fatalf("building the driver: %v", buildErr)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code, dir: dir}
}

// writeFiles creates files (name → content) in a new temporary directory.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// contains fails the test unless s contains every one of subs, in order.
func contains(t testing.TB, what, s string, subs ...string) {
	t.Helper()
	rest := s
	for _, sub := range subs {
		i := strings.Index(rest, sub)
		if i < 0 {
			t.Errorf("%s lacks %q (in this order):\n%s", what, sub, s)
			return
		}
		rest = rest[i+len(sub):]
	}
}

func lacks(t testing.TB, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			t.Errorf("%s contains %q:\n%s", what, sub, s)
		}
	}
}
