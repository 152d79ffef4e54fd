package llvmemit_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	_ "github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/llvmemit"
	lir "github.com/llir/llvm/ir"
)

// Semantic tests: small kernels lowered and run on the lockstep simulator
// (sim_test.go), their results compared with the TTGIR's meaning. They
// check the index arithmetic, the conversions (registers, shuffles,
// shared memory), the reductions and the scans for every thread.

// offsets2D returns TTGIR defining %NAME_off : tensor<MxNxi32, #L>, the
// row-major offsets of a M×N tensor in layout alias L.
func offsets2D(name, l string, m, n int) string {
	return strings.NewReplacer("NAME", name, "#L", l, "M", fmt.Sprint(m), "N", fmt.Sprint(n)).Replace(`
    %NAME_r = tt.make_range {end = M : i32, start = 0 : i32} : tensor<Mxi32, #ttg.slice<{dim = 1, parent = #L}>>
    %NAME_c = tt.make_range {end = N : i32, start = 0 : i32} : tensor<Nxi32, #ttg.slice<{dim = 0, parent = #L}>>
    %NAME_r2 = tt.expand_dims %NAME_r {axis = 1 : i32} : tensor<Mxi32, #ttg.slice<{dim = 1, parent = #L}>> -> tensor<Mx1xi32, #L>
    %NAME_c2 = tt.expand_dims %NAME_c {axis = 0 : i32} : tensor<Nxi32, #ttg.slice<{dim = 0, parent = #L}>> -> tensor<1xNxi32, #L>
    %NAME_n = arith.constant dense<N> : tensor<Mx1xi32, #L>
    %NAME_rs = arith.muli %NAME_r2, %NAME_n : tensor<Mx1xi32, #L>
    %NAME_rb = tt.broadcast %NAME_rs : tensor<Mx1xi32, #L> -> tensor<MxNxi32, #L>
    %NAME_cb = tt.broadcast %NAME_c2 : tensor<1xNxi32, #L> -> tensor<MxNxi32, #L>
    %NAME_off = arith.addi %NAME_rb, %NAME_cb : tensor<MxNxi32, #L>`)
}

func module(warps int, aliases, body string) string {
	return aliases + fmt.Sprintf(`
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%%in: !tt.ptr<i32>, %%out: !tt.ptr<i32>) {`, warps) + body + `
    tt.return
  }
}
`
}

// simulate lowers src and runs it with in at address 0 and an output of
// nOut words after it; it returns the output. It runs the module twice:
// as given (scratch at offset 0, conservative barriers) and after
// allocate-shared-memory (Membar's barriers only), which must agree.
func simulate(t *testing.T, src string, warps int, in []int32, nOut int) []int32 {
	t.Helper()
	out, _ := simulateOnce(t, src, warps, in, nOut, false)
	if got, _ := simulateOnce(t, src, warps, in, nOut, true); !slices.Equal(got, out) {
		t.Fatalf("with the allocation and Membar's barriers: got %v, without: %v", got, out)
	}
	return out
}

// simulateOnce is one run of simulate; it also returns the number of
// global bytes stored by all threads together.
func simulateOnce(t *testing.T, src string, warps int, in []int32, nOut int, alloc bool) ([]int32, int) {
	t.Helper()
	res := lowerSource(t, src, "test.mlir", alloc)
	mem := make([]byte, 4*(len(in)+nOut))
	for i, v := range in {
		binary.LittleEndian.PutUint32(mem[4*i:], uint32(v))
	}
	s := newSim(32*warps, mem)
	for _, f := range res.Module.Funcs {
		if f.Name() == "k" {
			s.run(f, []uint64{0, uint64(4 * len(in)), 0, 0})
		}
	}
	out := make([]int32, nOut)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(mem[4*(len(in)+i):]))
	}
	return out, s.globalStores
}

// lowerSource parses and verifies src (named file in diagnostics), runs
// allocate-shared-memory when alloc is set, and lowers it; any failure
// ends the test.
func lowerSource(t *testing.T, src, file string, alloc bool) *llvmemit.Result {
	t.Helper()
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: file})
	if diags.HasErrors() {
		t.Fatalf("parse: %v\n%s", diags, src)
	}
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("verify: %v\n%s", d, src)
	}
	if step, d, err := llvmemit.Prepare(m, alloc); err != nil {
		t.Fatalf("%s: %v %v", step, d, err)
	}
	res, err := llvmemit.Emit(m)
	if err != nil {
		t.Fatalf("emit: %v", err)
	}
	return res
}

func data(n int) []int32 {
	d := make([]int32, n)
	for i := range d {
		d[i] = int32(i*7919%1000 - 300)
	}
	return d
}

var layouts = map[string]string{
	"rows":   `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>`,
	"cols":   `#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>`,
	"spread": `#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>`,
	"lanes":  `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>`,
	"regs":   `#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [0, 1]}>`,
	"perm":   `#ttg.linear<{register = [[0, 2], [0, 1], [16, 0], [8, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 0], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>`,
	"shfl":   `#ttg.linear<{register = [[0, 4], [0, 2], [8, 0], [16, 0]], lane = [[0, 1], [0, 8], [0, 16], [0, 0], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>`,
	"lperm":  `#ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0]], lane = [[0, 8], [0, 4], [1, 0], [0, 0], [0, 16]], warp = [[2, 0], [4, 0]], block = []}>`,
	// The f16 transpose's layouts: each thread's registers are one column
	// (trow) or row (tcol) at a stride of 2, so shared-memory vectors
	// gather registers that are not consecutive.
	"trow": `#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>`,
	"tcol": `#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>`,
	"mma":  `#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`,
	// Eight warps along rows: a reduction over axis 0 combines eight
	// partials per element (two shared-memory vectors of four).
	"rows8": `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>`,
	// Warp w holds rows 4w..4w+3 and 16+4w..16+4w+3 in both: a round trip
	// within warps (bar.warp.sync), in two rounds (row 16 is a register
	// bit of both).
	"wrow": `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>`,
	"wcol": `#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>`,
}

func aliasDefs(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "#%s = %s\n", n, layouts[n])
	}
	return b.String()
}

func TestSimConvertLayout(t *testing.T) {
	const m, n = 32, 32
	for _, c := range [][2]string{{"rows", "cols"}, {"rows", "spread"}, {"rows", "lanes"}, {"rows", "regs"}, {"spread", "mma"}, {"mma", "rows"}, {"lanes", "rows"},
		{"rows", "perm"}, {"rows", "shfl"}, {"shfl", "rows"}, {"rows", "lperm"}, {"perm", "shfl"}, {"tcol", "trow"}, {"trow", "tcol"},
		{"wrow", "wcol"}, {"wcol", "wrow"}} {
		t.Run(c[0]+"_to_"+c[1], func(t *testing.T) {
			body := offsets2D("a", "#"+c[0], m, n) + offsets2D("b", "#"+c[1], m, n) + strings.NewReplacer("#S", "#"+c[0], "#D", "#"+c[1]).Replace(`
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #S>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #S>, tensor<32x32xi32, #S>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #S>
    %y = ttg.convert_layout %x : tensor<32x32xi32, #S> -> tensor<32x32xi32, #D>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #D>
    %ob = tt.addptr %op, %b_off : tensor<32x32x!tt.ptr<i32>, #D>, tensor<32x32xi32, #D>
    tt.store %ob, %y : tensor<32x32x!tt.ptr<i32>, #D>`)
			in := data(m * n)
			out := simulate(t, module(4, aliasDefs(c[0], c[1]), body), 4, in, m*n)
			for i := range in {
				if out[i] != in[i] {
					t.Fatalf("element %d: got %d, want %d", i, out[i], in[i])
				}
			}
		})
	}
}

func TestSimReduce(t *testing.T) {
	const m, n = 32, 32
	for _, l := range []string{"rows", "cols", "spread", "lanes", "mma", "rows8"} {
		for axis := 0; axis < 2; axis++ {
			t.Run(fmt.Sprintf("%s_axis%d", l, axis), func(t *testing.T) {
				keep := 1 - axis
				body := offsets2D("a", "#"+l, m, n) + strings.NewReplacer("#S", "#"+l, "AXIS", fmt.Sprint(axis), "KEEP", fmt.Sprint(keep)).Replace(`
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #S>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #S>, tensor<32x32xi32, #S>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #S>
    %s = "tt.reduce"(%x) <{axis = AXIS : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %t = arith.addi %p, %q : i32
      tt.reduce.return %t : i32
    }) : (tensor<32x32xi32, #S>) -> tensor<32xi32, #ttg.slice<{dim = AXIS, parent = #S}>>
    %o = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = AXIS, parent = #S}>>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = AXIS, parent = #S}>>
    %ob = tt.addptr %op, %o : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = AXIS, parent = #S}>>, tensor<32xi32, #ttg.slice<{dim = AXIS, parent = #S}>>
    tt.store %ob, %s : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = AXIS, parent = #S}>>`)
				in := data(m * n)
				warps := 4
				if l == "rows8" {
					warps = 8
				}
				out := simulate(t, module(warps, aliasDefs(l), body), warps, in, 32)
				for k := 0; k < 32; k++ {
					var want int32
					for j := 0; j < 32; j++ {
						if keep == 0 {
							want += in[k*n+j]
						} else {
							want += in[j*n+k]
						}
					}
					if out[k] != want {
						t.Fatalf("sum %d: got %d, want %d", k, out[k], want)
					}
				}
			})
		}
	}
}

