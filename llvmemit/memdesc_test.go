package llvmemit_test

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
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

// TestLocalStoreAddressesShareXor stores, through ttg.local_alloc, a
// tensor whose thread holds one row of a 128-byte-swizzled transposed
// buffer (the B operand of a wgmma matmul whose loads run along K): every
// register's offset xors the row's chunk with its column's phase, and only
// the phase's bits meet the thread's part. As in Triton's lowerLdSt, only
// those bits may be xor-ed into it; the rest is a constant added to the
// address, so the 16 registers share 4 address registers (phases 0, 2, 4,
// 6 of their even columns) instead of one each, which a loop would keep
// live (matmul_grouped_128x128x64_f16_sm90_w4: 64 of them).
func TestLocalStoreAddressesShareXor(t *testing.T) {
	body := offsets2D("a", "#tcol", 32, 32) + offsets2D("b", "#trow", 32, 32) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #tcol>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #tcol>, tensor<32x32xi32, #tcol>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #tcol>
    %m = ttg.local_alloc %x : (tensor<32x32xi32, #tcol>) -> !ttg.memdesc<32x32xi32, #sh, #smem>
    %y = ttg.local_load %m : !ttg.memdesc<32x32xi32, #sh, #smem> -> tensor<32x32xi32, #trow>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #trow>
    %ob = tt.addptr %op, %b_off : tensor<32x32x!tt.ptr<i32>, #trow>, tensor<32x32xi32, #trow>
    tt.store %ob, %y : tensor<32x32x!tt.ptr<i32>, #trow>`
	src := module(4, aliasDefs("tcol", "trow")+"#sh = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>\n#smem = #ttg.shared_memory\n", body)
	res := lowerSource(t, src, "xor.mlir", true)
	// The constants xor-ed into the addresses of the shared stores (all of
	// the local_alloc's, before the barrier that precedes its loads).
	text := res.Module.String()
	end := strings.Index(text, "llvm.nvvm.barrier0")
	if end < 0 {
		t.Fatalf("no barrier between the local_alloc and the local_load:\n%s", text)
	}
	xors := map[string]bool{}
	for _, m := range regexp.MustCompile(`xor i32 %\d+, (\d+)`).FindAllStringSubmatch(text[:end], -1) {
		xors[m[1]] = true
	}
	if len(xors) > 3 {
		t.Errorf("the local_alloc's addresses xor %d distinct constants %v, want at most 3 (the phases of columns 2, 4 and 6)", len(xors), xors)
	}
	crossCheck(t, src, 4, []*interp.Buffer{filled(t, ir.I32, 1024, 1), zeros(t, ir.I32, 1024)})
}

// TestSharedWordsOfHalves stores a tensor of eight consecutive 16-bit
// elements per thread to a swizzled buffer, loads it back, and stores the
// loaded elements plus one to a second buffer. LLVM 14 splits a shared
// store of eight 16-bit elements into two st.v4.u16 once opt -O3 has
// turned halves into i16s; the lowering stores them as words, as Triton
// does: the loaded ones as the words they came in, the computed ones
// packed by mov.b32. Each vector is one 16-byte st.shared.v4 of words.
func TestSharedWordsOfHalves(t *testing.T) {
	as, llc := llvmTools(t)
	optPath, err := llvmemit.FindOpt(os.Getenv)
	if err != nil {
		t.Skipf("opt-14 not found: %v", err)
	}
	src := `#v8 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<i16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i16> {tt.divisibility = 16 : i32}) {` + offsets2D("a", "#v8", 32, 64) + `
    %ip = tt.splat %in : !tt.ptr<i16> -> tensor<32x64x!tt.ptr<i16>, #v8>
    %ia = tt.addptr %ip, %a_off : tensor<32x64x!tt.ptr<i16>, #v8>, tensor<32x64xi32, #v8>
    %x = tt.load %ia : tensor<32x64x!tt.ptr<i16>, #v8>
    %m = ttg.local_alloc %x : (tensor<32x64xi16, #v8>) -> !ttg.memdesc<32x64xi16, #sh, #smem>
    %y = ttg.local_load %m : !ttg.memdesc<32x64xi16, #sh, #smem> -> tensor<32x64xi16, #v8>
    %one = arith.constant dense<1> : tensor<32x64xi16, #v8>
    %y1 = arith.addi %y, %one : tensor<32x64xi16, #v8>
    %m2 = ttg.local_alloc %y1 : (tensor<32x64xi16, #v8>) -> !ttg.memdesc<32x64xi16, #sh, #smem>
    %y2 = ttg.local_load %m2 : !ttg.memdesc<32x64xi16, #sh, #smem> -> tensor<32x64xi16, #v8>
    %op = tt.splat %out : !tt.ptr<i16> -> tensor<32x64x!tt.ptr<i16>, #v8>
    %oa = tt.addptr %op, %a_off : tensor<32x64x!tt.ptr<i16>, #v8>, tensor<32x64xi32, #v8>
    tt.store %oa, %y2 : tensor<32x64x!tt.ptr<i16>, #v8>
    tt.return
  }
}
`
	res := lowerSource(t, src, "halves.mlir", true)
	o3, err := llvmemit.Optimize(context.Background(), optPath, []byte(res.Module.String()))
	if err != nil {
		t.Fatal(err)
	}
	ptx, err := compile(t, as, llc, string(o3))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(ptx), "st.shared.v4.u32"); n != 4 {
		t.Errorf("%d st.shared.v4.u32, want 4 (one per 8 elements, two buffers)", n)
	}
	if strings.Contains(string(ptx), "st.shared.v4.u16") {
		t.Errorf("shared stores of 16-bit elements split into v4.u16:\n%s", ptx)
	}
	// The first buffer stores the loaded words as they are; the second
	// packs its computed elements.
	if n := strings.Count(res.Module.String(), `"mov.b32 $0, {$1, $2};"`); n != 8 {
		t.Errorf("%d pairs packed into words, want 8 (the second buffer's)", n)
	}
	crossCheck(t, src, 4, []*interp.Buffer{filled(t, ir.I16, 32*64, 1), zeros(t, ir.I16, 32*64)})
}

