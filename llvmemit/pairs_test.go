package llvmemit_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// bf16Operands returns two buffers of n bf16 values whose bits cover the
// whole space pseudo-randomly (NaNs, infinities, subnormals; a quarter of
// them small, for products below f32's normal range), after a head of
// special pairs (signed zeros, ties, overflow).
func bf16Operands(t *testing.T, n int) (x, y *interp.Buffer) {
	t.Helper()
	special := [][2]uint16{
		{0x0000, 0x8000}, {0x8000, 0x8000}, {0x8000, 0x0000}, {0x7f80, 0xff80}, {0x7f80, 0x0000},
		{0x7fc0, 0x3f80}, {0x0001, 0x3f00}, {0x0003, 0x3f00}, {0x0001, 0x8001}, {0x7f7f, 0x7f7f},
		{0x3f81, 0x3f81}, {0x3f80, 0x3b80}, {0x3f80, 0x3bc0}, {0x1f81, 0x1fc1}, {0x00ff, 0x3fff}, {0x8080, 0x0080},
	}
	x, y = zeros(t, ir.BF16, n), zeros(t, ir.BF16, n)
	s := uint32(12345)
	for i := range n {
		a, b := uint16(0), uint16(0)
		if i < len(special) {
			a, b = special[i][0], special[i][1]
		} else {
			s = s*1664525 + 1013904223
			a = uint16(s >> 16)
			s = s*1664525 + 1013904223
			b = uint16(s >> 16)
			if i%4 == 0 { // about 2^-67 each: products below 2^-126
				a = a&0x807f | 0x1e00
				b = b&0x807f | 0x1e00
			}
		}
		x.Data[2*i], x.Data[2*i+1] = byte(a), byte(a>>8)
		y.Data[2*i], y.Data[2*i+1] = byte(b), byte(b>>8)
	}
	return x, y
}

// TestSimBF16Pairs checks the packed bf16 code of sm_80+ against the
// interpreter bit for bit: arith.mulf, addf and subf as fma.rn.bf16x2
// (rounded once), and arith.select of bf16 with a mask broadcast along
// the registers (one 32-bit select a pair) and with a scalar condition.
func TestSimBF16Pairs(t *testing.T) {
	const rows = 128
	for _, cc := range []int{80, 90} {
		t.Run(fmt.Sprintf("sm_%d", cc), func(t *testing.T) {
			src := strings.NewReplacer("CC", fmt.Sprint(cc)).Replace(`#c = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #ttg.slice<{dim = 1, parent = #c}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:CC", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%X: !tt.ptr<bf16>, %Y: !tt.ptr<bf16>, %M: !tt.ptr<bf16>, %A: !tt.ptr<bf16>, %S: !tt.ptr<bf16>, %E: !tt.ptr<bf16>, %F: !tt.ptr<bf16>, %n: i32) {
    %i = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #r>
    %j = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 0, parent = #c}>>
    %c2 = arith.constant dense<2> : tensor<128x1xi32, #c>
    %ie = tt.expand_dims %i {axis = 1 : i32} : tensor<128xi32, #r> -> tensor<128x1xi32, #c>
    %i2 = arith.muli %ie, %c2 : tensor<128x1xi32, #c>
    %je = tt.expand_dims %j {axis = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 0, parent = #c}>> -> tensor<1x2xi32, #c>
    %ib = tt.broadcast %i2 : tensor<128x1xi32, #c> -> tensor<128x2xi32, #c>
    %jb = tt.broadcast %je : tensor<1x2xi32, #c> -> tensor<128x2xi32, #c>
    %off = arith.addi %ib, %jb : tensor<128x2xi32, #c>
    %xp = tt.splat %X : !tt.ptr<bf16> -> tensor<128x2x!tt.ptr<bf16>, #c>
    %xa = tt.addptr %xp, %off : tensor<128x2x!tt.ptr<bf16>, #c>, tensor<128x2xi32, #c>
    %x = tt.load %xa : tensor<128x2x!tt.ptr<bf16>, #c>
    %yp = tt.splat %Y : !tt.ptr<bf16> -> tensor<128x2x!tt.ptr<bf16>, #c>
    %ya = tt.addptr %yp, %off : tensor<128x2x!tt.ptr<bf16>, #c>, tensor<128x2xi32, #c>
    %y = tt.load %ya : tensor<128x2x!tt.ptr<bf16>, #c>
    %m = arith.mulf %x, %y : tensor<128x2xbf16, #c>
    %a = arith.addf %x, %y : tensor<128x2xbf16, #c>
    %s = arith.subf %x, %y : tensor<128x2xbf16, #c>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #r>
    %lt = arith.cmpi slt, %i, %ns : tensor<128xi32, #r>
    %lte = tt.expand_dims %lt {axis = 1 : i32} : tensor<128xi1, #r> -> tensor<128x1xi1, #c>
    %ltb = tt.broadcast %lte : tensor<128x1xi1, #c> -> tensor<128x2xi1, #c>
    %e = arith.select %ltb, %m, %s : tensor<128x2xi1, #c>, tensor<128x2xbf16, #c>
    %z = arith.constant 0 : i32
    %q = arith.cmpi sgt, %n, %z : i32
    %f = arith.select %q, %a, %x : tensor<128x2xbf16, #c>
` + storeAt("M", "m") + storeAt("A", "a") + storeAt("S", "s") + storeAt("E", "e") + storeAt("F", "f") + `
    tt.return
  }
}
`)
			x, y := bf16Operands(t, 2*rows)
			bufs := []*interp.Buffer{x, y}
			for range 5 {
				bufs = append(bufs, zeros(t, ir.BF16, 2*rows))
			}
			crossCheckArgs(t, src, 4, bufs, []int64{rows / 3})
			// The packed forms are used (the f32 route gives the same
			// values): three fmas, and the two selects on words.
			ll := lowerSource(t, src, "bf16.mlir", true).Module.String()
			if n := strings.Count(ll, "fma.rn.bf16x2"); n != 3 {
				t.Errorf("%d fma.rn.bf16x2 in the LLVM IR, want 3 (one a register pair of each op)", n)
			}
			if n := len(regexp.MustCompile(`select i1 [^,]+, i32 `).FindAllString(ll, -1)); n != 2 {
				t.Errorf("%d selects of i32 pairs in the LLVM IR, want 2", n)
			}
		})
	}
}

