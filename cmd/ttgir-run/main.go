// Command ttgir-run runs one TTGIR kernel with named arguments on the CPU
// (the reference interpreter) or on the GPU from its PTX, checks the two
// against each other and benchmarks the GPU kernel against a device copy.
// See package ttgirrun.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/proc"
	"github.com/layoutopt/layoutopt/ttgirrun"
)

func main() { os.Exit(ttgirrun.Main(proc.OS())) }
