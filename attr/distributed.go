package attr

import (
	"fmt"
	"slices"
	"strings"

	"github.com/layoutopt/layoutopt/linear"
)

// Blocked is #ttg.blocked: each thread holds SizePerThread contiguous
// elements, the lanes of a warp tile ThreadsPerWarp, the warps of a CTA tile
// WarpsPerCTA, all walking the dims in Order (Order[0] fastest).
type Blocked struct {
	SizePerThread, ThreadsPerWarp, WarpsPerCTA, Order []int
	CGA                                               CGALayout
}

// LinearEncoding is #ttg.linear: a distributed layout given directly by the
// bases of its register, lane, warp and block input dims (each basis a
// vector of tensor rank).
type LinearEncoding struct {
	Register, Lane, Warp, Block [][]int
}

// Slice is #ttg.slice: the layout of Parent with tensor dim Dim removed.
type Slice struct {
	Dim    int
	Parent Distributed
}

// NvidiaMma is #ttg.nvidia_mma, the accumulator layout of mma.sync
// (VersionMajor 2, Ampere) and wgmma (3, Hopper).
type NvidiaMma struct {
	VersionMajor, VersionMinor int
	WarpsPerCTA                []int
	CGA                        CGALayout
	InstrShape                 []int
}

// DotOperand is #ttg.dot_op: the layout of operand OpIdx (0 = A, 1 = B) of a
// dot whose result has layout Parent; KWidth is the number of consecutive K
// elements a thread holds (0 = unset).
type DotOperand struct {
	OpIdx  int
	Parent Distributed
	KWidth int
}

// AMDMfma is #ttg.amd_mfma, the accumulator layout of AMD CDNA matrix cores.
type AMDMfma struct {
	Version         int
	WarpsPerCTA     []int
	InstrShape      []int
	IsTransposed    bool
	CGA             CGALayout
	TilesPerWarp    []int // nil or all ones = default
	ElementBitWidth int   // 32 (default) or 64
}

// AMDWmma is #ttg.amd_wmma, the accumulator layout of AMD RDNA WMMA.
type AMDWmma struct {
	Version      int
	IsTransposed bool
	WarpsPerCTA  []int
	TilesPerWarp []int // nil or all ones = default
	CGA          CGALayout
	InstrShape   []int // default [16, 16, 16]
}

func (*Blocked) distributed()        {}
func (*LinearEncoding) distributed() {}
func (*Slice) distributed()          {}
func (*NvidiaMma) distributed()      {}
func (*DotOperand) distributed()     {}
func (*AMDMfma) distributed()        {}
func (*AMDWmma) distributed()        {}

// Name implements Encoding.
func (*Blocked) Name() string { return "ttg.blocked" }

// Name implements Encoding.
func (*LinearEncoding) Name() string { return "ttg.linear" }

// Name implements Encoding.
func (*Slice) Name() string { return "ttg.slice" }

// Name implements Encoding.
func (*NvidiaMma) Name() string { return "ttg.nvidia_mma" }

// Name implements Encoding.
func (*DotOperand) Name() string { return "ttg.dot_op" }

// Name implements Encoding.
func (*AMDMfma) Name() string { return "ttg.amd_mfma" }

// Name implements Encoding.
func (*AMDWmma) Name() string { return "ttg.amd_wmma" }

// AliasPrefix implements Encoding.
func (*Blocked) AliasPrefix() string { return "blocked" }

// AliasPrefix implements Encoding.
func (*LinearEncoding) AliasPrefix() string { return "linear" }

// AliasPrefix implements Encoding: slices are printed inline.
func (*Slice) AliasPrefix() string { return "" }

// AliasPrefix implements Encoding.
func (*NvidiaMma) AliasPrefix() string { return "mma" }

// AliasPrefix implements Encoding: dot operands are printed inline.
func (*DotOperand) AliasPrefix() string { return "" }

