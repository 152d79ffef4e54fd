package llvmemit_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestSimMatrixConvert runs shared-memory round trips whose plan chooses
// ldmatrix (cc 75+: into dot operands, plain and .trans) or stmatrix
// (cc 90: out of mma layouts) and checks every element, for 8-, 16- and
// 32-bit elements (the matrix instructions move 16-bit pairs; a 32-bit
// element takes a word), and tiles smaller than four matrices.
func TestSimMatrixConvert(t *testing.T) {
	const (
		bl    = `#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>`
		blT   = `#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>`
		mma2  = `#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`
		mma3  = `#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>`
		dot0  = `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = KW}>`
		dot1  = `#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = KW}>`
		store = `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>`
		col   = `#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>`
	)
	for _, c := range []struct {
		name, elem, src, dst, mma string
		cc                        int
		want                      []string // instructions the lowering must use
	}{
		{"a_i16", "i16", bl, dot0, mma2, 80, []string{"ldmatrix.sync.aligned.m8n8.x4.shared.b16"}},
		{"b_i16_trans", "i16", bl, dot1, mma2, 80, []string{"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"}},
		{"b_i16_kmajor", "i16", blT, dot1, mma2, 80, []string{"ldmatrix.sync.aligned.m8n8.x4.shared.b16"}},
		{"a_i32", "i32", bl, dot0, mma2, 80, []string{"ldmatrix.sync.aligned.m8n8.x"}},
		{"a_i16_16x16", "i16", bl, dot0, mma2, 80, []string{"ldmatrix.sync.aligned.m8n8.x"}},
		{"b_i16_16x16", "i16", bl, dot1, mma2, 80, []string{"ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16"}},
		{"b_i16_16x8", "i16", blT, dot1, mma2, 80, []string{"ldmatrix.sync.aligned.m8n8.x2.shared.b16"}},
		{"mma_i16_sm90", "i16", "#mma", col, mma2, 90, []string{"stmatrix.sync.aligned.m8n8.x"}},
		{"mma3_i16_sm90", "i16", "#mma", col, mma3, 90, []string{"stmatrix.sync.aligned.m8n8.x"}},
		{"mma3_i32_sm90", "i32", "#mma", col, mma3, 90, []string{"stmatrix.sync.aligned.m8n8.x"}},
		{"mma_i16_sm80", "i16", "#mma", store, mma2, 80, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, n := 64, 64
			if i := strings.Index(c.name, "_16x"); i >= 0 {
				fmt.Sscanf(c.name[i+1:], "%dx%d", &m, &n)
			}
			kw := map[string]string{"i8": "4", "i16": "2", "i32": "1"}[c.elem]
			src := strings.ReplaceAll(c.src, "KW", kw)
			dst := strings.ReplaceAll(c.dst, "KW", kw)
			aliases := "#mma = " + c.mma + "\n#S = " + src + "\n#D = " + dst + "\n"
			body := offsets2D("a", "#S", m, n) + offsets2D("b", "#D", m, n) + strings.NewReplacer("E", c.elem, "64x64", fmt.Sprintf("%dx%d", m, n)).Replace(`
    %ip = tt.splat %in : !tt.ptr<E> -> tensor<64x64x!tt.ptr<E>, #S>
    %ia = tt.addptr %ip, %a_off : tensor<64x64x!tt.ptr<E>, #S>, tensor<64x64xi32, #S>
    %x = tt.load %ia : tensor<64x64x!tt.ptr<E>, #S>
    %y = ttg.convert_layout %x : tensor<64x64xE, #S> -> tensor<64x64xE, #D>
    %op = tt.splat %out : !tt.ptr<E> -> tensor<64x64x!tt.ptr<E>, #D>
    %ob = tt.addptr %op, %b_off : tensor<64x64x!tt.ptr<E>, #D>, tensor<64x64xi32, #D>
    tt.store %ob, %y : tensor<64x64x!tt.ptr<E>, #D>`)
			src = aliases + fmt.Sprintf(`
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:%d", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%%in: !tt.ptr<%s>, %%out: !tt.ptr<%s>) {`, c.cc, c.elem, c.elem) + body + `
    tt.return
  }
}
`
			eb := map[string]int{"i8": 1, "i16": 2, "i32": 4}[c.elem]
			for _, alloc := range []bool{false, true} {
				res := lowerSource(t, src, "matrix.mlir", alloc)
				ll := res.Module.String()
				for _, w := range c.want {
					if !strings.Contains(ll, w) {
						t.Errorf("alloc=%v: no %s in the lowering", alloc, w)
					}
				}
				if c.want == nil && strings.Contains(ll, "matrix.sync") {
					t.Errorf("alloc=%v: a matrix instruction without a plan for it", alloc)
				}
				mem := make([]byte, 2*m*n*eb)
				for i := 0; i < m*n; i++ {
					v := uint32(i*2654435761) >> 7
					for b := 0; b < eb; b++ {
						mem[i*eb+b] = byte(v >> (8 * b))
					}
				}
				s := newSim(128, mem)
				for _, f := range res.Module.Funcs {
					if f.Name() == "k" {
						s.run(f, []uint64{0, uint64(m * n * eb), 0, 0})
					}
				}
				for i := 0; i < m*n*eb; i++ {
					if mem[m*n*eb+i] != mem[i] {
						t.Fatalf("alloc=%v: element %d: got byte %#x, want %#x", alloc, i/eb, mem[m*n*eb+i], mem[i])
					}
				}
			}
		})
	}
}
