// Package cute implements CuTe's hierarchical layouts, the shape:stride
// layouts of NVIDIA CUTLASS's CuTe and of Mojo's Layout and TileTensor, with
// their algebra, their printing, and a bridge to the GF(2) linear layouts of
// package linear.
//
// # Layouts
//
// An IntTuple is an integer or a tuple of IntTuples. A Layout is a pair
// shape:stride of congruent IntTuples, for example
//
//	((3,2),(2,5)):((1,6),(3,12))
//
// and is a function from coordinates to an integer offset: a natural
// coordinate c (congruent to the shape) maps to the inner product c·stride.
// A layout also accepts a 1-D integer coordinate or an R-D one (one integer
// per top-level mode); an integer given for a tuple mode is split
// colexicographically, the leftmost leaf fastest. So the coordinates 16,
// (1,5) and (1,(1,2)) of (3,(2,3)):(3,(12,1)) all map to 17.
//
// ParseLayout reads both CuTe's notation and Mojo's, where the whole layout
// is wrapped in parentheses and elements are separated by ", ":
// (((3, 2), (2, 5)):((1, 6), (3, 12))). Layout.String and Layout.MojoString
// write them back, and WriteTable / Table draw a rank-2 layout as Mojo's and
// CuTe's print_layout do.
//
// # Algebra
//
// The operations follow CuTe C++ with static integers, which is the
// reference: Coalesce, Composition, Complement, RightInverse, LeftInverse,
// the divides (LogicalDivide, ZippedDivide, TiledDivide, FlatDivide), the
// products (LogicalProduct, ZippedProduct, TiledProduct, FlatProduct,
// BlockedProduct, RakedProduct), TileToShape, Upcast and Downcast. Where C++
// returns a layout, these return the same representation, not just the same
// function. Where the result does not exist as a shape:stride layout (a
// divisibility or injectivity condition fails) they return an error wrapping
// ErrNotAdmissible, including the cases where C++'s weaker static checks let
// a wrong result through. Notable differences between CuTe C++, pycute and
// Mojo are described on each function.
//
// # Swizzles and linear layouts
//
// Swizzle{B, M, S} is CuTe's XOR swizzle on offsets and SwizzledLayout its
// composition with a layout. A layout (optionally swizzled) whose function is
// linear over GF(2) converts to a linear.Layout with ToLinear; IsLinear says
// why one does not (a size that is not a power of two, overlapping bits, a
// negative stride, an offset). The linear layout has one input dimension per
// top-level mode, named "mode0", "mode1", …, whose bits are that mode's 1-D
// coordinate bits (lowest first), and one output dimension "offset".
// FromLinear goes back where a shape:stride form, possibly with a swizzle,
// exists.
package cute
