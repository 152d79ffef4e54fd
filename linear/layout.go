package linear

import (
	"fmt"
	"math/bits"
	"slices"
	"unique"
)

// MaxBits is the largest number of input bits, and separately of output bits,
// a Layout may have. Triton packs each row of the bit matrix into a uint64;
// this package also keeps every size, including the total sizes, in an int.
const MaxBits = 62

// Dim is a named dimension and its size (a power of two). It names the
// dimensions that ReshapeIns, ReshapeOuts and the shape helpers take.
type Dim struct {
	Name string
	Size int
}

// OutDim is an output dimension of a Layout: its name and its size.
type OutDim = Dim

// InDim is an input dimension of a Layout with its basis vectors:
// Bases[i][j] is the coordinate in output dimension j of L(Name = 2^i), with
// every other input 0. The dimension's size is 2^len(Bases).
type InDim struct {
	Name  string
	Bases [][]int
}

// Coord is one named coordinate of an input or output point, as taken and
// returned by ApplyNamed.
type Coord struct {
	Name  string
	Value int
}

// dim is a dimension as the Layout stores it: its interned name, its size in
// bits, and the position of its first bit (the first column for an input
// dimension, the lowest bit of its field in a packed output for an output
// dimension).
type dim struct {
	name string
	log2 int
	off  int
}

// Layout is a linear map over GF(2) from named input dimensions to named
// output dimensions; see the package documentation for the model.
//
// A Layout is an immutable value: copying it is cheap, and every method
// returns a new Layout (sharing storage with its operands where it can).
// The zero Layout is the empty layout, the identity of Mul.
//
// Internally each basis vector is one uint64 column in which output dimension
// j occupies the bits [off_j, off_j+log2 size_j): L(x) is the XOR of the
// columns of the set bits of x, unpacked field by field.
type Layout struct {
	ins  []dim
	outs []dim
	cols []uint64 // one per input bit: in-dims in order, low bit first
	rank int
}

// intern returns the canonical copy of a dimension name, so that the names of
// all layouts share storage.
func intern(s string) string {
	if c, ok := commonNames[s]; ok {
		return c
	}
	return unique.Make(s).Value()
}

// commonNames holds the canonical copies of the dimension names nearly
// every layout uses, so that interning them takes a map lookup instead of
// unique.Make's synchronisation (read-only after init).
var commonNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"register", "lane", "warp", "block", "offset", "vector", "bank", "segment", "reps",
		"dim0", "dim1", "dim2", "dim3", "dim4", "row", "col"} {
		m[n] = unique.Make(n).Value()
	}
	return m
}()

func mask(n int) uint64 { return uint64(1)<<uint(n) - 1 }

// isPow2 reports whether n is a positive power of two.
func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func log2(n int) int { return bits.TrailingZeros64(uint64(n)) }

// Empty returns the layout with no input and no output dimensions.
func Empty() Layout { return Layout{} }

// isEmpty reports whether l has no dimensions at all, like Empty().
func (l Layout) isEmpty() bool { return len(l.ins) == 0 && len(l.outs) == 0 }

