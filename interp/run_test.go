package interp_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// readFile reads rel under ../shared, skipping the test without it.
func readFile(t testing.TB, rel string) []byte {
	t.Helper()
	path := testenv.Shared(t, rel)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%v", err)
	}
	return src
}

func parseFile(t testing.TB, rel string) *ir.Module {
	t.Helper()
	src := readFile(t, rel)
	m, diags := ir.Parse(src, ir.ParseConfig{Filename: filepath.Base(rel)})
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	return m
}

// TestSoftmaxShared runs Triton's softmax kernel on rows of random values
// and compares with softmax computed here.
func TestSoftmaxShared(t *testing.T) {
	m := parseFile(t, "triton36/ttgir/softmax_b1024_sm90_w4.ttgir")
	const rows, cols, stride = 3, 1000, 1024
	in, _ := interp.NewBuffer(ir.F32, rows*stride)
	out, _ := interp.NewBuffer(ir.F32, rows*stride)
	for i := 0; i < rows*stride; i++ {
		in.SetFloat(i, math.Sin(float64(i)))
	}
	args := []interp.Arg{interp.BufArg(out), interp.BufArg(in), interp.IntArg(stride), interp.IntArg(stride), interp.IntArg(cols)}
	if err := interp.Run(m, "softmax_kernel", args, [3]int{rows, 1, 1}); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < rows; r++ {
		mx := math.Inf(-1)
		for c := 0; c < cols; c++ {
			mx = math.Max(mx, in.Float(r*stride+c))
		}
		sum := 0.0
		for c := 0; c < cols; c++ {
			sum += math.Exp(in.Float(r*stride+c) - mx)
		}
		for c := 0; c < cols; c++ {
			want := math.Exp(in.Float(r*stride+c)-mx) / sum
			if got := out.Float(r*stride + c); math.Abs(got-want) > 1e-6*want+1e-9 {
				t.Fatalf("row %d col %d: got %g, want %g", r, c, got, want)
			}
		}
		if got := out.Float(r*stride + cols); got != 0 {
			t.Fatalf("masked element written: %g", got)
		}
	}
}

// TestMatmulShared runs Triton's grouped f16 matmul (mma v2, a K loop) and
// compares with a product computed here in the documented order: f32
// accumulation over k = 0..K-1 in sequence, then a rounding to f16.
func TestMatmulShared(t *testing.T) {
	m := parseFile(t, "triton36/ttgir/matmul_64x64x32_f16_sm80_w4.ttgir")
	const n = 128
	args, a, b, c := matmulArgs(n)
	if err := interp.Run(m, "matmul_kernel", args, [3]int{(n / 64) * (n / 64), 1, 1}); err != nil {
		t.Fatal(err)
	}
	f16 := interp.LookupFloatFormat("f16")
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			acc := float32(0)
			for k := 0; k < n; k++ {
				acc = float32(float64(acc) + a.Float(i*n+k)*b.Float(k*n+j))
			}
			want := f16.Round(float64(acc), interp.NearestEven, false)
			if got := c.Float(i*n + j); got != want {
				t.Fatalf("c[%d][%d] = %g, want %g", i, j, got, want)
			}
		}
	}
}
