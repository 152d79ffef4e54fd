package llvmemit_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestSimFMADot checks tt.dot on #ttg.blocked accumulators (Triton's FMA
// dot), 2-D and batched, float and integer, mixed operand types, against
// the reference interpreter.
func TestSimFMADot(t *testing.T) {
	for _, c := range []struct {
		name        string
		ab, acc     string
		shapeA      []int // [B,] M, K
		n           int
		layout      string
		prec        string
		abIR, accIR ir.Type
	}{
		{"f32_rows", "f32", "f32", []int{32, 16}, 32, `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`, "", ir.F32, ir.F32},
		{"f32_cols", "f32", "f32", []int{16, 8}, 64, `#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>`, "", ir.F32, ir.F32},
		{"f32_broadcast", "f32", "f32", []int{8, 4}, 8, `#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`, "", ir.F32, ir.F32},
		{"f16_to_f32", "f16", "f32", []int{32, 16}, 16, `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>`, "", ir.F16, ir.F32},
		{"bf16_to_f32", "bf16", "f32", []int{16, 8}, 16, `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>`, "", ir.BF16, ir.F32},
		{"f8E4M3FN_to_f32", "f8E4M3FN", "f32", []int{16, 8}, 16, `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>`, "", ir.FloatTypeOf("f8E4M3FN"), ir.F32},
		{"f8E5M2_to_f16", "f8E5M2", "f16", []int{16, 8}, 16, `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>`, "", ir.FloatTypeOf("f8E5M2"), ir.F16},
		{"f16", "f16", "f16", []int{16, 8}, 16, `#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>`, "", ir.F16, ir.F16},
		{"tf32", "f32", "f32", []int{16, 8}, 32, `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>`, ", inputPrecision = tf32", ir.F32, ir.F32},
		{"i8_to_i32", "i8", "i32", []int{32, 16}, 32, `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`, "", ir.I8, ir.I32},
		{"batched", "f32", "f32", []int{2, 16, 8}, 16, `#ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 8, 4], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>`, "", ir.F32, ir.F32},
		{"batched_in_regs", "f32", "f32", []int{4, 8, 8}, 8, `#ttg.blocked<{sizePerThread = [2, 1, 2], threadsPerWarp = [1, 8, 4], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>`, "", ir.F32, ir.F32},
	} {
		t.Run(c.name, func(t *testing.T) {
			rank := len(c.shapeA)
			K := c.shapeA[rank-1]
			shapeB := append(append([]int{}, c.shapeA[:rank-2]...), K, c.n)
			shapeC := append(append([]int{}, c.shapeA[:rank-1]...), c.n)
			src := "#L = " + c.layout + "\n" + fmt.Sprintf(`module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%%a: !tt.ptr<%[1]s>, %%b: !tt.ptr<%[1]s>, %%c: !tt.ptr<%[2]s>) {
`, c.ab, c.acc) +
				loadND("a", "%a", c.ab, c.shapeA, "#ttg.dot_op<{opIdx = 0, parent = #L}>") +
				loadND("b", "%b", c.ab, shapeB, "#ttg.dot_op<{opIdx = 1, parent = #L}>") +
				loadND("c", "%c", c.acc, shapeC, "#L") + fmt.Sprintf(`
    %%d = tt.dot %%a_v, %%b_v, %%c_v%s : %s * %s -> %s
    tt.store %%c_p, %%d : %s
    tt.return
  }
}
`, c.prec, tensorT(c.shapeA, c.ab, "#ttg.dot_op<{opIdx = 0, parent = #L}>"), tensorT(shapeB, c.ab, "#ttg.dot_op<{opIdx = 1, parent = #L}>"),
				tensorT(shapeC, c.acc, "#L"), tensorT(shapeC, "!tt.ptr<"+c.acc+">", "#L"))
			a := filled(t, c.abIR, prod(c.shapeA), 1)
			if c.prec != "" {
				for i := 0; i < a.Len(); i++ {
					a.SetFloat(i, a.Float(i)*(1+1.0/4096)) // not exact in tf32: rounding shows
				}
			}
			crossCheck(t, src, 4, []*interp.Buffer{a, filled(t, c.abIR, prod(shapeB), 2), filled(t, c.accIR, prod(shapeC), 3)})
		})
	}
}

func prod(s []int) int {
	n := 1
	for _, v := range s {
		n *= v
	}
	return n
}

func tensorT(shape []int, elem, enc string) string {
	var dims []string
	for _, s := range shape {
		dims = append(dims, fmt.Sprint(s))
	}
	return "tensor<" + strings.Join(dims, "x") + "x" + elem + ", " + enc + ">"
}

