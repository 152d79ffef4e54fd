package llvmemit_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
)

// TestSimWarpGroupDot8Bit runs ttng.warp_group_dot on 8-bit operands on the
// simulator: i8 with an i32 accumulator (wgmma's s32.s8.s8 form: no
// immediate scales) and fp8 (e4m3, e5m2) with an f32 one, K-major from
// 64-byte-swizzled shared memory or with A from registers (a dot_op of
// kWidth 4, as the second dot of an 8-bit attention has it), and the
// mma.sync fallback (m16n8k32) for unswizzled buffers where it exists (i8);
// C = 1 + A·B against the products summed exactly (small integers: exact in
// fp8 and in f32 sums).
func TestSimWarpGroupDot8Bit(t *testing.T) {
	nv := func(swizzle int, transposed bool) string {
		return fmt.Sprintf("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %v, elementBitWidth = 8}>", swizzle, transposed)
	}
	type elem struct {
		ir, acc, ptx string // TTGIR element and accumulator types, wgmma's type suffix
	}
	s8 := elem{"i8", "i32", "s32.s8.s8"}
	e4m3 := elem{"f8E4M3FN", "f32", "f32.e4m3.e4m3"}
	for _, c := range []struct {
		name     string
		el       elem
		sa, sb   string
		fallback bool
		regA     bool
		partial  int // maxNumImpreciseAcc of an fp8 dot: 2^30 (none), or at most K: partial sums
	}{
		{"i8", s8, nv(64, false), nv(64, true), false, false, 0},
		{"i8-fallback", s8, nv(0, false), nv(0, true), true, false, 0},
		{"i8-registerA", s8, nv(64, false), nv(64, true), false, true, 0},
		{"i8-registerA-fallback", s8, nv(0, false), nv(0, true), true, true, 0},
		{"e4m3", e4m3, nv(64, false), nv(64, true), false, false, 1 << 30},
		{"e4m3-registerA", e4m3, nv(64, false), nv(64, true), false, true, 1 << 30},
		{"e5m2-registerA", elem{"f8E5M2", "f32", "f32.e5m2.e5m2"}, nv(64, false), nv(64, true), false, true, 1 << 30},
		{"e4m3-partial32", e4m3, nv(64, false), nv(64, true), false, false, 32},
		{"e4m3-registerA-partial64", e4m3, nv(64, false), nv(64, true), false, true, 64},
	} {
		t.Run(c.name, func(t *testing.T) {
			const m, n, k = 64, 64, 64
			dotA := `
    %am = ttg.local_alloc %a : (tensor<64x64xT, #bl>) -> !ttg.memdesc<64x64xT, #sa, #smem>
    %d = ttng.warp_group_dot %am, %bm, %z {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xT, #sa, #smem> * !ttg.memdesc<64x64xT, #sb, #smem> -> tensor<64x64xACC, #mma>`
			if c.regA {
				dotA = `
    %ad = ttg.convert_layout %a : tensor<64x64xT, #bl> -> tensor<64x64xT, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %d = ttng.warp_group_dot %ad, %bm, %z {inputPrecision = 0 : i32} : tensor<64x64xT, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * !ttg.memdesc<64x64xT, #sb, #smem> -> tensor<64x64xACC, #mma>`
			}
			one, attrs := "1", "inputPrecision = 0 : i32"
			if c.el.acc == "f32" {
				one = "1.000000e+00"
			}
			if c.partial > 0 {
				attrs += fmt.Sprintf(", maxNumImpreciseAcc = %d : i32", c.partial)
			}
			src := strings.NewReplacer("xT", "x"+c.el.ir, "<T>", "<"+c.el.ir+">", "ACC", c.el.acc, "ONE", one,
				"{inputPrecision = 0 : i32}", "{"+attrs+"}").Replace(`#bl = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sa = ` + c.sa + `
#sb = ` + c.sb + `
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<T>, %out: !tt.ptr<ACC>) {` + offsets2D("a", "#bl", m, k) + offsets2D("c", "#mma", m, n) + `
    %ap = tt.splat %in : !tt.ptr<T> -> tensor<64x64x!tt.ptr<T>, #bl>
    %aa = tt.addptr %ap, %a_off : tensor<64x64x!tt.ptr<T>, #bl>, tensor<64x64xi32, #bl>
    %a = tt.load %aa : tensor<64x64x!tt.ptr<T>, #bl>
    %boff = arith.constant 4096 : i32
    %bbase = tt.addptr %in, %boff : !tt.ptr<T>, i32
    %bp = tt.splat %bbase : !tt.ptr<T> -> tensor<64x64x!tt.ptr<T>, #bl>
    %ba = tt.addptr %bp, %a_off : tensor<64x64x!tt.ptr<T>, #bl>, tensor<64x64xi32, #bl>
    %b = tt.load %ba : tensor<64x64x!tt.ptr<T>, #bl>
    %bm = ttg.local_alloc %b : (tensor<64x64xT, #bl>) -> !ttg.memdesc<64x64xT, #sb, #smem>
    %z = arith.constant dense<ONE> : tensor<64x64xACC, #mma>` + dotA + `
    %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xACC, #mma>
    %op = tt.splat %out : !tt.ptr<ACC> -> tensor<64x64x!tt.ptr<ACC>, #mma>
    %oa = tt.addptr %op, %c_off : tensor<64x64x!tt.ptr<ACC>, #mma>, tensor<64x64xi32, #mma>
    tt.store %oa, %w : tensor<64x64x!tt.ptr<ACC>, #mma>
    tt.return
  }
}
`)
			res := lowerSource(t, src, "wgmma8.mlir", true)
			ll := res.Module.String()
			want := "wgmma.mma_async.sync.aligned.m64n64k32." + c.el.ptx + " {"
			if c.fallback {
				want = "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"
			}
			if !strings.Contains(ll, want) {
				t.Fatalf("no %q in the LLVM IR", want)
			}
			if asm, _, _ := strings.Cut(ll[strings.Index(ll, want):], "\""); c.el.ir == "i8" && !c.fallback && strings.Contains(asm, ", 1, 1") {
				t.Errorf("the s8 form takes no immediate scales: %s", asm)
			}
			// The dot's own wait and warp_group_dot_wait's; with partial sums, one wait
			// and add per partial K elements (K = 64) besides.
			waits := 2
			if c.partial > 0 && c.partial <= k {
				waits += k / c.partial
			}
			if got := strings.Count(ll, "wgmma.wait_group.sync.aligned 0"); !c.fallback && got != waits {
				t.Errorf("%d waits for all groups, want %d", got, waits)
			}
			val := func(i int) int { return i*37%17 - 8 }
			bits := func(v int) byte { return byte(int8(v)) }
			if c.el.ir != "i8" {
				f := interp.LookupFloatFormat(c.el.ir)
				bits = func(v int) byte { return byte(f.Bits(float64(v))) }
			}
			mem := make([]byte, 2*m*k+4*m*n)
			for i := 0; i < 2*m*k; i++ {
				mem[i] = bits(val(i))
			}
			s := newSim(128, mem)
			for _, f := range res.Module.Funcs {
				if f.Name() == "k" {
					s.run(f, []uint64{0, uint64(2 * m * k), 0, 0})
				}
			}
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					want := 1
					for kk := 0; kk < k; kk++ {
						want += val(i*k+kk) * val(m*k+kk*n+j)
					}
					word := binary.LittleEndian.Uint32(mem[2*m*k+4*(i*n+j):])
					got := int(int32(word))
					if c.el.acc == "f32" {
						got = int(math.Float32frombits(word))
					}
					if got != want {
						t.Fatalf("(%d,%d): got %d, want %d", i, j, got, want)
					}
				}
			}
		})
	}
}
