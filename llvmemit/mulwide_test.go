package llvmemit_test

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestSimMulWide checks the products whose two halves are both taken
// (Philox's tt.mulhiui a, b beside arith.muli b, a), tensor and scalar:
// one mul.wide.u32 per register gives both, the same as the interpreter's;
// a high half alone stays an LLVM multiplication.
func TestSimMulWide(t *testing.T) {
	const src = `#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %lim: i32) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #b>
    %ia = tt.addptr %ip, %r : tensor<256x!tt.ptr<i32>, #b>, tensor<256xi32, #b>
    %x = tt.load %ia : tensor<256x!tt.ptr<i32>, #b>
    %k = arith.constant dense<-766435501> : tensor<256xi32, #b>
    %hi = tt.mulhiui %k, %x : tensor<256xi32, #b>
    %lo = arith.muli %x, %k : tensor<256xi32, #b>
    %c = arith.constant -845247145 : i32
    %shi = tt.mulhiui %lim, %c : i32
    %slo = arith.muli %lim, %c : i32
    %sq = tt.mulhiui %x, %x : tensor<256xi32, #b>
    %s1 = tt.splat %shi : i32 -> tensor<256xi32, #b>
    %s2 = tt.splat %slo : i32 -> tensor<256xi32, #b>
    %t = arith.xori %sq, %s1 : tensor<256xi32, #b>
    %u = arith.addi %t, %s2 : tensor<256xi32, #b>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #b>
    %o0 = tt.addptr %op, %r : tensor<256x!tt.ptr<i32>, #b>, tensor<256xi32, #b>
    %n = arith.constant dense<256> : tensor<256xi32, #b>
    %o1 = tt.addptr %o0, %n : tensor<256x!tt.ptr<i32>, #b>, tensor<256xi32, #b>
    %o2 = tt.addptr %o1, %n : tensor<256x!tt.ptr<i32>, #b>, tensor<256xi32, #b>
    tt.store %o0, %hi : tensor<256x!tt.ptr<i32>, #b>
    tt.store %o1, %lo : tensor<256x!tt.ptr<i32>, #b>
    tt.store %o2, %u : tensor<256x!tt.ptr<i32>, #b>
    tt.return
  }
}
`
	ll := lowerSource(t, src, "mulwide.mlir", true).Module.String()
	if n := strings.Count(ll, "mul.wide.u32 w, $2, $3;"); n != 3 { // 2 registers of %x, 1 scalar
		t.Fatalf("%d mul.wide.u32, want 3 (2 registers, 1 scalar) in\n%s", n, ll)
	}
	if !strings.Contains(ll, "mul i64") {
		t.Fatalf("the high half alone (%%sq) is not an LLVM multiplication:\n%s", ll)
	}
	res := crossCheckArgs(t, src, 4, []*interp.Buffer{filled(t, ir.I32, 256, 3), zeros(t, ir.I32, 3*256)}, []int64{-123457})
	if v := res[1].Int(256 + 1); v == 0 {
		t.Fatalf("the low halves are zero: a vacuous check")
	}
}
