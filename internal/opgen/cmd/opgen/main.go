// Command opgen writes the typed op accessors of one dialect (see package
// internal/opgen). Each dialect package runs it from its generate.go:
//
//	//go:generate go run ../../internal/opgen/cmd/opgen -dialect tt -o ops_gen.go
//
// so `go generate ./dialect/...` regenerates every dialect. -pkg defaults
// to $GOPACKAGE (set by go generate), else to the dialect name.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/internal/opgen"
	"github.com/layoutopt/layoutopt/proc"
)

func main() {
	name := flag.String("dialect", "", "the dialect whose ops to generate accessors for (tt, ttg, ...)")
	out := flag.String("o", opgen.FileName, "the output file; - for standard output")
	pkg := flag.String("pkg", os.Getenv("GOPACKAGE"), "the Go package name (default $GOPACKAGE, else the dialect name)")
	flag.Parse()
	if err := run(*name, *out, *pkg); err != nil {
		fmt.Fprintln(os.Stderr, "opgen:", err)
		os.Exit(1)
	}
}

func run(name, out, pkg string) error {
	for _, d := range dialect.All {
		if d.Name != name {
			continue
		}
		if pkg == "" {
			pkg = d.Name
		}
		src, err := opgen.Generate(d, pkg)
		if err != nil {
			return err
		}
		if out == "-" {
			_, err = os.Stdout.Write(src)
			return err
		}
		if old, err := os.ReadFile(out); err == nil && string(old) == string(src) {
			return nil
		}
		return proc.WriteFileAtomic(out, src)
	}
	var names []string
	for _, d := range dialect.All {
		names = append(names, d.Name)
	}
	return fmt.Errorf("no dialect %q in dialect.All (have %v)", name, names)
}
