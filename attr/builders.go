package attr

import (
	"errors"
	"slices"

	"github.com/layoutopt/layoutopt/internal/suggest"
	"github.com/layoutopt/layoutopt/linear"
)

// This file turns the generic body the parser read (args) into encoding
// values: one builder per attribute name.

// args is the parsed body of one attribute, as the builders see it.
type args struct {
	p                   *parser
	start               int
	name                string // canonical attribute name
	fields              []field
	intervals, paddings []int
}

func (a *args) get(key string) *field {
	for i := range a.fields {
		if a.fields[i].key == key {
			return &a.fields[i]
		}
	}
	return nil
}

// locate turns a builder error into a located *Error.
func (a *args) locate(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	off := a.start
	var fe *FieldError
	if errors.As(err, &fe) {
		if f := a.get(fe.Field); f != nil {
			off = f.off
		}
	}
	return &Error{Offset: off, Msg: err.Error()}
}

// strict rejects keys outside allowed (Triton's "unexpected key: …",
// with a "did you mean" hint when one of allowed is close).
func (a *args) strict(allowed ...string) error {
	for _, f := range a.fields {
		if f.key == "intervals" && a.intervals != nil {
			continue
		}
		if !slices.Contains(allowed, f.key) {
			return a.p.errf(f.off, "unexpected key: %s%s", f.key, suggest.Hint(f.key, allowed))
		}
	}
	return nil
}

// strictPadded is strict with the message of Triton's padded_shared
// parser: `Unexpected attribute "X" found`.
func (a *args) strictPadded(allowed ...string) error {
	for _, f := range a.fields {
		if f.key == "intervals" && a.intervals != nil {
			continue
		}
		if !slices.Contains(allowed, f.key) {
			return a.p.errf(f.off, "Unexpected attribute \"%s\" found%s", f.key, suggest.Hint(f.key, allowed))
		}
	}
	return nil
}

func (a *args) require(keys ...string) error {
	for _, k := range keys {
		if a.get(k) == nil {
			return a.p.errf(a.start, "#%s: missing key '%s'", a.name, k)
		}
	}
	return nil
}

func (a *args) uintOf(v value, desc string) (int, error) {
	if v.kind != vInt {
		return 0, a.p.errf(v.off, "expected an integer value in %s, found %s", desc, kindNames[v.kind])
	}
	if v.num < 0 {
		return 0, a.p.errf(v.off, "expected an unsigned integer value in %s", desc)
	}
	return int(v.num), nil
}

// uint reads an optional unsigned integer field into dst.
func (a *args) uint(key string, dst *int) error {
	f := a.get(key)
	if f == nil {
		return nil
	}
	n, err := a.uintOf(f.val, key)
	*dst = n
	return err
}

func (a *args) boolean(key string, dst *bool) error {
	f := a.get(key)
	if f == nil {
		return nil
	}
	if f.val.kind != vBool {
		return a.p.errf(f.val.off, "expected a bool type in %s", key)
	}
	*dst = f.val.b
	return nil
}

func (a *args) intsOf(v value, desc string) ([]int, error) {
	if v.kind != vArray {
		return nil, a.p.errf(v.off, "expected an array for %s", desc)
	}
	r := make([]int, 0, len(v.elems))
	for _, e := range v.elems {
		n, err := a.uintOf(e, desc)
		if err != nil {
			return nil, err
		}
		r = append(r, n)
	}
	return r, nil
}

// ints reads an optional array-of-unsigned field (nil when absent).
func (a *args) ints(key string) ([]int, error) {
	f := a.get(key)
	if f == nil {
		return nil, nil
	}
	return a.intsOf(f.val, key)
}

// bases reads an array of integer arrays.
func (a *args) bases(key string) ([][]int, error) {
	f := a.get(key)
	if f == nil {
		return nil, nil
	}
	if f.val.kind != vArray {
		return nil, a.p.errf(f.val.off, "Expected array of arrays for basis of '%s'", key)
	}
	r := make([][]int, 0, len(f.val.elems))
	for _, e := range f.val.elems {
		if e.kind != vArray {
			return nil, a.p.errf(e.off, "Expected array of integers in basis for '%s'", key)
		}
		b, err := a.intsOf(e, "basis for '"+key+"'")
		if err != nil {
			return nil, err
		}
		r = append(r, b)
	}
	return r, nil
}

func (a *args) encoding(key string) (Encoding, *field, error) {
	f := a.get(key)
	if f == nil {
		return nil, nil, nil
	}
	if f.val.kind != vEnc {
		return nil, f, a.p.errf(f.val.off, "expected an attribute for %s", key)
	}
	return f.val.enc, f, nil
}