// loadND returns TTGIR loading the row-major tensor of the given shape
// from ptr in layout enc: %NAME_v, with its pointers %NAME_p.
func loadND(name, ptr, elem string, shape []int, enc string) string {
	var b strings.Builder
	rank := len(shape)
	full := tensorT(shape, "i32", enc)
	off := ""
	for d := 0; d < rank; d++ {
		// The range along d, in the layout sliced down to dim d.
		sl := enc
		var keep []int
		for e := 0; e < rank; e++ {
			if e != d {
				keep = append(keep, e)
			}
		}
		// Slice away the other dims, outermost last.
		cur := []int{d}
		_ = cur
		for i := len(keep) - 1; i >= 0; i-- {
			sl = fmt.Sprintf("#ttg.slice<{dim = %d, parent = %s}>", keep[i], sl)
		}
		fmt.Fprintf(&b, "    %%%s_r%d = tt.make_range {end = %d : i32, start = 0 : i32} : tensor<%dxi32, %s>\n", name, d, shape[d], shape[d], sl)
		// Expand back, innermost first.
		prev := fmt.Sprintf("%%%s_r%d", name, d)
		ps := []int{shape[d]}
		pos := []int{d}
		for i := 0; i < len(keep); i++ {
			e := keep[i]
			encE := enc
			for j := len(keep) - 1; j > i; j-- {
				encE = fmt.Sprintf("#ttg.slice<{dim = %d, parent = %s}>", keep[j], encE)
			}
			// insert dim e in ps at its position among pos
			at := 0
			for at < len(pos) && pos[at] < e {
				at++
			}
			ns := append(append(append([]int{}, ps[:at]...), 1), ps[at:]...)
			np := append(append(append([]int{}, pos[:at]...), e), pos[at:]...)
			from := tensorT(ps, "i32", prevEnc(enc, keep, i))
			to := tensorT(ns, "i32", encE)
			fmt.Fprintf(&b, "    %%%s_e%d_%d = tt.expand_dims %s {axis = %d : i32} : %s -> %s\n", name, d, i, prev, at, from, to)
			prev = fmt.Sprintf("%%%s_e%d_%d", name, d, i)
			ps, pos = ns, np
		}
		stride := 1
		for e := d + 1; e < rank; e++ {
			stride *= shape[e]
		}
		fmt.Fprintf(&b, "    %%%s_s%d = arith.constant dense<%d> : %s\n", name, d, stride, tensorT(ps, "i32", enc))
		fmt.Fprintf(&b, "    %%%s_m%d = arith.muli %s, %%%s_s%d : %s\n", name, d, prev, name, d, tensorT(ps, "i32", enc))
		fmt.Fprintf(&b, "    %%%s_b%d = tt.broadcast %%%s_m%d : %s -> %s\n", name, d, name, d, tensorT(ps, "i32", enc), full)
		if off == "" {
			off = fmt.Sprintf("%%%s_b%d", name, d)
		} else {
			fmt.Fprintf(&b, "    %%%s_o%d = arith.addi %s, %%%s_b%d : %s\n", name, d, off, name, d, full)
			off = fmt.Sprintf("%%%s_o%d", name, d)
		}
	}
	pt := tensorT(shape, "!tt.ptr<"+elem+">", enc)
	fmt.Fprintf(&b, "    %%%s_sp = tt.splat %s : !tt.ptr<%s> -> %s\n", name, ptr, elem, pt)
	fmt.Fprintf(&b, "    %%%s_p = tt.addptr %%%s_sp, %s : %s, %s\n", name, name, off, pt, full)
	fmt.Fprintf(&b, "    %%%s_v = tt.load %%%s_p : %s\n", name, name, pt)
	return b.String()
}

// prevEnc is the encoding before expanding keep[i]: enc sliced along
// keep[i:], outermost last.
func prevEnc(enc string, keep []int, i int) string {
	for j := len(keep) - 1; j >= i; j-- {
		enc = fmt.Sprintf("#ttg.slice<{dim = %d, parent = %s}>", keep[j], enc)
	}
	return enc
}

// TestSimDotInt8 checks tt.dot on int8 operands with an mma v2 i32
// accumulator (mma.sync m16n8k32 .s8), operands converted from a blocked
// layout into #ttg.dot_op registers (kWidth 4), against the interpreter.
func TestSimDotInt8(t *testing.T) {
	for _, c := range []struct {
		name    string
		m, n, k int
		wpc     string
	}{{"2x2", 32, 32, 64, "[2, 2]"}, {"4x1", 64, 16, 32, "[4, 1]"}} {
		t.Run(c.name, func(t *testing.T) {
			dotA := "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>"
			dotB := "#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>"
			src := "#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n" +
				"#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = " + c.wpc + ", instrShape = [16, 8]}>\n" +
				`module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%a: !tt.ptr<i8>, %b: !tt.ptr<i8>, %c: !tt.ptr<i32>) {
` + loadND("a", "%a", "i8", []int{c.m, c.k}, "#bl") + loadND("b", "%b", "i8", []int{c.k, c.n}, "#bl") + loadND("c", "%c", "i32", []int{c.m, c.n}, "#mma") + fmt.Sprintf(`
    %%ad = ttg.convert_layout %%a_v : %[1]s -> %[2]s
    %%bd = ttg.convert_layout %%b_v : %[3]s -> %[4]s
    %%d = tt.dot %%ad, %%bd, %%c_v : %[2]s * %[4]s -> %[5]s
    tt.store %%c_p, %%d : %[6]s
    tt.return
  }
}
`, tensorT([]int{c.m, c.k}, "i8", "#bl"), tensorT([]int{c.m, c.k}, "i8", dotA), tensorT([]int{c.k, c.n}, "i8", "#bl"), tensorT([]int{c.k, c.n}, "i8", dotB),
				tensorT([]int{c.m, c.n}, "i32", "#mma"), tensorT([]int{c.m, c.n}, "!tt.ptr<i32>", "#mma"))
			res := lowerSource(t, src, "int8.mlir", true)
			if !strings.Contains(res.Module.String(), "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32") {
				t.Fatal("no int8 mma.sync")
			}
			crossCheck(t, src, 4, []*interp.Buffer{filled(t, ir.I8, c.m*c.k, 1), filled(t, ir.I8, c.k*c.n, 2), filled(t, ir.I32, c.m*c.n, 3)})
		})
	}
}
