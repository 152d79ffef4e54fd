// Package proc is the process environment that the project's tools run in:
// arguments, working directory, environment and standard streams, handed to a
// tool's main function as a [Proc] instead of being read from package os.
//
// Every tool (layout-opt, tensor-layout, FileCheck, lit itself) has a main
// function of type [Tool]. A thin cmd main runs it on the real process with
// [OS]; the lit runner and tests run many at once in one process, each on its
// own Proc. Hosting a tool therefore needs only this package, not the test
// runner.
package proc

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Proc is the process environment of one command: what a tool's main
// function sees. The lit runner executes the project's tools in-process, many
// at once, so a tool must take everything from its Proc — never from os.Args,
// os.Stdin, os.Stdout, os.Stderr, os.Getenv or the process working directory.
type Proc struct {
	Args   []string  // arguments, without the program name
	Dir    string    // working directory; relative paths resolve against it
	Env    []string  // environment, "KEY=VALUE" entries; later entries win
	Stdin  io.Reader // never nil (use strings.NewReader("") for none)
	Stdout io.Writer
	Stderr io.Writer
}

// Tool is the main function of a command that can run in-process: it runs
// with p and returns the exit status.
type Tool func(p *Proc) int

// OS returns the Proc of the running process, for a thin cmd main:
//
//	func main() { os.Exit(filecheck.Main(proc.OS())) }
func OS() *Proc {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return &Proc{
		Args:   os.Args[1:],
		Dir:    dir,
		Env:    os.Environ(),
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
	}
}

// Path resolves name against p.Dir. Absolute names and "-" are returned as is.
func (p *Proc) Path(name string) string {
	if name == "-" || filepath.IsAbs(name) || p.Dir == "" {
		return name
	}
	return filepath.Join(p.Dir, name)
}

// ReadFile reads the named file, resolved with [Proc.Path], or all of
// p.Stdin for "-".
func (p *Proc) ReadFile(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(p.Stdin)
	}
	return os.ReadFile(p.Path(name))
}

// Getenv returns the value of the environment variable key in p.Env, or ""
// when it is unset.
func (p *Proc) Getenv(key string) string {
	v, _ := p.LookupEnv(key)
	return v
}

// LookupEnv is like os.LookupEnv over p.Env.
func (p *Proc) LookupEnv(key string) (string, bool) {
	for i := len(p.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(p.Env[i], "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}