// cga reads CGALayout, or the legacy CTAsPerCGA / CTASplitNum / CTAOrder.
func (a *args) cga(rank int) (CGALayout, error) {
	if f := a.get("CGALayout"); f != nil {
		if f.val.kind != vArray {
			return CGALayout{}, a.p.errf(f.val.off, "expected array value for 'CGALayout'")
		}
		var c CGALayout
		for _, e := range f.val.elems {
			b, err := a.intsOf(e, "CGALayout entry")
			if err != nil {
				return c, err
			}
			if len(b) != rank {
				return c, a.p.errf(e.off, "'CGALayout' entry length does not match rank %d", rank)
			}
			c.Bases = append(c.Bases, b)
		}
		if err := c.verify(rank); err != nil {
			return c, a.p.errf(f.val.off, "%v", err)
		}
		return c, nil
	}
	ctas, err := a.ints("CTAsPerCGA")
	if err != nil {
		return CGALayout{}, err
	}
	split, err := a.ints("CTASplitNum")
	if err != nil {
		return CGALayout{}, err
	}
	order, err := a.ints("CTAOrder")
	if err != nil {
		return CGALayout{}, err
	}
	if ctas == nil && split == nil && order == nil {
		return CGALayout{}, nil
	}
	if ctas == nil {
		ctas = slices.Repeat([]int{1}, rank)
	}
	if split == nil {
		split = ctas
	}
	if order == nil {
		for d := rank - 1; d >= 0; d-- {
			order = append(order, d)
		}
	}
	key := "CTAOrder"
	if a.get(key) == nil {
		key = "CTAsPerCGA"
	}
	if len(order) != rank || len(ctas) != rank || len(split) != rank {
		return CGALayout{}, ferrf(key, "CTAsPerCGA, CTASplitNum and CTAOrder must have %d entries (the rank)", rank)
	}
	c, err := CGAFromSplit(ctas, split, order)
	return c, ferr(key, err)
}

var cgaKeys = []string{"CGALayout", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}

type builder func(a *args) (Encoding, error)

var builders map[string]builder

func init() {
	builders = map[string]builder{
		"ttg.blocked":                 buildBlocked,
		"ttg.linear":                  buildLinear,
		"ttg.slice":                   buildSlice,
		"ttg.nvidia_mma":              buildNvidiaMma,
		"ttg.dot_op":                  buildDotOp,
		"ttg.amd_mfma":                buildMfma,
		"ttg.amd_wmma":                buildWmma,
		"ttg.swizzled_shared":         buildSwizzled,
		"ttg.amd_rotating_shared":     buildSwizzled,
		"ttg.nvmma_shared":            buildNVMMAShared,
		"ttg.padded_shared":           buildPadded,
		"ttg.shared_linear":           buildSharedLinear,
		"ttg.shared_memory":           nil,
		"ttng.tensor_memory_encoding": buildTensorMemory,
		"ttng.tensor_memory":          nil,
	}
}

func buildBlocked(a *args) (Encoding, error) {
	if err := firstErr(a.strict(append([]string{"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"}, cgaKeys...)...),
		a.require("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order")); err != nil {
		return nil, err
	}
	b := &Blocked{}
	var errs [4]error
	b.SizePerThread, errs[0] = a.ints("sizePerThread")
	b.ThreadsPerWarp, errs[1] = a.ints("threadsPerWarp")
	b.WarpsPerCTA, errs[2] = a.ints("warpsPerCTA")
	b.Order, errs[3] = a.ints("order")
	if err := firstErr(errs[:]...); err != nil {
		return nil, err
	}
	var err error
	if b.CGA, err = a.cga(len(b.SizePerThread)); err != nil {
		return nil, err
	}
	return b, b.check()
}

func buildLinear(a *args) (Encoding, error) {
	l := &LinearEncoding{}
	dst := []*[][]int{&l.Register, &l.Lane, &l.Warp, &l.Block}
	for i, k := range linearDims {
		if a.get(k) == nil {
			return nil, a.p.errf(a.start, "Expected basis of '%s' not found", k)
		}
		var err error
		if *dst[i], err = a.bases(k); err != nil {
			return nil, err
		}
	}
	if err := a.strict(linearDims...); err != nil {
		return nil, err
	}
	return l, l.check()
}

func distributedParent(a *args) (Distributed, error) {
	e, f, err := a.encoding("parent")
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, a.p.errf(a.start, "missing key 'parent'")
	}
	d, ok := e.(Distributed)
	if !ok {
		return nil, a.p.errf(f.val.off, "expected a distributed encoding trait, got #%s", e.Name())
	}
	return d, nil
}

