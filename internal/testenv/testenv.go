// Package testenv finds the module root and the reference data in
// ../shared for the project's tests, which run with the package directory
// as working directory. Tests need the data only where it is present: the
// project builds and its tests pass without it.
package testenv

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ModuleRoot returns the directory holding go.mod, walking up from the
// working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// SharedDir returns the shared/ directory beside the module root, or ""
// when there is none.
func SharedDir() string {
	root, err := ModuleRoot()
	if err != nil {
		return ""
	}
	dir := filepath.Join(root, "..", "shared")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// Shared returns the path of rel under the shared/ directory, skipping the
// test when that path does not exist.
func Shared(tb testing.TB, rel string) string {
	tb.Helper()
	dir := SharedDir()
	if dir == "" {
		tb.Skip("../shared not present")
	}
	p := filepath.Join(dir, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s not available", p)
	}
	return p
}

// GoCommand returns the go command of the toolchain running the tests: go
// test puts that toolchain's bin directory first in the test binary's PATH
// (Go 1.19 and later), so looking "go" up in PATH finds it. It returns "go"
// when the lookup fails, so that exec reports the error.
func GoCommand() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}