// TestSimPackedByteStores: sixteen bytes a thread stores to shared memory
// go as four 32-bit words (one st.v4.b32, as Triton), the words of the
// vector they were loaded as where they come straight from a load, else
// packed by prmt.b32; read back in another layout, they are the bytes
// stored.
func TestSimPackedByteStores(t *testing.T) {
	for _, c := range []struct {
		name, val string
		prmt      bool
	}{
		{"loaded", "%x", false},
		{"computed", "%c", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `#rows = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>
#sh = #ttg.swizzled_shared<{vec = 16, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {` +
				offsets2D("a", "#rows", 32, 32) + offsets2D("b", "#cols", 32, 32) + `
    %ip = tt.splat %in : !tt.ptr<i8> -> tensor<32x32x!tt.ptr<i8>, #rows>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i8>, #rows>, tensor<32x32xi32, #rows>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i8>, #rows>
    %three = arith.constant dense<3> : tensor<32x32xi8, #rows>
    %c = arith.muli %x, %three : tensor<32x32xi8, #rows>
    %m = ttg.local_alloc VAL : (tensor<32x32xi8, #rows>) -> !ttg.memdesc<32x32xi8, #sh, #smem>
    %y = ttg.local_load %m : !ttg.memdesc<32x32xi8, #sh, #smem> -> tensor<32x32xi8, #cols>
    %op = tt.splat %out : !tt.ptr<i8> -> tensor<32x32x!tt.ptr<i8>, #cols>
    %ob = tt.addptr %op, %b_off : tensor<32x32x!tt.ptr<i8>, #cols>, tensor<32x32xi32, #cols>
    tt.store %ob, %y : tensor<32x32x!tt.ptr<i8>, #cols>
    tt.return
  }
}
`
			src = strings.Replace(src, "VAL", c.val, 1)
			res := lowerSource(t, src, "bytes.mlir", true)
			ll := res.Module.String()
			if got := strings.Contains(ll, "prmt.b32"); got != c.prmt {
				t.Errorf("prmt packing: %v, want %v", got, c.prmt)
			}
			if !strings.Contains(ll, "store <4 x i32>") || strings.Contains(ll, "store <16 x i8>") {
				t.Errorf("the bytes are not stored as four words:\n%s", ll)
			}
			in, _ := interp.NewBuffer(ir.I8, 1024)
			for i := range in.Data {
				in.Data[i] = byte(i*37 + 11)
			}
			out, _ := interp.NewBuffer(ir.I8, 1024)
			res2 := crossCheck(t, src, 2, []*interp.Buffer{in, out})
			if bytes.Equal(res2[1].Data, make([]byte, 1024)) {
				t.Fatal("nothing stored")
			}
		})
	}
}
