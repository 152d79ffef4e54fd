package cute

import (
	"fmt"
	"math/bits"
)

// Swizzle is CuTe's Swizzle<B,M,S>, a bijection on non-negative offsets that
// XORs the B bits starting at bit M+max(0,S) into the B bits S places lower
// (S > 0) or higher (S < 0):
//
//	Y = (2^B-1) << (M + max(0,S))   the source bits
//	Z = (2^B-1) << (M - min(0,S))   the target bits
//	f(x) = x XOR shift(x AND Y, S)  (a positive S shifts right)
//
// The lowest M bits are never touched, so f permutes atoms of 2^M contiguous
// elements. |S| >= B keeps Y and Z disjoint, which makes f an involution
// (f∘f = id); it is also linear over GF(2). The zero Swizzle (B = 0) is the
// identity. CUTLASS's 128-byte shared-memory swizzle for 16-bit elements is
// Swizzle{3, 3, 3}.
type Swizzle struct {
	B, M, S int
}

// Validate reports whether the parameters make a swizzle: B, M >= 0,
// |S| >= B, and every bit below 62.
func (sw Swizzle) Validate() error {
	if sw.B < 0 || sw.M < 0 {
		return errorf("swizzle %v: B and M must not be negative", sw)
	}
	if abs(sw.S) < sw.B {
		return errorf("swizzle %v: |S| must be at least B, or source and target bits overlap", sw)
	}
	if sw.B+sw.M+abs(sw.S) > 62 {
		return errorf("swizzle %v: bits above 62 are not supported", sw)
	}
	return nil
}

// IsIdentity reports whether the swizzle changes no offset (B = 0).
func (sw Swizzle) IsIdentity() bool { return sw.B == 0 }

// YMask is the mask of the source bits.
func (sw Swizzle) YMask() int { return (1<<sw.B - 1) << (sw.M + max(0, sw.S)) }

// ZMask is the mask of the target bits.
func (sw Swizzle) ZMask() int { return (1<<sw.B - 1) << (sw.M - min(0, sw.S)) }

// Apply is the swizzle function at offset x. For the non-negative offsets a
// layout produces the result is the swizzled offset; bits above
// B+M+|S| pass through unchanged. The swizzle must be valid (see Validate):
// a negative B or M makes a negative shift, which panics.
func (sw Swizzle) Apply(x int) int {
	if sw.B == 0 {
		return x
	}
	y := x & sw.YMask()
	if sw.S >= 0 {
		return x ^ y>>sw.S
	}
	return x ^ y<<-sw.S
}

// String formats the swizzle as CuTe prints it, Sw<B,M,S>.
func (sw Swizzle) String() string { return fmt.Sprintf("Sw<%d,%d,%d>", sw.B, sw.M, sw.S) }

// MakeSwizzle is CuTe's make_swizzle<Y,Z>: the swizzle whose source bits are
// the mask y and whose target bits are the mask z. The masks must be runs of
// the same number of consecutive bits that do not overlap. Example:
// MakeSwizzle(0b11000000, 0b110) is Sw<2,1,5>.
func MakeSwizzle(y, z int) (Swizzle, error) {
	if y < 0 || z < 0 {
		return Swizzle{}, errorf("make swizzle: negative mask")
	}
	b := bits.OnesCount64(uint64(y))
	if b != bits.OnesCount64(uint64(z)) {
		return Swizzle{}, errorf("make swizzle: masks %#b and %#b have different bit counts", y, z)
	}
	if b == 0 {
		return Swizzle{}, nil
	}
	ty, tz := bits.TrailingZeros64(uint64(y)), bits.TrailingZeros64(uint64(z))
	if y != (1<<b-1)<<ty || z != (1<<b-1)<<tz {
		return Swizzle{}, errorf("make swizzle: masks %#b and %#b are not runs of consecutive bits", y, z)
	}
	sw := Swizzle{B: b, M: min(ty, tz), S: ty - tz}
	if err := sw.Validate(); err != nil {
		return Swizzle{}, err
	}
	return sw, nil
}

// SwizzledLayout is CuTe's ComposedLayout of a swizzle, an offset and a
// layout: the function i ↦ Swizzle(Offset + Layout(i)). With the zero Swizzle
// and a zero Offset it is just the layout.
type SwizzledLayout struct {
	Swizzle Swizzle
	Offset  int
	Layout  Layout
}

// Eval is the function at the 1-D coordinate i.
func (s SwizzledLayout) Eval(i int) int { return s.Swizzle.Apply(s.Offset + s.Layout.Eval(i)) }

// At is the function at an R-D coordinate (see Layout.At).
func (s SwizzledLayout) At(coords ...int) (int, error) {
	v, err := s.Layout.At(coords...)
	if err != nil {
		return 0, err
	}
	return s.Swizzle.Apply(s.Offset + v), nil
}

// Values returns the function on the layout's whole domain.
func (s SwizzledLayout) Values() []int {
	out := make([]int, s.Layout.Size())
	for i := range out {
		out[i] = s.Eval(i)
	}
	return out
}

// String formats s as CuTe prints a ComposedLayout, "Sw<3,3,3> o 0 o
// (8,64):(64,1)", or as the bare layout when the swizzle is the zero Swizzle
// and the offset is 0.
func (s SwizzledLayout) String() string { return s.Format(CuTeNotation) }

// Format formats s with its layout in notation n.
func (s SwizzledLayout) Format(n Notation) string {
	if s.Swizzle == (Swizzle{}) && s.Offset == 0 {
		return s.Layout.Format(n)
	}
	return fmt.Sprintf("%v o %d o %s", s.Swizzle, s.Offset, s.Layout.Format(n))
}