// New builds a layout from its input dimensions (with their bases) and its
// output dimensions (with explicit sizes). It reports an error where Triton's
// constructor aborts: an empty or duplicate name, a size that is not a power
// of two, a basis with the wrong number of coordinates, a negative coordinate
// or one not less than its output dimension's size, more than MaxBits bits,
// and, when requireSurjective is set, a layout that does not reach every
// output point.
func New(ins []InDim, outs []OutDim, requireSurjective bool) (Layout, error) {
	var l Layout
	l.outs = make([]dim, len(outs))
	off := 0
	for j, o := range outs {
		if o.Name == "" {
			return Layout{}, fmt.Errorf("linear: out-dim %d has an empty name", j)
		}
		for _, p := range outs[:j] {
			if p.Name == o.Name {
				return Layout{}, fmt.Errorf("linear: duplicate out-dim %q", o.Name)
			}
		}
		if !isPow2(o.Size) {
			return Layout{}, fmt.Errorf("linear: invalid size %d for out-dim %q: out-dim sizes must be powers of 2", o.Size, o.Name)
		}
		k := log2(o.Size)
		if off+k > MaxBits {
			return Layout{}, fmt.Errorf("linear: out-dims have more than %d bits in total", MaxBits)
		}
		l.outs[j] = dim{intern(o.Name), k, off}
		off += k
	}
	l.ins = make([]dim, len(ins))
	col := 0
	for i, in := range ins {
		if in.Name == "" {
			return Layout{}, fmt.Errorf("linear: in-dim %d has an empty name", i)
		}
		for _, p := range ins[:i] {
			if p.Name == in.Name {
				return Layout{}, fmt.Errorf("linear: duplicate in-dim %q", in.Name)
			}
		}
		if col+len(in.Bases) > MaxBits {
			return Layout{}, fmt.Errorf("linear: in-dims have more than %d bits in total", MaxBits)
		}
		l.ins[i] = dim{intern(in.Name), len(in.Bases), col}
		col += len(in.Bases)
	}
	l.cols = make([]uint64, 0, col)
	for _, in := range ins {
		for b, basis := range in.Bases {
			if len(basis) != len(outs) {
				return Layout{}, fmt.Errorf("linear: basis %d of in-dim %q has %d coordinates, want one per out-dim (%d)", b, in.Name, len(basis), len(outs))
			}
			var c uint64
			for j, v := range basis {
				if v < 0 {
					return Layout{}, fmt.Errorf("linear: basis %d of in-dim %q has negative coordinate %d for out-dim %q", b, in.Name, v, outs[j].Name)
				}
				if v >= outs[j].Size {
					return Layout{}, fmt.Errorf("linear: basis %d of in-dim %q has coordinate %d for out-dim %q, which must be less than its size %d", b, in.Name, v, outs[j].Name, outs[j].Size)
				}
				c |= uint64(v) << uint(l.outs[j].off)
			}
			l.cols = append(l.cols, c)
		}
	}
	l.rank = colRank(l.cols)
	if requireSurjective && !l.IsSurjective() {
		return Layout{}, fmt.Errorf("linear: layout is not surjective (rank %d, %d out bits):%s", l.rank, l.TotalOutDimSizeLog2(), l)
	}
	return l, nil
}

// NewInferred builds a layout whose output sizes are inferred from its bases:
// each is the smallest power of two strictly greater than every coordinate
// of that output dimension (1 when there are none). As in Triton, the result
// must be surjective. Errors are those of New.
func NewInferred(ins []InDim, outNames []string) (Layout, error) {
	outs, err := InferredOutDims(ins, outNames)
	if err != nil {
		return Layout{}, err
	}
	return New(ins, outs, true)
}

// nextPow2 returns the smallest power of two strictly greater than v ≥ 0
// (llvm::NextPowerOf2).
func nextPow2(v int) int { return 1 << uint(bits.Len64(uint64(v))) }

// Identity1D returns the identity map L(x) = x from in (of the given size) to
// out (of the same size). Size 0 gives Empty(); size 1 gives an in-dim with no
// bases and an out-dim of size 1.
func Identity1D(size int, in, out string) (Layout, error) {
	return Strided1D(size, 1, in, out)
}

// Zeros1D returns the map L(x) = 0 from in (of the given size) to out, an
// out-dim of size outSize. Size 0 gives Empty().
func Zeros1D(size int, in, out string, outSize int) (Layout, error) {
	if size == 0 {
		return Empty(), nil
	}
	if !isPow2(size) {
		return Layout{}, fmt.Errorf("linear: Zeros1D size %d is not a power of 2", size)
	}
	bases := make([][]int, log2(size))
	for i := range bases {
		bases[i] = []int{0}
	}
	return New([]InDim{{in, bases}}, []OutDim{{out, outSize}}, outSize == 1)
}

// Strided1D returns L(x) = stride·x for x < size, into an out-dim of size
// stride·size. Size 0 gives Empty(). Size and stride must be powers of two.
func Strided1D(size, stride int, in, out string) (Layout, error) {
	if size == 0 {
		return Empty(), nil
	}
	if !isPow2(size) {
		return Layout{}, fmt.Errorf("linear: size %d is not a power of 2", size)
	}
	if !isPow2(stride) {
		return Layout{}, fmt.Errorf("linear: stride %d is not a power of 2", stride)
	}
	if log2(size)+log2(stride) > MaxBits {
		return Layout{}, fmt.Errorf("linear: size %d × stride %d has more than %d bits", size, stride, MaxBits)
	}
	bases := make([][]int, 0, log2(size))
	for i := 1; i < size; i *= 2 {
		bases = append(bases, []int{i * stride})
	}
	return New([]InDim{{in, bases}}, []OutDim{{out, stride * size}}, stride == 1)
}