func TestSimScan(t *testing.T) {
	const m, n = 32, 32
	for _, l := range []string{"rows", "cols", "spread", "lanes", "regs"} {
		for axis := 0; axis < 2; axis++ {
			for _, rev := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s_axis%d_rev%v", l, axis, rev), func(t *testing.T) {
					body := offsets2D("a", "#"+l, m, n) + strings.NewReplacer("#S", "#"+l, "AXIS", fmt.Sprint(axis), "REV", fmt.Sprint(rev)).Replace(`
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #S>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #S>, tensor<32x32xi32, #S>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #S>
    %s = "tt.scan"(%x) <{axis = AXIS : i32, reverse = REV}> ({
    ^bb0(%p: i32, %q: i32):
      %t = arith.addi %p, %q : i32
      tt.scan.return %t : i32
    }) : (tensor<32x32xi32, #S>) -> tensor<32x32xi32, #S>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #S>
    %ob = tt.addptr %op, %a_off : tensor<32x32x!tt.ptr<i32>, #S>, tensor<32x32xi32, #S>
    tt.store %ob, %s : tensor<32x32x!tt.ptr<i32>, #S>`)
					in := data(m * n)
					out, err := trySimulate(t, module(4, aliasDefs(l), body), in, m*n)
					if err != nil {
						t.Skipf("not supported: %v", err)
					}
					for i := 0; i < m; i++ {
						for j := 0; j < n; j++ {
							var want int32
							for k := 0; k < 32; k++ {
								r, c := i, k
								if axis == 0 {
									r, c = k, j
								}
								pos, at := k, j
								if axis == 0 {
									at = i
								}
								if (!rev && pos <= at) || (rev && pos >= at) {
									want += in[r*n+c]
								}
							}
							if got := out[i*n+j]; got != want {
								t.Fatalf("(%d,%d): got %d, want %d", i, j, got, want)
							}
						}
					}
				})
			}
		}
	}
}

// trySimulate is simulate that returns lowering errors.
func trySimulate(t *testing.T, src string, in []int32, nOut int) (out []int32, err error) {
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "test.mlir"})
	if diags.HasErrors() {
		t.Fatalf("parse: %v\n%s", diags, src)
	}
	if _, err := llvmemit.Emit(m); err != nil {
		return nil, err
	}
	return simulate(t, src, 4, in, nOut), nil
}

// TestSimDot multiplies small integer matrices (exact in f16 and f32) with
// tt.dot on an mma v2 accumulator, operands converted from a blocked layout
// into #ttg.dot_op registers, and checks every element.
func TestSimDot(t *testing.T) {
	for _, c := range []struct {
		name, elem     string
		m, n, k, warps int
		warpsPerCTA    string
		kWidth         int
		prec           string
		shared         string // operands through local_alloc + local_load in this layout
	}{
		{"f16_2x2", "f16", 32, 32, 32, 4, "[2, 2]", 2, "", ""},
		{"f16_4x1", "f16", 64, 16, 16, 4, "[4, 1]", 2, "", ""},
		{"f16_1x2", "f16", 16, 32, 32, 2, "[1, 2]", 2, "", ""},
		// An f16 accumulator (out_dtype = f16): mma.sync's f16 form.
		{"f16_2x2_acc16", "f16", 32, 32, 32, 4, "[2, 2]", 2, "", ""},
		{"f16_kwidth8_acc16", "f16", 32, 32, 32, 4, "[2, 2]", 8, "", ""},
		// kWidth 8 (an operand upcast from 8 bits): each lane holds 8
		// consecutive K, A and B alike.
		{"f16_kwidth8", "f16", 32, 32, 32, 4, "[2, 2]", 8, "", ""},
		{"f16_kwidth8_k64", "f16", 32, 32, 64, 4, "[2, 2]", 8, "", ""},
		{"f16_kwidth4_shared", "f16", 32, 32, 32, 4, "[2, 2]", 4, "", "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>"},
		{"tf32_2x2", "f32", 32, 32, 16, 4, "[2, 2]", 1, ", inputPrecision = tf32", ""},
		{"f16_ldmatrix", "f16", 32, 32, 32, 4, "[2, 2]", 2, "", "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>"},
		{"f16_ldmatrix_64", "f16", 64, 64, 32, 4, "[2, 2]", 2, "", "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"},
		{"tf32_ldmatrix", "f32", 32, 32, 16, 4, "[2, 2]", 1, ", inputPrecision = tf32", "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>"},
		{"f16_shared_unswizzled", "f16", 32, 32, 32, 4, "[2, 2]", 2, "", "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			eb := 2
			if c.elem == "f32" {
				eb = 4
			}
			r := strings.NewReplacer("{WPC}", c.warpsPerCTA, "{KW}", fmt.Sprint(c.kWidth), "{PREC}", c.prec, "{NW}", fmt.Sprint(c.warps),
				"{M}", fmt.Sprint(c.m), "{N}", fmt.Sprint(c.n), "{K}", fmt.Sprint(c.k), "{E}", c.elem)
			src := r.Replace(`#bl = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [{NW}, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = {WPC}, instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {NW} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<{E}>, %out: !tt.ptr<f32>) {`) +
				offsets2D("a", "#bl", c.m, c.k) + offsets2D("b", "#bl", c.k, c.n) + offsets2D("c", "#mma", c.m, c.n) + r.Replace(`
    %ap = tt.splat %in : !tt.ptr<{E}> -> tensor<{M}x{K}x!tt.ptr<{E}>, #bl>
    %aa = tt.addptr %ap, %a_off : tensor<{M}x{K}x!tt.ptr<{E}>, #bl>, tensor<{M}x{K}xi32, #bl>
    %a = tt.load %aa : tensor<{M}x{K}x!tt.ptr<{E}>, #bl>
    %bbase = tt.addptr %in, %boff : !tt.ptr<{E}>, i32
    %bp = tt.splat %bbase : !tt.ptr<{E}> -> tensor<{K}x{N}x!tt.ptr<{E}>, #bl>
    %ba = tt.addptr %bp, %b_off : tensor<{K}x{N}x!tt.ptr<{E}>, #bl>, tensor<{K}x{N}xi32, #bl>
    %b = tt.load %ba : tensor<{K}x{N}x!tt.ptr<{E}>, #bl>
    %ad = ttg.convert_layout %a : tensor<{M}x{K}x{E}, #bl> -> tensor<{M}x{K}x{E}, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = {KW}}>>
    %bd = ttg.convert_layout %b : tensor<{K}x{N}x{E}, #bl> -> tensor<{K}x{N}x{E}, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = {KW}}>>
    %z = arith.constant dense<1.000000e+00> : tensor<{M}x{N}xf32, #mma>
    %d = tt.dot %ad, %bd, %z{PREC} : tensor<{M}x{K}x{E}, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = {KW}}>> * tensor<{K}x{N}x{E}, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = {KW}}>> -> tensor<{M}x{N}xf32, #mma>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<{M}x{N}x!tt.ptr<f32>, #mma>
    %oa = tt.addptr %op, %c_off : tensor<{M}x{N}x!tt.ptr<f32>, #mma>, tensor<{M}x{N}xi32, #mma>
    tt.store %oa, %d : tensor<{M}x{N}x!tt.ptr<f32>, #mma>
    tt.return
  }
}
`)
			if c.shared != "" {
				src = "#sh = " + c.shared + "\n#smem = #ttg.shared_memory\n" + src
				src = strings.Replace(src, "%ad = ttg.convert_layout %a : tensor<"+fmt.Sprint(c.m)+"x"+fmt.Sprint(c.k)+"x"+c.elem+", #bl> ->",
					"%am = ttg.local_alloc %a : (tensor<"+fmt.Sprint(c.m)+"x"+fmt.Sprint(c.k)+"x"+c.elem+", #bl>) -> !ttg.memdesc<"+fmt.Sprint(c.m)+"x"+fmt.Sprint(c.k)+"x"+c.elem+", #sh, #smem>\n    %ad = ttg.local_load %am : !ttg.memdesc<"+fmt.Sprint(c.m)+"x"+fmt.Sprint(c.k)+"x"+c.elem+", #sh, #smem> ->", 1)
				src = strings.Replace(src, "%bd = ttg.convert_layout %b : tensor<"+fmt.Sprint(c.k)+"x"+fmt.Sprint(c.n)+"x"+c.elem+", #bl> ->",
					"%bm = ttg.local_alloc %b : (tensor<"+fmt.Sprint(c.k)+"x"+fmt.Sprint(c.n)+"x"+c.elem+", #bl>) -> !ttg.memdesc<"+fmt.Sprint(c.k)+"x"+fmt.Sprint(c.n)+"x"+c.elem+", #sh, #smem>\n    %bd = ttg.local_load %bm : !ttg.memdesc<"+fmt.Sprint(c.k)+"x"+fmt.Sprint(c.n)+"x"+c.elem+", #sh, #smem> ->", 1)
			}
			if strings.HasSuffix(c.name, "_acc16") {
				mn := fmt.Sprintf("%dx%d", c.m, c.n)
				src = strings.ReplaceAll(src, "tensor<"+mn+"xf32, #mma>", "tensor<"+mn+"xf16, #mma>")
				src = strings.Replace(src, "    tt.store %oa, %d :", "    %d32 = arith.extf %d : tensor<"+mn+"xf16, #mma> to tensor<"+mn+"xf32, #mma>\n    tt.store %oa, %d32 :", 1)
			}
			src = strings.Replace(src, "%bbase = tt.addptr %in, %boff", "%boff = arith.constant "+fmt.Sprint(c.m*c.k)+" : i32\n    %bbase = tt.addptr %in, %boff", 1)
			res := lowerSource(t, src, "dot.mlir", true)
			if strings.HasSuffix(c.name, "_acc16") && !strings.Contains(res.Module.String(), "row.col.f16.f16.f16.f16") {
				t.Errorf("no mma.sync with an f16 accumulator")
			}
			if c.shared != "" && strings.Contains(c.name, "ldmatrix") && !strings.Contains(res.Module.String(), "ldmatrix") {
				t.Errorf("no ldmatrix")
			}
			val := func(i int) float32 { return float32(i*37%9 - 4) }
			nin := c.m*c.k + c.k*c.n
			mem := make([]byte, nin*eb+4*c.m*c.n)
			for i := 0; i < nin; i++ {
				if eb == 2 {
					binary.LittleEndian.PutUint16(mem[2*i:], toHalf(val(i)))
				} else {
					binary.LittleEndian.PutUint32(mem[4*i:], math.Float32bits(val(i)))
				}
			}
			s := newSim(32*c.warps, mem)
			for _, f := range res.Module.Funcs {
				if f.Name() == "k" {
					s.run(f, []uint64{0, uint64(nin * eb), 0, 0})
				}
			}
			for i := 0; i < c.m; i++ {
				for j := 0; j < c.n; j++ {
					want := float32(1)
					for kk := 0; kk < c.k; kk++ {
						want += val(i*c.k+kk) * val(c.m*c.k+kk*c.n+j)
					}
					got := math.Float32frombits(binary.LittleEndian.Uint32(mem[nin*eb+4*(i*c.n+j):]))
					if got != want {
						t.Fatalf("(%d,%d): got %v, want %v", i, j, got, want)
					}
				}
			}
		})
	}
}

