package optdriver_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/optdriver"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

// A Go program hosts the driver over passes of its own: here a tool
// "my-opt" with one pass, run in-process on standard input.
func ExampleTool() {
	reg := passes.NewRegistry()
	reg.Register(&passes.Pass{
		Name:    "hello",
		Summary: "Greet every function",
		Anchor:  "tt.func",
		Run: func(ctx *passes.Context, fn *ir.Operation) error {
			ctx.Remarkf(fn, "hello")
			return nil
		},
	})
	tool := &optdriver.Tool{Name: "my-opt", Registry: reg}

	src := "module {\n  tt.func @f() {\n    tt.return\n  }\n}\n"
	code := tool.Main(&proc.Proc{
		Args:   []string{"-hello"},
		Stdin:  strings.NewReader(src),
		Stdout: os.Stdout,
		Stderr: os.Stdout,
	})
	fmt.Println("exit status", code)

	code = tool.Main(&proc.Proc{Args: []string{"-goodbye"}, Stdin: strings.NewReader(src), Stdout: os.Stdout, Stderr: os.Stdout})
	fmt.Println("exit status", code)
	// Output:
	// <stdin>:2:3: remark: hello
	//   tt.func @f() {
	//   ^
	// module {
	//   tt.func @f() {
	//     tt.return
	//   }
	// }
	// exit status 0
	// my-opt: error: unknown command line argument '-goodbye': not a flag or a registered pass (see -help and -list-passes)
	// exit status 1
}