func buildSlice(a *args) (Encoding, error) {
	if err := firstErr(a.strict("dim", "parent"), a.require("dim", "parent")); err != nil {
		return nil, err
	}
	s := &Slice{}
	if err := a.uint("dim", &s.Dim); err != nil {
		return nil, err
	}
	var err error
	if s.Parent, err = distributedParent(a); err != nil {
		return nil, err
	}
	return s, s.check()
}

func buildDotOp(a *args) (Encoding, error) {
	if err := firstErr(a.strict("opIdx", "parent", "kWidth"), a.require("opIdx", "parent")); err != nil {
		return nil, err
	}
	d := &DotOperand{}
	if err := firstErr(a.uint("opIdx", &d.OpIdx), a.uint("kWidth", &d.KWidth)); err != nil {
		return nil, err
	}
	var err error
	if d.Parent, err = distributedParent(a); err != nil {
		return nil, err
	}
	return d, d.check()
}

// The nvidia_mma, amd_mfma and amd_wmma builders ignore keys they do not
// know, as Triton's parsers for them do; the others reject them.

func buildNvidiaMma(a *args) (Encoding, error) {
	if err := a.require("versionMajor", "warpsPerCTA", "instrShape"); err != nil {
		return nil, err
	}
	m := &NvidiaMma{}
	var e1, e2 error
	m.WarpsPerCTA, e1 = a.ints("warpsPerCTA")
	m.InstrShape, e2 = a.ints("instrShape")
	if err := firstErr(a.uint("versionMajor", &m.VersionMajor), a.uint("versionMinor", &m.VersionMinor), e1, e2); err != nil {
		return nil, err
	}
	var err error
	if m.CGA, err = a.cga(len(m.WarpsPerCTA)); err != nil {
		return nil, err
	}
	return m, m.verifyAttr()
}

func buildMfma(a *args) (Encoding, error) {
	m := &AMDMfma{ElementBitWidth: 32}
	vkey := "version"
	if a.get(vkey) == nil && a.get("versionMajor") != nil {
		vkey = "versionMajor" // the pre-3.4 spelling
	}
	// Triton's parser leaves an absent version at 0.
	if err := a.require("warpsPerCTA", "instrShape"); err != nil {
		return nil, err
	}
	var e [3]error
	m.WarpsPerCTA, e[0] = a.ints("warpsPerCTA")
	m.InstrShape, e[1] = a.ints("instrShape")
	m.TilesPerWarp, e[2] = a.ints("tilesPerWarp")
	if err := firstErr(a.uint(vkey, &m.Version), a.boolean("isTransposed", &m.IsTransposed),
		a.uint("elementBitWidth", &m.ElementBitWidth), e[0], e[1], e[2]); err != nil {
		return nil, err
	}
	var err error
	if m.CGA, err = a.cga(len(m.WarpsPerCTA)); err != nil {
		return nil, err
	}
	return m, m.check()
}

func buildWmma(a *args) (Encoding, error) {
	if err := a.require("version", "warpsPerCTA"); err != nil {
		return nil, err
	}
	w := &AMDWmma{InstrShape: slices.Clone(defaultWmmaInstr)}
	var e [3]error
	w.WarpsPerCTA, e[0] = a.ints("warpsPerCTA")
	w.TilesPerWarp, e[1] = a.ints("tilesPerWarp")
	if a.get("instrShape") != nil {
		w.InstrShape, e[2] = a.ints("instrShape")
	}
	if err := firstErr(a.uint("version", &w.Version), a.boolean("isTranspose", &w.IsTransposed), e[0], e[1], e[2]); err != nil {
		return nil, err
	}
	var err error
	if w.CGA, err = a.cga(len(w.WarpsPerCTA)); err != nil {
		return nil, err
	}
	return w, w.check()
}

func buildSwizzled(a *args) (Encoding, error) {
	if err := firstErr(a.strict(append([]string{"vec", "perPhase", "maxPhase", "order"}, cgaKeys...)...),
		a.require("vec", "perPhase", "maxPhase", "order")); err != nil {
		return nil, err
	}
	var vec, perPhase, maxPhase int
	order, err := a.ints("order")
	if err := firstErr(err, a.uint("vec", &vec), a.uint("perPhase", &perPhase), a.uint("maxPhase", &maxPhase)); err != nil {
		return nil, err
	}
	cga, err := a.cga(len(order))
	if err != nil {
		return nil, err
	}
	if err := checkSwizzled(vec, perPhase, maxPhase, order, cga); err != nil {
		return nil, err
	}
	if a.name == "ttg.amd_rotating_shared" {
		return &AMDRotatingShared{vec, perPhase, maxPhase, order, cga}, nil
	}
	return &SwizzledShared{vec, perPhase, maxPhase, order, cga}, nil
}

