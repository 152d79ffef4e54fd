package floatfmt

import (
	"math"
	"math/big"
	"math/rand/v2"
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

// TestRoundBig: rounding an exact value in one step agrees with Round
// wherever the value is a float64 (Round's input), in every format and
// mode, subnormals, ties and overflow included; and differs from rounding
// through float64 where that rounds twice.
func TestRoundBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	modes := []Rounding{NearestEven, TowardZero, NearestAway}
	for _, name := range []string{"f16", "bf16", "f32", "tf32", "f8E5M2", "f8E4M3FN", "f8E4M3FNUZ"} {
		f := Lookup(name)
		minSub := math.Ldexp(1, 1-f.Bias-f.ManBits)
		for i := range 20000 {
			var x float64
			switch i % 4 {
			case 0: // near the subnormal range, ties included
				x = float64(r.IntN(1<<12)-1<<11) * minSub / 4
			case 1: // near overflow
				x = f.MaxFinite() * (0.9 + 0.2*r.Float64())
			default:
				x = math.Ldexp(r.Float64()*2-1, r.IntN(2*f.Bias+8)-f.Bias-f.ManBits-4)
			}
			for _, m := range modes {
				for _, sat := range []bool{false, true} {
					want := f.Round(x, m, sat)
					got := f.RoundBig(new(big.Float).SetFloat64(x), m, sat)
					if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Fatalf("%s: RoundBig(%g, %d, %v) = %g, Round gives %g", name, x, m, sat, got, want)
					}
				}
			}
		}
	}
	// 1 + 2^-8 + 2^-100 rounds up in bf16; through float64 it is the tie 1 + 2^-8, rounded to 1.
	x := new(big.Float).SetPrec(200).SetFloat64(1 + 0x1p-8)
	x.Add(x, new(big.Float).SetFloat64(0x1p-100))
	bf := Lookup("bf16")
	if got := bf.RoundBig(x, NearestEven, false); got != 1+0x1p-7 {
		t.Errorf("bf16 RoundBig(1 + 2^-8 + 2^-100) = %g, want 1 + 2^-7", got)
	}
	if v, _ := x.Float64(); bf.Round(v, NearestEven, false) != 1 {
		t.Errorf("the double rounding this test is about did not happen")
	}
}
