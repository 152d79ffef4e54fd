package tensorlayout

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/linear"
)

var update = flag.Bool("update", false, "rewrite the golden SVGs under testdata/svg")

const (
	mma2     = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
	rowsF32  = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
	colsF32  = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>"
	regF16   = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
	swizzled = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
	flatRows = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
	smallT   = "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>"
)

// goldenCases are the SVGs checked byte for byte against testdata/svg.
var goldenCases = []struct {
	name string
	args []string
}{
	{"blocked", []string{"-l", small, "-t", "tensor<8x16xf16>"}},
	{"broadcast", []string{"-l", small, "-t", "tensor<4x4xf16>"}},
	{"mma-rank3-slice", []string{"-l", "#ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>}>", "-t", "tensor<4x8xf16>"}},
	{"rank3", []string{"-l", "#ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>", "-t", "tensor<2x8x8xf16>"}},
	{"mma-large", []string{"-l", mma2, "-t", "tensor<256x256xf32>"}},
	{"shared-swizzled", []string{"-l", swizzled, "-t", "tensor<8x64xf16>"}},
	{"banks", []string{"-l", rowsF32, "-shared", flatRows, "-t", "tensor<16x32xf32>"}},
	{"conversion", []string{"-l", small, "-to", smallT, "-t", "tensor<8x16xf16>"}},
	{"cute", []string{"-l", "((2,4),(2,3)):((1,8),(2,32))"}},
}

func svgOf(t *testing.T, args ...string) []byte {
	t.Helper()
	out, errs, code := run(t, t.TempDir(), append(args, "-view", "svg")...)
	if code != 0 {
		t.Fatalf("%v: status %d: %s", args, code, errs)
	}
	return []byte(out)
}

func TestSVGGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			got := svgOf(t, c.args...)
			if again := svgOf(t, c.args...); !bytes.Equal(got, again) {
				t.Fatal("two runs gave different SVGs")
			}
			path := filepath.Join("testdata", "svg", c.name+".svg")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./tensorlayout -run TestSVGGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the output (%d vs %d bytes); if the change is meant, rerun with -update", path, len(want), len(got))
			}
		})
	}
}

// svgStats parses an SVG with encoding/xml (failing on malformed XML) and
// returns its labelled cells (<g> holding a <rect> and a label), the
// distinct fills of those cells, and the <svg> width and height.
type svgStats struct {
	cells         int
	fills         map[string]int
	texts         []string
	outlined      int
	width, height string
}

func parseSVG(t *testing.T, data []byte) svgStats {
	t.Helper()
	st := svgStats{fills: map[string]int{}}
	d := xml.NewDecoder(bytes.NewReader(data))
	depth, inG := 0, false
	var inText bool
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			depth++
			attr := func(n string) string {
				for _, a := range e.Attr {
					if a.Name.Local == n {
						return a.Value
					}
				}
				return ""
			}
			switch e.Name.Local {
			case "svg":
				if depth == 1 {
					st.width, st.height = attr("width"), attr("height")
					if e.Name.Space != "http://www.w3.org/2000/svg" {
						t.Errorf("svg namespace %q", e.Name.Space)
					}
				}
			case "g":
				inG = true
			case "rect":
				if inG {
					st.cells++
					st.fills[attr("fill")]++
				} else if attr("fill") == "none" && attr("stroke-width") == "2.5" {
					st.outlined++
				}
			case "text":
				inText = true
			}
		case xml.EndElement:
			depth--
			if e.Name.Local == "g" {
				inG = false
			}
			if e.Name.Local == "text" {
				inText = false
			}
		case xml.CharData:
			if inText {
				st.texts = append(st.texts, string(e))
			}
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced elements (depth %d at the end)", depth)
	}
	return st
}

