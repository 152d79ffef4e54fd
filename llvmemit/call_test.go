package llvmemit_test

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestSimDeviceFunction calls a private function with a tensor and a
// scalar argument that returns a tensor in another layout (a conversion
// through its shared-memory frame) and a scalar (a reduction across
// warps), while the caller keeps a shared buffer of its own alive across
// the call; the simulator and the interpreter must agree.
func TestSimDeviceFunction(t *testing.T) {
	body := offsets2D("a", "#rows", 32, 32) + offsets2D("b", "#cols", 32, 32) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #rows>, tensor<32x32xi32, #rows>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #rows>
    %m = ttg.local_alloc %x : (tensor<32x32xi32, #rows>) -> !ttg.memdesc<32x32xi32, #sh, #smem>
    %c7 = arith.constant 7 : i32
    %y:2 = tt.call @f(%x, %c7) : (tensor<32x32xi32, #rows>, i32) -> (tensor<32x32xi32, #cols>, i32)
    %z = ttg.local_load %m : !ttg.memdesc<32x32xi32, #sh, #smem> -> tensor<32x32xi32, #cols>
    %s = tt.splat %y#1 : i32 -> tensor<32x32xi32, #cols>
    %w0 = arith.addi %y#0, %z : tensor<32x32xi32, #cols>
    %w = arith.addi %w0, %s : tensor<32x32xi32, #cols>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #cols>
    %ob = tt.addptr %op, %b_off : tensor<32x32x!tt.ptr<i32>, #cols>, tensor<32x32xi32, #cols>
    tt.store %ob, %w : tensor<32x32x!tt.ptr<i32>, #cols>`
	callee := `
  tt.func private @f(%x: tensor<32x32xi32, #rows>, %c: i32) -> (tensor<32x32xi32, #cols>, i32) {
    %y = ttg.convert_layout %x : tensor<32x32xi32, #rows> -> tensor<32x32xi32, #cols>
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %t = arith.addi %p, %q : i32
      tt.reduce.return %t : i32
    }) : (tensor<32x32xi32, #rows>) -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>>
    %r2 = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %t = arith.maxsi %p, %q : i32
      tt.reduce.return %t : i32
    }) : (tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>>) -> i32
    %s = arith.addi %r2, %c : i32
    tt.return %y, %s : tensor<32x32xi32, #cols>, i32
  }
}
`
	src := module(4, aliasDefs("rows", "cols")+"#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n#smem = #ttg.shared_memory\n", body)
	src = strings.TrimSuffix(strings.TrimSpace(src), "}") + callee
	res := lowerSource(t, src, "call.mlir", true)
	text := res.Module.String()
	for _, want := range []string{"define internal {", "i32 %shared_frame, i8 addrspace(1)* %global_scratch, i8 addrspace(1)* %profile_scratch) nounwind noinline", "} @f(i32 %"} {
		if !strings.Contains(text, want) {
			t.Errorf("the module has no %q", want)
		}
	}
	if len(res.Kernels) != 1 || res.Kernels[0].Name != "k" {
		t.Errorf("kernels %+v, want only @k", res.Kernels)
	}
	crossCheck(t, src, 4, []*interp.Buffer{filled(t, ir.I32, 1024, 1), zeros(t, ir.I32, 1024)})
}
