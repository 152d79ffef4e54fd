// Command filecheck is a Go implementation of LLVM's FileCheck; see package
// github.com/layoutopt/layoutopt/lit/filecheck.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/proc"
)

func main() { os.Exit(filecheck.Main(proc.OS())) }
