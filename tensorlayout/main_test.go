package tensorlayout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/proc"
)

func run(t testing.TB, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	p := &proc.Proc{Args: args, Dir: dir, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	code = Main(p)
	return out.String(), errb.String(), code
}

const (
	blocked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
	small   = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>"
)

func TestViews(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []string // lines or fragments that must appear, in order
		not  []string
	}{
		{"linear", []string{"-l", blocked, "-t", "tensor<64x64xf16>", "-view", "linear"},
			[]string{"#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>\n"}, nil},
		{"linear-from-type", []string{"-t", "tensor<64x64xf16, " + blocked + ">", "--view=linear"},
			[]string{"#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]]"}, nil},
		{"linear-mma", []string{"-l", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>", "-t", "tensor<64x64xf32>", "-view", "linear"},
			[]string{"#ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>\n"}, nil},
		{"linear-shared", []string{"-l", "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", "-t", "tensor<8x64xf16>", "-view", "linear"},
			[]string{"#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]]}, alignment = 1024>\n"}, nil},
		{"tensor", []string{"-l", small, "-t", "tensor<8x16xf16>"},
			[]string{"Print layout attribute: " + small + "\n[[ T0:0,  T0:1,  T1:0,", "T7:1]\n[  T8:0,  T8:1,", "T15:1]\n[ T16:0, T16:1,", "T63:1]]\n"}, nil},
		{"tensor-broadcast", []string{"-l", small, "-t", "tensor<2x2xf16>"},
			[]string{"[[ T0:0| T1:0| T2:0| T3:0| T4:0| T5:0| T6:0| T7:0|T16:0|", "T55:0,  T0:1| T1:1|", "T55:1]\n[  T8:0| T9:0|T10:0|", "T63:1]]\n"}, nil},
		{"tensor-multicta", []string{"-l", "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0], CGALayout = [[8, 0]]}>", "-t", "tensor<16x16xf16>"},
			[]string{"B0:T0:0", "B1:T0:0"}, nil},
		{"hw", []string{"-l", small, "-t", "tensor<8x16xf16>", "-view", "hw"},
			[]string{"Warp0:\n(0, 0), (0, 2), (0, 4)", "Warp1:\n(4, 0), (4, 2)"}, nil},
		{"hw-triton-flag", []string{"-l", small, "-t", "tensor<8x16xf16>", "-use-hw-view"},
			[]string{"Warp0:\n", "Warp1:\n"}, nil},
		{"shared-tensor", []string{"-l", "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", "-t", "tensor<4x8xf16>"},
			[]string{"[[(0:0),(0:1),(0:2),(0:3),(0:4),(0:5),(0:6),(0:7)]\n[ (1:2),(1:3),(1:0),(1:1),(1:6),(1:7),(1:4),(1:5)]\n"}, nil},
		{"shared-hw", []string{"-l", "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", "-t", "tensor<4x8xf16>", "-view", "hw"},
			[]string{"Block: 0:\nOffset: 0 -> (0,0)\nOffset: 1 -> (0,1)\n", "Offset: 8 -> (1,2)\nOffset: 9 -> (1,3)\nOffset: 10 -> (1,0)\n", "Offset: 31 -> (3,1)\n"}, nil},
		{"json", []string{"-l", small, "-t", "tensor<8x16xf16>", "-view", "json"},
			[]string{`{"layout":"` + small + `","shape":[8,16],"in_dims":[{"name":"register","size":2,"bases":[[0,1]]},{"name":"lane","size":32,"bases":[[0,2],[0,4],[0,8],[1,0],[2,0]]},{"name":"warp","size":2,"bases":[[4,0]]},{"name":"block","size":1,"bases":[]}],"out_dims":[{"name":"dim0","size":8},{"name":"dim1","size":16}]}` + "\n"}, nil},
		{"cute-table", []string{"-l", "(6,4):(4,1)"},
			[]string{"((6, 4):(4, 1))\n       0    1    2    3\n    +----+----+----+----+\n 0  |  0 |  1 |  2 |  3 |\n", " 5  | 20 | 21 | 22 | 23 |\n    +----+----+----+----+\n"}, nil},
		{"cute-linear", []string{"-l", "(8,8):(8,1)", "-view", "linear"},
			[]string{"{mode0 = [[8], [16], [32]], mode1 = [[1], [2], [4]]} -> offset[64]\n"}, nil},
		{"cute-swizzle-linear", []string{"-l", "Sw<1,0,1> o (2,2):(2,1)", "-view", "linear"},
			[]string{"{mode0 = [[3]], mode1 = [[1]]} -> offset[4]\n"}, nil},
		{"cute-json", []string{"-l", "(8,8):(8,1)", "-view", "json"},
			[]string{`{"layout":"(8,8):(8,1)","shape":[8,8],"in_dims":[{"name":"mode0","size":8,"bases":[[8],[16],[32]]},{"name":"mode1","size":8,"bases":[[1],[2],[4]]}],"out_dims":[{"name":"offset","size":64}]}` + "\n"}, nil},
		{"cute-mojo-notation", []string{"-l", "((3, 4):(4, 1))", "-view", "table"},
			[]string{"((3, 4):(4, 1))\n", " 2  |  8 |  9 | 10 | 11 |\n"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := run(t, t.TempDir(), c.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errs)
			}
			rest := out
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("output lacks %q (in order); output:\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			if strings.HasSuffix(c.name, "linear") && strings.Count(out, "\n") != 1 {
				t.Errorf("-view linear printed %d lines", strings.Count(out, "\n"))
			}
		})
	}
}