// AliasPrefix implements Encoding.
func (*AMDMfma) AliasPrefix() string { return "mma" }

// AliasPrefix implements Encoding.
func (*AMDWmma) AliasPrefix() string { return "mma" }

// Rank implements Layout.
func (b *Blocked) Rank() int { return len(b.SizePerThread) }

// Rank implements Layout.
func (l *LinearEncoding) Rank() int { return len(firstBasis(l.Register, l.Lane, l.Warp, l.Block)) }

// Rank implements Layout.
func (s *Slice) Rank() int { return s.Parent.Rank() - 1 }

// Rank implements Layout.
func (m *NvidiaMma) Rank() int { return len(m.WarpsPerCTA) }

// Rank implements Layout.
func (d *DotOperand) Rank() int { return d.Parent.Rank() }

// Rank implements Layout.
func (m *AMDMfma) Rank() int { return len(m.WarpsPerCTA) }

// Rank implements Layout.
func (w *AMDWmma) Rank() int { return len(w.WarpsPerCTA) }

// Format implements Encoding.
func (b *Blocked) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.blocked<{")
	intsField(&sb, "", "sizePerThread", b.SizePerThread)
	intsField(&sb, ", ", "threadsPerWarp", b.ThreadsPerWarp)
	intsField(&sb, ", ", "warpsPerCTA", b.WarpsPerCTA)
	intsField(&sb, ", ", "order", b.Order)
	b.CGA.format(&sb)
	sb.WriteString("}>")
	return sb.String()
}

// Format implements Encoding.
func (l *LinearEncoding) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.linear<{")
	writeLinearDims(&sb, linearDims, l.bases())
	sb.WriteString("}>")
	return sb.String()
}

func writeLinearDims(sb *strings.Builder, names []string, bases [][][]int) {
	for i, n := range names {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(n)
		sb.WriteString(" = ")
		writeBases(sb, bases[i])
	}
}

// Format implements Encoding.
func (s *Slice) Format(ref func(Encoding) string) string {
	return fmt.Sprintf("#ttg.slice<{dim = %d, parent = %s}>", s.Dim, refOf(ref, s.Parent))
}

// Format implements Encoding.
func (m *NvidiaMma) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.nvidia_mma<{")
	intField(&sb, "", "versionMajor", m.VersionMajor)
	intField(&sb, ", ", "versionMinor", m.VersionMinor)
	intsField(&sb, ", ", "warpsPerCTA", m.WarpsPerCTA)
	m.CGA.format(&sb)
	intsField(&sb, ", ", "instrShape", m.InstrShape)
	sb.WriteString("}>")
	return sb.String()
}

// Format implements Encoding.
func (d *DotOperand) Format(ref func(Encoding) string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "#ttg.dot_op<{opIdx = %d, parent = %s", d.OpIdx, refOf(ref, d.Parent))
	if d.KWidth != 0 {
		intField(&sb, ", ", "kWidth", d.KWidth)
	}
	sb.WriteString("}>")
	return sb.String()
}

func allOnes(v []int) bool {
	for _, x := range v {
		if x != 1 {
			return false
		}
	}
	return true
}

// Format implements Encoding.
func (m *AMDMfma) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.amd_mfma<{")
	intField(&sb, "", "version", m.Version)
	intsField(&sb, ", ", "warpsPerCTA", m.WarpsPerCTA)
	intsField(&sb, ", ", "instrShape", m.InstrShape)
	boolField(&sb, ", ", "isTransposed", m.IsTransposed)
	m.CGA.format(&sb)
	if !allOnes(m.TilesPerWarp) {
		intsField(&sb, ", ", "tilesPerWarp", m.TilesPerWarp)
	}
	if m.ElementBitWidth != 32 {
		intField(&sb, ", ", "elementBitWidth", m.ElementBitWidth)
	}
	sb.WriteString("}>")
	return sb.String()
}