// toHalf converts a small integer-valued float to f16 bits.
func toHalf(f float32) uint16 {
	if f == 0 {
		return 0
	}
	var sign uint16
	if f < 0 {
		sign, f = 0x8000, -f
	}
	e := 0
	for f >= 2 {
		f /= 2
		e++
	}
	return sign | uint16(e+15)<<10 | uint16((f-1)*1024)
}

// TestSimLocalMemory stores a tensor into a swizzled shared buffer
// (ttg.local_alloc, offsets from allocate-shared-memory-nv), reads it back
// in another layout (and a 16-row subslice of it), and checks the values.
func TestSimLocalMemory(t *testing.T) {
	for _, sh := range []string{
		`#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>`,
		`#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>`,
		`#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>`,
	} {
		t.Run(sh, func(t *testing.T) {
			body := offsets2D("a", "#rows", 32, 32) + offsets2D("b", "#cols", 32, 32) + offsets2D("s", "#spread", 16, 32) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #rows>, tensor<32x32xi32, #rows>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #rows>
    %m = ttg.local_alloc %x : (tensor<32x32xi32, #rows>) -> !ttg.memdesc<32x32xi32, #sh, #smem>
    %y = ttg.local_load %m : !ttg.memdesc<32x32xi32, #sh, #smem> -> tensor<32x32xi32, #cols>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #cols>
    %ob = tt.addptr %op, %b_off : tensor<32x32x!tt.ptr<i32>, #cols>, tensor<32x32xi32, #cols>
    tt.store %ob, %y : tensor<32x32x!tt.ptr<i32>, #cols>
    %sub = ttg.memdesc_subslice %m [16, 0] : !ttg.memdesc<32x32xi32, #sh, #smem> -> !ttg.memdesc<16x32xi32, #sh, #smem, 32x32>
    %z = ttg.local_load %sub : !ttg.memdesc<16x32xi32, #sh, #smem, 32x32> -> tensor<16x32xi32, #spread>
    %c1024 = arith.constant 1024 : i32
    %o2 = tt.addptr %out, %c1024 : !tt.ptr<i32>, i32
    %op2 = tt.splat %o2 : !tt.ptr<i32> -> tensor<16x32x!tt.ptr<i32>, #spread>
    %ob2 = tt.addptr %op2, %s_off : tensor<16x32x!tt.ptr<i32>, #spread>, tensor<16x32xi32, #spread>
    tt.store %ob2, %z : tensor<16x32x!tt.ptr<i32>, #spread>`
			src := module(4, aliasDefs("rows", "cols", "spread")+"#sh = "+sh+"\n#smem = #ttg.shared_memory\n", body)
			res := lowerSource(t, src, "local.mlir", true)
			in := data(1024)
			mem := make([]byte, 4*(1024+1024+512))
			for i, v := range in {
				binary.LittleEndian.PutUint32(mem[4*i:], uint32(v))
			}
			s := newSim(128, mem)
			for _, f := range res.Module.Funcs {
				if f.Name() == "k" {
					s.run(f, []uint64{0, 4096, 0, 0})
				}
			}
			for i := 0; i < 1024+512; i++ {
				want := in[i%1024+(i/1024)*512]
				if got := int32(binary.LittleEndian.Uint32(mem[4096+4*i:])); got != want {
					t.Fatalf("element %d: got %d, want %d", i, got, want)
				}
			}
		})
	}
}

// TestSimGatherHistogram checks tt.gather along each axis and tt.histogram
// (a broadcast layout included: its copies must count once).
func TestSimGatherHistogram(t *testing.T) {
	for _, c := range []struct {
		axis   int
		layout string
		inWarp bool // the gather stays in a warp: shuffles, no shared memory
	}{{0, "spread", false}, {1, "spread", false}, {0, "cols", true}, {1, "lanes", true},
		// Linear layouts with broadcast lanes and registers out of
		// order, column-major registers, mma: through shared memory or
		// shuffles.
		{0, "perm", false}, {1, "perm", true}, {0, "shfl", true}, {0, "lperm", true}, {1, "lperm", true}, {0, "regs", false}, {1, "mma", false}} {
		axis := c.axis
		t.Run(fmt.Sprintf("gather_axis%d_%s", axis, c.layout), func(t *testing.T) {
			body := offsets2D("a", "#rows", 32, 32) + offsets2D("b", "#"+c.layout, 32, 32) + strings.NewReplacer("AXIS", fmt.Sprint(axis), "#spread", "#"+c.layout).Replace(`
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #rows>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #rows>, tensor<32x32xi32, #rows>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #rows>
    %c1024 = arith.constant 1024 : i32
    %ib = tt.addptr %in, %c1024 : !tt.ptr<i32>, i32
    %ibp = tt.splat %ib : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #spread>
    %iba = tt.addptr %ibp, %b_off : tensor<32x32x!tt.ptr<i32>, #spread>, tensor<32x32xi32, #spread>
    %idx = tt.load %iba : tensor<32x32x!tt.ptr<i32>, #spread>
    %xs = ttg.convert_layout %x : tensor<32x32xi32, #rows> -> tensor<32x32xi32, #spread>
    %g = tt.gather %xs[%idx] {axis = AXIS : i32} : (tensor<32x32xi32, #spread>, tensor<32x32xi32, #spread>) -> tensor<32x32xi32, #spread>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #spread>
    %ob = tt.addptr %op, %b_off : tensor<32x32x!tt.ptr<i32>, #spread>, tensor<32x32xi32, #spread>
    tt.store %ob, %g : tensor<32x32x!tt.ptr<i32>, #spread>`)
			in := data(1024)
			for i := 0; i < 1024; i++ {
				in = append(in, int32(i*13%32))
			}
			src := module(4, aliasDefs("rows", c.layout), body)
			m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "gather.mlir"})
			if diags.HasErrors() {
				t.Fatalf("parse: %v", diags)
			}
			if res, err := llvmemit.Emit(m); err != nil {
				t.Fatal(err)
			} else if text := res.Module.String(); c.inWarp != strings.Contains(text, "shfl.sync.idx") {
				t.Errorf("in-warp gather %v, but shuffles in the IR: %v", c.inWarp, !c.inWarp)
			}
			out := simulate(t, src, 4, in, 1024)
			for i := 0; i < 32; i++ {
				for j := 0; j < 32; j++ {
					r, c := i, j
					if axis == 0 {
						r = int(in[1024+i*32+j])
					} else {
						c = int(in[1024+i*32+j])
					}
					if got, want := out[i*32+j], in[r*32+c]; got != want {
						t.Fatalf("(%d,%d): got %d, want %d", i, j, got, want)
					}
				}
			}
		})
	}
	t.Run("histogram", func(t *testing.T) {
		// #rows broadcasts lane bit 3 on 32 columns; 1-D views of it do too.
		body := `
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #b1>
    %ia = tt.addptr %ip, %r : tensor<1024x!tt.ptr<i32>, #b1>, tensor<1024xi32, #b1>
    %x = tt.load %ia : tensor<1024x!tt.ptr<i32>, #b1>
    %h = tt.histogram %x : tensor<1024xi32, #b1> -> tensor<64xi32, #b2>
    %o = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b2>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #b2>
    %ob = tt.addptr %op, %o : tensor<64x!tt.ptr<i32>, #b2>, tensor<64xi32, #b2>
    tt.store %ob, %h : tensor<64x!tt.ptr<i32>, #b2>`
		aliases := "#b1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n" +
			"#b2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
		in := make([]int32, 1024)
		want := make([]int32, 64)
		for i := range in {
			in[i] = int32(i*i%80 - 8) // some outside [0, 64)
			if in[i] >= 0 && in[i] < 64 {
				want[in[i]]++
			}
		}
		out := simulate(t, module(4, aliases, body), 4, in, 64)
		for i := range want {
			if out[i] != want[i] {
				t.Fatalf("bin %d: got %d, want %d", i, out[i], want[i])
			}
		}
	})
}

