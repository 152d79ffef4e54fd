package cute

import "fmt"

// wrapOp prefixes err with the operation and its operands.
func wrapOp(op string, a Layout, t Tiler, err error) error {
	return wrap(fmt.Sprintf("%s(%v, %s)", op, a, t.tilerString()), err)
}

// LogicalDivide is CuTe's A ⊘ B = A ∘ (B, complement(B, size(A))): a rank-2
// layout whose mode 0 is the tile (the elements B selects, A ∘ B) and whose
// mode 1 enumerates the tiles. With a by-mode tiler (By or a shape) it divides
// mode by mode and keeps the modes the tiler does not reach. Examples:
// (4,2,3):(2,1,8) ⊘ 4:2 is ((2,2),(2,3)):((4,1),(2,8)); a tile larger than A
// is allowed: 32:1 ⊘ 48:1 is (48,1):(1,0).
func LogicalDivide(a Layout, t Tiler) (Layout, error) {
	r, err := logicalDivide(a, t)
	if err != nil {
		return Layout{}, wrapOp("logical divide", a, t, err)
	}
	return r, nil
}

func logicalDivide(a Layout, t Tiler) (Layout, error) {
	return byModeOp(a, t, func(a Layout, b Layout) (Layout, error) {
		c, err := Complement(b, a.Size())
		if err != nil {
			return Layout{}, err
		}
		return compose(a, concat(b, c))
	})
}

// LogicalProduct is CuTe's A ⊗ B = (A, complement(A, size(A)·cosize(B)) ∘ B):
// mode 0 is A, mode 1 is B with each element replaced by a copy of A's
// footprint. With a by-mode tiler it multiplies mode by mode and keeps the
// modes the tiler does not reach. Examples: (2,2):(4,1) ⊗ 6:1 is
// ((2,2),(2,3)):((4,1),(2,8)); (2,5):(5,1) ⊗ <3:5,4:6> is
// ((2,3),(5,4)):((5,10),(1,30)).
func LogicalProduct(a Layout, t Tiler) (Layout, error) {
	r, err := logicalProduct(a, t)
	if err != nil {
		return Layout{}, wrapOp("logical product", a, t, err)
	}
	return r, nil
}

func logicalProduct(a Layout, t Tiler) (Layout, error) {
	return byModeOp(a, t, func(a Layout, b Layout) (Layout, error) {
		cot, err := mul(a.Size(), b.Cosize())
		if err != nil {
			return Layout{}, err
		}
		c, err := Complement(a, cot)
		if err != nil {
			return Layout{}, err
		}
		r, err := compose(c, b)
		if err != nil {
			return Layout{}, err
		}
		return concat(a, r), nil
	})
}

// byModeOp applies a 1-D divide or product f by mode along the tiler t.
func byModeOp(a Layout, t Tiler, f func(a, b Layout) (Layout, error)) (Layout, error) {
	if modes, ok := byModes(t); ok {
		if len(modes) == 0 {
			return Layout{}, errEmptyTiler
		}
		if len(modes) > a.Rank() {
			return Layout{}, errorf("tiler %s has more modes than the layout", t.tilerString())
		}
		out := a.Modes()
		for i, m := range modes {
			r, err := byModeOp(out[i], m, f)
			if err != nil {
				return Layout{}, err
			}
			out[i] = r
		}
		return concat(out...), nil
	}
	switch t := t.(type) {
	case Layout:
		r, err := f(a, t)
		if err != nil {
			return Layout{}, err
		}
		return finish(r)
	case IntTuple:
		b, err := MakeLayoutLeft(t)
		if err != nil {
			return Layout{}, err
		}
		return byModeOp(a, b, f)
	case keep:
		return a, nil
	}
	return Layout{}, errorf("unknown tiler %T", t)
}

// zip2By is CuTe's zip2_by: following the profile of the tiler, it gathers
// the (tile, rest) pairs that a by-mode divide or product leaves at the
// tiler's leaves into ((tiles…), (rests…, untouched modes…)).
func zip2By(x IntTuple, t Tiler) (IntTuple, error) {
	if _, ok := t.(keep); ok {
		return IntTuple{}, errorf("a mode left whole by _ has no (tile, rest) pair to zip")
	}
	modes, ok := byModes(t)
	if !ok {
		if !x.tuple || len(x.elems) != 2 {
			return IntTuple{}, errorf("%v is not a (tile, rest) pair", x)
		}
		return x, nil
	}
	if !x.tuple || len(x.elems) < len(modes) {
		return IntTuple{}, errorf("%v has fewer modes than the tiler %s", x, t.tilerString())
	}
	first := make([]IntTuple, len(modes))
	second := make([]IntTuple, 0, len(x.elems))
	for i, m := range modes {
		z, err := zip2By(x.elems[i], m)
		if err != nil {
			return IntTuple{}, err
		}
		first[i] = z.elems[0]
		second = append(second, z.elems[1])
	}
	second = append(second, x.elems[len(modes):]...)
	return Tuple(tupleOf(first), tupleOf(second)), nil
}

