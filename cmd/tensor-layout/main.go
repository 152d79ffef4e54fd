// Command tensor-layout prints the layout of a tensor under a TritonGPU
// encoding or a CuTe layout, like Triton's triton-tensor-layout and Mojo's
// print_layout. See package tensorlayout.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/proc"
	"github.com/layoutopt/layoutopt/tensorlayout"
)

func main() { os.Exit(tensorlayout.Main(proc.OS())) }
