package passes

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

func kernelOf(t *testing.T, m *ir.Module) *ir.Operation {
	t.Helper()
	for _, op := range m.Body().Ops() {
		if op.Name() == "tt.func" {
			return op
		}
	}
	t.Fatal("no tt.func")
	return nil
}

// sharedKernel parses dir/file.ttgir (named file in positions), skipping
// the test when the shared data is not there.
func sharedKernel(t *testing.T, dir, file string) *ir.Module {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, file+".ttgir"))
	if err != nil {
		t.Skipf("shared data: %v", err)
	}
	m, d := ir.Parse(src, ir.ParseConfig{Filename: file})
	if d.HasErrors() {
		t.Fatalf("%s: %v", file, d)
	}
	return m
}

// TestDecideProgramOrderTriton reads the decision off Triton 3.6's own
// TTGIR: the 2-D tile copies store along pid y (y fastest), the transposes
// along pid x (launch order), the matmul has a dot.
func TestDecideProgramOrderTriton(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "triton36", "ttgir")
	for _, c := range []struct {
		file string
		want string
	}{
		{"jit_copy2d_64x64_w4_f16", "y fastest (stores move by 128 bytes with y, a runtime stride with x)"},
		{"copy2d_64x64_sm90_w4", "y fastest (stores move by 256 bytes with y, a runtime stride with x)"},
		{"transpose_64x64_f16_sm80_w4", "launch order (a store at transpose_64x64_f16_sm80_w4:48:5 moves with program id y by a step not known at compile time)"},
		{"jit_transpose_64x64_w4_f32", "launch order (a store at jit_transpose_64x64_w4_f32:48:5 moves with program id y by a step not known at compile time)"},
		{"matmul_64x64x32_f16_sm80_w4", "launch order (it has tt.dot)"},
		{"add_b1024_sm90_w4", "launch order (it does not read program id y)"},
	} {
		m := sharedKernel(t, dir, c.file)
		if got := DecideProgramOrder(kernelOf(t, m)).String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.file, got, c.want)
		}
	}
}

// A kernel whose program (x, y) writes x*1000+y to out[x*nyp + y]: every
// program writes its own element, so the output shows the numbering is a
// permutation of the grid (a program run twice, or never, leaves a zero).
const orderKernel = `#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%out: !tt.ptr<i32>, %stride: i32) {
    %x = tt.get_program_id x : i32
    %c1000 = arith.constant 1000 : i32
    %v0 = arith.muli %x, %c1000 : i32
    %y = tt.get_program_id y : i32
    %v = arith.addi %v0, %y : i32
    %row = arith.muli %x, %stride : i32
    %off = arith.addi %row, %y : i32
    %p = tt.addptr %out, %off : !tt.ptr<i32>, i32
    tt.store %p, %v : !tt.ptr<i32>
    tt.return
  }
}
`

func runOrderKernel(t *testing.T, m *ir.Module, nx, ny int) []int64 {
	t.Helper()
	out, err := interp.NewBuffer(ir.I32, nx*ny)
	if err != nil {
		t.Fatal(err)
	}
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(out), interp.IntArg(int64(ny))}, [3]int{nx, ny, 1}); err != nil {
		t.Fatal(err)
	}
	vals := make([]int64, nx*ny)
	for i := range vals {
		vals[i] = out.Int(i)
	}
	return vals
}

