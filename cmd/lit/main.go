// Command lit runs the project's lit tests: a Go implementation of LLVM's
// lit with the project's tools built in. See package
// github.com/layoutopt/layoutopt/lit for the test and configuration format.
//
//	lit [-v] [-j N] [--filter REGEX] [--xunit-xml-output FILE] PATH...
//	lit gen-checks [options] [FILE]    # print CHECK lines for tool output
//
// The tools that RUN lines call in-process are listed in tools.go. The
// project's suite lives in test/ with a lit.cfg such as
//
//	name = LAYOUTOPT
//	suffixes = .mlir .ll
//	excludes = Inputs
//	env FILECHECK_OPTS = --enable-var-scope
//	exec_root = ../out/test
//
// and go test ./cmd/lit runs every test in it as a subtest (TestLitSuite),
// so go test ./... runs the whole lit suite.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/proc"
)

func main() { os.Exit(run(proc.OS())) }