func TestSVGWellFormed(t *testing.T) {
	for _, c := range []struct {
		name          string
		args          []string
		cells, colour int      // labelled cells and their distinct fills
		outlined      int      // highlighted cells
		texts         []string // texts that must appear
	}{
		// 8×16, two warps: 128 cells in 2 colours.
		{"blocked", []string{"-l", small, "-t", "tensor<8x16xf16>"}, 128, 2, 0, []string{"T0:R0", "T31:R1", "warp 0", "warp 1"}},
		// 4 warps of an mma v2 on 32×32 (2×2 warps of 16×8).
		{"mma", []string{"-l", mma2, "-t", "tensor<32x16xf32>"}, 512, 4, 0, []string{"T0:R0", "T31:R3", "warp 3"}},
		// broadcast: 16 elements, each held 8 times: a note, no badges.
		{"broadcast", []string{"-l", small, "-t", "tensor<4x4xf16>"}, 16, 1, 0, []string{"broadcast: every element is held by 8 locations"}},
		// shared: 16×64 f16 offsets, the banks of 2-element words: 32 colours.
		{"shared", []string{"-l", swizzled, "-t", "tensor<16x64xf16>"}, 1024, 32, 0, []string{"0", "1023", "bank 7", "bank 24"}},
		// one access of 128 bits per lane: 32 lanes × 4 elements outlined;
		// row-major unswizzled rows conflict once (smem's example): two
		// wavefronts for each quarter warp.
		{"banks-conflict", []string{"-l", rowsF32, "-shared", flatRows, "-t", "tensor<32x32xf32>"}, 1024, 32, 128, []string{"L0", "L31", "bank conflicts (smem.BankConflicts, excess wavefronts per instruction): 1", "4 lane group(s) of 8 lanes, 8 wavefront(s)"}},
		{"banks-swizzled", []string{"-l", regF16, "-shared", swizzled, "-t", "tensor<32x64xf16>"}, 2048, 32, 256, []string{"excess wavefronts per instruction): 0", "4 wavefront(s)"}},
		// a conversion: 3 panels of 1024 cells; the 4 warp colours of
		// source and destination, and 4 kinds of moves (some elements stay).
		{"conversion", []string{"-l", rowsF32, "-to", colsF32, "-t", "tensor<32x32xf32>"}, 3072, 4 + 4, 0, []string{"lowering (smem.Classify): shared memory", "scratch 4096 bytes", "another warp", "class: shared memory"}},
		{"no-op", []string{"-l", rowsF32, "-to", rowsF32, "-t", "tensor<32x32xf32>"}, 3072, 4 + 1, 0, []string{"lowering (smem.Classify): no-op", "stays (same thread, same register)"}},
		// CuTe: 8×6 cells shaded by offset mod 8 (0–3 here).
		{"cute", []string{"-l", "((2,4),(2,3)):((1,8),(2,32))"}, 48, 4, 0, []string{"(((2, 4), (2, 3)):((1, 8), (2, 32)))", "91"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := parseSVG(t, svgOf(t, c.args...))
			if st.cells != c.cells {
				t.Errorf("%d cells, want %d", st.cells, c.cells)
			}
			if len(st.fills) != c.colour {
				t.Errorf("%d colours %v, want %d", len(st.fills), st.fills, c.colour)
			}
			if st.outlined != c.outlined {
				t.Errorf("%d outlined cells, want %d", st.outlined, c.outlined)
			}
			all := strings.Join(st.texts, "\n")
			for _, w := range c.texts {
				if !strings.Contains(all, w) {
					t.Errorf("no text %q", w)
				}
			}
		})
	}
}

func TestSVGLarge(t *testing.T) {
	// 256×256: merged into 128×128 blocks of 2×2, with a note, small.
	for _, l := range []string{mma2, colsF32, "#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>"} {
		start := time.Now()
		out := svgOf(t, "-l", l, "-t", "tensor<256x256xf32>")
		el := time.Since(start)
		st := parseSVG(t, out)
		if st.cells != 0 {
			t.Errorf("%s: %d labelled cells on 256×256", l, st.cells)
		}
		if !strings.Contains(strings.Join(st.texts, "\n"), "each cell is a block of 2×2 elements") {
			t.Errorf("%s: no note on merged cells", l)
		}
		if len(out) > 2<<20 {
			t.Errorf("%s: %d bytes, over 2 MB", l, len(out))
		}
		t.Logf("%s: %d bytes in %v", l, len(out), el)
	}
}

