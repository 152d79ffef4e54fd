// Command layout-translate lowers TritonGPU IR to LLVM IR or PTX for
// NVIDIA GPUs, as mlir-translate does for MLIR:
//
//	layout-translate -ttgir-to-llvmir k.ttgir -o k.ll
//	layout-translate -ttgir-to-ptx k.ttgir -o k.ptx -kernel-json k.json
//
// See package layouttranslate.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/layouttranslate"
	"github.com/layoutopt/layoutopt/proc"
)

func main() { os.Exit(layouttranslate.Main(proc.OS())) }