// TestSimErf checks math.erf's approximation against math.Erf (the
// simulator's ex2.approx is exact, so this measures the formula).
func TestSimErf(t *testing.T) {
	body := `
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %in : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %pa = tt.addptr %ps, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    %xi = tt.load %pa : tensor<128x!tt.ptr<i32>, #b>
    %x = tt.bitcast %xi : tensor<128xi32, #b> -> tensor<128xf32, #b>
    %e = math.erf %x : tensor<128xf32, #b>
    %ei = tt.bitcast %e : tensor<128xf32, #b> -> tensor<128xi32, #b>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %oa = tt.addptr %os, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    tt.store %oa, %ei : tensor<128x!tt.ptr<i32>, #b>`
	aliases := "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
	in := make([]int32, 128)
	xs := make([]float64, 128)
	for i := range in {
		xs[i] = float64(float32(float64(i-64) / 20))
		in[i] = int32(math.Float32bits(float32(xs[i])))
	}
	out := simulate(t, module(4, aliases, body), 4, in, 128)
	for i, x := range xs {
		got := float64(math.Float32frombits(uint32(out[i])))
		if d := math.Abs(got - math.Erf(x)); d > 3e-7 {
			t.Errorf("erf(%v) = %v, want %v (error %.2g)", x, got, math.Erf(x), d)
		}
	}
}

// TestSimWarpGroupDot checks ttng.warp_group_dot, lowered to wgmma, on
// operands in nvmma_shared buffers (every swizzle, K- and MN-major), A
// also in registers, one and two warp groups, synchronous and async (with
// warp_group_dot_wait), with a zero C, against the exact product. The
// simulator models wgmma from the PTX ISA (descriptor decoding, canonical
// layouts, swizzles), independently of the lowering.
func TestSimWarpGroupDot(t *testing.T) {
	nv := func(swizzle int, transposed bool) string {
		return fmt.Sprintf("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %v, elementBitWidth = 16}>", swizzle, transposed)
	}
	for _, c := range []struct {
		name             string
		aShared, bShared string
		m, warps         int
		aRegs, async     bool
		zeroC            bool
		fallback         bool // runs as mma.sync
		acc16            bool // an f16 accumulator
	}{
		{name: "shared", aShared: nv(128, false), bShared: nv(128, false), m: 64, warps: 4},
		{name: "shared_bT", aShared: nv(128, false), bShared: nv(128, true), m: 64, warps: 4},
		{name: "shared_aT_bT", aShared: nv(128, true), bShared: nv(128, true), m: 64, warps: 4},
		{name: "swizzle64", aShared: nv(64, false), bShared: nv(64, false), m: 64, warps: 4},
		{name: "swizzle32_T", aShared: nv(32, true), bShared: nv(32, true), m: 64, warps: 4},
		{name: "two_groups_async", aShared: nv(128, false), bShared: nv(128, false), m: 128, warps: 8, async: true},
		{name: "two_groups_aT_zero", aShared: nv(128, true), bShared: nv(64, false), m: 128, warps: 8, zeroC: true},
		{name: "a_regs", bShared: nv(128, false), m: 64, warps: 4, aRegs: true},
		{name: "a_regs_two_groups_async", bShared: nv(128, true), m: 128, warps: 8, aRegs: true, async: true},
		{name: "unswizzled_fallback", aShared: nv(0, false), bShared: nv(0, false), m: 64, warps: 4, fallback: true},
		{name: "acc16", aShared: nv(128, false), bShared: nv(128, true), m: 64, warps: 4, acc16: true},
		{name: "acc16_a_regs_two_groups_async", bShared: nv(128, false), m: 128, warps: 8, aRegs: true, async: true, acc16: true},
		{name: "acc16_fallback", aShared: nv(0, false), bShared: nv(0, false), m: 64, warps: 4, fallback: true, acc16: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, n, k := c.m, 64, 64
			r := strings.NewReplacer("MM", fmt.Sprint(m), "WW", fmt.Sprint(c.warps))
			attrs := ""
			if c.async {
				attrs = ", isAsync = true"
			}
			aOp := `%am = ttg.local_alloc %a : (tensor<MMx64xf16, #bla>) -> !ttg.memdesc<MMx64xf16, #sa, #smem>
    %d = ttng.warp_group_dot %am, %bm, %z {inputPrecision = 0 : i32` + attrs + `} : !ttg.memdesc<MMx64xf16, #sa, #smem> * !ttg.memdesc<64x64xf16, #sb, #smem> -> tensor<MMx64xf32, #mma>`
			if c.aRegs {
				aOp = `%ad = ttg.convert_layout %a : tensor<MMx64xf16, #bla> -> tensor<MMx64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = ttng.warp_group_dot %ad, %bm, %z {inputPrecision = 0 : i32` + attrs + `} : tensor<MMx64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #sb, #smem> -> tensor<MMx64xf32, #mma>`
			}
			zero := "1.000000e+00"
			if c.zeroC {
				zero = "0.000000e+00"
			}
			aShared := c.aShared
			if aShared == "" {
				aShared = c.bShared
			}
			src := r.Replace(`#bla = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [WW, 1], order = [1, 0]}>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [WW, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [WW, 1], instrShape = [16, 64, 16]}>
#sa = ` + aShared + `
#sb = ` + c.bShared + `
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = WW : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<f16>, %out: !tt.ptr<f32>) {` + offsets2D("a", "#bla", m, k) + offsets2D("b", "#bl", k, n) + offsets2D("c", "#mma", m, n) + `
    %ap = tt.splat %in : !tt.ptr<f16> -> tensor<MMx64x!tt.ptr<f16>, #bla>
    %aa = tt.addptr %ap, %a_off : tensor<MMx64x!tt.ptr<f16>, #bla>, tensor<MMx64xi32, #bla>
    %a = tt.load %aa : tensor<MMx64x!tt.ptr<f16>, #bla>
    %boff = arith.constant ` + fmt.Sprint(m*k) + ` : i32
    %bbase = tt.addptr %in, %boff : !tt.ptr<f16>, i32
    %bp = tt.splat %bbase : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %ba = tt.addptr %bp, %b_off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %b = tt.load %ba : tensor<64x64x!tt.ptr<f16>, #bl>
    %bm = ttg.local_alloc %b : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #sb, #smem>
    %z = arith.constant dense<` + zero + `> : tensor<MMx64xf32, #mma>
    ` + aOp + `
    %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<MMx64xf32, #mma>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<MMx64x!tt.ptr<f32>, #mma>
    %oa = tt.addptr %op, %c_off : tensor<MMx64x!tt.ptr<f32>, #mma>, tensor<MMx64xi32, #mma>
    tt.store %oa, %w : tensor<MMx64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
`)
			if c.acc16 { // accumulate in f16, store as f32
				acc := fmt.Sprintf("tensor<%dx64xf32, #mma>", m)
				src = strings.ReplaceAll(src, acc, strings.Replace(acc, "f32", "f16", 1))
				src = strings.Replace(src, "    tt.store %oa, %w :", "    %w32 = arith.extf %w : "+strings.Replace(acc, "f32", "f16", 1)+" to "+acc+"\n    tt.store %oa, %w32 :", 1)
			}
			mod, diags := ir.ParseString(src, ir.ParseConfig{Filename: "wgmma.mlir"})
			if diags.HasErrors() {
				t.Fatalf("parse: %v\n%s", diags, src)
			}
			if d := ir.Verify(mod); d.HasErrors() {
				t.Fatalf("verify: %v", d)
			}
			if d, err := llvmemit.AllocateSharedMemory(mod); err != nil {
				t.Fatalf("allocate: %v %v", err, d)
			}
			res, err := llvmemit.Emit(mod)
			if err != nil {
				t.Fatalf("emit: %v", err)
			}
			ll := res.Module.String()
			if got := strings.Contains(ll, "wgmma.mma_async"); got == c.fallback || !res.Hopper {
				t.Fatalf("wgmma emitted: %v, want %v (Hopper %v)", got, !c.fallback, res.Hopper)
			}
			if !c.fallback {
				checkFenceThenBarrier(t, ll)
			}
			if want := map[bool]string{false: ".f16.f16.f16 {", true: "row.col.f16.f16.f16.f16"}[c.fallback]; c.acc16 && !strings.Contains(ll, want) {
				t.Errorf("no %q: the f16 accumulator is not the instruction's", want)
			}
			if c.aRegs && c.async && !strings.Contains(ll, "wgmma.wait_group.sync.aligned 3;") {
				t.Errorf("an async dot with A in registers must wait for all but its last 3 K steps")
			}
			val := func(i int) float32 { return float32(i*37%9 - 4) }
			nin := m*k + k*n
			mem := make([]byte, 2*nin+4*m*n)
			for i := 0; i < nin; i++ {
				binary.LittleEndian.PutUint16(mem[2*i:], toHalf(val(i)))
			}
			s := newSim(32*c.warps, mem)
			for _, f := range res.Module.Funcs {
				if f.Name() == "k" {
					s.run(f, []uint64{0, uint64(2 * nin), 0, 0})
				}
			}
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					want := float32(1)
					if c.zeroC {
						want = 0
					}
					for kk := 0; kk < k; kk++ {
						want += val(i*k+kk) * val(m*k+kk*n+j)
					}
					got := math.Float32frombits(binary.LittleEndian.Uint32(mem[2*nin+4*(i*n+j):]))
					if got != want {
						t.Fatalf("(%d,%d): got %v, want %v", i, j, got, want)
					}
				}
			}
		})
	}
}

