package floatfmt

import (
	"math"
	"testing"
)

func TestFloatRound(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		kind string
		x    float64
		mode Rounding
		sat  bool
		want float64
	}{
		{"f16", 1 + 0x1p-11, NearestEven, false, 1},            // tie to even
		{"f16", 1 + 3*0x1p-11, NearestEven, false, 1 + 0x1p-9}, // tie to even (up)
		{"f16", 1 + 0x1p-11 + 0x1p-30, NearestEven, false, 1 + 0x1p-10},
		{"f16", 65519, NearestEven, false, 65504},
		{"f16", 65520, NearestEven, false, inf}, // the tie above the largest value
		{"f16", 65520, TowardZero, false, 65504},
		{"f16", 0x1p-24, NearestEven, false, 0x1p-24}, // smallest subnormal
		{"f16", 0x1p-25, NearestEven, false, 0},       // tie to even: 0
		{"f16", 0x1.8p-25, NearestEven, false, 0x1p-24},
		{"f16", -1e9, NearestEven, false, -inf},
		{"bf16", 1 + 0x1p-8, NearestEven, false, 1},
		{"bf16", 1 + 0x1.8p-8, NearestEven, false, 1 + 0x1p-7},
		{"bf16", 3.0e38, NearestEven, false, 0x1.c4p127},
		{"tf32", 1 + 0x1p-11, NearestAway, false, 1 + 0x1p-10}, // ties away
		{"tf32", 1 + 0x1p-11, NearestEven, false, 1},
		{"f8E4M3FN", 448, NearestEven, false, 448},
		{"f8E4M3FN", 464, NearestEven, false, 448}, // tie to even (1.110)
		{"f8E4M3FN", 470, NearestEven, false, nan}, // rounds to 480: no such value
		{"f8E4M3FN", 470, NearestEven, true, 448},  // satfinite
		{"f8E4M3FN", inf, NearestEven, true, 448},
		{"f8E4M3FN", 0x1p-9, NearestEven, false, 0x1p-9}, // smallest subnormal
		{"f8E4M3FN", 0x1p-10, NearestEven, false, 0},
		{"f8E5M2", 57344, NearestEven, false, 57344},
		{"f8E5M2", 61440, NearestEven, false, inf},
		{"f8E5M2", 61440, NearestEven, true, 57344},
		{"f8E5M2", 1.125, NearestEven, false, 1}, // tie to even
		{"f8E5M2", 1.375, NearestEven, false, 1.5},
		{"f8E4M3FNUZ", 240, NearestEven, false, 240},
		{"f8E4M3FNUZ", math.Copysign(0, -1), NearestEven, false, 0},
		{"f8E5M2FNUZ", 57344, NearestEven, false, 57344},
		{"f32", 1 + 0x1p-24, NearestEven, false, 1},
		{"f32", 1 + 0x1p-24, TowardZero, false, 1},
		{"f32", 1 + 0x1.8p-24, TowardZero, false, 1},
	} {
		f := Lookup(c.kind)
		got := f.Round(c.x, c.mode, c.sat)
		if !(got == c.want && math.Signbit(got) == math.Signbit(c.want) || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s.Round(%g, %d, %v) = %g, want %g", c.kind, c.x, c.mode, c.sat, got, c.want)
		}
	}
}

// TestFloatBitsRoundTrip decodes every bit pattern of the 8- and 16-bit
// formats and checks that the value is one of the format (Round keeps it),
// encodes back to the same bits (NaNs to the canonical NaN), and that the
// encoding is monotonic in the value.
func TestFloatBitsRoundTrip(t *testing.T) {
	for _, kind := range []string{"f16", "bf16", "f8E5M2", "f8E4M3FN", "f8E4M3", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ"} {
		f := Lookup(kind)
		width := 1 + f.ExpBits + f.ManBits
		prev := math.Inf(-1)
		for b := uint64(0); b < 1<<width; b++ {
			x := f.FromBits(b)
			if math.IsNaN(x) {
				if nb := f.Bits(x); !math.IsNaN(f.FromBits(nb)) {
					t.Fatalf("%s: canonical NaN %#x does not decode as NaN", kind, nb)
				}
				continue
			}
			if r := f.Round(x, NearestEven, false); r != x {
				t.Fatalf("%s: %#x = %g rounds to %g", kind, b, x, r)
			}
			if nb := f.Bits(x); nb != b {
				t.Fatalf("%s: %#x = %g encodes as %#x", kind, b, x, nb)
			}
			// positive patterns increase with the value
			if b < 1<<(width-1) && !math.IsInf(x, 0) {
				if x <= prev && !(x == 0 && b == 0) {
					t.Fatalf("%s: %#x = %g not above %g", kind, b, x, prev)
				}
				prev = x
			}
		}
		if got := f.FromBits(f.Bits(f.MaxFinite())); got != f.MaxFinite() {
			t.Errorf("%s: max finite %g does not round-trip", kind, f.MaxFinite())
		}
	}
}

// TestF16MidpointsByBits checks f16 rounding of the values around each
// f16 value (the midpoints and their neighbours) against the tie rule
// read off the bits (ties go to the even mantissa).
func TestF16MidpointsByBits(t *testing.T) {
	f := Lookup("f16")
	for b := uint64(0); b < 0x7bff; b++ { // finite positive f16 below the largest
		lo := f.FromBits(b)
		hi := f.FromBits(b + 1)
		mid := (lo + hi) / 2
		want := lo
		if b&1 == 1 { // odd mantissa: the tie goes up
			want = hi
		}
		if got := f.Round(mid, NearestEven, false); got != want {
			t.Fatalf("f16 tie between %g and %g rounds to %g, want %g", lo, hi, got, want)
		}
		for _, x := range []float64{math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1))} {
			w := lo
			if x > mid {
				w = hi
			}
			if got := f.Round(x, NearestEven, false); got != w {
				t.Fatalf("f16 %v rounds to %g, want %g", x, got, w)
			}
		}
	}
}
