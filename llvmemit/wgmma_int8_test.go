package llvmemit_test

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// TestSimWarpGroupDotInt8 runs ttng.warp_group_dot on i8 operands with an
// i32 accumulator on the simulator: wgmma's s32.s8.s8 form (no immediate
// scales, K-major operands) from 64-byte-swizzled shared memory, and the
// mma.sync fallback (s8, m16n8k32) for unswizzled buffers; C = 1 + A·B
// against the products summed exactly.
func TestSimWarpGroupDotInt8(t *testing.T) {
	nv := func(swizzle int, transposed bool) string {
		return fmt.Sprintf("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %v, elementBitWidth = 8}>", swizzle, transposed)
	}
	for _, c := range []struct {
		name     string
		sa, sb   string
		fallback bool
	}{
		{"wgmma", nv(64, false), nv(64, true), false},
		{"fallback", nv(0, false), nv(0, true), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			const m, n, k = 64, 64, 64
			src := `#bl = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sa = ` + c.sa + `
#sb = ` + c.sb + `
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<i8>, %out: !tt.ptr<i32>) {` + offsets2D("a", "#bl", m, k) + offsets2D("c", "#mma", m, n) + `
    %ap = tt.splat %in : !tt.ptr<i8> -> tensor<64x64x!tt.ptr<i8>, #bl>
    %aa = tt.addptr %ap, %a_off : tensor<64x64x!tt.ptr<i8>, #bl>, tensor<64x64xi32, #bl>
    %a = tt.load %aa : tensor<64x64x!tt.ptr<i8>, #bl>
    %boff = arith.constant 4096 : i32
    %bbase = tt.addptr %in, %boff : !tt.ptr<i8>, i32
    %bp = tt.splat %bbase : !tt.ptr<i8> -> tensor<64x64x!tt.ptr<i8>, #bl>
    %ba = tt.addptr %bp, %a_off : tensor<64x64x!tt.ptr<i8>, #bl>, tensor<64x64xi32, #bl>
    %b = tt.load %ba : tensor<64x64x!tt.ptr<i8>, #bl>
    %am = ttg.local_alloc %a : (tensor<64x64xi8, #bl>) -> !ttg.memdesc<64x64xi8, #sa, #smem>
    %bm = ttg.local_alloc %b : (tensor<64x64xi8, #bl>) -> !ttg.memdesc<64x64xi8, #sb, #smem>
    %z = arith.constant dense<1> : tensor<64x64xi32, #mma>
    %d = ttng.warp_group_dot %am, %bm, %z {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xi8, #sa, #smem> * !ttg.memdesc<64x64xi8, #sb, #smem> -> tensor<64x64xi32, #mma>
    %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xi32, #mma>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<64x64x!tt.ptr<i32>, #mma>
    %oa = tt.addptr %op, %c_off : tensor<64x64x!tt.ptr<i32>, #mma>, tensor<64x64xi32, #mma>
    tt.store %oa, %w : tensor<64x64x!tt.ptr<i32>, #mma>
    tt.return
  }
}
`
			res := lowerSource(t, src, "wgmma8.mlir", true)
			ll := res.Module.String()
			want := "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {"
			if c.fallback {
				want = "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"
			}
			if !strings.Contains(ll, want) {
				t.Fatalf("no %q in the LLVM IR", want)
			}
			if asm, _, _ := strings.Cut(ll[strings.Index(ll, want):], "\""); !c.fallback && strings.Contains(asm, ", 1, 1") {
				t.Errorf("the s8 form takes no immediate scales: %s", asm)
			}
			val := func(i int) int8 { return int8(i*37%17 - 8) }
			mem := make([]byte, 2*m*k+4*m*n)
			for i := 0; i < 2*m*k; i++ {
				mem[i] = byte(val(i))
			}
			s := newSim(128, mem)
			for _, f := range res.Module.Funcs {
				if f.Name() == "k" {
					s.run(f, []uint64{0, uint64(2 * m * k), 0, 0})
				}
			}
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					want := int32(1)
					for kk := 0; kk < k; kk++ {
						want += int32(val(i*k+kk)) * int32(val(m*k+kk*n+j))
					}
					if got := int32(binary.LittleEndian.Uint32(mem[2*m*k+4*(i*n+j):])); got != want {
						t.Fatalf("(%d,%d): got %d, want %d", i, j, got, want)
					}
				}
			}
		})
	}
}