// checkFenceThenBarrier checks that the shared stores a wgmma reads are
// fenced once and followed by one barrier (Membar's, which the fence goes
// before, as in Triton), not a barrier, the fence and a second barrier.
func checkFenceThenBarrier(t *testing.T, ll string) {
	t.Helper()
	lines := strings.Split(ll, "\n")
	fence, wgmma := -1, -1
	for i, line := range lines {
		if strings.Contains(line, "fence.proxy.async.shared::cta") {
			if fence >= 0 {
				t.Errorf("two fence.proxy.async (lines %d and %d)", fence+1, i+1)
			}
			fence = i
		}
		if wgmma < 0 && strings.Contains(line, "wgmma.fence.sync.aligned") {
			wgmma = i
		}
	}
	if fence < 0 || wgmma < fence {
		t.Fatalf("want a fence.proxy.async before the wgmma (lines %d, %d)", fence+1, wgmma+1)
	}
	if strings.Contains(lines[fence-1], "barrier0") {
		t.Errorf("a barrier right before the fence: the stores wait twice")
	}
	if n := strings.Count(strings.Join(lines[fence:wgmma], "\n"), "barrier0"); n != 1 {
		t.Errorf("%d barriers between the fence and the wgmma, want 1", n)
	}
}

// TestSimBarriersNeeded lowers two reductions over one scratch buffer
// (softmax's max then sum) after allocate-shared-memory, so the only
// barriers are each reduction's own (between its store and load) and the
// one Membar places between the two. The result is right with all of them,
// and removing any one of them is a race the simulator reports: the
// lowering emits no barrier Membar does not ask for, and the race checker
// catches a missing one.
func TestSimBarriersNeeded(t *testing.T) {
	const n = 1024
	body := `
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #b>
    %ia = tt.addptr %ip, %r : tensor<1024x!tt.ptr<i32>, #b>, tensor<1024xi32, #b>
    %x = tt.load %ia : tensor<1024x!tt.ptr<i32>, #b>
    %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %t = arith.maxsi %p, %q : i32
      tt.reduce.return %t : i32
    }) : (tensor<1024xi32, #b>) -> i32
    %ms = tt.splat %m : i32 -> tensor<1024xi32, #b>
    %d = arith.subi %x, %ms : tensor<1024xi32, #b>
    %s = "tt.reduce"(%d) <{axis = 0 : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %t = arith.addi %p, %q : i32
      tt.reduce.return %t : i32
    }) : (tensor<1024xi32, #b>) -> i32
    %ss = tt.splat %s : i32 -> tensor<1024xi32, #b>
    %y = arith.addi %d, %ss : tensor<1024xi32, #b>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #b>
    %oa = tt.addptr %op, %r : tensor<1024x!tt.ptr<i32>, #b>, tensor<1024xi32, #b>
    tt.store %oa, %y : tensor<1024x!tt.ptr<i32>, #b>`
	src := module(4, "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n", body)
	in := data(n)
	mx, sum := in[0], int32(0)
	for _, v := range in {
		mx = max(mx, v)
	}
	for _, v := range in {
		sum += v - mx
	}
	// run lowers src and simulates it without its drop-th barrier (none
	// when drop < 0); it returns the output, the number of barriers, and
	// the simulator's panic.
	run := func(drop int) (out []int32, barriers int, failure any) {
		res := lowerSource(t, src, "barriers.mlir", true)
		mem := make([]byte, 8*n)
		for i, v := range in {
			binary.LittleEndian.PutUint32(mem[4*i:], uint32(v))
		}
		for _, f := range res.Module.Funcs {
			if f.Name() != "k" {
				continue
			}
			for _, blk := range f.Blocks {
				kept := blk.Insts[:0]
				for _, inst := range blk.Insts {
					if c, ok := inst.(*lir.InstCall); ok {
						if g, ok := c.Callee.(*lir.Func); ok && g.Name() == "llvm.nvvm.barrier0" {
							barriers++
							if barriers-1 == drop {
								continue
							}
						}
					}
					kept = append(kept, inst)
				}
				blk.Insts = kept
			}
			func() {
				defer func() { failure = recover() }()
				newSim(128, mem).run(f, []uint64{0, 4 * n, 0, 0})
			}()
		}
		out = make([]int32, n)
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(mem[4*n+4*i:]))
		}
		return out, barriers, failure
	}
	out, barriers, failure := run(-1)
	if failure != nil {
		t.Fatalf("with every barrier: %v", failure)
	}
	for i, v := range out {
		if want := in[i] - mx + sum; v != want {
			t.Fatalf("element %d: got %d, want %d", i, v, want)
		}
	}
	if barriers != 3 {
		t.Errorf("%d barriers, want 3 (one in each reduction, one from Membar between them)", barriers)
	}
	for drop := range barriers {
		if _, _, failure := run(drop); failure == nil || !strings.Contains(fmt.Sprint(failure), "shared-memory race") {
			t.Errorf("without barrier %d: the simulator reports %v, want a shared-memory race", drop, failure)
		}
	}
}

// TestSimStoreOncePerElement checks that every element is stored by one
// thread only: registers, lanes and warps holding copies (slice layouts,
// broadcast lane bits, scalars) do not store again, masked or not.
func TestSimStoreOncePerElement(t *testing.T) {
	cases := []struct {
		name, aliases, body string
		n                   int
	}{
		{"slice", aliasDefs("rows"), `
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>
    %ia = tt.addptr %ip, %r : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    %x = tt.load %ia : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>
    %ob = tt.addptr %op, %r : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    tt.store %ob, %x : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>`, 32},
		{"slice_masked", aliasDefs("cols"), `
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #cols}>>
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #cols}>>
    %ia = tt.addptr %ip, %r : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #cols}>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #cols}>>
    %x = tt.load %ia : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #cols}>>
    %c = arith.constant dense<20> : tensor<32xi32, #ttg.slice<{dim = 0, parent = #cols}>>
    %m = arith.cmpi slt, %r, %c : tensor<32xi32, #ttg.slice<{dim = 0, parent = #cols}>>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #cols}>>
    %ob = tt.addptr %op, %r : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #cols}>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #cols}>>
    tt.store %ob, %x, %m : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #cols}>>`, 20},
		{"broadcast_lane", aliasDefs("lperm"), offsets2D("a", "#lperm", 32, 32) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #lperm>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #lperm>, tensor<32x32xi32, #lperm>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #lperm>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #lperm>
    %ob = tt.addptr %op, %a_off : tensor<32x32x!tt.ptr<i32>, #lperm>, tensor<32x32xi32, #lperm>
    tt.store %ob, %x : tensor<32x32x!tt.ptr<i32>, #lperm>`, 32 * 32},
		{"scalar", "", `
    %x = tt.load %in : !tt.ptr<i32>
    tt.store %out, %x : !tt.ptr<i32>`, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := data(32 * 32)
			for _, alloc := range []bool{false, true} {
				out, stored := simulateOnce(t, module(4, c.aliases, c.body), 4, in, 32*32, alloc)
				for i := 0; i < c.n; i++ {
					if out[i] != in[i] {
						t.Fatalf("element %d: got %d, want %d", i, out[i], in[i])
					}
				}
				if stored != 4*c.n {
					t.Errorf("%d bytes stored by all threads, want %d (one store per element)", stored, 4*c.n)
				}
			}
		})
	}
}