// NumInDims returns the number of input dimensions.
func (l Layout) NumInDims() int { return len(l.ins) }

// NumOutDims returns the number of output dimensions.
func (l Layout) NumOutDims() int { return len(l.outs) }

// InDimNames returns the input dimension names, in order (minor to major).
func (l Layout) InDimNames() []string { return names(l.ins) }

// OutDimNames returns the output dimension names, in order (minor to major).
func (l Layout) OutDimNames() []string { return names(l.outs) }

func names(ds []dim) []string {
	r := make([]string, len(ds))
	for i, d := range ds {
		r[i] = d.name
	}
	return r
}

// InDims returns the input dimensions with a copy of their bases, in order.
func (l Layout) InDims() []InDim {
	r := make([]InDim, len(l.ins))
	for i, d := range l.ins {
		r[i] = InDim{d.name, l.dimBases(d)}
	}
	return r
}

// OutDims returns the output dimensions with their sizes, in order.
func (l Layout) OutDims() []OutDim {
	r := make([]OutDim, len(l.outs))
	for j, d := range l.outs {
		r[j] = OutDim{d.name, 1 << uint(d.log2)}
	}
	return r
}

func (l Layout) dimBases(d dim) [][]int {
	r := make([][]int, d.log2)
	for b := range r {
		r[b] = l.unpack(l.cols[d.off+b])
	}
	return r
}

// unpack splits a packed output value into one coordinate per out-dim.
func (l Layout) unpack(v uint64) []int {
	r := make([]int, len(l.outs))
	for j, o := range l.outs {
		r[j] = int(v >> uint(o.off) & mask(o.log2))
	}
	return r
}

func find(ds []dim, name string) int {
	for i, d := range ds {
		if d.name == name {
			return i
		}
	}
	return -1
}

// InDimIndex returns the position of the named input dimension, or -1.
func (l Layout) InDimIndex(name string) int { return find(l.ins, name) }

// OutDimIndex returns the position of the named output dimension, or -1.
func (l Layout) OutDimIndex(name string) int { return find(l.outs, name) }

// HasInDim reports whether the layout has the named input dimension.
func (l Layout) HasInDim(name string) bool { return find(l.ins, name) >= 0 }

// HasOutDim reports whether the layout has the named output dimension.
func (l Layout) HasOutDim(name string) bool { return find(l.outs, name) >= 0 }

// InDimSizeLog2 returns log2 of the named input dimension's size (its number
// of bases), or 0 if the layout has no such dimension.
func (l Layout) InDimSizeLog2(name string) int {
	if i := find(l.ins, name); i >= 0 {
		return l.ins[i].log2
	}
	return 0
}

// InDimSize returns the named input dimension's size, or 0 if absent.
func (l Layout) InDimSize(name string) int {
	if i := find(l.ins, name); i >= 0 {
		return 1 << uint(l.ins[i].log2)
	}
	return 0
}

// OutDimSizeLog2 returns log2 of the named output dimension's size, or 0 if
// the layout has no such dimension.
func (l Layout) OutDimSizeLog2(name string) int {
	if j := find(l.outs, name); j >= 0 {
		return l.outs[j].log2
	}
	return 0
}

// OutDimSize returns the named output dimension's size, or 0 if absent.
func (l Layout) OutDimSize(name string) int {
	if j := find(l.outs, name); j >= 0 {
		return 1 << uint(l.outs[j].log2)
	}
	return 0
}

// TotalInDimSizeLog2 returns the number of input bits (Σ log2 in-dim sizes).
func (l Layout) TotalInDimSizeLog2() int { return len(l.cols) }

// TotalInDimSize returns the number of input points (Π in-dim sizes).
func (l Layout) TotalInDimSize() int { return 1 << uint(len(l.cols)) }

// TotalOutDimSizeLog2 returns the number of output bits (Σ log2 out-dim sizes).
func (l Layout) TotalOutDimSizeLog2() int { return outBits(l.outs) }