var defaultWmmaInstr = []int{16, 16, 16}

// Format implements Encoding.
func (w *AMDWmma) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.amd_wmma<{")
	intField(&sb, "", "version", w.Version)
	boolField(&sb, ", ", "isTranspose", w.IsTransposed)
	intsField(&sb, ", ", "warpsPerCTA", w.WarpsPerCTA)
	w.CGA.format(&sb)
	if !allOnes(w.TilesPerWarp) {
		intsField(&sb, ", ", "tilesPerWarp", w.TilesPerWarp)
	}
	if !slices.Equal(w.InstrShape, defaultWmmaInstr) {
		intsField(&sb, ", ", "instrShape", w.InstrShape)
	}
	sb.WriteString("}>")
	return sb.String()
}

// FieldError is what Verify returns: a bad value of one field of an
// encoding (Field is the key as written, e.g. "warpsPerCTA"), so that a
// caller holding the attribute's text can point at the key.
type FieldError struct {
	Field string
	Msg   string
}

// Error returns the message.
func (e *FieldError) Error() string { return e.Msg }

func ferr(field string, err error) error {
	if err == nil {
		return nil
	}
	return &FieldError{field, err.Error()}
}

func ferrf(field, format string, args ...any) error {
	return &FieldError{field, fmt.Sprintf(format, args...)}
}

func (b *Blocked) check() error {
	r := len(b.SizePerThread)
	if r == 0 {
		return ferrf("sizePerThread", "sizePerThread must not be empty")
	}
	return firstErr(
		ferr("sizePerThread", checkPow2s("sizePerThread", b.SizePerThread)),
		ferr("threadsPerWarp", checkLen("threadsPerWarp", b.ThreadsPerWarp, r)),
		ferr("threadsPerWarp", checkPow2s("threadsPerWarp", b.ThreadsPerWarp)),
		ferr("warpsPerCTA", checkLen("warpsPerCTA", b.WarpsPerCTA, r)),
		ferr("warpsPerCTA", checkPow2s("warpsPerCTA", b.WarpsPerCTA)),
		ferr("order", checkLen("order", b.Order, r)),
		ferr("order", checkPermutation("order", b.Order)),
		ferr("CGALayout", b.CGA.verify(r)),
	)
}

// Verify implements Encoding.
func (b *Blocked) Verify(m ModuleInfo) error {
	if err := b.check(); err != nil {
		return err
	}
	if p := product(b.ThreadsPerWarp); m.ThreadsPerWarp > 0 && p != m.ThreadsPerWarp {
		return ferrf("threadsPerWarp", "Layout has %d threads per warp, but the context requires %d threads per warp", p, m.ThreadsPerWarp)
	}
	return firstErr(ferr("warpsPerCTA", checkWarps(b.WarpsPerCTA, m)), ferr("CGALayout", b.CGA.verifyModule(m)))
}

// linearDims are the in-dims of #ttg.linear, and sharedLinearDims those of
// the shared linear forms (#ttg.shared_linear, padded_shared's linear
// component), in order.
var (
	linearDims       = []string{"register", "lane", "warp", "block"}
	sharedLinearDims = []string{"offset", "block"}
)

// bases returns the bases of l's in-dims, in linearDims order.
func (l *LinearEncoding) bases() [][][]int { return [][][]int{l.Register, l.Lane, l.Warp, l.Block} }

func (l *LinearEncoding) lay() (linear.Layout, error) {
	ins := []linear.InDim{{Name: "register", Bases: l.Register}, {Name: "lane", Bases: l.Lane}, {Name: "warp", Bases: l.Warp}, {Name: "block", Bases: l.Block}}
	return fromBases(ins, standardDims(l.Rank()))
}