func buildNVMMAShared(a *args) (Encoding, error) {
	if err := firstErr(a.strict(append([]string{"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank"}, cgaKeys...)...),
		a.require("swizzlingByteWidth")); err != nil {
		return nil, err
	}
	if f := a.get("elementBitWidth"); f != nil && f.val.kind == vInt && f.val.num == 0 {
		return nil, a.p.errf(f.val.off, "elementBitWidth must be a non-zero power of two")
	}
	s := &NVMMAShared{LayoutRank: 2}
	if err := firstErr(a.uint("swizzlingByteWidth", &s.SwizzlingByteWidth), a.boolean("transposed", &s.Transposed),
		a.uint("elementBitWidth", &s.ElementBitWidth), a.boolean("fp4Padded", &s.FP4Padded), a.uint("rank", &s.LayoutRank)); err != nil {
		return nil, err
	}
	var err error
	if s.CGA, err = a.cga(s.LayoutRank); err != nil {
		return nil, err
	}
	return s, s.check()
}

func buildPadded(a *args) (Encoding, error) {
	p := &PaddedShared{Intervals: a.intervals, Paddings: a.paddings}
	if a.get("offset") != nil || a.get("block") != nil {
		if err := a.strictPadded(sharedLinearDims...); err != nil {
			return nil, err
		}
		for _, k := range sharedLinearDims {
			if a.get(k) == nil {
				return nil, a.p.errf(a.start, "Expected basis of '%s' not found", k)
			}
		}
		var e1, e2 error
		p.Offset, e1 = a.bases("offset")
		p.Block, e2 = a.bases("block")
		if err := firstErr(e1, e2); err != nil {
			return nil, err
		}
		if err := checkLinearBases(sharedLinearDims, true, [][][]int{p.Offset, p.Block}); err != nil {
			return nil, err
		}
		outs, err := linear.InferredOutDims([]linear.InDim{{Name: "offset", Bases: p.Offset}, {Name: "block", Bases: p.Block}},
			standardDims(len(firstBasis(p.Offset, p.Block))))
		if err != nil {
			return nil, a.p.errf(a.start, "%v", err)
		}
		for _, o := range outs {
			p.Shape = append(p.Shape, o.Size)
		}
	} else {
		if err := a.strictPadded("order", "shape"); err != nil {
			return nil, err
		}
		order, e1 := a.ints("order")
		shape, e2 := a.ints("shape")
		if err := firstErr(e1, e2); err != nil {
			return nil, err
		}
		if len(order) != len(shape) || len(order) == 0 {
			return nil, a.p.errf(a.start, "Mismatch of shape and order ranks in padded layout")
		}
		if err := firstErr(ferr("order", checkPermutation("order", order)), ferr("shape", checkPow2s("shape", shape))); err != nil {
			return nil, err
		}
		p.Shape = shape
		var ok bool
		if p.Offset, ok = identityOffsets(shape, order); !ok {
			return nil, a.p.errf(a.start, "shape %s and order %s do not make a layout", fmtInts(shape), fmtInts(order))
		}
	}
	if p.Block == nil {
		p.Block = [][]int{}
	}
	return p, p.check()
}

// firstBasis returns the first basis of the first non-empty list (nil if
// all are empty): its length is the rank the bases are written for.
func firstBasis(bs ...[][]int) []int {
	for _, b := range bs {
		if len(b) > 0 {
			return b[0]
		}
	}
	return nil
}

func buildSharedLinear(a *args) (Encoding, error) {
	if err := a.strict("offset", "block", "alignment"); err != nil {
		return nil, err
	}
	if a.get("offset") == nil {
		return nil, a.p.errf(a.start, "Expected basis of 'offset' not found")
	}
	s := &SharedLinear{}
	var e1, e2 error
	s.Offset, e1 = a.bases("offset")
	s.Block, e2 = a.bases("block")
	f := a.get("alignment")
	n, e3 := a.uintOf(f.val, "alignment")
	s.Alignment = n
	if err := firstErr(e1, e2, e3); err != nil {
		return nil, err
	}
	if s.Block == nil {
		s.Block = [][]int{}
	}
	return s, s.check()
}

func buildTensorMemory(a *args) (Encoding, error) {
	if err := firstErr(a.strict("blockM", "blockN", "colStride", "CTASplitM", "CTASplitN", "twoCTAs"),
		a.require("blockM", "blockN")); err != nil {
		return nil, err
	}
	m := &TensorMemory{ColStride: 1}
	if err := firstErr(a.uint("blockM", &m.BlockM), a.uint("blockN", &m.BlockN), a.uint("colStride", &m.ColStride),
		a.uint("CTASplitM", &m.CTASplitM), a.uint("CTASplitN", &m.CTASplitN), a.boolean("twoCTAs", &m.TwoCTAs)); err != nil {
		return nil, err
	}
	return m, m.check()
}