func outBits(outs []dim) int {
	if len(outs) == 0 {
		return 0
	}
	last := outs[len(outs)-1]
	return last.off + last.log2
}

// TotalOutDimSize returns the number of output points (Π out-dim sizes).
func (l Layout) TotalOutDimSize() int { return 1 << uint(l.TotalOutDimSizeLog2()) }

// Basis returns a copy of L(in = 2^i): one coordinate per output dimension.
// It returns nil if there is no such input dimension or basis.
func (l Layout) Basis(in string, i int) []int {
	k := find(l.ins, in)
	if k < 0 || i < 0 || i >= l.ins[k].log2 {
		return nil
	}
	return l.unpack(l.cols[l.ins[k].off+i])
}

// BasisValue returns the out-dim coordinate of L(in = 2^i), or 0 if the
// layout has no such input dimension, basis or output dimension.
func (l Layout) BasisValue(in string, i int, out string) int {
	k, j := find(l.ins, in), find(l.outs, out)
	if k < 0 || j < 0 || i < 0 || i >= l.ins[k].log2 {
		return 0
	}
	o := l.outs[j]
	return int(l.cols[l.ins[k].off+i] >> uint(o.off) & mask(o.log2))
}

// Bases returns a copy of the bases of the named input dimension (nil if
// absent): Bases(in)[i] is L(in = 2^i).
func (l Layout) Bases(in string) [][]int {
	k := find(l.ins, in)
	if k < 0 {
		return nil
	}
	return l.dimBases(l.ins[k])
}

// Columns returns a copy of the packed basis vectors, one per input bit in
// matrix-column order (in-dims in order, low bit first). In each, out-dim j
// occupies the bits starting at Σ_{k<j} OutDimSizeLog2(k).
func (l Layout) Columns() []uint64 { return slices.Clone(l.cols) }

// Matrix returns Triton's bit matrix (getMatrix): one row per output bit
// (out-dims in order, low bit first) with bit c set when input bit c (in
// column order) flips that output bit.
func (l Layout) Matrix() []uint64 {
	rows := make([]uint64, l.TotalOutDimSizeLog2())
	for c, v := range l.cols {
		for v != 0 {
			r := bits.TrailingZeros64(v)
			rows[r] |= 1 << uint(c)
			v &= v - 1
		}
	}
	return rows
}

// Rank returns the rank over GF(2) of the layout's bit matrix: the log2 of
// the number of distinct output points.
func (l Layout) Rank() int { return l.rank }

// IsSurjective reports whether every output point is L(x) for some x.
func (l Layout) IsSurjective() bool { return l.rank == l.TotalOutDimSizeLog2() }

// IsInjective reports whether distinct inputs map to distinct outputs.
func (l Layout) IsInjective() bool { return l.rank == len(l.cols) }

// IsInvertible reports whether the layout is a bijection: surjective with as
// many input points as output points.
func (l Layout) IsInvertible() bool {
	return l.IsSurjective() && len(l.cols) == l.TotalOutDimSizeLog2()
}

// Apply evaluates the layout: ins are the input coordinates in in-dim order,
// the result holds one coordinate per out-dim, in order. As in Triton, bits
// of an input above its dimension's size are ignored; missing trailing
// inputs count as 0 and extra ones are ignored.
func (l Layout) Apply(ins ...int) []int {
	out := make([]int, len(l.outs))
	l.ApplyInto(out, ins...)
	return out
}

// ApplyInto is Apply writing its result into out, without allocating. It
// writes min(len(out), NumOutDims()) coordinates.
func (l Layout) ApplyInto(out []int, ins ...int) {
	// applyPacked, written out: one call less on the hot path.
	var x uint64
	n := min(len(ins), len(l.ins))
	for i := 0; i < n; i++ {
		d := &l.ins[i]
		x |= uint64(ins[i]) & mask(d.log2) << uint(d.off)
	}
	var v uint64
	cols := l.cols
	for x != 0 {
		c := bits.TrailingZeros64(x)
		if c >= len(cols) {
			break
		}
		v ^= cols[c]
		x &= x - 1
	}
	n = min(len(out), len(l.outs))
	for j := 0; j < n; j++ {
		o := &l.outs[j]
		out[j] = int(v >> uint(o.off) & mask(o.log2))
	}
}

