package interp_test

import (
	"fmt"

	_ "github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// Run a vector-add kernel over two programs of 64 elements on 100
// elements: the mask keeps the second program inside the buffers.
func ExampleRun() {
	m, diags := ir.Parse([]byte(addKernel), ir.ParseConfig{Filename: "add.mlir"})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	const n = 100
	x, _ := interp.NewBuffer(ir.F32, n)
	y, _ := interp.NewBuffer(ir.F32, n)
	out, _ := interp.NewBuffer(ir.F32, n)
	for i := 0; i < n; i++ {
		x.SetFloat(i, float64(i))
		y.SetFloat(i, 0.25)
	}
	args := []interp.Arg{interp.BufArg(x), interp.BufArg(y), interp.BufArg(out), interp.IntArg(n)}
	if err := interp.Run(m, "add", args, [3]int{2, 1, 1}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Float(0), out.Float(63), out.Float(64), out.Float(99))

	// With n larger than the buffers, the unmasked tail is a located error.
	args[3] = interp.IntArg(128)
	fmt.Println(interp.Run(m, "add", args, [3]int{2, 1, 1}))
	// Output:
	// 0.25 63.25 64.25 99.25
	// add.mlir:13:11: error: 'tt.load' op element [36]: out-of-bounds access: byte offset 400 of buffer 0 (argument 0), which holds 400 bytes (program 1, 0, 0)
}