func TestOrderProgramsPermutes(t *testing.T) {
	m, d := ir.Parse([]byte(orderKernel), ir.ParseConfig{})
	if d.HasErrors() {
		t.Fatal(d)
	}
	after, _ := ir.Parse([]byte(orderKernel), ir.ParseConfig{})
	dec := OrderPrograms(kernelOf(t, after))
	if !dec.YFastest || dec.Why != "stores move by 4 bytes with y, a runtime stride with x" {
		t.Fatalf("decision %s", dec)
	}
	if d := ir.Verify(after); d.HasErrors() {
		t.Fatalf("after the pass: %v\n%s", d, after)
	}
	if n := strings.Count(after.String(), "tt.get_program_id"); n != 2 {
		t.Errorf("%d reads of program ids after the pass, want 2 (x and y once):\n%s", n, after)
	}
	for _, g := range [][2]int{{1, 1}, {3, 5}, {5, 3}, {4, 4}, {1, 7}, {7, 1}, {6, 10}} {
		want := runOrderKernel(t, m, g[0], g[1])
		for i, v := range want {
			if v != int64(i/g[1]*1000+i%g[1]) {
				t.Fatalf("grid %v before the pass: out[%d] = %d", g, i, v)
			}
		}
		got := runOrderKernel(t, after, g[0], g[1])
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("grid %v: after the pass %v, want %v", g, got, want)
		}
	}
}

// TestOrderProgramsLeavesAlone: kernels the pass must not renumber.
func TestOrderProgramsLeavesAlone(t *testing.T) {
	for _, c := range []struct{ name, from, to, why string }{
		{"x-contiguous", "%row = arith.muli %x, %stride : i32\n    %off = arith.addi %row, %y : i32",
			"%row = arith.muli %y, %stride : i32\n    %off = arith.addi %row, %x : i32", "moves with program id y by a step not known at compile time"},
		{"both constant, x smaller", "%row = arith.muli %x, %stride : i32\n    %off = arith.addi %row, %y : i32",
			"%row = arith.muli %y, %c1000 : i32\n    %off = arith.addi %row, %x : i32", "moves by 4 bytes with program id x and 4000 with y"},
		{"volatile load", "tt.store %p, %v : !tt.ptr<i32>", "%w = tt.load %p {isVolatile = true} : !tt.ptr<i32>\n    tt.store %p, %w : !tt.ptr<i32>", "it has a volatile tt.load"},
		{"atomic", "tt.store %p, %v : !tt.ptr<i32>", "%r = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32", "it has tt.atomic_rmw"},
		{"no y", "%v = arith.addi %v0, %y : i32\n    %row = arith.muli %x, %stride : i32\n    %off = arith.addi %row, %y : i32",
			"%v = arith.addi %v0, %v0 : i32\n    %off = arith.muli %x, %stride : i32", "does not read program id y"},
	} {
		src := strings.Replace(orderKernel, c.from, c.to, 1)
		if c.name == "no y" { // and no read of it
			src = strings.Replace(src, "%y = tt.get_program_id y : i32\n", "", 1)
		}
		m, d := ir.Parse([]byte(src), ir.ParseConfig{})
		if d.HasErrors() {
			t.Fatalf("%s: %v", c.name, d)
		}
		dec := DecideProgramOrder(kernelOf(t, m))
		if dec.YFastest || !strings.Contains(dec.Why, c.why) {
			t.Errorf("%s: %s, want launch order (%s)", c.name, dec, c.why)
		}
	}
}

// TestOrderProgramsCallee: a function another calls runs with its caller's
// numbering, so it is not renumbered on its own, whatever it stores (nor
// is its caller, which has a tt.call).
func TestOrderProgramsCallee(t *testing.T) {
	src := strings.Replace(orderKernel, "  tt.func public @k(", `  tt.func public @outer(%out: !tt.ptr<i32>, %stride: i32) {
    tt.call @k(%out, %stride) : (!tt.ptr<i32>, i32) -> ()
    tt.return
  }
  tt.func public @k(`, 1)
	m, d := ir.Parse([]byte(src), ir.ParseConfig{})
	if d.HasErrors() {
		t.Fatal(d)
	}
	want := map[string]string{"outer": "launch order (it has tt.call)", "k": "launch order (not a kernel: tt.call calls it)"}
	for _, op := range m.Body().Ops() {
		name := op.Attr("sym_name").(*ir.StringAttr).Value
		if got := OrderPrograms(op).String(); got != want[name] {
			t.Errorf("@%s: %s, want %s", name, got, want[name])
		}
	}
	if strings.Contains(m.String(), "get_num_programs") {
		t.Errorf("renumbered:\n%s", m)
	}
}
