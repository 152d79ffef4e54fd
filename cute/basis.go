package cute

import (
	"fmt"
	"math/bits"
)

// NotLinearError explains why a layout's function is not linear over GF(2).
type NotLinearError struct {
	Layout string // the layout, in CuTe notation
	Reason string // why, e.g. "size 12 is not a power of two"
}

func (e *NotLinearError) Error() string {
	return fmt.Sprintf("cute: %s is not linear over GF(2): %s", e.Layout, e.Reason)
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func log2(n int) int { return bits.TrailingZeros64(uint64(n)) }

// Basis returns the images of the coordinate bits, basis[j] = L(2^j) for j <
// log2(size(L)), whether or not L is linear. The size must be a power of two.
func (l Layout) Basis() ([]int, error) { return SwizzledLayout{Layout: l}.Basis() }

// Basis returns s(2^j) for each bit j of the 1-D coordinate; the layout's
// size must be a power of two.
func (s SwizzledLayout) Basis() ([]int, error) {
	n := s.Layout.Size()
	if !isPow2(n) {
		return nil, &NotLinearError{Layout: s.String(), Reason: fmt.Sprintf("size is not a power of two: %d", n)}
	}
	out := make([]int, log2(n))
	for j := range out {
		out[j] = s.Eval(1 << j)
	}
	return out, nil
}

// IsLinear reports, as a nil error, that the layout is linear over GF(2) as a
// function from the bits of its 1-D coordinate to the bits of its offset; see
// SwizzledLayout.IsLinear.
func (l Layout) IsLinear() error { return SwizzledLayout{Layout: l}.IsLinear() }

// IsLinear returns nil if s is linear over GF(2), and otherwise a
// *NotLinearError that says why. Flattened to leaves s_k:d_k, a layout is
// linear exactly when
//
//  1. its size is a power of two (then every s_k is, and each leaf's
//     coordinate is a bit-field of the 1-D coordinate),
//  2. no stride is negative, and
//  3. the images 2^j·d_k of the coordinate bits have pairwise disjoint binary
//     supports (zero images, from broadcast modes, are allowed),
//
// because an integer sum of such images equals their XOR. A swizzle is
// linear and invertible, so a swizzled layout is linear exactly when its
// layout is and its offset is 0 (a non-zero offset makes the function
// affine).
func (s SwizzledLayout) IsLinear() error {
	_, err := s.linearBasis()
	return err
}

// linearBasis checks the conditions and returns the basis.
func (s SwizzledLayout) linearBasis() ([]int, error) {
	l := s.Layout
	fail := func(format string, args ...any) ([]int, error) {
		return nil, &NotLinearError{Layout: s.String(), Reason: fmt.Sprintf(format, args...)}
	}
	if err := s.Swizzle.Validate(); err != nil {
		return fail("invalid swizzle: %v", err)
	}
	if s.Offset != 0 {
		return fail("offset %d makes it affine, not linear", s.Offset)
	}
	if n := l.Size(); !isPow2(n) {
		return fail("size is not a power of two: %d", n)
	}
	seen := 0
	var images []int
	for k, sz := range l.fs {
		d := l.fd[k]
		if d < 0 {
			return fail("mode %d:%d has a negative stride", sz, d)
		}
		for j := 0; 1<<j < sz; j++ {
			v := d << j
			if v&seen != 0 {
				return fail("coordinate bits overlap: the image %d of one bit shares bits with the image %d of an earlier one", v, firstOverlap(images, v))
			}
			seen |= v
			images = append(images, v)
		}
	}
	for j, v := range images {
		images[j] = s.Swizzle.Apply(v)
	}
	return images, nil
}

func firstOverlap(images []int, v int) int {
	for _, w := range images {
		if w&v != 0 {
			return w
		}
	}
	return 0
}

// modeBits returns the number of coordinate bits of each top-level mode of
// a layout whose size is a power of two.
func (l Layout) modeBits() []int {
	modes := l.shape.modes()
	out := make([]int, len(modes))
	for i, m := range modes {
		out[i] = log2(m.Product())
	}
	return out
}