// TestSimRedux reduces each row of a 32x32 tensor whose 32 lanes run along
// the row: on sm_80 that is one redux.sync per row, for every combine op it
// performs, on i32 and on i8 (extended — signed for min and max — and
// truncated back). The simulator checks it against Go's arithmetic.
func TestSimRedux(t *testing.T) {
	const m, n = 32, 32
	type comb struct {
		op   string
		kind string
		fn   func(a, b int64, bits uint) int64
	}
	wrap := func(x int64, bits uint) int64 { return x << (64 - bits) >> (64 - bits) }
	uns := func(x int64, bits uint) uint64 { return uint64(x) & (1<<bits - 1) }
	combs := []comb{
		{"arith.addi", "add", func(a, b int64, bits uint) int64 { return wrap(a+b, bits) }},
		{"arith.andi", "and", func(a, b int64, _ uint) int64 { return a & b }},
		{"arith.ori", "or", func(a, b int64, _ uint) int64 { return a | b }},
		{"arith.xori", "xor", func(a, b int64, _ uint) int64 { return a ^ b }},
		{"arith.minsi", "min", func(a, b int64, _ uint) int64 { return min(a, b) }},
		{"arith.maxsi", "max", func(a, b int64, _ uint) int64 { return max(a, b) }},
		{"arith.minui", "umin", func(a, b int64, bits uint) int64 { return wrap(int64(min(uns(a, bits), uns(b, bits))), bits) }},
		{"arith.maxui", "umax", func(a, b int64, bits uint) int64 { return wrap(int64(max(uns(a, bits), uns(b, bits))), bits) }},
	}
	for _, c := range combs {
		for _, ty := range []string{"i32", "i8"} {
			t.Run(c.kind+"_"+ty, func(t *testing.T) {
				bits, x, narrow, widen := uint(32), "%x", "", "%s"
				if ty == "i8" {
					bits, x, widen = 8, "%xn", "%sw"
					narrow = "\n    %xn = arith.trunci %x : tensor<32x32xi32, #w> to tensor<32x32xi8, #w>"
				}
				body := offsets2D("a", "#w", m, n) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #w>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #w>, tensor<32x32xi32, #w>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #w>` + narrow + `
    %s = "tt.reduce"(` + x + `) <{axis = 1 : i32}> ({
    ^bb0(%p: TY, %q: TY):
      %t = OP %p, %q : TY
      tt.reduce.return %t : TY
    }) : (tensor<32x32xTY, #w>) -> tensor<32xTY, #ttg.slice<{dim = 1, parent = #w}>>`
				if ty == "i8" {
					body += `
    %sw = arith.extsi %s : tensor<32xi8, #ttg.slice<{dim = 1, parent = #w}>> to tensor<32xi32, #ttg.slice<{dim = 1, parent = #w}>>`
				}
				body += `
    %o = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #w}>>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #w}>>
    %ob = tt.addptr %op, %o : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #w}>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #w}>>
    tt.store %ob, ` + widen + ` : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #w}>>`
				body = strings.NewReplacer("TY", ty, "OP", c.op).Replace(body)
				src := module(4, "#w = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n", body)
				ll := lowerSource(t, src, "redux.mlir", false).Module.String()
				if want := "@llvm.nvvm.redux.sync." + c.kind + "("; !strings.Contains(ll, want) || strings.Contains(ll, "shfl.sync") {
					t.Fatalf("want one %s and no shuffle:\n%s", want, ll)
				}
				in := data(m * n)
				for i := range in {
					in[i] = int32(uint32(in[i]) * 2654435761) // all bits vary
				}
				out := simulate(t, src, 4, in, m)
				for r := 0; r < m; r++ {
					acc := wrap(int64(in[r*n]), bits)
					for j := 1; j < n; j++ {
						acc = c.fn(acc, wrap(int64(in[r*n+j]), bits), bits)
					}
					if int64(out[r]) != acc {
						t.Fatalf("row %d: got %d, want %d", r, out[r], acc)
					}
				}
			})
		}
	}
}

// TestSimReduceSpread reduces the rows of tensors whose warps split the
// rows and whose every thread holds every row's result (the histogram
// shape): the warps' partials are combined once per row, by thread row
// (rows ⊕ k·threads when there are more rows than threads), written back,
// and loaded by every thread. With redux.sync (addi) and shuffles (muli),
// as many rows as threads, and twice as many.
func TestSimReduceSpread(t *testing.T) {
	for _, c := range []struct {
		m, n, warps int
		op          string
	}{
		{32, 256, 4, "arith.addi"},
		{32, 256, 4, "arith.muli"},
		{256, 128, 4, "arith.addi"},
		{256, 128, 4, "arith.maxsi"},
	} {
		t.Run(fmt.Sprintf("%dx%d_w%d_%s", c.m, c.n, c.warps, c.op), func(t *testing.T) {
			L := fmt.Sprintf("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, %d], order = [1, 0]}>", c.warps)
			res := fmt.Sprintf("tensor<%dxi32, #ttg.slice<{dim = 1, parent = #w}>>", c.m)
			body := offsets2D("a", "#w", c.m, c.n) + strings.NewReplacer("M", fmt.Sprint(c.m), "N", fmt.Sprint(c.n), "OP", c.op, "RES", res).Replace(`
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<MxNx!tt.ptr<i32>, #w>
    %ia = tt.addptr %ip, %a_off : tensor<MxNx!tt.ptr<i32>, #w>, tensor<MxNxi32, #w>
    %x = tt.load %ia : tensor<MxNx!tt.ptr<i32>, #w>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %t = OP %p, %q : i32
      tt.reduce.return %t : i32
    }) : (tensor<MxNxi32, #w>) -> RES
    %o = tt.make_range {end = M : i32, start = 0 : i32} : RES
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<Mx!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #w}>>
    %ob = tt.addptr %op, %o : tensor<Mx!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #w}>>, RES
    tt.store %ob, %s : tensor<Mx!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #w}>>`)
			src := module(c.warps, "#w = "+L+"\n", body)
			// Three barriers in the reduction: after the partials, after
			// they are read, after the totals are written.
			if ll := lowerSource(t, src, "spread.mlir", true).Module.String(); strings.Count(ll, "call void @llvm.nvvm.barrier0()") < 3 {
				t.Fatalf("want the spread combine (three barriers):\n%s", ll)
			}
			in := data(c.m * c.n)
			out := simulate(t, src, c.warps, in, c.m)
			for r := 0; r < c.m; r++ {
				acc := in[r*c.n]
				for j := 1; j < c.n; j++ {
					v := in[r*c.n+j]
					switch c.op {
					case "arith.addi":
						acc += v
					case "arith.muli":
						acc *= v
					case "arith.maxsi":
						acc = max(acc, v)
					}
				}
				if out[r] != acc {
					t.Fatalf("row %d: got %d, want %d", r, out[r], acc)
				}
			}
		})
	}
}

// TestSimPrint checks tt.print's lowering against the interpreter's
// tt.print: the lines the threads print through vprintf (one per
// register, duplicated registers more than once) are, as a set, the
// interpreter's (one per element). Signed and unsigned narrow integers,
// hex, floats, a scalar operand, several operands, no operand and a layout
// that holds each element in 16 threads are printed.
func TestSimPrint(t *testing.T) {
	body := offsets2D("a", "#spread", 32, 32) + offsets2D("d", "#rows", 8, 4) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #spread>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #spread>, tensor<32x32xi32, #spread>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #spread>
    %x8 = arith.trunci %x : tensor<32x32xi32, #spread> to tensor<32x32xi8, #spread>
    %xf = arith.sitofp %x : tensor<32x32xi32, #spread> to tensor<32x32xf32, #spread>
    %xh = arith.truncf %xf : tensor<32x32xf32, #spread> to tensor<32x32xf16, #spread>
    %n = arith.constant -7 : i32
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<32x32xi32, #spread>
    tt.print " u8: " {hex = false, isSigned = array<i32: 0>} : %x8 : tensor<32x32xi8, #spread>
    tt.print " s8, n: " {hex = false, isSigned = array<i32: 1, 1>} : %x8, %n : tensor<32x32xi8, #spread>, i32
    tt.print " hex: " {hex = true, isSigned = array<i32: 1>} : %x : tensor<32x32xi32, #spread>
    tt.print " hex8: " {hex = true, isSigned = array<i32: 1>} : %x8 : tensor<32x32xi8, #spread>
    tt.print " f: " {hex = false, isSigned = array<i32: 0>} : %xf : tensor<32x32xf32, #spread>
    tt.print " h: " {hex = false, isSigned = array<i32: 0>} : %xh : tensor<32x32xf16, #spread>
    tt.print " dup: " {hex = false, isSigned = array<i32: 1>} : %d_off : tensor<8x4xi32, #rows>
    tt.print " done" {hex = false, isSigned = array<i32>}`
	src := module(4, aliasDefs("spread", "rows"), body)
	in := data(1024)

	s := simKernel(t, src, "print.mlir", 128, words(in), 0, 0)
	var out bytes.Buffer
	interpKernel(t, src, "print.mlir", interp.Options{Print: &out}, interp.BufArg(i32Buffer(in)), interp.BufArg(i32Buffer(make([]int32, 1))))
	want := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	got := map[string]int{}
	for _, l := range s.printed {
		got[strings.TrimSuffix(l, "\n")]++
	}
	// 7 tensors of 1024 elements, the scalar once per thread, the 32
	// elements of %d_off held by 16 threads each, "done" once per thread.
	if wantLines := 7*1024 + 128 + 32*16 + 128; len(s.printed) != wantLines {
		t.Errorf("the threads printed %d lines, want %d", len(s.printed), wantLines)
	}
	wantSet := map[string]bool{}
	for _, l := range want {
		wantSet[l] = true
		if got[l] == 0 {
			t.Errorf("the interpreter prints %q, the GPU code does not", l)
		}
	}
	for l := range got {
		if !wantSet[l] {
			t.Errorf("the GPU code prints %q, the interpreter does not", l)
		}
	}
}

// TestSimAssert checks tt.assert's lowering: exactly the threads holding a
// false condition register call __assertfail, with the message and the
// op's place in the input (it carries no loc), and a true condition calls
// nothing.
func TestSimAssert(t *testing.T) {
	for _, bound := range []int{1000, 600} {
		body := offsets2D("a", "#spread", 32, 32) + fmt.Sprintf(`
    %%ip = tt.splat %%in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #spread>
    %%ia = tt.addptr %%ip, %%a_off : tensor<32x32x!tt.ptr<i32>, #spread>, tensor<32x32xi32, #spread>
    %%x = tt.load %%ia : tensor<32x32x!tt.ptr<i32>, #spread>
    %%lim = arith.constant dense<%d> : tensor<32x32xi32, #spread>
    %%ok = arith.cmpi slt, %%x, %%lim : tensor<32x32xi32, #spread>
    tt.assert %%ok, "x below the bound" : tensor<32x32xi1, #spread>`, bound)
		src := module(4, aliasDefs("spread"), body)
		line := strings.Count(src[:strings.Index(src, "tt.assert")], "\n") + 1
		in := data(1024) // -300 .. 699
		s := simKernel(t, src, "assert.mlir", 128, words(in), 0, 0)
		// The threads holding an element at or above the bound.
		D := mustLinear(t, layouts["spread"], 32, 32)
		failing := map[int]bool{}
		for i, v := range in {
			if int(v) >= bound {
				for _, th := range threadsHolding(D, i/32, i%32) {
					failing[th] = true
				}
			}
		}
		if bound < 700 && len(failing) == 0 {
			t.Fatalf("bound %d: no element fails", bound)
		}
		if len(s.asserts) != len(failing) {
			t.Errorf("bound %d: %d threads called __assertfail, want %d", bound, len(s.asserts), len(failing))
		}
		want := fmt.Sprintf("assert.mlir:%d: x below the bound", line)
		for _, a := range s.asserts {
			if a != want {
				t.Errorf("bound %d: __assertfail(%q), want %q", bound, a, want)
				break
			}
		}
	}
}

