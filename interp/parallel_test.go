package interp_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// launchCase is a kernel with a launch: buffer sizes (elements) and
// scalars by parameter name, and the grid.
type launchCase struct {
	file    string // under ../shared, or a path under the module (testdata)
	bufs    map[string]int
	scalars map[string]int64
	floats  map[string]float64
	grid    [3]int
}

var parallelCases = []launchCase{
	{file: "triton36/ttgir/add_b1024_sm90_w4.ttgir", grid: [3]int{37, 1, 1},
		bufs: map[string]int{"x": 37000, "y": 37000, "z": 37000}, scalars: map[string]int64{"n": 36999}},
	{file: "triton36/ttgir/softmax_b1024_sm90_w4.ttgir", grid: [3]int{24, 1, 1},
		bufs:    map[string]int{"out": 24 * 1024, "inp": 24 * 1024},
		scalars: map[string]int64{"istride": 1024, "ostride": 1024, "n_cols": 1000}},
	{file: "triton36/ttgir/transpose_64x64_f32_sm90_w4.ttgir", grid: [3]int{3, 4, 1},
		bufs:    map[string]int{"x": 192 * 256, "y": 192 * 256},
		scalars: map[string]int64{"M": 192, "N": 256, "sxm": 256, "sym": 192}},
	{file: "triton36/ttgir/matmul_64x64x32_f16_sm80_w4.ttgir", grid: [3]int{4, 1, 1},
		bufs: map[string]int{"a": 128 * 96, "b": 96 * 128, "c": 128 * 128},
		scalars: map[string]int64{"M": 128, "N": 128, "K": 96, "sam": 96, "sak": 1, "sbk": 128, "sbn": 1,
			"scm": 128, "scn": 1}},
	{file: "../passes/testdata/prepost/layernorm_512_f16_sm80_w2.post.ttgir", grid: [3]int{9, 1, 1},
		bufs: map[string]int{"x_ptr": 9 * 512, "w_ptr": 512, "b_ptr": 512, "y_ptr": 9 * 512, "mean_ptr": 9,
			"rstd_ptr": 9}, scalars: map[string]int64{"stride": 512, "N": 500}, floats: map[string]float64{"eps": 1e-5}},
	// Float atomic adds: the order of the programs shows in the sums.
	{file: "../passes/testdata/prepost/splitk_atomic_64x64x32_f16_sm80_w4.post.ttgir", grid: [3]int{6, 1, 1},
		bufs:    map[string]int{"a_ptr": 64 * 192, "b_ptr": 192 * 192, "c_ptr": 64 * 64},
		scalars: map[string]int64{"K": 190, "stride": 192}},
}

// loadCase parses the case's kernel and makes its arguments: every buffer
// filled with random values from seed (floats in [-1, 1), integers in
// [-8, 8)).
func loadCase(t testing.TB, c launchCase, seed uint64) (*ir.Module, string, []interp.Arg, []*interp.Buffer) {
	t.Helper()
	var m *ir.Module
	if rel, ok := strings.CutPrefix(c.file, "../"); ok {
		src, err := os.ReadFile(filepath.Join("..", rel))
		if err != nil {
			t.Fatal(err)
		}
		m = parseText(t, string(src))
	} else {
		m = parseFile(t, c.file)
	}
	var fn tt.FuncOp
	for _, op := range m.Body().Ops() {
		if f, ok := tt.AsFunc(op); ok && f.SymVisibility() != "private" {
			fn = f
		}
	}
	ft := fn.FunctionType().(*ir.FunctionType)
	rng := rand.New(rand.NewPCG(seed, 7))
	var args []interp.Arg
	var bufs []*interp.Buffer
	for i, p := range fn.Body().Entry().Args() {
		name := p.NameHint
		e, err := interp.ElemOf(ft.Inputs[i])
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := c.floats[name]; ok && e.Float != nil {
			args = append(args, interp.FloatArg(f))
			continue
		}
		if !e.IsPtr() {
			v, ok := c.scalars[name]
			if !ok {
				t.Fatalf("%s: no value for %%%s", c.file, name)
			}
			args = append(args, interp.IntArg(v))
			continue
		}
		pt := ft.Inputs[i].(*ir.PointerType)
		b, err := interp.NewBuffer(pt.Pointee, c.bufs[name])
		if err != nil {
			t.Fatal(err)
		}
		be, _ := interp.ElemOf(pt.Pointee)
		for j := range b.Len() {
			if be.IsInt() {
				b.SetInt(j, rng.Int64N(16)-8)
			} else {
				b.SetFloat(j, 2*rng.Float64()-1)
			}
		}
		args, bufs = append(args, interp.BufArg(b)), append(bufs, b)
	}
	return m, fn.SymName(), args, bufs
}

// TestParallelEqualsSequential: programs on several goroutines leave every
// buffer bit for bit as the sequential launch does, atomics included, and
// Progress counts up one call at a time.
func TestParallelEqualsSequential(t *testing.T) {
	for _, c := range parallelCases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			m, name, args, seq := loadCase(t, c, 1)
			if err := interp.Run(m, name, args, c.grid); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{2, 3, 8} {
				m, name, args, par := loadCase(t, c, 1)
				var calls []int
				opts := interp.Options{Workers: workers, Progress: func(done, total int) { calls = append(calls, done) }}
				if err := interp.RunWith(m, name, args, c.grid, opts); err != nil {
					t.Fatal(err)
				}
				for i := range seq {
					if !bytes.Equal(seq[i].Data, par[i].Data) {
						t.Errorf("%d workers: buffer %d differs from the sequential run's", workers, i)
					}
				}
				total := c.grid[0] * c.grid[1] * c.grid[2]
				want := make([]int, total)
				for i := range want {
					want[i] = i + 1
				}
				if !slices.Equal(calls, want) {
					t.Errorf("%d workers: progress calls %v", workers, calls)
				}
			}
		})
	}
}

// TestParallelFirstError: with programs in parallel the error is the one
// of the first failing program in launch order, as sequentially.
func TestParallelFirstError(t *testing.T) {
	m := parseText(t, addKernel)
	args, _ := addArgs(1<<12, 1000) // programs 15 and up read past the 1000 elements
	seqErr := interp.Run(m, "add", args, [3]int{64, 1, 1})
	var e *interp.Error
	if !errors.As(seqErr, &e) || e.PID != [3]int{15, 0, 0} {
		t.Fatalf("sequential: %v", seqErr)
	}
	for range 20 {
		err := interp.RunWith(m, "add", args, [3]int{64, 1, 1}, interp.Options{Workers: 4})
		if err == nil || err.Error() != seqErr.Error() {
			t.Fatalf("parallel: %v, want %v", err, seqErr)
		}
	}
}

// BenchmarkLaunchWorkers runs Triton's row softmax over 256 rows of 1024
// on one goroutine and on GOMAXPROCS.
func BenchmarkLaunchWorkers(b *testing.B) {
	c := launchCase{file: "triton36/ttgir/softmax_b1024_sm90_w4.ttgir", grid: [3]int{256, 1, 1},
		bufs:    map[string]int{"out": 256 * 1024, "inp": 256 * 1024},
		scalars: map[string]int64{"istride": 1024, "ostride": 1024, "n_cols": 1024}}
	for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			m, name, args, _ := loadCase(b, c, 1)
			b.SetBytes(2 * 4 * 256 * 1024)
			for b.Loop() {
				if err := interp.RunWith(m, name, args, c.grid, interp.Options{Workers: w}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
