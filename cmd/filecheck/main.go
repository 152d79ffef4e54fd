// Command filecheck is a Go implementation of LLVM's FileCheck; see package
// github.com/layoutopt/layoutopt/lit/filecheck.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/lit"
	"github.com/layoutopt/layoutopt/lit/filecheck"
)

func main() { os.Exit(filecheck.Main(lit.OSProc())) }