func (l Layout) applyPacked(ins []int) uint64 {
	// Gather the input bits into one word (bit c = column c), then XOR the
	// columns of its set bits.
	var x uint64
	n := min(len(ins), len(l.ins))
	for i := 0; i < n; i++ {
		d := &l.ins[i]
		x |= uint64(ins[i]) & mask(d.log2) << uint(d.off)
	}
	var acc uint64
	cols := l.cols
	for x != 0 {
		c := bits.TrailingZeros64(x)
		if c >= len(cols) {
			break
		}
		acc ^= cols[c]
		x &= x - 1
	}
	return acc
}

// ApplyBits evaluates the layout on a flattened input: bit c of x is input
// bit c in matrix-column order (in-dims in order, low bit first). The result
// is packed the same way, out-dims in order, low bit first.
func (l Layout) ApplyBits(x uint64) uint64 {
	x &= mask(len(l.cols))
	var acc uint64
	for x != 0 {
		acc ^= l.cols[bits.TrailingZeros64(x)]
		x &= x - 1
	}
	return acc
}

// ApplyNamed evaluates the layout on named inputs, which must name every
// in-dim exactly once, in any order. The result names every out-dim in order.
func (l Layout) ApplyNamed(ins []Coord) ([]Coord, error) {
	vals := make([]int, len(l.ins))
	seen := make([]bool, len(l.ins))
	for _, c := range ins {
		i := find(l.ins, c.Name)
		if i < 0 {
			return nil, fmt.Errorf("linear: apply: layout has no in-dim %q", c.Name)
		}
		if seen[i] {
			return nil, fmt.Errorf("linear: apply: in-dim %q given twice", c.Name)
		}
		seen[i], vals[i] = true, c.Value
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("linear: apply: no value for in-dim %q", l.ins[i].name)
		}
	}
	v := l.applyPacked(vals)
	r := make([]Coord, len(l.outs))
	for j, o := range l.outs {
		r[j] = Coord{o.name, int(v >> uint(o.off) & mask(o.log2))}
	}
	return r, nil
}

// Equal reports whether two layouts are equal as Triton defines it: the same
// in-dims in the same order with the same bases, and the same out-dims in the
// same order with the same sizes.
func (l Layout) Equal(o Layout) bool {
	// A dim's offset follows from the sizes before it, so equal dims have
	// equal offsets, and equal layouts equal packed columns.
	return dimsEqual(l.ins, o.ins) && dimsEqual(l.outs, o.outs) && slices.Equal(l.cols, o.cols)
}

// EqualIgnoringOutDimSizes is Equal without comparing out-dim sizes: the
// out-dim names (in order), in-dims (in order) and bases must be equal.
func (l Layout) EqualIgnoringOutDimSizes(o Layout) bool {
	if len(l.ins) != len(o.ins) || len(l.outs) != len(o.outs) {
		return false
	}
	for i := range l.ins {
		if l.ins[i].name != o.ins[i].name || l.ins[i].log2 != o.ins[i].log2 {
			return false
		}
	}
	for j := range l.outs {
		if l.outs[j].name != o.outs[j].name {
			return false
		}
	}
	if dimsEqual(l.outs, o.outs) {
		return slices.Equal(l.cols, o.cols)
	}
	for c := range l.cols {
		for j := range l.outs {
			a, b := l.outs[j], o.outs[j]
			if l.cols[c]>>uint(a.off)&mask(a.log2) != o.cols[c]>>uint(b.off)&mask(b.log2) {
				return false
			}
		}
	}
	return true
}

func dimsEqual(a, b []dim) bool { return slices.Equal(a, b) }

// EqualIgnoringOrder reports whether two layouts are the same function up to
// the order of their dimensions: the same in-dims with the same bases and the
// same out-dims with the same sizes, each in any order.
func (l Layout) EqualIgnoringOrder(o Layout) bool {
	if len(l.ins) != len(o.ins) || len(l.outs) != len(o.outs) {
		return false
	}
	ot, err := o.TransposeIns(l.InDimNames())
	if err != nil {
		return false
	}
	ot, err = ot.TransposeOuts(l.OutDimNames())
	if err != nil {
		return false
	}
	return l.Equal(ot)
}