func tileUnzip(l Layout, t Tiler) (Layout, error) {
	s, err := zip2By(l.shape, t)
	if err != nil {
		return Layout{}, err
	}
	d, err := zip2By(l.stride, t)
	if err != nil {
		return Layout{}, err
	}
	return build(s, d), nil
}

// unpack returns the top-level modes of m, or m itself if its shape is an
// integer (CuTe's slicing with a tuple of underscores).
func unpack(m Layout) []Layout {
	if !m.shape.tuple {
		return []Layout{m}
	}
	return m.Modes()
}

// zipped applies op, gathers the result as ((tiles…),(rests…)) and returns
// it in the given form: asZipped, unpackRest or unpackBoth.
func zipped(name string, op func(Layout, Tiler) (Layout, error), form func(Layout) Layout, a Layout, t Tiler) (Layout, error) {
	r, err := op(a, t)
	if err != nil {
		return Layout{}, wrapOp(name, a, t, err)
	}
	if r, err = tileUnzip(r, t); err != nil {
		return Layout{}, wrapOp(name, a, t, err)
	}
	return form(r), nil
}

// asZipped keeps the zipped form ((tiles…),(rests…)).
func asZipped(z Layout) Layout { return z }

// unpackRest turns a zipped ((tiles…),(rests…)) into the tiled form
// ((tiles…),rests…).
func unpackRest(z Layout) Layout {
	return concat(append([]Layout{z.Mode(0)}, unpack(z.Mode(1))...)...)
}

// unpackBoth turns a zipped ((tiles…),(rests…)) into the flat form
// (tiles…,rests…).
func unpackBoth(z Layout) Layout {
	return concat(append(unpack(z.Mode(0)), unpack(z.Mode(1))...)...)
}

// ZippedDivide is LogicalDivide with the tiles gathered into mode 0 and the
// rests into mode 1: for A of shape (M,N,L,…) and tiler <TM,TN> the result
// has shape ((TM,TN),(RM,RN,L,…)). With a Layout tiler it equals
// LogicalDivide. Mode 0 of the result is A ∘ B.
func ZippedDivide(a Layout, t Tiler) (Layout, error) {
	return zipped("zipped divide", logicalDivide, asZipped, a, t)
}

// TiledDivide is ZippedDivide with mode 1 unpacked: ((TM,TN),RM,RN,L,…).
func TiledDivide(a Layout, t Tiler) (Layout, error) {
	return zipped("tiled divide", logicalDivide, unpackRest, a, t)
}

// FlatDivide is ZippedDivide with both modes unpacked: (TM,TN,RM,RN,L,…).
func FlatDivide(a Layout, t Tiler) (Layout, error) {
	return zipped("flat divide", logicalDivide, unpackBoth, a, t)
}

// ZippedProduct is LogicalProduct gathered as ((M,N),(TM,TN,L,…)).
func ZippedProduct(a Layout, t Tiler) (Layout, error) {
	return zipped("zipped product", logicalProduct, asZipped, a, t)
}

// TiledProduct is ZippedProduct with mode 1 unpacked: ((M,N),TM,TN,L,…).
func TiledProduct(a Layout, t Tiler) (Layout, error) {
	return zipped("tiled product", logicalProduct, unpackRest, a, t)
}

// FlatProduct is ZippedProduct with both modes unpacked: (M,N,TM,TN,L,…).
func FlatProduct(a Layout, t Tiler) (Layout, error) {
	return zipped("flat product", logicalProduct, unpackBoth, a, t)
}

// padRank is CuTe's append<R>(layout): l as a tuple of R modes, padded with
// 1:0 modes.
func padRank(l Layout, r int) Layout {
	modes := l.Modes()
	for len(modes) < r {
		modes = append(modes, build(Int(1), Int(0)))
	}
	return concat(modes...)
}

// rankProduct is the shared body of BlockedProduct and RakedProduct.
func rankProduct(name string, a, b Layout, raked bool) (Layout, error) {
	r := max(a.Rank(), b.Rank())
	pa, pb := padRank(a, r), padRank(b, r)
	p, err := logicalProduct(pa, pb)
	if err != nil {
		return Layout{}, wrap(fmt.Sprintf("%s(%v, %v)", name, a, b), err)
	}
	blocks, tiles := p.Mode(0).Modes(), p.Mode(1).Modes()
	out := make([]Layout, r)
	for i := range out {
		if raked {
			out[i] = concat(tiles[i], blocks[i])
		} else {
			out[i] = concat(blocks[i], tiles[i])
		}
	}
	return concat(out...), nil
}

// BlockedProduct reproduces the block a over the tiler b, mode by mode: both
// are padded with 1:0 modes to the larger rank R, P = a ⊗ b is taken as a 1-D
// product, and mode i of the result is (P₀ᵢ, P₁ᵢ), the block's mode followed
// by the tiler's. Like CuTe C++ since 3.8, it does not coalesce. Examples:
// (3,2):(1,3) ⊠ (2,5):(1,2) is ((3,2),(2,5)):((1,6),(3,12)); 4:1 ⊠
// (2,3):(1,2) is ((4,2),(1,3)):((1,4),(0,8)).
func BlockedProduct(a, b Layout) (Layout, error) { return rankProduct("blocked product", a, b, false) }

