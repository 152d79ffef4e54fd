// Command lit runs the project's lit tests: a Go implementation of LLVM's
// lit with the project's tools built in. See package
// github.com/layoutopt/layoutopt/lit for the test and configuration format.
//
//	lit [-v] [-j N] [--filter REGEX] [--xunit-xml-output FILE] PATH...
//	lit gen-checks [options] [FILE]    # print CHECK lines for tool output
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/lit"
)

func main() { os.Exit(run(lit.OSProc())) }