// mustLinear is the linear layout of a layout attribute (text) over an
// m×n tensor.
func mustLinear(t *testing.T, text string, m, n int) linear.Layout {
	t.Helper()
	enc, _, err := attr.Parse(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	L, err := attr.Linear(enc, []int{m, n})
	if err != nil {
		t.Fatal(err)
	}
	return L
}

// threadsHolding returns the threads (lane + 32·warp) that hold element
// (r, c) of a 2-D layout D in some register.
func threadsHolding(D linear.Layout, r, c int) []int {
	var out []int
	for w := range D.InDimSize("warp") {
		for l := range D.InDimSize("lane") {
			for reg := range D.InDimSize("register") {
				if got := D.Apply(reg, l, w, 0); got[0] == r && got[1] == c {
					out = append(out, l+32*w)
					break
				}
			}
		}
	}
	return out
}

// TestSimExtern checks tt.extern_elementwise's lowering, unlinked: each
// register calls the libdevice function on its own operands, in order (the
// simulator evaluates __nv_tanhf and __nv_powf as the interpreter does), so
// the stored results equal the interpreter's bit for bit.
func TestSimExtern(t *testing.T) {
	body := offsets2D("a", "#spread", 32, 32) + `
    %ip = tt.splat %in : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #spread>
    %ia = tt.addptr %ip, %a_off : tensor<32x32x!tt.ptr<i32>, #spread>, tensor<32x32xi32, #spread>
    %x = tt.load %ia : tensor<32x32x!tt.ptr<i32>, #spread>
    %xf = arith.sitofp %x : tensor<32x32xi32, #spread> to tensor<32x32xf32, #spread>
    %k = arith.constant dense<0.01> : tensor<32x32xf32, #spread>
    %xs = arith.mulf %xf, %k : tensor<32x32xf32, #spread>
    %th = tt.extern_elementwise %xs {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<32x32xf32, #spread>) -> tensor<32x32xf32, #spread>
    %e = arith.constant dense<1.5> : tensor<32x32xf32, #spread>
    %ab = math.absf %xs : tensor<32x32xf32, #spread>
    %pw = tt.extern_elementwise %ab, %e {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<32x32xf32, #spread>, tensor<32x32xf32, #spread>) -> tensor<32x32xf32, #spread>
    %sum = arith.addf %th, %pw : tensor<32x32xf32, #spread>
    %bits = tt.bitcast %sum : tensor<32x32xf32, #spread> -> tensor<32x32xi32, #spread>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #spread>
    %ob = tt.addptr %op, %a_off : tensor<32x32x!tt.ptr<i32>, #spread>, tensor<32x32xi32, #spread>
    tt.store %ob, %bits : tensor<32x32x!tt.ptr<i32>, #spread>`
	src := module(4, aliasDefs("spread"), body)
	in := data(1024)
	got := simulate(t, src, 4, in, 1024)

	outBuf := i32Buffer(make([]int32, len(in)))
	interpKernel(t, src, "extern.mlir", interp.Options{}, interp.BufArg(i32Buffer(in)), interp.BufArg(outBuf))
	for i := range got {
		if want := int32(outBuf.Int(i)); got[i] != want {
			t.Fatalf("element %d: got %#x (%g), want %#x (%g)", i, uint32(got[i]), math.Float32frombits(uint32(got[i])), uint32(want), math.Float32frombits(uint32(want)))
		}
	}
}

// TestSimFp4ToFp checks ttg.fp4_to_fp against the interpreter, bit for
// bit, for every byte value, along both axes, to bf16 and to f16; and that
// a result layout that does not unpack the operand's in place is refused.
func TestSimFp4ToFp(t *testing.T) {
	for _, c := range []struct {
		axis     int
		src, dst string // layouts over 32x16 (axis 1) or 16x32 (axis 0) bytes
		elem     string
	}{
		{1, `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`,
			`#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`, "bf16"},
		{1, `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`,
			`#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`, "f16"},
		{0, `#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>`,
			`#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>`, "bf16"},
	} {
		m, n := 32, 16
		if c.axis == 0 {
			m, n = 16, 32
		}
		om, on := m, n
		if c.axis == 0 {
			om *= 2
		} else {
			on *= 2
		}
		src := strings.NewReplacer("SRC", c.src, "DST", c.dst, "M", fmt.Sprint(m), "N", fmt.Sprint(n), "OM", fmt.Sprint(om),
			"ON", fmt.Sprint(on), "AXIS", fmt.Sprint(c.axis), "ELEM", c.elem).Replace(`#s = SRC
#d = DST
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<i8>, %out: !tt.ptr<i16>) {
` + offsets2D("a", "#s", m, n) + offsets2D("b", "#d", om, on) + `
    %ip = tt.splat %in : !tt.ptr<i8> -> tensor<MxNx!tt.ptr<i8>, #s>
    %ia = tt.addptr %ip, %a_off : tensor<MxNx!tt.ptr<i8>, #s>, tensor<MxNxi32, #s>
    %x = tt.load %ia : tensor<MxNx!tt.ptr<i8>, #s>
    %f = ttg.fp4_to_fp %x {axis = AXIS : i32} : tensor<MxNxi8, #s> -> tensor<OMxONxELEM, #d>
    %bits = tt.bitcast %f : tensor<OMxONxELEM, #d> -> tensor<OMxONxi16, #d>
    %op = tt.splat %out : !tt.ptr<i16> -> tensor<OMxONx!tt.ptr<i16>, #d>
    %ob = tt.addptr %op, %b_off : tensor<OMxONx!tt.ptr<i16>, #d>, tensor<OMxONxi32, #d>
    tt.store %ob, %bits : tensor<OMxONx!tt.ptr<i16>, #d>
    tt.return
  }
}
`)
		mem := make([]byte, 512+2*1024)
		for i := range 512 {
			mem[i] = byte(i*37 + i/256) // every byte value
		}
		simKernel(t, src, "fp4.mlir", 128, mem, 0, 512)
		inBuf, _ := interp.NewBuffer(ir.I8, 512)
		copy(inBuf.Data, mem[:512])
		outBuf, _ := interp.NewBuffer(ir.I16, 1024)
		interpKernel(t, src, "fp4.mlir", interp.Options{}, interp.BufArg(inBuf), interp.BufArg(outBuf))
		if !bytes.Equal(mem[512:], outBuf.Data) {
			for i := 0; i < 1024; i++ {
				if g, w := binary.LittleEndian.Uint16(mem[512+2*i:]), binary.LittleEndian.Uint16(outBuf.Data[2*i:]); g != w {
					t.Fatalf("axis %d %s: element %d: got %#04x, want %#04x", c.axis, c.elem, i, g, w)
				}
			}
		}
	}
	// A result layout whose register 1 is not the high nibble of register 0.
	bad := `#s = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: tensor<32x16xi8, #s>) -> tensor<32x32xbf16, #d> {
    %f = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<32x16xi8, #s> -> tensor<32x32xbf16, #d>
    tt.return %f : tensor<32x32xbf16, #d>
  }
}`
	m, diags := ir.ParseString(bad, ir.ParseConfig{Filename: "bad.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, err := llvmemit.Emit(m); err == nil || !strings.Contains(err.Error(), "do not unpack in place") {
		t.Errorf("a result layout that does not unpack in place: error %v", err)
	}
}

// simKernel lowers src (after allocate-shared-memory) and runs its kernel
// @k on the simulator: threads threads, global memory mem, the kernel's
// arguments args (pointers: addresses in mem) and the two scratch
// pointers (0).
func simKernel(t *testing.T, src, file string, threads int, mem []byte, args ...uint64) *sim {
	t.Helper()
	res := lowerSource(t, src, file, true)
	s := newSim(threads, mem)
	for _, f := range res.Module.Funcs {
		if f.Name() == "k" {
			s.run(f, append(args, 0, 0))
		}
	}
	return s
}

// interpKernel runs @k of src, one program, on the interpreter.
func interpKernel(t *testing.T, src, file string, opts interp.Options, args ...interp.Arg) {
	t.Helper()
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: file})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if err := interp.RunWith(m, "k", args, [3]int{1, 1, 1}, opts); err != nil {
		t.Fatal(err)
	}
}