// RakedProduct is BlockedProduct with each mode's pair the other way round,
// (P₁ᵢ, P₀ᵢ), which interleaves the copies of the block (a cyclic
// distribution): (3,2):(1,3) and (2,5):(1,2) give ((2,3),(5,2)):((6,1),(12,3)).
func RakedProduct(a, b Layout) (Layout, error) { return rankProduct("raked product", a, b, true) }

// TileToShape repeats block column-major until it has the shape target
// (CuTe's tile_to_shape with the default order): block is padded to the rank
// of target, each mode of target must be a multiple of the block's, and the
// result is the blocked product with the compact column-major layout of the
// repeat counts. Like CuTe C++ since 3.8 it does not coalesce: block
// (2,5):(5,1) and target (6,20) give ((2,3),(5,4)):((5,10),(1,30)).
func TileToShape(block Layout, target IntTuple) (Layout, error) {
	return tileToShape(block, target, IntTuple{}, false)
}

// TileToShapeOrder is TileToShape with the repeats laid out in the given
// mode order (see MakeOrderedLayout); order (1,0) repeats across mode 1
// first. With block (2,5):(5,1), target (6,20) and order (1,0) the result is
// ((2,3),(5,4)):((5,40),(1,10)).
func TileToShapeOrder(block Layout, target, order IntTuple) (Layout, error) {
	return tileToShape(block, target, order, true)
}

func tileToShape(block Layout, target, order IntTuple, ordered bool) (Layout, error) {
	fail := func(err error) (Layout, error) {
		return Layout{}, wrap(fmt.Sprintf("tile to shape(%v, %v)", block, target), err)
	}
	if err := checkShape(target); err != nil {
		return fail(err)
	}
	r := target.Rank()
	if block.Rank() > r {
		return fail(errorf("the block has more modes than the target shape"))
	}
	padded := padRank(block, r)
	counts := make([]int, r)
	for i, m := range padded.Modes() {
		t, bs := target.At(i).Product(), m.Size()
		if t%bs != 0 {
			return fail(notAdmissible("block mode size %d does not divide target size %d", bs, t))
		}
		counts[i] = t / bs
	}
	shape := Ints(counts...)
	if !target.tuple {
		shape = Int(counts[0])
	}
	var rep Layout
	var err error
	if ordered {
		rep, err = MakeOrderedLayout(shape, order)
	} else {
		rep, err = MakeLayoutLeft(shape)
	}
	if err != nil {
		return fail(err)
	}
	return BlockedProduct(padded, rep)
}

// Upcast reinterprets l for elements n times larger (CuTe's upcast<n>): in
// each leaf s:d with d != 0 the stride d and n must divide one another; the
// stride becomes sign(d)·⌈|d|/n⌉ and the size ⌈s/⌈n/|d|⌉⌉ (a partly covered
// new element counts). Stride-0 leaves are kept. Example: (4,3):(2,4) upcast
// by 4 is (2,3):(1,1). A stride that fails the divisibility condition is an
// error wrapping ErrNotAdmissible.
func Upcast(l Layout, n int) (Layout, error) {
	if n < 1 {
		return Layout{}, errorf("upcast of %v: factor %d is not positive", l, n)
	}
	fs, fd := make([]int, len(l.fs)), make([]int, len(l.fd))
	for k, s := range l.fs {
		d := l.fd[k]
		if d == 0 {
			fs[k], fd[k] = s, 0
			continue
		}
		ad := abs(d)
		if ad%n != 0 && n%ad != 0 {
			return Layout{}, notAdmissible("upcast of %v by %d: stride %d and %d divide neither way", l, n, d, n)
		}
		fs[k] = ceilDiv(s, ceilDiv(n, ad))
		fd[k] = sign(d) * ceilDiv(ad, n)
	}
	shape, _ := unflatten(fs, l.shape)
	stride, _ := unflatten(fd, l.stride)
	return build(shape, stride), nil
}

// Downcast reinterprets l for elements n times smaller (CuTe's downcast<n>):
// a leaf of stride ±1 gets n times the size, every other stride is
// multiplied by n. l must have a leaf of stride ±1 (adjacent elements).
// Example: (4,3):(1,4) downcast by 2 is (8,3):(1,8).
func Downcast(l Layout, n int) (Layout, error) {
	if n < 1 {
		return Layout{}, errorf("downcast of %v: factor %d is not positive", l, n)
	}
	fs, fd := make([]int, len(l.fs)), make([]int, len(l.fd))
	unit := false
	for k, s := range l.fs {
		d := l.fd[k]
		var err error
		if d == 1 || d == -1 {
			unit = true
			fs[k], err = mul(s, n)
			fd[k] = d
		} else {
			fs[k] = s
			fd[k], err = mul(d, n)
		}
		if err != nil {
			return Layout{}, err
		}
	}
	if !unit {
		return Layout{}, notAdmissible("downcast of %v: no mode of stride ±1 (adjacent elements)", l)
	}
	shape, _ := unflatten(fs, l.shape)
	stride, _ := unflatten(fd, l.stride)
	return finish(build(shape, stride))
}