// storeAt stores the 128x2 bf16 tensor %v at %off of the buffer %P.
func storeAt(p, v string) string {
	return strings.NewReplacer("P", p, "V", v).Replace(`
    %V_p = tt.splat %P : !tt.ptr<bf16> -> tensor<128x2x!tt.ptr<bf16>, #c>
    %V_a = tt.addptr %V_p, %off : tensor<128x2x!tt.ptr<bf16>, #c>, tensor<128x2xi32, #c>
    tt.store %V_a, %V : tensor<128x2x!tt.ptr<bf16>, #c>`)
}

// TestSimPackedBytes checks bytes packed into words from the words they
// came from (prmt, packBytes) against the interpreter: a scaled dot's
// e2m1 operand as Triton lays it out for wgmma, loaded 16 bytes a thread,
// stored to shared memory as a 4x4 byte transpose of the loaded words
// (bytes from four words: two prmt a half and one to join them), read
// back with ldmatrix, unpacked by ttg.fp4_to_fp from ldmatrix's words
// (bytes from two words: one prmt), and the bytes themselves sent back
// to the load's layout; and the loaded bytes sent to a layout of one byte
// a thread a row (as the scaled dot's B operand), whose stores to shared
// memory are two bytes of two loaded words (one prmt, one 16-bit store).
func TestSimPackedBytes(t *testing.T) {
	src := `#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#out = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%X: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %B: !tt.ptr<i8>, %U: !tt.ptr<bf16>, %C: !tt.ptr<i8>) {
` + offsets2D("x", "#blocked", 64, 64) + `
    %xp = tt.splat %X : !tt.ptr<i8> -> tensor<64x64x!tt.ptr<i8>, #blocked>
    %xa = tt.addptr %xp, %x_off : tensor<64x64x!tt.ptr<i8>, #blocked>, tensor<64x64xi32, #blocked>
    %x = tt.load %xa : tensor<64x64x!tt.ptr<i8>, #blocked>
    %d = ttg.convert_layout %x : tensor<64x64xi8, #blocked> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %back = ttg.convert_layout %d : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x64xi8, #blocked>
    %bp = tt.splat %B : !tt.ptr<i8> -> tensor<64x64x!tt.ptr<i8>, #blocked>
    %ba = tt.addptr %bp, %x_off : tensor<64x64x!tt.ptr<i8>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %ba, %back : tensor<64x64x!tt.ptr<i8>, #blocked>
    %col = ttg.convert_layout %x : tensor<64x64xi8, #blocked> -> tensor<64x64xi8, #cols>
    %colb = ttg.convert_layout %col : tensor<64x64xi8, #cols> -> tensor<64x64xi8, #blocked>
    %cp = tt.splat %C : !tt.ptr<i8> -> tensor<64x64x!tt.ptr<i8>, #blocked>
    %ca = tt.addptr %cp, %x_off : tensor<64x64x!tt.ptr<i8>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %ca, %colb : tensor<64x64x!tt.ptr<i8>, #blocked>
    %u = ttg.fp4_to_fp %d {axis = 1 : i32} : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %uo = ttg.convert_layout %u : tensor<64x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<64x128xbf16, #out>
` + offsets2D("o", "#out", 64, 128) + `
    %up = tt.splat %U : !tt.ptr<bf16> -> tensor<64x128x!tt.ptr<bf16>, #out>
    %ua = tt.addptr %up, %o_off : tensor<64x128x!tt.ptr<bf16>, #out>, tensor<64x128xi32, #out>
    tt.store %ua, %uo : tensor<64x128x!tt.ptr<bf16>, #out>
    tt.return
  }
}
`
	x := zeros(t, ir.I8, 64*64)
	for i := range x.Data {
		x.Data[i] = byte(i*97 + i>>6)
	}
	crossCheck(t, src, 4, []*interp.Buffer{x, zeros(t, ir.I8, 64*64), zeros(t, ir.BF16, 64*128), zeros(t, ir.I8, 64*64)})
	ll := lowerSource(t, src, "bytes.mlir", true).Module.String()
	if n := strings.Count(ll, "@llvm.nvvm.prmt("); n == 0 {
		t.Error("no llvm.nvvm.prmt in the LLVM IR: the bytes were not packed from their words")
	}
	if n := len(regexp.MustCompile(`store i16 [^\n]*addrspace\(3\)`).FindAllString(ll, -1)); n != 16 {
		t.Errorf("%d two-byte shared stores in the LLVM IR, want 16 (the row layout's)", n)
	}
}