// words is in as little-endian 32-bit words.
func words(in []int32) []byte {
	b := make([]byte, 4*len(in))
	for i, v := range in {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return b
}

// i32Buffer is an interpreter buffer holding in.
func i32Buffer(in []int32) *interp.Buffer {
	b, _ := interp.NewBuffer(ir.I32, len(in))
	for i, v := range in {
		b.SetInt(i, int64(v))
	}
	return b
}

// TestSimTensorDescriptor lowers a TritonGPU kernel that makes tensor
// descriptors, through RewriteTensorDescriptors as layout-translate does,
// and checks what it stores against the interpreter's run of the kernel as
// written (descriptor loads zero-fill out of bounds, stores skip it): a
// tile partly past the tensor's rows and columns.
func TestSimTensorDescriptor(t *testing.T) {
	src := `#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %c20 = arith.constant 20 : i32
    %c24 = arith.constant 24 : i32
    %c24_64 = arith.constant 24 : i64
    %c1 = arith.constant 1 : i64
    %c8 = arith.constant 8 : i32
    %cm4 = arith.constant -4 : i32
    %d = tt.make_tensor_descriptor %in, [%c20, %c24], [%c24_64, %c1] : <i32>, <tensor<32x16xi32, #s>>
    %v = tt.descriptor_load %d[%cm4, %c8] : !tt.tensordesc<tensor<32x16xi32, #s>> -> tensor<32x16xi32, #b>
    %e = tt.make_tensor_descriptor %out, [%c20, %c24], [%c24_64, %c1] : <i32>, <tensor<32x16xi32, #s>>
    %c2 = arith.constant 2 : i32
    tt.descriptor_store %e[%c2, %c2], %v : !tt.tensordesc<tensor<32x16xi32, #s>>, tensor<32x16xi32, #b>
    tt.return
  }
}
`
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "desc.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if changed, err := llvmemit.RewriteTensorDescriptors(m); err != nil || !changed {
		t.Fatalf("RewriteTensorDescriptors: %v, changed %v", err, changed)
	}
	var rewritten bytes.Buffer
	if err := ir.Print(&rewritten, m, ir.PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	in := data(480) // 20 x 24
	mem := make([]byte, 2*4*480)
	copy(mem, words(in))
	for i := 480; i < 960; i++ {
		binary.LittleEndian.PutUint32(mem[4*i:], 0xdeadbeef)
	}
	simKernel(t, rewritten.String(), "rewritten.mlir", 128, mem, 0, 4*480)

	outBuf := i32Buffer(make([]int32, 480))
	for i := range 480 {
		outBuf.SetInt(i, int64(int32(-559038737))) // 0xdeadbeef
	}
	interpKernel(t, src, "desc.mlir", interp.Options{}, interp.BufArg(i32Buffer(in)), interp.BufArg(outBuf))
	changedElems := 0
	for i := range 480 {
		got, want := int32(binary.LittleEndian.Uint32(mem[4*(480+i):])), int32(outBuf.Int(i))
		if got != want {
			t.Fatalf("out[%d] (row %d, column %d): got %d, want %d", i, i/24, i%24, got, want)
		}
		if want != -559038737 {
			changedElems++
		}
	}
	if changedElems == 0 || changedElems == 480 {
		t.Fatalf("%d of 480 elements stored: the bounds are not exercised", changedElems)
	}
}

// TestSimFp4Dot runs the pattern of Triton's upcast mixed-precision dot
// (combine.mlir's dot_scale_transpose): packed e2m1 A converted to a
// kWidth 4 dot operand, unpacked by ttg.fp4_to_fp into a bf16 kWidth 8
// one, times bf16 B of kWidth 8 on mma.sync, against the interpreter (the
// products and sums are exact, so the two agree bit for bit).
func TestSimFp4Dot(t *testing.T) {
	src := `#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%a: !tt.ptr<i8>, %b: !tt.ptr<i16>, %c: !tt.ptr<f32>) {
` + offsets2D("pa", "#bl", 32, 16) + offsets2D("pb", "#bl", 32, 32) + `
    %ap = tt.splat %a : !tt.ptr<i8> -> tensor<32x16x!tt.ptr<i8>, #bl>
    %aa = tt.addptr %ap, %pa_off : tensor<32x16x!tt.ptr<i8>, #bl>, tensor<32x16xi32, #bl>
    %av = tt.load %aa : tensor<32x16x!tt.ptr<i8>, #bl>
    %ad = ttg.convert_layout %av : tensor<32x16xi8, #bl> -> tensor<32x16xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %af = ttg.fp4_to_fp %ad {axis = 1 : i32} : tensor<32x16xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<32x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    %bp = tt.splat %b : !tt.ptr<i16> -> tensor<32x32x!tt.ptr<i16>, #bl>
    %ba = tt.addptr %bp, %pb_off : tensor<32x32x!tt.ptr<i16>, #bl>, tensor<32x32xi32, #bl>
    %bv = tt.load %ba : tensor<32x32x!tt.ptr<i16>, #bl>
    %bh = tt.bitcast %bv : tensor<32x32xi16, #bl> -> tensor<32x32xbf16, #bl>
    %bd = ttg.convert_layout %bh : tensor<32x32xbf16, #bl> -> tensor<32x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
    %z = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %d = tt.dot %af, %bd, %z : tensor<32x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<32x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<32x32xf32, #mma>
    %db = ttg.convert_layout %d : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #bl>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #bl>
    %ca = tt.addptr %cp, %pb_off : tensor<32x32x!tt.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
    tt.store %ca, %db : tensor<32x32x!tt.ptr<f32>, #bl>
    tt.return
  }
}
`
	a, _ := interp.NewBuffer(ir.I8, 512)
	for i := range 512 {
		a.Data[i] = byte(i*37 + i/256)
	}
	b, _ := interp.NewBuffer(ir.I16, 1024)
	for i := range 1024 {
		b.SetInt(i, int64(math.Float32bits(float32(i%13-6))>>16)) // small integers in bf16
	}
	c, _ := interp.NewBuffer(ir.F32, 1024)
	out := crossCheck(t, src, 4, []*interp.Buffer{a, b, c})
	nonzero := 0
	for i := range 1024 {
		if out[2].Float(i) != 0 {
			nonzero++
		}
	}
	if nonzero < 512 {
		t.Fatalf("only %d of 1024 products are nonzero: the check is too weak", nonzero)
	}
}