func checkLinearBases(names []string, oneDim bool, bases [][][]int) error {
	rank := -1
	for i, bs := range bases {
		for _, b := range bs {
			if rank < 0 {
				rank = len(b)
			}
			if len(b) != rank {
				return ferrf(names[i], "every basis must have %d entries (the rank)", rank)
			}
			nz := 0
			for _, v := range b {
				if v < 0 {
					return ferrf(names[i], "basis entries must be non-negative")
				}
				if v != 0 {
					nz++
				}
			}
			if oneDim && nz > 1 {
				return ferrf(names[i], "In a distributed layout, each base must move in at most one dimension.")
			}
		}
	}
	if rank <= 0 {
		return ferrf(names[0], "Empty Layout not supported")
	}
	return nil
}

func (l *LinearEncoding) check() error {
	if err := checkLinearBases(linearDims, true, l.bases()); err != nil {
		return err
	}
	if ll, err := l.lay(); err != nil || !ll.IsSurjective() {
		return ferrf("register", "the layout must be surjective: every tensor element must be held somewhere")
	}
	return nil
}

// Verify implements Encoding.
func (l *LinearEncoding) Verify(m ModuleInfo) error {
	if err := l.check(); err != nil {
		return err
	}
	if n := 1 << len(l.Lane); m.ThreadsPerWarp > 0 && n != m.ThreadsPerWarp {
		return ferrf("lane", "Layout has %d threads per warp, but the context requires %d threads per warp", n, m.ThreadsPerWarp)
	}
	if n := 1 << len(l.Warp); m.NumWarps > 0 && n != m.NumWarps {
		return ferrf("warp", "Layout has %d warps per CTA, but the context requires %d warps per CTA", n, m.NumWarps)
	}
	if n := 1 << len(l.Block); m.NumCTAs > 0 && n != m.NumCTAs {
		return ferrf("block", "Layout has %d CTAs per CGA, but the context requires %d CTAs per CGA", n, m.NumCTAs)
	}
	return nil
}

func (s *Slice) check() error {
	if s.Parent == nil {
		return ferrf("parent", "ttg.slice requires a parent")
	}
	r := s.Parent.Rank()
	if r <= 1 {
		return ferrf("parent", "parent layout must have at least rank >= 2")
	}
	if s.Dim < 0 || s.Dim >= r {
		return ferrf("dim", "slice dim=%d must be less than the parent rank=%d", s.Dim, r)
	}
	return nil
}

// Verify implements Encoding.
func (s *Slice) Verify(m ModuleInfo) error {
	return firstErr(s.check(), s.Parent.Verify(m))
}

// verifyAttr is what Triton checks of an nvidia_mma attribute: less than
// check, which ToLinear needs (Triton accepts versionMajor 1 layouts and a
// Hopper instrShape without K; only computing their layouts fails).
func (m *NvidiaMma) verifyAttr() error {
	if m.VersionMajor == 1 || m.VersionMajor == 3 && len(m.InstrShape) != 3 {
		return firstErr(
			ferr("warpsPerCTA", checkPow2s("warpsPerCTA", m.WarpsPerCTA)),
			ferr("CGALayout", m.CGA.verify(len(m.WarpsPerCTA))),
		)
	}
	return m.check()
}

func (m *NvidiaMma) check() error {
	r := len(m.WarpsPerCTA)
	switch m.VersionMajor {
	case 2:
		if r != 2 && r != 3 {
			return ferrf("warpsPerCTA", "mma v2 layouts have rank 2 or 3, got %d", r)
		}
		if err := checkLen("instrShape", m.InstrShape, r); err != nil {
			return ferr("instrShape", err)
		}
		if m.InstrShape[r-2]%8 != 0 || m.InstrShape[r-1]%8 != 0 {
			return ferrf("instrShape", "mma v2 instrShape %s must be a multiple of 8 in M and N", fmtInts(m.InstrShape))
		}
	case 3:
		if r != 2 {
			return ferrf("warpsPerCTA", "mma v3 layouts have rank 2, got %d", r)
		}
		if len(m.InstrShape) != 3 {
			return ferrf("instrShape", "mma v3 instrShape must be [M, N, K], got %s", fmtInts(m.InstrShape))
		}
		if m.InstrShape[0]%8 != 0 || m.InstrShape[1]%8 != 0 {
			return ferrf("instrShape", "mma v3 instrShape %s must be a multiple of 8 in M and N", fmtInts(m.InstrShape))
		}
	default:
		return ferrf("versionMajor", "unsupported nvidia_mma versionMajor %d (2 or 3 expected)", m.VersionMajor)
	}
	return firstErr(
		ferr("warpsPerCTA", checkPow2s("warpsPerCTA", m.WarpsPerCTA)),
		ferr("instrShape", checkPow2s("instrShape", m.InstrShape)),
		ferr("CGALayout", m.CGA.verify(r)),
	)
}

