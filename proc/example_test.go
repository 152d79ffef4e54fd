package proc_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/layoutopt/layoutopt/proc"
)

// A tool takes everything from its Proc, so it can run in-process with its
// own arguments, directory, environment and streams.
func Example() {
	upper := func(p *proc.Proc) int {
		in, err := io.ReadAll(p.Stdin)
		if err != nil {
			fmt.Fprintln(p.Stderr, err)
			return 1
		}
		fmt.Fprintf(p.Stdout, "%s %s: %s", p.Getenv("GREETING"), strings.Join(p.Args, " "), bytes.ToUpper(in))
		return 0
	}
	var tool proc.Tool = upper

	var out bytes.Buffer
	status := tool(&proc.Proc{
		Args:   []string{"to", "you"},
		Dir:    "/tmp",
		Env:    []string{"GREETING=hi", "GREETING=hello"}, // later entries win
		Stdin:  strings.NewReader("layouts\n"),
		Stdout: &out,
		Stderr: io.Discard,
	})
	fmt.Print(out.String())
	fmt.Println("status", status)
	fmt.Println((&proc.Proc{Dir: "/work"}).Path("in.mlir"))
	// Output:
	// hello to you: LAYOUTS
	// status 0
	// /work/in.mlir
}
