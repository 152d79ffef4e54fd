package interp_test

import (
	"math"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// BenchmarkAdd runs Triton's vector add (1024 elements a program) over
// 2^16 elements: 64 programs. SetBytes counts the bytes the kernel moves
// (two loads and a store of f32).
func BenchmarkAdd(b *testing.B) {
	m := parseFile(b, "triton36/ttgir/add_b1024_sm90_w4.ttgir")
	const n = 1 << 16
	x, _ := interp.NewBuffer(ir.F32, n)
	y, _ := interp.NewBuffer(ir.F32, n)
	z, _ := interp.NewBuffer(ir.F32, n)
	for i := 0; i < n; i++ {
		x.SetFloat(i, float64(i))
		y.SetFloat(i, 1)
	}
	args := []interp.Arg{interp.BufArg(x), interp.BufArg(y), interp.BufArg(z), interp.IntArg(n)}
	b.SetBytes(3 * 4 * n)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		if err := interp.Run(m, "add_kernel", args, [3]int{n / 1024, 1, 1}); err != nil {
			b.Fatal(err)
		}
	}
	if z.Float(n-1) != n {
		b.Fatalf("z[n-1] = %g", z.Float(n-1))
	}
}

// BenchmarkSoftmax runs Triton's row softmax (1024 columns) on 64 rows.
func BenchmarkSoftmax(b *testing.B) {
	m := parseFile(b, "triton36/ttgir/softmax_b1024_sm90_w4.ttgir")
	const rows, cols = 64, 1024
	in, _ := interp.NewBuffer(ir.F32, rows*cols)
	out, _ := interp.NewBuffer(ir.F32, rows*cols)
	for i := 0; i < rows*cols; i++ {
		in.SetFloat(i, math.Sin(float64(i)))
	}
	args := []interp.Arg{interp.BufArg(out), interp.BufArg(in), interp.IntArg(cols), interp.IntArg(cols), interp.IntArg(cols)}
	b.SetBytes(2 * 4 * rows * cols)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		if err := interp.Run(m, "softmax_kernel", args, [3]int{rows, 1, 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func matmulArgs(n int) ([]interp.Arg, *interp.Buffer, *interp.Buffer, *interp.Buffer) {
	a, _ := interp.NewBuffer(ir.F16, n*n)
	bb, _ := interp.NewBuffer(ir.F16, n*n)
	c, _ := interp.NewBuffer(ir.F16, n*n)
	for i := 0; i < n*n; i++ {
		a.SetFloat(i, math.Sin(float64(i)))
		bb.SetFloat(i, math.Cos(float64(3*i)))
	}
	N := int64(n)
	return []interp.Arg{interp.BufArg(a), interp.BufArg(bb), interp.BufArg(c),
		interp.IntArg(N), interp.IntArg(N), interp.IntArg(N), // M, N, K
		interp.IntArg(N), interp.IntArg(1), interp.IntArg(N), interp.IntArg(1), interp.IntArg(N), interp.IntArg(1)}, a, bb, c
}

// BenchmarkMatmul runs the sm_80 64×64×32 f16 matmul kernel (mma v2
// layouts, a K loop) on 128×128×128: 4 programs, 4 K steps each.
// SetBytes counts the multiply-adds (2·n³ flops would be twice that).
func BenchmarkMatmul(b *testing.B) {
	m := parseFile(b, "triton36/ttgir/matmul_64x64x32_f16_sm80_w4.ttgir")
	const n = 128
	args, _, _, _ := matmulArgs(n)
	b.SetBytes(n * n * n)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		if err := interp.Run(m, "matmul_kernel", args, [3]int{(n / 64) * (n / 64), 1, 1}); err != nil {
			b.Fatal(err)
		}
	}
}