// Verify implements Encoding.
func (m *NvidiaMma) Verify(mi ModuleInfo) error {
	if err := m.verifyAttr(); err != nil {
		return err
	}
	if mi.ThreadsPerWarp > 0 && mi.ThreadsPerWarp != 32 {
		return ferrf("versionMajor", "nvidia_mma layouts need 32 threads per warp, the context has %d", mi.ThreadsPerWarp)
	}
	return firstErr(ferr("warpsPerCTA", checkWarps(m.WarpsPerCTA, mi)), ferr("CGALayout", m.CGA.verifyModule(mi)))
}

func (d *DotOperand) check() error {
	if d.OpIdx != 0 && d.OpIdx != 1 {
		return ferrf("opIdx", "ttg.dot_op opIdx parameter can be 0 or 1, got: %d", d.OpIdx)
	}
	if d.KWidth < 0 || (d.KWidth != 0 && !isPow2(d.KWidth)) {
		return ferrf("kWidth", "ttg.dot_op kWidth %d is not a power of two", d.KWidth)
	}
	switch p := d.Parent.(type) {
	case *NvidiaMma:
		if d.KWidth != 0 && p.VersionMajor != 2 && p.VersionMajor != 3 {
			return ferrf("kWidth", "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent")
		}
		if d.KWidth == 0 && (p.VersionMajor == 2 || p.VersionMajor == 3) {
			return ferrf("kWidth", "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent")
		}
		if d.OpIdx != 0 && p.VersionMajor == 3 {
			return ferrf("opIdx", "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers")
		}
	case *Blocked:
		if d.KWidth != 0 {
			return ferrf("kWidth", "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout")
		}
	case *AMDMfma:
		if d.KWidth == 0 {
			return ferrf("kWidth", "ttg.dot_op kWidth parameter is mandatory for MFMA parent")
		}
	case *AMDWmma:
		ok := map[int][]int{1: {8, 16}, 2: {4, 8, 16}}[p.Version]
		if ok != nil && !slices.Contains(ok, d.KWidth) {
			return ferrf("kWidth", "ttg.dot_op kWidth parameter must be %s for WMMA v%d (including packed cases for `scaled_dot`)", strings.Trim(strings.ReplaceAll(fmtInts(ok), ", ", "/"), "[]"), p.Version)
		}
		if ok == nil && d.KWidth == 0 {
			return ferrf("kWidth", "ttg.dot_op kWidth parameter is mandatory for WMMA parent")
		}
	case nil:
		return ferrf("parent", "ttg.dot_op parent parameter cannot be null")
	default:
		return ferrf("parent", "ttg.dot_op parent must be a blocked, nvidia_mma, amd_mfma or amd_wmma layout, got %s", p.Name())
	}
	if d.Parent.Rank() < 2 {
		return ferrf("parent", "ttg.dot_op parent must have rank 2 or 3")
	}
	return nil
}

// Verify implements Encoding.
func (d *DotOperand) Verify(m ModuleInfo) error {
	return firstErr(d.check(), d.Parent.Verify(m))
}