func BenchmarkSVG256(b *testing.B) {
	b.ReportAllocs()
	for _, c := range []struct{ name, l string }{{"mma", mma2}, {"blocked", colsF32}, {"shared", swizzled}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				out, errs, code := run(b, b.TempDir(), "-l", c.l, "-t", "tensor<256x256xf32>", "-view", "svg")
				if code != 0 {
					b.Fatal(errs)
				}
				size = len(out)
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}

// The wavefronts the picture draws, counted bank by bank, agree with
// smem.BankConflicts.
func TestInstructionMatchesBankConflicts(t *testing.T) {
	for _, c := range []struct{ reg, shared, ty string }{
		{rowsF32, flatRows, "tensor<32x32xf32>"},
		{regF16, flatRows, "tensor<32x64xf16>"},
		{regF16, swizzled, "tensor<32x64xf16>"},
		{colsF32, flatRows, "tensor<32x32xf32>"},
		{mma2, "#ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>", "tensor<64x64xf32>"},
	} {
		tt, _ := parseTensorType(c.ty)
		r, s := mustLinear(t, c.reg, tt.shape), mustLinear(t, c.shared, tt.shape)
		bw := elemBits(tt.elem)
		a, err := instruction(r, s, tt.shape, bw)
		if err != nil {
			t.Fatal(err)
		}
		if a.maxDirect != a.conflicts {
			t.Errorf("%s on %s: %d excess wavefronts counted by bank, smem.BankConflicts %d", c.reg, c.shared, a.maxDirect, a.conflicts)
		}
		if a.wavefronts != a.groups*(a.conflicts+1) {
			t.Errorf("%s on %s: %d wavefronts for %d groups and %d conflicts", c.reg, c.shared, a.wavefronts, a.groups, a.conflicts)
		}
	}
}

func mustLinear(t *testing.T, text string, shape []int) linear.Layout {
	t.Helper()
	enc, _, err := attr.Parse(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := enc.(attr.Layout).ToLinear(shape)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// -target plans a conversion for a GPU: at cc90 the transpose of a 32x32
// f32 tile stores with stmatrix in two rounds of 2 KiB; by default
// (Triton's generic plan) with st.shared in one round of 4 KiB.
func TestConversionTarget(t *testing.T) {
	src := "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
	dst := "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>"
	for _, tc := range []struct {
		target []string
		want   string
	}{
		{nil, "scratch 4096 bytes in 1 round(s); store st.shared ×2 (0 conflicts), load ld.shared ×2 (0 conflicts)"},
		{[]string{"-target", "cuda:90"}, "scratch 2048 bytes in 2 round(s); store stmatrix ×4 (0 conflicts), load ld.shared ×4 (0 conflicts)"},
		{[]string{"-target", "90"}, "store stmatrix ×4"},
	} {
		args := append([]string{"-l", src, "-to", dst, "-t", "tensor<32x32xf32>", "-view", "svg"}, tc.target...)
		out, errs, code := run(t, ".", args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: status %d, %s; output lacks %q", tc.target, code, errs, tc.want)
		}
	}
	for _, bad := range [][]string{
		{"-l", src, "-to", dst, "-t", "tensor<32x32xf32>", "-view", "svg", "-target", "sm90"},
		{"-l", src, "-t", "tensor<32x32xf32>", "-view", "svg", "-target", "cuda:90"},
	} {
		if _, errs, code := run(t, ".", bad...); code != 1 || !strings.Contains(errs, "-target") {
			t.Errorf("%v: status %d, stderr %q", bad, code, errs)
		}
	}
}

// The 32 bank colours are distinct hex colours; neighbouring banks take
// different palette colours, and the banks that share one differ in
// lightness by a clear step.
func TestBankColours(t *testing.T) {
	seen := map[string]int{}
	lum := func(c string) float64 {
		v, err := strconv.ParseUint(c[1:], 16, 32)
		if err != nil || len(c) != 7 {
			t.Fatalf("bank colour %q is not #RRGGBB", c)
		}
		return 0.299*float64(v>>16&0xff) + 0.587*float64(v>>8&0xff) + 0.114*float64(v&0xff)
	}
	for b := 0; b < 32; b++ {
		c := bankColour(b)
		if o, ok := seen[c]; ok {
			t.Errorf("banks %d and %d share %s", o, b, c)
		}
		seen[c] = b
		if b%8 == 7 {
			continue
		}
		if bankPalette[b%8] == bankPalette[(b+1)%8] {
			t.Errorf("banks %d and %d share a palette colour", b, b+1)
		}
	}
	for b := 0; b < 8; b++ {
		for i := 0; i < 4; i++ {
			for j := i + 1; j < 4; j++ {
				if d := math.Abs(lum(bankColour(b+8*i)) - lum(bankColour(b+8*j))); d < 25 {
					t.Errorf("banks %d and %d: lightness differs by %.0f only", b+8*i, b+8*j, d)
				}
			}
		}
	}
}
