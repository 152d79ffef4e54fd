package llvmemit_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestSimDenseConstant adds non-splat dense constants to a loaded tensor:
// one whose elements differ between threads (a table in constant
// memory), one whose registers hold one value in every thread (folded),
// and an i1 one selecting between them.
func TestSimDenseConstant(t *testing.T) {
	dense := func(shape []int, f func(i int) string) string {
		var b strings.Builder
		var rec func(d, off int)
		rec = func(d, off int) {
			if d == len(shape) {
				b.WriteString(f(off))
				return
			}
			b.WriteByte('[')
			stride := prod(shape[d+1:])
			for i := 0; i < shape[d]; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				rec(d+1, off+i*stride)
			}
			b.WriteByte(']')
		}
		rec(0, 0)
		return b.String()
	}
	body := offsets2D("a", "#rows", 32, 32) + fmt.Sprintf(`
    %%ip = tt.splat %%in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %%ia = tt.addptr %%ip, %%a_off : tensor<32x32x!tt.ptr<i32>, #rows>, tensor<32x32xi32, #rows>
    %%x = tt.load %%ia : tensor<32x32x!tt.ptr<i32>, #rows>
    %%t = arith.constant dense<%s> : tensor<32x32xi32, #rows>
    %%r = arith.constant dense<%s> : tensor<32x32xi32, #regs>
    %%rc = ttg.convert_layout %%r : tensor<32x32xi32, #regs> -> tensor<32x32xi32, #rows>
    %%m = arith.constant dense<%s> : tensor<32x32xi1, #rows>
    %%y0 = arith.addi %%x, %%t : tensor<32x32xi32, #rows>
    %%y = arith.addi %%y0, %%rc : tensor<32x32xi32, #rows>
    %%z = arith.select %%m, %%y, %%x : tensor<32x32xi1, #rows>, tensor<32x32xi32, #rows>
    %%op = tt.splat %%out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %%ob = tt.addptr %%op, %%a_off : tensor<32x32x!tt.ptr<i32>, #rows>, tensor<32x32xi32, #rows>
    tt.store %%ob, %%z : tensor<32x32x!tt.ptr<i32>, #rows>`,
		dense([]int{32, 32}, func(i int) string { return fmt.Sprint(i*3 - 700) }),
		// The same in every row: #regs holds a row per thread.
		dense([]int{32, 32}, func(i int) string { return fmt.Sprint(i%32*5 + 1) }),
		dense([]int{32, 32}, func(i int) string { return fmt.Sprint(i%3 == 0) }))
	src := module(4, aliasDefs("rows")+"#regs = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>\n", body)
	res := lowerSource(t, src, "dense.mlir", true)
	text := res.Module.String()
	if strings.Count(text, "addrspace(4) constant [1024 x") != 2 {
		t.Errorf("want two tables in constant memory (the i32 and the i1 constants), got:\n%s", text[:min(len(text), 3000)])
	}
	crossCheck(t, src, 4, []*interp.Buffer{filled(t, ir.I32, 1024, 1), zeros(t, ir.I32, 1024)})
}