var mfmaDims = [][2]int{{32, 32}, {16, 16}, {64, 4}, {4, 64}}

func (m *AMDMfma) check() error {
	r := len(m.WarpsPerCTA)
	if r != 2 && r != 3 {
		return ferrf("warpsPerCTA", "amd_mfma layouts have rank 2 or 3, got %d", r)
	}
	if m.Version < 0 || m.Version > 4 {
		return ferrf("version", "version must be in the [0, 4] range")
	}
	if len(m.InstrShape) < 2 {
		return ferrf("instrShape", "instrShape must be [M, N, K]")
	}
	if !slices.Contains(mfmaDims, [2]int{m.InstrShape[0], m.InstrShape[1]}) {
		return ferrf("instrShape", "invalid (mDim, nDim) combination: (%d, %d)", m.InstrShape[0], m.InstrShape[1])
	}
	if m.ElementBitWidth != 32 && m.ElementBitWidth != 64 {
		return ferrf("elementBitWidth", "elementBitWidth must be 32 or 64")
	}
	return checkAMDWarps(m.TilesPerWarp, m.WarpsPerCTA, m.CGA)
}

// checkAMDWarps checks the tilesPerWarp, warpsPerCTA and CGA layout of an
// amd_mfma or amd_wmma layout.
func checkAMDWarps(tiles, warps []int, cga CGALayout) error {
	r := len(warps)
	if tiles != nil {
		if err := firstErr(checkLen("tilesPerWarp", tiles, r), checkPow2s("tilesPerWarp", tiles)); err != nil {
			return ferr("tilesPerWarp", err)
		}
	}
	return firstErr(ferr("warpsPerCTA", checkPow2s("warpsPerCTA", warps)), ferr("CGALayout", cga.verify(r)))
}

// verifyAMD checks an amd_mfma or amd_wmma layout, named name, whose warps
// have threads threads, against the module.
func verifyAMD(name string, threads int, warps []int, cga CGALayout, mi ModuleInfo) error {
	if mi.ThreadsPerWarp > 0 && mi.ThreadsPerWarp != threads {
		return ferrf("version", "%s layouts need %d threads per warp, the context has %d", name, threads, mi.ThreadsPerWarp)
	}
	return firstErr(ferr("warpsPerCTA", checkWarps(warps, mi)), ferr("CGALayout", cga.verifyModule(mi)))
}

// Verify implements Encoding.
func (m *AMDMfma) Verify(mi ModuleInfo) error {
	if err := m.check(); err != nil {
		return err
	}
	return verifyAMD("amd_mfma", 64, m.WarpsPerCTA, m.CGA, mi)
}

var wmmaShapes = map[int][][]int{
	1: {{16, 16, 16}},
	2: {{16, 16, 16}, {16, 16, 32}},
	3: {{16, 16, 4}, {16, 16, 32}, {16, 16, 64}, {16, 16, 128}},
}

func (w *AMDWmma) check() error {
	r := len(w.WarpsPerCTA)
	if r != 2 && r != 3 {
		return ferrf("warpsPerCTA", "amd_wmma layouts have rank 2 or 3, got %d", r)
	}
	shapes, ok := wmmaShapes[w.Version]
	if !ok {
		return ferrf("version", "WMMA version must be in the [1, 3] range")
	}
	if !slices.ContainsFunc(shapes, func(s []int) bool { return slices.Equal(s, w.InstrShape) }) {
		return ferrf("instrShape", "invalid WMMA v%d instruction shape", w.Version)
	}
	return checkAMDWarps(w.TilesPerWarp, w.WarpsPerCTA, w.CGA)
}

// Verify implements Encoding.
func (w *AMDWmma) Verify(mi ModuleInfo) error {
	if err := w.check(); err != nil {
		return err
	}
	return verifyAMD("amd_wmma", 32, w.WarpsPerCTA, w.CGA, mi)
}