// TestTritonFormat compares the tensor and hw views with the reference
// strings of Triton's unittest/Dialect/TritonGPU/DumpLayoutTest.cpp, which
// getLayoutStr (and so triton-tensor-layout) prints byte for byte.
func TestTritonFormat(t *testing.T) {
	// Larger2DShared: offset 32r+c holds row r, column c XOR 8·(r/2).
	var larger strings.Builder
	for r := 0; r < 8; r++ {
		if r == 0 {
			larger.WriteString("[[")
		} else {
			larger.WriteString("[ ")
		}
		for c := 0; c < 32; c++ {
			if c > 0 {
				larger.WriteString(",")
			}
			fmt.Fprintf(&larger, "(%d:%2d)", r, c^(8*(r/2)))
		}
		if r == 7 {
			larger.WriteString("]")
		}
		larger.WriteString("]\n")
	}
	for _, c := range []struct {
		name, layout, ty string
		hw               bool
		want             string // the output after the attribute line, or its start when it ends in "…"
	}{
		{"SimpleBlocked", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [8], warpsPerCTA = [4], order = [0]}>", "tensor<4xi32>", false,
			"[ T0:0| T4:0| T8:0|T12:0|T16:0|T20:0|T24:0|T28:0,  T1:0| T5:0| T9:0|T13:0|T17:0|T21:0|T25:0|T29:0,  T2:0| T6:0|T10:0|T14:0|T18:0|T22:0|T26:0|T30:0,  T3:0| T7:0|T11:0|T15:0|T19:0|T23:0|T27:0|T31:0]\n"},
		{"SimpleBlockedHW", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [8], warpsPerCTA = [4], order = [0]}>", "tensor<4xi32>", true,
			"Warp0:\n(0), (1), (2), (3), (0), (1), (2), (3)\nWarp1:\n(0), (1), (2), (3), (0), (1), (2), (3)\nWarp2:\n(0), (1), (2), (3), (0), (1), (2), (3)\nWarp3:\n(0), (1), (2), (3), (0), (1), (2), (3)\n"},
		{"NDTensor", "#ttg.blocked<{sizePerThread = [2, 1, 4], threadsPerWarp = [2, 2, 2], warpsPerCTA = [1, 2, 1], order = [2, 1, 0]}>", "tensor<8x2x16xi32>", false,
			"[[[  T0:0|  T8:0,   T0:1|  T8:1,   T0:2|  T8:2,   T0:3|  T8:3,   T1:0|  T9:0,   T1:1|  T9:1,   T1:2|  T9:2,   T1:3|  T9:3,   T0:8|  T8:8,   T0:9|  T8:9,  T0:10| T8:10,  T0:11| T8:11,   T1:8|  T9:8,   T1:9|  T9:9,  T1:10| T9:10,  T1:11| T9:11]\n" +
				"[    T2:0| T10:0,   T2:1| T10:1,   T2:2| T10:2,   T2:3| T10:3,   T3:0| T11:0,   T3:1| T11:1,   T3:2| T11:2,   T3:3| T11:3,   T2:8| T10:8,   T2:9| T10:9,  T2:10|T10:10,  T2:11|T10:11,   T3:8| T11:8,   T3:9| T11:9,  T3:10|T11:10,  T3:11|T11:11]]\n" +
				"[[   T0:4|  T8:4,   T0:5|  T8:5,   T0:6|  T8:6,   T0:7|  T8:7,   T1:4|  T9:4,   T1:5|  T9:5,   T1:6|  T9:6,   T1:7|  T9:7,  T0:12| T8:12,  T0:13| T8:13,  T0:14| T8:14,  T0:15| T8:15,  T1:12| T9:12,  T1:13| T9:13,  T1:14| T9:14,  T1:15| T9:15]\n…"},
		{"NDTensorHW", "#ttg.blocked<{sizePerThread = [2, 1, 4], threadsPerWarp = [2, 2, 2], warpsPerCTA = [1, 2, 1], order = [2, 1, 0]}>", "tensor<8x2x16xi32>", true,
			"Warp0:\n(0,0, 0), (0,0, 4), (0,1, 0), (0,1, 4), (2,0, 0), (2,0, 4), (2,1, 0), (2,1, 4)\n(0,0, 1), (0,0, 5), (0,1, 1), (0,1, 5), (2,0, 1), (2,0, 5), (2,1, 1), (2,1, 5)\n…"},
		{"Simple1DShared", "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [0]}>", "tensor<32xf16>", false,
			"[( 0),( 1),( 2),( 3),( 4),( 5),( 6),( 7),( 8),( 9),(10),(11),(12),(13),(14),(15),(16),(17),(18),(19),(20),(21),(22),(23),(24),(25),(26),(27),(28),(29),(30),(31)]\n"},
		{"Larger2DShared", "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>", "tensor<8x32xf16>", false, larger.String()},
		{"Larger2DSharedHW", "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 32, order = [1, 0]}>", "tensor<8x32xf16>", true,
			"Block: 0:\nOffset: 0 -> (0, 0)\nOffset: 1 -> (0, 1)\n…"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"-l", c.layout, "-t", c.ty}
			if c.hw {
				args = append(args, "-use-hw-view")
			}
			out, errs, code := run(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			head := "Print layout attribute: " + c.layout + "\n"
			if !strings.HasPrefix(out, head) {
				t.Fatalf("output does not start with %q:\n%s", head, out)
			}
			out = out[len(head):]
			if want, ok := strings.CutSuffix(c.want, "…"); ok {
				if !strings.HasPrefix(out, want) {
					t.Errorf("got\n%s\nwant a start of\n%s", out, want)
				}
			} else if out != c.want {
				t.Errorf("got\n%s\nwant\n%s", out, c.want)
			}
		})
	}
}

