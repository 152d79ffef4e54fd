// Package mockcuda builds a mock CUDA driver library for tests on machines
// without a GPU: device memory is host memory, a module is any image that
// names ".entry NAME(", and launching copy1d (internal/copykernel's kernel,
// with Triton's ABI) copies on the host, so the whole call path of package
// cuda — argument packing included — runs. Images containing
// MOCK_PTX_ERROR fail to load with a ptxas-style log.
package mockcuda

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

//go:embed testdata/mockcuda.c
var source []byte

// Build compiles the mock into dir with the C compiler and returns the
// library's path; set cuda.LibraryEnv to it before the first driver call.
func Build(dir string) (string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", fmt.Errorf("no C compiler: %v", err)
	}
	src := filepath.Join(dir, "mockcuda.c")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return "", err
	}
	so := filepath.Join(dir, "libcuda.so.1")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", so, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the mock driver: %v\n%s", err, out)
	}
	return so, nil
}
