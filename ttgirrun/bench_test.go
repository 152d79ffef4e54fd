package ttgirrun

import (
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/interp"
)

// BenchmarkFill is the making of a 2²⁴-element random buffer (64 MiB of
// f32, 32 MiB of f16), as ttgir-run makes the proof's inputs.
func BenchmarkFill(b *testing.B) {
	for _, name := range []string{"f32", "f16"} {
		b.Run(name, func(b *testing.B) {
			e := elem(b, name)
			s, _ := parseSpec("rand:" + name + ":16777216")
			b.SetBytes(int64(16777216 * e.bytes))
			b.ReportAllocs()
			defer testenv.CPUMetric(b)()
			for b.Loop() {
				if _, err := fill(s, e, 16777216, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompare is -check's comparison of two equal 2²⁴-element
// buffers.
func BenchmarkCompare(b *testing.B) {
	for _, name := range []string{"f32", "f16"} {
		b.Run(name, func(b *testing.B) {
			e := elem(b, name)
			s, _ := parseSpec("rand:" + name + ":16777216")
			x, _ := fill(s, e, 16777216, 1)
			y := append([]byte(nil), x...)
			b.SetBytes(int64(len(x)))
			b.ReportAllocs()
			defer testenv.CPUMetric(b)()
			for b.Loop() {
				if c := compare("x", e, nil, x, y, interp.Tolerance{}, 10); c.Mismatches != 0 {
					b.Fatal(c.Mismatches)
				}
			}
		})
	}
}