// TestSharedHWLines checks the shared hw view's lines against the layout:
// "Offset: o -> (i,j)" for every offset of every block.
func TestSharedHWLines(t *testing.T) {
	out, errs, code := run(t, "", "-l", "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 32, order = [1, 0]}>", "-t", "tensor<8x32xf16>", "-view", "hw")
	if code != 0 {
		t.Fatal(errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2+256 || lines[1] != "Block: 0:" {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	// vec 2, perPhase 1, maxPhase 32: offset 32r+c holds row r, column
	// c XOR 2r (mod 32).
	for o := 0; o < 256; o++ {
		r, c := o/32, o%32
		want := fmt.Sprintf("Offset: %d -> (%d,%2d)", o, r, c^(2*r%32))
		if lines[2+o] != want {
			t.Errorf("line %d = %q, want %q", o, lines[2+o], want)
		}
	}
}

func TestJSONIsValid(t *testing.T) {
	out, errs, code := run(t, "", "-l", "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>", "-t", "tensor<64x64xf16>", "-view", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var v struct {
		InDims []struct {
			Name  string
			Size  int
			Bases [][]int
		} `json:"in_dims"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.InDims) != 4 || v.InDims[2].Name != "warp" || len(v.InDims[2].Bases) != 2 || v.InDims[2].Bases[0][1] != 0 {
		t.Errorf("unexpected JSON: %s", out)
	}
}

func TestAliasFile(t *testing.T) {
	dir := t.TempDir()
	defs := "#blocked = " + small + "\n#loc = loc(\"x.py\":1:2)\n#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>\n#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>\nmodule {}\n"
	if err := os.WriteFile(filepath.Join(dir, "defs.mlir"), []byte(defs), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := run(t, dir, "-i", "defs.mlir", "-l", "#dot", "-t", "tensor<64x64xf16>", "-view", "linear")
	if code != 0 || out != "#ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [32, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 0], [16, 0]], block = []}>\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = run(t, dir, "-l", "defs.mlir#mma", "-t", "tensor<64x64xf32>", "-view", "linear")
	if code != 0 || !strings.HasPrefix(out, "#ttg.linear<{register = [[0, 1], [8, 0], [0, 16], [0, 32], [32, 0]]") {
		t.Errorf("-l FILE#name: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = run(t, dir, "-i", filepath.Join(dir, "defs.mlir"), "-alias-names", "blocked,mma", "-t", "tensor<16x16xf16>")
	if code != 0 || strings.Count(out, "Print layout attribute: ") != 2 || !strings.Contains(out, "#ttg.nvidia_mma") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// As Triton's tool: each alias is named, and followed by an empty line.
	if !strings.HasPrefix(out, "Print layout attribute: #blocked = "+small+"\n[[") ||
		!strings.Contains(out, "]]\n\nPrint layout attribute: #mma = #ttg.nvidia_mma<{") || !strings.HasSuffix(out, "]]\n\n") {
		t.Errorf("-alias-names headers: stdout %q", out)
	}
	// -i alone: every layout alias in turn (#loc skipped), no empty lines.
	out, errs, code = run(t, dir, "-i", "defs.mlir", "-t", "tensor<16x16xf16>")
	if code != 0 || strings.Count(out, "Print layout attribute: #") != 3 || strings.Contains(out, "\n\n") ||
		!strings.HasPrefix(out, "Print layout attribute: #blocked = ") || !strings.Contains(out, "\nPrint layout attribute: #dot = #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{") {
		t.Errorf("-i alone: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// Nothing is printed unless every alias can be.
	if err := os.WriteFile(filepath.Join(dir, "more.mlir"), []byte(defs+"#smem = #ttg.shared_memory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = run(t, dir, "-i", "more.mlir", "-alias-names", "blocked,smem", "-t", "tensor<16x16xf16>")
	if code != 1 || out != "" || !strings.Contains(errs, "is a memory space, not a layout") {
		t.Errorf("failing alias: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.mlir"), []byte("#a = "+small+"\n#b = #ttg.blocked<{sizePerThread = [1, 2], order = [1, 0]}>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"bad-field", []string{"-l", "#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>", "-t", "tensor<8x16xf16>"},
			"-l:1:15: error: sizePerThread[1] = 3 is not a power of two\n#ttg.blocked<{sizePerThread = [1, 3]"},
		{"bad-order", []string{"-l", "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [0, 0]}>", "-t", "tensor<8x16xf16>"},
			"error: order [0, 0] is not a permutation of 0..1"},
		{"unknown-attr", []string{"-l", "#ttg.foo<{}>", "-t", "tensor<8x16xf16>"}, "-l:1:1: error: unknown attribute #ttg.foo"},
		{"trailing", []string{"-l", small + " junk", "-t", "tensor<8x16xf16>"}, "error: unexpected \"junk\" after the attribute"},
		{"bad-type", []string{"-l", small, "-t", "tensor<8x?xf16>"}, "-t:1:10: error: dynamic dimensions ('?') are not supported"},
		{"not-tensor", []string{"-l", small, "-t", "memref<8xf16>"}, "-t:1:1: error: expected a tensor type such as tensor<64x64xf16>"},
		{"no-elem", []string{"-l", small, "-t", "tensor<8x16x>"}, "error: expected an element type such as f16"},
		{"rank", []string{"-l", small, "-t", "tensor<8x16x4xf16>"}, "error: shape [8, 16, 4] has rank 3, but the layout"},
		{"non-pow2-shape", []string{"-l", small, "-t", "tensor<8x12xf16>"}, "every dimension must be a power of two"},
		{"missing-type", []string{"-l", small}, "error: missing -t TYPE"},
		{"missing-layout", []string{"-t", "tensor<8x16xf16>"}, "error: missing -l ATTR"},
		{"memory-space", []string{"-l", "#ttg.shared_memory", "-t", "tensor<8x16xf16>"}, "is a memory space, not a layout"},
		{"bad-view", []string{"-l", small, "-t", "tensor<8x16xf16>", "-view", "grid"}, "error: unknown view \"grid\""},
		{"table-for-attr", []string{"-l", small, "-t", "tensor<8x16xf16>", "-view", "table"}, "-view table is for CuTe layouts"},
		{"undefined-alias", []string{"-l", "#blocked", "-t", "tensor<8x16xf16>"}, "-l:1:1: error: undefined attribute alias #blocked"},
		{"bad-alias-file", []string{"-i", "bad.mlir", "-alias-names", "a", "-t", "tensor<8x16xf16>"}, "bad.mlir:2:6: error: "},
		{"missing-file", []string{"-i", "nope.mlir", "-l", "#a", "-t", "tensor<8x16xf16>"}, "nope.mlir"},
		{"bad-flag", []string{"-frobnicate"}, "flag provided but not defined: -frobnicate"},
		{"cute-syntax", []string{"-l", "(6,4:(4,1)"}, "-l:1:5: error: expected ',' or ')'"},
		{"cute-not-linear", []string{"-l", "(6,4):(4,1)", "-view", "linear"}, "has no linear form"},
		{"cute-bad-view", []string{"-l", "(6,4):(4,1)", "-view", "hw"}, "-view hw is not available for CuTe layouts"},
		{"cute-rank3-table", []string{"-l", "(2,2,2):(1,2,4)"}, "rank-2"},
		{"too-large", []string{"-l", blocked, "-t", "tensor<1024x1024xf16>"}, "too large to print"},
		{"tmem-linear", []string{"-l", "#ttng.tensor_memory_encoding<blockM = 64, blockN = 8, colStride = 1>", "-t", "tensor<64x8xf32>", "-view", "linear"}, "have no #ttg.linear form"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := run(t, dir, c.args...)
			if code != 1 {
				t.Errorf("exit %d, want 1 (stdout %q)", code, out)
			}
			if !strings.Contains(errs, c.want) {
				t.Errorf("stderr %q does not contain %q", errs, c.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	_, errs, code := run(t, "", "-h")
	if code != 0 || !strings.Contains(errs, "usage: tensor-layout") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestParseTensorType(t *testing.T) {
	for _, c := range []struct {
		in    string
		shape []int
		elem  string
		enc   string
	}{
		{"tensor<64x64xf16>", []int{64, 64}, "f16", ""},
		{" tensor<128xi32, #blocked> ", []int{128}, "i32", "#blocked"},
		{"tensor<4x8x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #b}>>", []int{4, 8}, "!tt.ptr<f16>", "#ttg.slice<{dim = 1, parent = #b}>"},
		{"!ttg.memdesc<64x64xf16, #shared, #smem>", []int{64, 64}, "f16", "#shared"},
		{"!ttg.memdesc<2x64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory, mutable, 3x64x64>", []int{2, 64, 64}, "f16", "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"},
	} {
		tt, err := parseTensorType(c.in)
		if err != nil || !slices.Equal(tt.shape, c.shape) || tt.elem != c.elem || tt.encoding != c.enc {
			t.Errorf("parseTensorType(%q) = %+v, %v", c.in, tt, err)
		}
	}
}

// TestParseTensorTypeEncodingOffset checks that the encoding's offset
// points at it in the -t text, leading blanks included.
func TestParseTensorTypeEncodingOffset(t *testing.T) {
	for _, in := range []string{
		"tensor<8xf32, #blocked>",
		"  tensor<8x!tt.ptr<f16>,   #ttg.slice<{dim = 1, parent = #b}>>",
		"!ttg.memdesc<8x16xf16, #shared, #smem, mutable>",
	} {
		tt, err := parseTensorType(in)
		if err != nil {
			t.Fatalf("parseTensorType(%q): %v", in, err)
		}
		if got := in[tt.encOff : tt.encOff+len(tt.encoding)]; got != tt.encoding {
			t.Errorf("parseTensorType(%q): encoding %q at %d holds %q", in, tt.encoding, tt.encOff, got)
		}
	}
}

func TestParseTensorTypeErrors(t *testing.T) {
	for _, c := range []struct {
		in  string
		off int
		msg string
	}{
		{"tensor<8x16f16>", 11, "expected 'x' after the dimension 16"},
		{"tensor<8x16>", 11, "expected 'x' after the dimension 16"},
		{"tensor<8f16>", 8, "expected 'x' after the dimension 8"},
		{"tensor<8xf32, #a, #b>", 16, `unexpected ", #b" after the encoding`},
		{"tensor<8xf32, >", 14, "expected an encoding attribute after ','"},
	} {
		_, err := parseTensorType(c.in)
		te, ok := err.(*typeError)
		if !ok || te.Offset != c.off || te.Msg != c.msg {
			t.Errorf("parseTensorType(%q) = %v (%#v), want offset %d %q", c.in, err, te, c.off, c.msg)
		}
	}
}

// TestFixedErrors pins the fixes of reported bugs: each error is located
// where it is and says what is wrong.
func TestFixedErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "defs.mlir"), []byte("#a = "+small+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := "#ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
	for _, c := range []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"type-encoding-column", []string{"-t", "tensor<8xf32, " + bad + ">"},
			"-t:1:29: error: sizePerThread[0] = 3 is not a power of two\ntensor<8xf32, " + bad + ">\n" + strings.Repeat(" ", 28) + "^\n"},
		{"type-encoding-trailing", []string{"-t", "tensor<8xf32, #a junk>", "-i", "defs.mlir"},
			"-t:1:18: error: unexpected \"junk\" after the attribute\ntensor<8xf32, #a junk>\n" + strings.Repeat(" ", 17) + "^\n"},
		{"missing-x", []string{"-l", small, "-t", "tensor<8x16f16>"},
			"-t:1:12: error: expected 'x' after the dimension 16\ntensor<8x16f16>\n" + strings.Repeat(" ", 11) + "^\n"},
		{"trailing-column", []string{"-l", small + " junk", "-t", "tensor<8x16xf16>"},
			"-l:1:" + strconv.Itoa(len(small)+2) + ": error: unexpected \"junk\" after the attribute\n" + small + " junk\n" + strings.Repeat(" ", len(small)+1) + "^\n"},
		{"leading-blanks", []string{"-l", "  " + small[:len(small)-2], "-t", "tensor<8x16xf16>"},
			"-l:1:" + strconv.Itoa(len(small)+1) + ": error: expected ',' or '}', found end of input\n  " + small[:len(small)-2] + "\n" + strings.Repeat(" ", len(small)) + "^\n"},
		{"missing-alias-file", []string{"-l", "nope.mlir#a", "-t", "tensor<8x16xf16>"},
			"tensor-layout: error: cannot read the alias file nope.mlir: no such file or directory\n"},
		{"alias-file-and-i", []string{"-i", "defs.mlir", "-l", "defs.mlir#a", "-t", "tensor<8x16xf16>"},
			"tensor-layout: error: -l defs.mlir#a names an alias file, and so does -i defs.mlir; give -l '#a' with -i\n"},
		{"empty-alias-name", []string{"-i", "defs.mlir", "-alias-names", "a,,a", "-t", "tensor<8x16xf16>"},
			"-alias-names:1:3: error: expected an alias name (names are separated by single commas)\na,,a\n  ^\n"},
		{"empty-alias-name-last", []string{"-i", "defs.mlir", "-alias-names", "a, ", "-t", "tensor<8x16xf16>"},
			"-alias-names:1:4: error: expected an alias name (names are separated by single commas)\na, \n   ^\n"},
		{"lone-hash-alias-name", []string{"-i", "defs.mlir", "-alias-names", "a,#", "-t", "tensor<8x16xf16>"},
			"-alias-names:1:3: error: expected an alias name (names are separated by single commas)\na,#\n  ^\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := run(t, dir, c.args...)
			if code != 1 || out != "" || errs != c.want {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant   %q", code, out, errs, c.want)
			}
		})
	}
}

// TestMemdescEncoding: with no -l, a memdesc's own encoding is used, its
// memory space and the rest skipped.
func TestMemdescEncoding(t *testing.T) {
	nvmma := "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>"
	want := "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8]]}, alignment = 256>\n"
	for _, ty := range []string{
		"!ttg.memdesc<8x16xf16, " + nvmma + ", #ttg.shared_memory>",
		"!ttg.memdesc<8x16xf16, " + nvmma + ", #ttg.shared_memory, mutable>",
		"!ttg.memdesc<8x16xf16, " + nvmma + ", #smem, mutable, 2x8x16>",
	} {
		out, errs, code := run(t, "", "-t", ty, "-view", "linear")
		if code != 0 || out != want {
			t.Errorf("-t %s: exit %d, stdout %q, stderr %q", ty, code, out, errs)
		}
	}
}

func FuzzParseTensorType(f *testing.F) {
	for _, s := range []string{"tensor<64x64xf16>", "tensor<8x!tt.ptr<f16>, #blocked>", "!ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>", "tensor<x>", "tensor<?x4xf32>", "tensor<8x16f16>", "tensor<8xf32, #a<{b = [1, 2]}>, #c>", "!ttg.memdesc<8xf16, #ttg.blocked<{order = [0]}>, #smem, mutable, 2x8>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tt, err := parseTensorType(s)
		if err != nil {
			if te, ok := err.(*typeError); !ok || te.Offset < 0 || te.Offset > len(s) {
				t.Fatalf("parseTensorType(%q): bad error %v", s, err)
			}
			return
		}
		for _, d := range tt.shape {
			if d <= 0 {
				t.Fatalf("parseTensorType(%q): shape %v", s, tt.shape)
			}
		}
		if tt.encoding != "" && (tt.encOff < 0 || tt.encOff+len(tt.encoding) > len(s) || s[tt.encOff:tt.encOff+len(tt.encoding)] != tt.encoding) {
			t.Fatalf("parseTensorType(%q): encoding %q not at offset %d", s, tt.encoding, tt.encOff)
		}
	})
}

// TestOracleLinearView runs the tool with -view linear on every row of
// Triton 3.6's toLinearLayout oracle and compares the line exactly.
func TestOracleLinearView(t *testing.T) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Skip("module root not found")
		}
		dir = filepath.Dir(dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, "..", "shared", "triton36", "oracles", "to_linear_layout.jsonl"))
	if err != nil {
		t.Skip(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row struct {
			Layout, Linear string
			Shape          []int
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		dims := make([]string, len(row.Shape))
		for i, s := range row.Shape {
			dims[i] = strconv.Itoa(s)
		}
		ty := "tensor<" + strings.Join(dims, "x") + "xf16>"
		out, errs, code := run(t, "", "-l", row.Layout, "-t", ty, "-view", "linear")
		if code != 0 || out != row.Linear+"\n" {
			t.Errorf("%s on %s: exit %d\n got %q\nwant %q\n%s", row.Layout, ty, code, out, row.Linear, errs)
		}
		n++
	}
	t.Logf("%d oracle rows printed exactly", n)
}
