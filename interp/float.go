package interp

import "github.com/layoutopt/layoutopt/floatfmt"

// The interpreter's float formats are package floatfmt's; these names are
// kept for the interpreter's users.
type (
	// FloatFormat is floatfmt.Format.
	FloatFormat = floatfmt.Format
	// Special is floatfmt.Special.
	Special = floatfmt.Special
	// Rounding is floatfmt.Rounding.
	Rounding = floatfmt.Rounding
)

// Special encodings and rounding modes (package floatfmt's).
const (
	IEEE        = floatfmt.IEEE
	FN          = floatfmt.FN
	FNUZ        = floatfmt.FNUZ
	NearestEven = floatfmt.NearestEven
	TowardZero  = floatfmt.TowardZero
	NearestAway = floatfmt.NearestAway
)

// LookupFloatFormat returns the format of an MLIR float type spelling
// (f16, bf16, f32, f64, tf32, f8E5M2, f8E4M3FN, ...), or nil.
func LookupFloatFormat(kind string) *FloatFormat { return floatfmt.Lookup(kind) }