// TestSimSharedPermutedVectors stores to and loads from shared memory a
// tensor whose consecutive registers are not consecutive in memory: a
// 128x64 bf16 B operand of a scaled dot as our remove-redundant-conversions
// leaves it (register 1 is the next row; registers 2-16 the next columns),
// into Triton's 128-byte swizzled nvmma layout. The vectors take registers
// 2-16 (16-byte stores and loads, as Triton's lowering permutes registers),
// and their words are made from the bf16 products' words with prmt
// (packHalves). Checked bit for bit against the interpreter.
func TestSimSharedPermutedVectors(t *testing.T) {
	src := `#linear = #ttg.linear<{register = [[1, 0], [0, 1], [0, 2], [0, 4], [0, 8], [64, 0]], lane = [[0, 16], [0, 32], [2, 0], [4, 0], [8, 0]], warp = [[16, 0], [32, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%X: !tt.ptr<bf16>, %Y: !tt.ptr<bf16>) {
` + offsets2D("x", "#linear", 128, 64) + `
    %xp = tt.splat %X : !tt.ptr<bf16> -> tensor<128x64x!tt.ptr<bf16>, #linear>
    %xa = tt.addptr %xp, %x_off : tensor<128x64x!tt.ptr<bf16>, #linear>, tensor<128x64xi32, #linear>
    %x = tt.load %xa : tensor<128x64x!tt.ptr<bf16>, #linear>
    %sq = arith.mulf %x, %x : tensor<128x64xbf16, #linear>
    %m = ttg.local_alloc %sq : (tensor<128x64xbf16, #linear>) -> !ttg.memdesc<128x64xbf16, #shared, #smem>
    %back = ttg.local_load %m : !ttg.memdesc<128x64xbf16, #shared, #smem> -> tensor<128x64xbf16, #linear>
    %yp = tt.splat %Y : !tt.ptr<bf16> -> tensor<128x64x!tt.ptr<bf16>, #linear>
    %ya = tt.addptr %yp, %x_off : tensor<128x64x!tt.ptr<bf16>, #linear>, tensor<128x64xi32, #linear>
    tt.store %ya, %back : tensor<128x64x!tt.ptr<bf16>, #linear>
    tt.return
  }
}
`
	x := zeros(t, ir.BF16, 128*64)
	for i := range 128 * 64 {
		x.SetFloat(i, float64(i%251-125)/8)
	}
	crossCheck(t, src, 4, []*interp.Buffer{x, zeros(t, ir.BF16, 128*64)})
	ll := lowerSource(t, src, "permuted.mlir", true).Module.String()
	// The local_alloc's 8 stores and the local_load's 8 loads, of 16
	// bytes each, and nothing narrower.
	if n := len(regexp.MustCompile(`store <4 x i32> [^\n]*addrspace\(3\)`).FindAllString(ll, -1)); n != 8 {
		t.Errorf("%d 16-byte shared stores in the LLVM IR, want 8", n)
	}
	if n := len(regexp.MustCompile(`load <8 x i16>, <8 x i16> addrspace\(3\)`).FindAllString(ll, -1)); n != 8 {
		t.Errorf("%d 16-byte shared loads of 8 halves in the LLVM IR, want 8", n)
	}
}
