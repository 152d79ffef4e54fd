package llvmemit_test

import (
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestSimAtomics checks tt.atomic_rmw and tt.atomic_cas on layouts that
// broadcast elements over warps, lanes and registers, and on a scalar,
// with their results read (shared through scratch memory), against the
// interpreter: every element's atomic happens once, and every holder sees
// its old value.
func TestSimAtomics(t *testing.T) {
	body := `
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #w>
    %cp = tt.splat %in : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #w>
    %ca = tt.addptr %cp, %r : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %one = arith.constant dense<3> : tensor<64xi32, #w>
    %old = tt.atomic_rmw add, acq_rel, gpu, %ca, %one : (tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>) -> tensor<64xi32, #w>
    %two = arith.constant dense<2> : tensor<64xi32, #w>
    %rem = arith.remsi %r, %two : tensor<64xi32, #w>
    %x = tt.load %ca : tensor<64x!tt.ptr<i32>, #w>
    %zero = arith.constant dense<0> : tensor<64xi32, #w>
    %odd = arith.cmpi ne, %rem, %zero : tensor<64xi32, #w>
    %cmp = arith.select %odd, %r, %x : tensor<64xi1, #w>, tensor<64xi32, #w>
    %c64 = arith.constant 64 : i32
    %in2 = tt.addptr %in, %c64 : !tt.ptr<i32>, i32
    %cp2 = tt.splat %in2 : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #w>
    %ca2 = tt.addptr %cp2, %r : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %y = tt.load %ca2 : tensor<64x!tt.ptr<i32>, #w>
    %cas = tt.atomic_cas acq_rel, gpu, %ca2, %y, %r : (tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>, tensor<64xi32, #w>) -> tensor<64xi32, #w>
    %cas2 = tt.atomic_cas acq_rel, gpu, %ca, %cmp, %r : (tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>, tensor<64xi32, #w>) -> tensor<64xi32, #w>
    %r2 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #d>
    %c128 = arith.constant 128 : i32
    %in3 = tt.addptr %in, %c128 : !tt.ptr<i32>, i32
    %dp = tt.splat %in3 : !tt.ptr<i32> -> tensor<2x!tt.ptr<i32>, #d>
    %da = tt.addptr %dp, %r2 : tensor<2x!tt.ptr<i32>, #d>, tensor<2xi32, #d>
    %five = arith.constant dense<5> : tensor<2xi32, #d>
    %dmax = tt.atomic_rmw max, acq_rel, gpu, %da, %five : (tensor<2x!tt.ptr<i32>, #d>, tensor<2xi32, #d>) -> tensor<2xi32, #d>
    %c7 = arith.constant 7 : i32
    %s = tt.atomic_rmw add, acq_rel, gpu, %in3, %c7 : (!tt.ptr<i32>, i32) -> i32
    %ss = tt.splat %s : i32 -> tensor<64xi32, #w>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #w>
    %oa = tt.addptr %op, %r : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %v0 = arith.addi %old, %ss : tensor<64xi32, #w>
    tt.store %oa, %v0 : tensor<64x!tt.ptr<i32>, #w>
    %c64t = arith.constant dense<64> : tensor<64xi32, #w>
    %oc = tt.addptr %oa, %c64t : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %v1 = arith.addi %cas, %cas2 : tensor<64xi32, #w>
    tt.store %oc, %v1 : tensor<64x!tt.ptr<i32>, #w>
    %o3 = tt.addptr %out, %c128 : !tt.ptr<i32>, i32
    %dq = tt.splat %o3 : !tt.ptr<i32> -> tensor<2x!tt.ptr<i32>, #d>
    %dqa = tt.addptr %dq, %r2 : tensor<2x!tt.ptr<i32>, #d>, tensor<2xi32, #d>
    tt.store %dqa, %dmax : tensor<2x!tt.ptr<i32>, #d>`
	src := module(4, `#w = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#d = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
`, body)
	in := filled(t, ir.I32, 130, 1)
	in.SetInt(129, 9) // max(9, 5) keeps 9; element 128 is below 5
	crossCheck(t, src, 4, []*interp.Buffer{in, zeros(t, ir.I32, 130)})
}
