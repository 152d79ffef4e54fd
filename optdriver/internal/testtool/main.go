// Command testtool is layout-opt with the driver's test passes registered
// next to the real ones; the driver's tests build and run it.
package main

import (
	"os"

	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/optdriver/internal/testpasses"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

func main() {
	if err := testpasses.Register(passes.Default()); err != nil {
		panic(err)
	}
	os.Exit(optdriver.Main(proc.OS()))
}
