package llvmemit_test

import (
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestSimMemDescViews stores a tensor to a swizzled buffer and loads it
// back through ttg.memdesc_trans and ttg.memdesc_reshape views (and a
// subslice of a transposed view), against the interpreter.
func TestSimMemDescViews(t *testing.T) {
	body := offsets2D("a", "#rows", 32, 32) + offsets2D("b", "#cols", 32, 32) + offsets2D("c", "#flat", 16, 64) + offsets2D("d", "#spread", 16, 32) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #rows>, tensor<32x32xi32, #rows>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #rows>
    %m = ttg.local_alloc %x : (tensor<32x32xi32, #rows>) -> !ttg.memdesc<32x32xi32, #sh, #smem>
    %mt = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xi32, #sh, #smem> -> !ttg.memdesc<32x32xi32, #sht, #smem>
    %y = ttg.local_load %mt : !ttg.memdesc<32x32xi32, #sht, #smem> -> tensor<32x32xi32, #cols>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #cols>
    %ob = tt.addptr %op, %b_off : tensor<32x32x!tt.ptr<i32>, #cols>, tensor<32x32xi32, #cols>
    tt.store %ob, %y : tensor<32x32x!tt.ptr<i32>, #cols>
    %mr = ttg.memdesc_reshape %m : !ttg.memdesc<32x32xi32, #sh, #smem> -> !ttg.memdesc<16x64xi32, #shr, #smem>
    %z = ttg.local_load %mr : !ttg.memdesc<16x64xi32, #shr, #smem> -> tensor<16x64xi32, #flat>
    %c1024 = arith.constant 1024 : i32
    %o2 = tt.addptr %out, %c1024 : !tt.ptr<i32>, i32
    %op2 = tt.splat %o2 : !tt.ptr<i32> -> tensor<16x64x!tt.ptr<i32>, #flat>
    %ob2 = tt.addptr %op2, %c_off : tensor<16x64x!tt.ptr<i32>, #flat>, tensor<16x64xi32, #flat>
    tt.store %ob2, %z : tensor<16x64x!tt.ptr<i32>, #flat>
    %ms = ttg.memdesc_subslice %mt [16, 0] : !ttg.memdesc<32x32xi32, #sht, #smem> -> !ttg.memdesc<16x32xi32, #sht, #smem, 32x32>
    %w = ttg.local_load %ms : !ttg.memdesc<16x32xi32, #sht, #smem, 32x32> -> tensor<16x32xi32, #spread>
    %c2048 = arith.constant 2048 : i32
    %o3 = tt.addptr %out, %c2048 : !tt.ptr<i32>, i32
    %op3 = tt.splat %o3 : !tt.ptr<i32> -> tensor<16x32x!tt.ptr<i32>, #spread>
    %ob3 = tt.addptr %op3, %d_off : tensor<16x32x!tt.ptr<i32>, #spread>, tensor<16x32xi32, #spread>
    tt.store %ob3, %w : tensor<16x32x!tt.ptr<i32>, #spread>`
	src := module(4, aliasDefs("rows", "cols", "spread")+`#flat = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sht = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#shr = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
`, body)
	crossCheck(t, src, 4, []*interp.Buffer{filled(t, ir.I32, 1024, 1), zeros(t, ir.I32, 2048+512)})
}
